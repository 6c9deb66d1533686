import BrollyCore
import BrollyStore
import Foundation

/// A change to a subscription's settings as a client sends it (`POST` and `PATCH
/// /api/v1/push/subscriptions`): what it leaves out stays as it was (or takes its default);
/// `quietHours: null` removes the quiet hours, `places: null` covers every saved place.
public struct PushSettingsChange: Decodable, Sendable {
    public struct Rain: Decodable, Sendable {
        public var enabled: Bool?
        public var leadMinutes: Int?
        public var minimum: String?
        /// nil: unchanged; `.some(nil)`: none.
        public var quietHours: QuietHours??

        enum CodingKeys: String, CodingKey { case enabled, leadMinutes, minimum, quietHours }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled)
            leadMinutes = try c.decodeIfPresent(Int.self, forKey: .leadMinutes)
            minimum = try c.decodeIfPresent(String.self, forKey: .minimum)
            if c.contains(.quietHours) { quietHours = .some(try c.decodeIfPresent(QuietHours.self, forKey: .quietHours)) }
        }
    }

    public struct QuietHours: Decodable, Sendable {
        public var from: String
        public var to: String
    }

    public struct Morning: Decodable, Sendable {
        public var enabled: Bool?
        public var at: String?
    }

    public var rain: Rain?
    public var morning: Morning?
    /// nil: unchanged; `.some(nil)`: every saved place.
    public var places: [Int64]??
    public var language: String?
    public var units: String?
    public var minimumSeverity: String?

    enum CodingKeys: String, CodingKey { case rain, morning, places, language, units, minimumSeverity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rain = try c.decodeIfPresent(Rain.self, forKey: .rain)
        morning = try c.decodeIfPresent(Morning.self, forKey: .morning)
        if c.contains(.places) { places = .some(try c.decodeIfPresent([Int64].self, forKey: .places)) }
        language = try c.decodeIfPresent(String.self, forKey: .language)
        units = try c.decodeIfPresent(String.self, forKey: .units)
        minimumSeverity = try c.decodeIfPresent(String.self, forKey: .minimumSeverity)
    }

    public init() {}

    /// The severity asked for, checked; nil when the change leaves it alone.
    public func severity() throws -> AlertSeverity? {
        guard let raw = minimumSeverity else { return nil }
        guard let s = AlertSeverity(rawValue: raw.lowercased()), s != .unknown else {
            throw BrollyError.invalidInput("'minimumSeverity' must be one of extreme, severe, moderate, minor")
        }
        return s
    }

    /// `base` with this change applied, every value checked.
    public func applied(to base: PushSettings) throws -> PushSettings {
        var s = base
        if let rain {
            if let enabled = rain.enabled { s.rain.enabled = enabled }
            if let lead = rain.leadMinutes {
                guard (10...60).contains(lead) else { throw BrollyError.invalidInput("'rain.leadMinutes' must be 10 to 60, got \(lead)") }
                s.rain.leadMinutes = lead
            }
            if let raw = rain.minimum {
                guard let minimum = PushSettings.RainMinimum(rawValue: raw) else {
                    throw BrollyError.invalidInput("'rain.minimum' must be light or moderate, got \(raw)")
                }
                s.rain.minimum = minimum
            }
            if let quiet = rain.quietHours {
                s.rain.quietHours = try quiet.map { q in
                    PushSettings.QuietHours(
                        from: try Self.clock(q.from, "rain.quietHours.from"), to: try Self.clock(q.to, "rain.quietHours.to"))
                }
            }
        }
        if let morning {
            if let enabled = morning.enabled { s.morning.enabled = enabled }
            if let at = morning.at { s.morning.at = try Self.clock(at, "morning.at") }
        }
        if let places {
            guard (places?.count ?? 0) <= 100 else { throw BrollyError.invalidInput("'places' lists at most 100 saved places") }
            s.places = places
        }
        if let language {
            guard Localization.codes.contains(language) else {
                throw BrollyError.invalidInput("'language' must be one of \(Localization.codes.joined(separator: ", ")), got \(language)")
            }
            s.language = language
        }
        if let units {
            guard let system = UnitSystem(userInput: units) else {
                throw BrollyError.invalidInput("'units' must be metric, imperial or standard (C, F, K), got \(units)")
            }
            s.units = system
        }
        return s
    }

    static func clock(_ text: String, _ field: String) throws -> ClockTime {
        guard let t = ClockTime(text) else { throw BrollyError.invalidInput("'\(field)' must be a time like 07:00, got \(text)") }
        return t
    }
}
