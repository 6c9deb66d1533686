import Foundation

/// What a push subscription asks for beside official warnings: rain alerts before the rain starts,
/// a morning summary, which saved places they cover, and the reader's language and units for their
/// texts. Stored with the subscription as JSON; every field has a default, so a subscription made
/// before these existed (or a body that leaves them out) gets rain alerts on and the summary off.
public struct PushSettings: Codable, Sendable, Hashable {
    public var rain = Rain()
    public var morning = Morning()
    /// The saved places (ids) the rain alerts and the summary cover; nil: all of the device's.
    public var places: [Int64]?
    /// The texts' language (`en`, `ru`).
    public var language = "en"
    public var units = UnitSystem.metric

    public init() {}

    /// The texts' units: the preset's, with wind in km/h for metric and kelvin (as people read a
    /// summary) and mph for imperial.
    public var unitChoice: UnitChoice { Self.unitChoice(units) }

    public static func unitChoice(_ preset: UnitSystem) -> UnitChoice {
        var choice = UnitChoice(preset)
        if preset != .imperial { choice.wind = .kmh }
        return choice
    }

    public struct Rain: Codable, Sendable, Hashable {
        public var enabled = true
        /// How long before the rain starts the push comes: 10–60 minutes.
        public var leadMinutes = 20
        public var minimum = RainMinimum.light
        /// In the place's local time; nil: none.
        @WrittenAsNull public var quietHours: QuietHours? = QuietHours(
            from: ClockTime(hour: 22, minute: 0), to: ClockTime(hour: 7, minute: 0))

        public init() {}

        enum CodingKeys: String, CodingKey { case enabled, leadMinutes, minimum, quietHours }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? enabled
            leadMinutes = try c.decodeIfPresent(Int.self, forKey: .leadMinutes) ?? leadMinutes
            minimum = try c.decodeIfPresent(RainMinimum.self, forKey: .minimum) ?? minimum
            // Left out: the default quiet hours; `null`: none.
            if c.contains(.quietHours) { quietHours = try c.decodeIfPresent(QuietHours.self, forKey: .quietHours) }
        }
    }

    /// The least rain that counts, in a quarter hour.
    public enum RainMinimum: String, Codable, Sendable, Hashable, CaseIterable {
        /// 0.1 mm in 15 minutes.
        case light
        /// 0.5 mm in 15 minutes.
        case moderate

        public var millimetres: Double { self == .light ? 0.1 : 0.5 }
    }

    public struct QuietHours: Codable, Sendable, Hashable {
        public var from: ClockTime
        public var to: ClockTime

        public init(from: ClockTime, to: ClockTime) {
            self.from = from
            self.to = to
        }

        /// Whether a local time of day falls within them (`22:00`–`07:00` spans midnight).
        public func contains(_ t: ClockTime) -> Bool {
            if from == to { return false }
            return from < to ? (from <= t && t < to) : (t >= from || t < to)
        }
    }

    public struct Morning: Codable, Sendable, Hashable {
        public var enabled = false
        /// The place's local time.
        public var at = ClockTime(hour: 7, minute: 0)

        public init() {}

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? enabled
            at = try c.decodeIfPresent(ClockTime.self, forKey: .at) ?? at
        }
    }

    enum CodingKeys: String, CodingKey { case rain, morning, places, language, units }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rain = try c.decodeIfPresent(Rain.self, forKey: .rain) ?? rain
        morning = try c.decodeIfPresent(Morning.self, forKey: .morning) ?? morning
        places = try c.decodeIfPresent([Int64].self, forKey: .places)
        language = try c.decodeIfPresent(String.self, forKey: .language) ?? language
        units = try c.decodeIfPresent(UnitSystem.self, forKey: .units) ?? units
    }

    /// The settings as stored (JSON).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Settings read back from storage; the defaults when the text is empty or unreadable.
    public static func stored(_ text: String?) -> PushSettings {
        guard let text, let settings = try? JSONDecoder().decode(PushSettings.self, from: Data(text.utf8)) else { return PushSettings() }
        return settings
    }

    /// Whether a saved place is covered.
    public func covers(_ placeID: Int64?) -> Bool {
        guard let places else { return true }
        return placeID.map(places.contains) ?? false
    }
}

/// A local time of day, written `HH:MM`.
public struct ClockTime: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// `07:00`, `7:05`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        hour = h
        minute = m
    }

    /// The time of day of `date` in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute], from: date)
        self.init(hour: c.hour ?? 0, minute: c.minute ?? 0)
    }

    public var description: String { String(format: "%02d:%02d", hour, minute) }
    public static func < (a: ClockTime, b: ClockTime) -> Bool { (a.hour, a.minute) < (b.hour, b.minute) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let t = ClockTime(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a time is HH:MM, got \(text)"))
        }
        self = t
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
