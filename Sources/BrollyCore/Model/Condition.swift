import Foundation

/// The family a weather condition belongs to; drives the icon and symbol.
public enum ConditionKind: String, Codable, Sendable, CaseIterable {
    case clear, mostlyClear, partlyCloudy, overcast, fog, drizzle, rain, freezingRain, sleet, snow,
        showers, snowShowers, thunderstorm, unknown

    /// A family this version does not know is read as unknown.
    public init(from decoder: any Decoder) throws { self = ConditionKind(rawValue: try String(from: decoder)) ?? .unknown }
}

/// A weather condition as shown to people.
///
/// Stored as one shared, immutable box per distinct condition (interned): a week of hours per
/// place repeats a handful of conditions, so each hour holds a reference (8 bytes) instead of
/// three strings and a code (57). Reads and writes look like plain stored properties.
public struct Condition: Codable, Sendable, Hashable {
    /// What a condition is, as it is written (`kind` absent in conditions stored before it
    /// existed: unknown).
    struct Fields: Codable, Sendable, Hashable {
        var code: Int
        var title: String
        var description: String
        var icon: String
        var kind: ConditionKind?
    }

    /// One shared box per distinct condition.
    final class Storage: Sendable, Hashable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
        static func == (a: Storage, b: Storage) -> Bool { a === b || a.fields == b.fields }
        func hash(into h: inout Hasher) { fields.hash(into: &h) }
    }

    /// The interned boxes: few (the WMO codes and OpenWeatherMap ids, by day and night, in the
    /// languages asked), so bounded generously; past the bound a new box is simply not shared.
    private static let interned = Locked<Set<Storage>>([])

    private var storage: Storage

    /// The provider's numeric code (WMO code for Open-Meteo, condition id for OpenWeatherMap).
    public var code: Int { storage.fields.code }
    /// Short group title, e.g. "Rain".
    public var title: String { storage.fields.title }
    /// Longer description, e.g. "light rain" (may be localized by the provider). The one field
    /// ever changed (OpenWeatherMap's several conditions joined): the result is interned anew.
    public var description: String {
        get { storage.fields.description }
        set {
            var fields = storage.fields
            fields.description = newValue
            self = Condition(fields)
        }
    }
    /// Icon name, e.g. "rain", "clear-day", "partly-cloudy-night".
    public var icon: String { storage.fields.icon }
    /// The condition family.
    public var kind: ConditionKind { storage.fields.kind ?? .unknown }

    public init(code: Int, title: String, description: String, icon: String, kind: ConditionKind) {
        self.init(Fields(code: code, title: title, description: description, icon: icon, kind: kind))
    }

    private init(_ fields: Fields) {
        let box = Storage(fields)
        storage = Self.interned.withLock { set in
            if let shared = set.firstIndex(of: box).map({ set[$0] }) { return shared }
            if set.count < 4096 { set.insert(box) }
            return box
        }
    }

    public static func == (a: Condition, b: Condition) -> Bool { a.storage == b.storage }
    public func hash(into h: inout Hasher) { storage.hash(into: &h) }

    /// Written and read as its fields; an unknown `kind` is read as unknown.
    public init(from decoder: any Decoder) throws { self.init(try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws {
        var fields = storage.fields
        fields.kind = kind
        try fields.encode(to: encoder)
    }

    /// Severity used to pick a day's representative condition.
    public var severity: Int {
        switch kind {
        case .thunderstorm: 10
        case .snow, .snowShowers: 9
        case .freezingRain, .sleet: 8
        case .rain: 7
        case .showers: 6
        case .drizzle: 5
        case .fog: 4
        case .overcast: 3
        case .partlyCloudy: 2
        case .mostlyClear: 1
        case .clear, .unknown: 0
        }
    }

    /// The icon name for a kind, day or night.
    public static func iconName(for kind: ConditionKind, isDay: Bool) -> String {
        switch kind {
        case .clear: isDay ? "clear-day" : "clear-night"
        case .mostlyClear, .partlyCloudy: isDay ? "partly-cloudy-day" : "partly-cloudy-night"
        case .overcast: "cloudy"
        case .fog: "fog"
        case .drizzle: "drizzle"
        case .rain, .showers: "rain"
        case .freezingRain, .sleet: "sleet"
        case .snow, .snowShowers: "snow"
        case .thunderstorm: "thunderstorm"
        case .unknown: "cloudy"
        }
    }
}
