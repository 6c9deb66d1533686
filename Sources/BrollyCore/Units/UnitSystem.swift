import Foundation

/// A preset of units (the API's and CLI's `units=`): data is always fetched and kept in the base
/// units (`Units.swift`); `UnitChoice(preset)` gives the unit of each quantity.
public enum UnitSystem: String, Codable, Sendable, CaseIterable {
    /// °C, m/s, hPa, mm, km.
    case metric
    /// °F, mph, hPa, in, mi.
    case imperial
    /// K, m/s, hPa, mm, km.
    case standard

    /// Parses user input (`metric`, `imperial`, `standard`, or `C`, `F`, `K`).
    public init?(userInput: String) {
        switch TemperatureUnit(userInput: userInput) {
        case .celsius: self = .metric
        case .fahrenheit: self = .imperial
        case .kelvin: self = .standard
        case nil: return nil
        }
    }

    /// The preset's temperature unit.
    public var temperature: TemperatureUnit {
        switch self {
        case .metric: .celsius
        case .imperial: .fahrenheit
        case .standard: .kelvin
        }
    }
}
