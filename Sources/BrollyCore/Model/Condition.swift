import Foundation

/// The family a weather condition belongs to; drives the icon and symbol.
public enum ConditionKind: String, Codable, Sendable, CaseIterable {
    case clear, mostlyClear, partlyCloudy, overcast, fog, drizzle, rain, freezingRain, sleet, snow,
        showers, snowShowers, thunderstorm, unknown
}

/// A weather condition as shown to people.
///
/// Stored as one shared, immutable box per distinct condition (interned): a week of hours per
/// place repeats a handful of conditions, so each hour holds a reference (8 bytes) instead of
/// three strings and a code (57). Reads and writes look like plain stored properties.
public struct Condition: Codable, Sendable, Hashable {
    final class Storage: Sendable, Hashable {
        let code: Int
        let title: String
        let description: String
        let icon: String
        let kind: ConditionKind

        init(code: Int, title: String, description: String, icon: String, kind: ConditionKind) {
            self.code = code
            self.title = title
            self.description = description
            self.icon = icon
            self.kind = kind
        }

        static func == (a: Storage, b: Storage) -> Bool {
            a === b
                || (a.code == b.code && a.kind == b.kind && a.title == b.title && a.description == b.description && a.icon == b.icon)
        }

        func hash(into h: inout Hasher) {
            h.combine(code)
            h.combine(title)
            h.combine(description)
            h.combine(icon)
            h.combine(kind)
        }
    }

    /// The interned boxes: few (the WMO codes and OpenWeatherMap ids, by day and night, in the
    /// languages asked), so bounded generously; past the bound a new box is simply not shared.
    private static let interned = Locked<Set<Storage>>([])

    private var storage: Storage

    /// The provider's numeric code (WMO code for Open-Meteo, condition id for OpenWeatherMap).
    public var code: Int {
        get { storage.code }
        set { self = Condition(code: newValue, title: title, description: description, icon: icon, kind: kind) }
    }
    /// Short group title, e.g. "Rain".
    public var title: String {
        get { storage.title }
        set { self = Condition(code: code, title: newValue, description: description, icon: icon, kind: kind) }
    }
    /// Longer description, e.g. "light rain" (may be localized by the provider).
    public var description: String {
        get { storage.description }
        set { self = Condition(code: code, title: title, description: newValue, icon: icon, kind: kind) }
    }
    /// Icon name, e.g. "rain", "clear-day", "partly-cloudy-night".
    public var icon: String {
        get { storage.icon }
        set { self = Condition(code: code, title: title, description: description, icon: newValue, kind: kind) }
    }
    /// The condition family.
    public var kind: ConditionKind {
        get { storage.kind }
        set { self = Condition(code: code, title: title, description: description, icon: icon, kind: newValue) }
    }

    public init(code: Int, title: String, description: String, icon: String, kind: ConditionKind) {
        let box = Storage(code: code, title: title, description: description, icon: icon, kind: kind)
        storage = Self.interned.withLock { set in
            if let shared = set.firstIndex(of: box).map({ set[$0] }) { return shared }
            if set.count < 4096 { set.insert(box) }
            return box
        }
    }

    public static func == (a: Condition, b: Condition) -> Bool { a.storage == b.storage }
    public func hash(into h: inout Hasher) { storage.hash(into: &h) }

    enum CodingKeys: String, CodingKey { case code, title, description, icon, kind }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            code: try c.decode(Int.self, forKey: .code), title: try c.decode(String.self, forKey: .title),
            description: try c.decode(String.self, forKey: .description), icon: try c.decode(String.self, forKey: .icon),
            kind: (try? c.decode(ConditionKind.self, forKey: .kind)) ?? .unknown)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(icon, forKey: .icon)
        try c.encode(kind, forKey: .kind)
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
