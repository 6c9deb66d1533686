import Foundation

/// The unit system used for presentation. Data is always fetched and stored in metric.
public enum UnitSystem: String, Codable, Sendable, CaseIterable {
    /// °C, m/s, hPa, mm.
    case metric
    /// °F, mph, hPa, in.
    case imperial
    /// K, m/s, hPa, mm.
    case standard

    /// Parses user input (`metric`, `imperial`, `standard`, or `C`, `F`, `K`).
    public init?(userInput: String) {
        switch userInput.lowercased() {
        case "metric", "c", "celsius", "°c": self = .metric
        case "imperial", "f", "fahrenheit", "°f": self = .imperial
        case "standard", "k", "kelvin": self = .standard
        default: return nil
        }
    }

    public var temperatureSymbol: String {
        switch self {
        case .metric: "°C"
        case .imperial: "°F"
        case .standard: "K"
        }
    }

    public var windSpeedSymbol: String { self == .imperial ? "mph" : "m/s" }
    public var precipitationSymbol: String { self == .imperial ? "in" : "mm" }
    public var pressureSymbol: String { "hPa" }

    /// Converts a temperature in °C.
    public func temperature(_ celsius: Double) -> Double {
        switch self {
        case .metric: celsius
        case .imperial: celsius * 9 / 5 + 32
        case .standard: celsius + 273.15
        }
    }

    /// Converts a wind speed in m/s.
    public func windSpeed(_ metresPerSecond: Double) -> Double {
        self == .imperial ? metresPerSecond * 2.236_936_292_054_402 : metresPerSecond
    }

    /// Converts a precipitation amount in mm.
    public func precipitation(_ millimetres: Double) -> Double {
        self == .imperial ? millimetres / 25.4 : millimetres
    }
}

/// Unit conversions to metric, for decoding providers that answer in other units.
public enum Metric {
    public static func celsius(fromFahrenheit f: Double) -> Double { (f - 32) * 5 / 9 }
    public static func celsius(fromKelvin k: Double) -> Double { k - 273.15 }

    /// Converts a speed in a named unit (`km/h`, `m/s`, `mph`, `kn`) to m/s.
    public static func metresPerSecond(_ value: Double, unit: String?) -> Double {
        switch unit?.lowercased() {
        case "km/h", "kmh", "kph": value / 3.6
        case "mph", "mp/h": value * 0.447_04
        case "kn", "knots", "kt": value * 0.514_444
        default: value
        }
    }

    /// Converts a temperature in a named unit (`°C`, `°F`, `K`) to °C.
    public static func celsius(_ value: Double, unit: String?) -> Double {
        switch unit?.uppercased() {
        case "°F", "F", "FAHRENHEIT": celsius(fromFahrenheit: value)
        case "K", "KELVIN": celsius(fromKelvin: value)
        default: value
        }
    }

    /// Converts a length of precipitation in `mm`, `cm` or `inch` to mm.
    public static func millimetres(_ value: Double, unit: String?) -> Double {
        switch unit?.lowercased() {
        case "inch", "in", "inches": value * 25.4
        case "cm": value * 10
        default: value
        }
    }
}
