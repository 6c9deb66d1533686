import Foundation

/// Wind speed units, by the tokens used everywhere (API, CLI, page).
public enum WindUnit: String, Codable, Sendable, CaseIterable {
    case ms, kmh, mph, kn, bft

    /// As people write it.
    public var symbol: String {
        switch self {
        case .ms: "m/s"
        case .kmh: "km/h"
        case .mph: "mph"
        case .kn: "kn"
        case .bft: "Bft"
        }
    }

    /// Converts m/s (Beaufort: the force, a whole number).
    public func convert(_ ms: Double) -> Double {
        switch self {
        case .ms: ms
        case .kmh: ms * 3.6
        case .mph: ms / 0.447_04
        case .kn: ms * 3600 / 1852
        case .bft: Double(Self.beaufort(ms))
        }
    }

    /// The WMO Beaufort scale's lower limits (m/s, 10 m, rounded to 0.1) of forces 1 to 12.
    public static let beaufortLimits: [Double] = [0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]

    /// The Beaufort force (0–12) of a speed in m/s.
    public static func beaufort(_ ms: Double) -> Int {
        let speed = (ms * 10).rounded() / 10
        return beaufortLimits.filter { speed >= $0 }.count
    }

    /// Decimals shown.
    public var decimals: Int { self == .bft ? 0 : 1 }
}

/// Pressure units.
public enum PressureUnit: String, Codable, Sendable, CaseIterable {
    case hpa, mbar, mmhg, inhg, kpa

    public var symbol: String {
        switch self {
        case .hpa: "hPa"
        case .mbar: "mbar"
        case .mmhg: "mmHg"
        case .inhg: "inHg"
        case .kpa: "kPa"
        }
    }

    /// Converts hPa (1 mmHg = 1.333224 hPa, 1 inHg = 33.86389 hPa).
    public func convert(_ hpa: Double) -> Double {
        switch self {
        case .hpa, .mbar: hpa
        case .mmhg: hpa / 1.333_224
        case .inhg: hpa / 33.863_89
        case .kpa: hpa / 10
        }
    }

    public var decimals: Int {
        switch self {
        case .hpa, .mbar, .mmhg: 0
        case .kpa: 1
        case .inhg: 2
        }
    }
}

/// Precipitation units.
public enum PrecipitationUnit: String, Codable, Sendable, CaseIterable {
    case mm
    case inch = "in"

    public var symbol: String { rawValue }
    public func convert(_ mm: Double) -> Double { self == .inch ? mm / 25.4 : mm }
}

/// Distance (visibility) units.
public enum DistanceUnit: String, Codable, Sendable, CaseIterable {
    case km, mi

    public var symbol: String { rawValue }
    /// Converts metres.
    public func convert(_ m: Double) -> Double { self == .mi ? m / 1609.344 : m / 1000 }
}

/// The units a reader chose, each on its own: temperature (by the `UnitSystem` preset's symbol),
/// wind, pressure, precipitation and distance. `init(_:)` gives a preset's (`units=` in the API
/// keeps its meaning), `forRegion` the defaults of a country as CLDR has them.
public struct UnitChoice: Codable, Sendable, Hashable {
    public var temperature: UnitSystem
    public var wind: WindUnit
    public var pressure: PressureUnit
    public var precipitation: PrecipitationUnit
    public var distance: DistanceUnit

    public init(
        temperature: UnitSystem, wind: WindUnit, pressure: PressureUnit, precipitation: PrecipitationUnit, distance: DistanceUnit
    ) {
        self.temperature = temperature
        self.wind = wind
        self.pressure = pressure
        self.precipitation = precipitation
        self.distance = distance
    }

    /// A preset: `metric` °C m/s hPa mm km, `imperial` °F mph hPa in mi, `standard` K m/s hPa mm km.
    public init(_ preset: UnitSystem) {
        switch preset {
        case .imperial: self.init(temperature: .imperial, wind: .mph, pressure: .hpa, precipitation: .inch, distance: .mi)
        case .metric, .standard: self.init(temperature: preset, wind: .ms, pressure: .hpa, precipitation: .mm, distance: .km)
        }
    }

    /// The units a country's readers expect (CLDR's measurement data and common practice): the
    /// United States °F mph inHg in mi; the United Kingdom °C mph mbar mm mi; Russia m/s and
    /// mmHg; the Nordic countries m/s; Canada km/h and kPa; elsewhere °C km/h hPa mm km.
    /// Without a region (a `C` or `POSIX` locale): the metric preset.
    public static func forRegion(_ region: String?) -> UnitChoice {
        guard region != nil else { return UnitChoice(.metric) }
        let base = UnitChoice(temperature: .metric, wind: .kmh, pressure: .hpa, precipitation: .mm, distance: .km)
        switch region?.uppercased() {
        case "US", "PR", "GU", "VI", "AS", "MP", "UM", "LR", "MM":
            return UnitChoice(temperature: .imperial, wind: .mph, pressure: .inhg, precipitation: .inch, distance: .mi)
        case "GB", "IM", "JE", "GG":
            return UnitChoice(temperature: .metric, wind: .mph, pressure: .mbar, precipitation: .mm, distance: .mi)
        case "RU", "BY":
            return UnitChoice(temperature: .metric, wind: .ms, pressure: .mmhg, precipitation: .mm, distance: .km)
        case "NO", "SE", "FI", "DK", "IS", "UA", "KZ":
            return UnitChoice(temperature: .metric, wind: .ms, pressure: .hpa, precipitation: .mm, distance: .km)
        case "CA":
            return UnitChoice(temperature: .metric, wind: .kmh, pressure: .kpa, precipitation: .mm, distance: .km)
        default:
            return base
        }
    }

    /// The region of a locale tag (`en_US.UTF-8`, `ru-RU`, `de_AT@euro`), nil without one.
    public static func region(ofLocale tag: String?) -> String? {
        guard let tag else { return nil }
        let plain = tag.split(separator: ".").first.map(String.init) ?? tag
        let parts = plain.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "@" })
        return parts.dropFirst().first { $0.count == 2 && $0.allSatisfy(\.isLetter) }.map { $0.uppercased() }
    }

    /// A key for caches: every choice.
    public var key: String {
        "\(temperature.rawValue)/\(wind.rawValue)/\(pressure.rawValue)/\(precipitation.rawValue)/\(distance.rawValue)"
    }

}
