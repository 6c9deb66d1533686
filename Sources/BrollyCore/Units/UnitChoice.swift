import Foundation

/// The units a reader chose, each on its own and typed as its quantity's unit: temperature,
/// wind, pressure, precipitation (and snow with it) and distance. `init(_:)` gives a preset's (`units=` in the API
/// keeps its meaning), `forRegion` the defaults of a country as CLDR has them.
public struct UnitChoice: Codable, Sendable, Hashable {
    public var temperature: TemperatureUnit
    public var wind: WindUnit
    public var pressure: PressureUnit
    public var precipitation: PrecipitationUnit
    public var distance: DistanceUnit

    public init(
        temperature: TemperatureUnit, wind: WindUnit, pressure: PressureUnit, precipitation: PrecipitationUnit, distance: DistanceUnit
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
        case .imperial: self.init(temperature: .fahrenheit, wind: .mph, pressure: .hpa, precipitation: .inch, distance: .mi)
        case .metric, .standard: self.init(temperature: preset.temperature, wind: .ms, pressure: .hpa, precipitation: .mm, distance: .km)
        }
    }

    /// The units a country's readers expect (CLDR's measurement data and common practice): the
    /// United States °F mph inHg in mi; the United Kingdom °C mph mbar mm mi; Russia m/s and
    /// mmHg; the Nordic countries m/s; Canada km/h and kPa; elsewhere °C km/h hPa mm km.
    /// Without a region (a `C` or `POSIX` locale): the metric preset.
    public static func forRegion(_ region: String?) -> UnitChoice {
        guard region != nil else { return UnitChoice(.metric) }
        let base = UnitChoice(temperature: .celsius, wind: .kmh, pressure: .hpa, precipitation: .mm, distance: .km)
        switch region?.uppercased() {
        case "US", "PR", "GU", "VI", "AS", "MP", "UM", "LR", "MM":
            return UnitChoice(temperature: .fahrenheit, wind: .mph, pressure: .inhg, precipitation: .inch, distance: .mi)
        case "GB", "IM", "JE", "GG":
            return UnitChoice(temperature: .celsius, wind: .mph, pressure: .mbar, precipitation: .mm, distance: .mi)
        case "RU", "BY":
            return UnitChoice(temperature: .celsius, wind: .ms, pressure: .mmhg, precipitation: .mm, distance: .km)
        case "NO", "SE", "FI", "DK", "IS", "UA", "KZ":
            return UnitChoice(temperature: .celsius, wind: .ms, pressure: .hpa, precipitation: .mm, distance: .km)
        case "CA":
            return UnitChoice(temperature: .celsius, wind: .kmh, pressure: .kpa, precipitation: .mm, distance: .km)
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
