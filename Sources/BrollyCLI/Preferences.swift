import BrollyCore
import Foundation

/// What the user asked Brolly to remember: units and the default place. Stored as JSON in
/// `$BROLLY_CONFIG_DIR/preferences.json`, written atomically.
public struct Preferences: Codable, Sendable, Hashable {
    public var units: UnitSystem?
    /// Wind, pressure and precipitation units, each when chosen (`--wind`, `brolly units`).
    public var wind: WindUnit?
    public var pressure: PressureUnit?
    public var precipitation: PrecipitationUnit?
    /// The remembered place (from the one-time IP lookup or a choice).
    public var defaultPlace: Place?

    public static func load(from directory: URL) -> Preferences {
        let url = directory.appendingPathComponent("preferences.json")
        guard let data = try? Data(contentsOf: url) else { return Preferences() }
        return (try? JSONDecoder().decode(Preferences.self, from: data)) ?? Preferences()
    }

    public func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try WeatherDocument.makeEncoder().encode(self).write(
            to: directory.appendingPathComponent("preferences.json"), options: .atomic)
    }
}
