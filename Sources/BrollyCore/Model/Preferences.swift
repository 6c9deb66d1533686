import Foundation

/// What the user asked Brolly to remember: units and the default place. Stored as JSON in
/// `$BROLLY_CONFIG_DIR/preferences.json`, written atomically.
public struct Preferences: Codable, Sendable, Hashable {
    public var units: UnitSystem?
    /// The remembered place (from the one-time IP lookup or a choice).
    public var defaultPlace: Place?

    public init(units: UnitSystem? = nil, defaultPlace: Place? = nil) {
        self.units = units
        self.defaultPlace = defaultPlace
    }

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

/// Where Brolly keeps its files, from the environment (XDG base directories).
public struct Directories: Sendable, Hashable {
    public var cache: URL
    public var config: URL
    public var data: URL

    public init(cache: URL, config: URL, data: URL) {
        self.cache = cache
        self.config = config
        self.data = data
    }

    /// `BROLLY_CACHE_DIR` (else `$XDG_CACHE_HOME/brolly`, else `~/.cache/brolly`), and likewise
    /// `BROLLY_CONFIG_DIR` / `XDG_CONFIG_HOME` and `BROLLY_DATA_DIR` / `XDG_DATA_HOME`.
    public static func fromEnvironment(_ env: [String: String]) -> Directories {
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func pick(_ own: String, _ xdg: String, _ fallback: String) -> URL {
            if let v = env[own], !v.isEmpty { return URL(fileURLWithPath: v, isDirectory: true) }
            if let v = env[xdg], !v.isEmpty { return URL(fileURLWithPath: v, isDirectory: true).appendingPathComponent("brolly") }
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback).appendingPathComponent("brolly")
        }
        return Directories(
            cache: pick("BROLLY_CACHE_DIR", "XDG_CACHE_HOME", ".cache"),
            config: pick("BROLLY_CONFIG_DIR", "XDG_CONFIG_HOME", ".config"),
            data: pick("BROLLY_DATA_DIR", "XDG_DATA_HOME", ".local/share"))
    }
}
