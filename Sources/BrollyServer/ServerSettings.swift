import Foundation
import Logging

/// Where and how `brolly serve` runs: read from the command line, then the environment, then
/// defaults (`fromEnvironment`).
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// Where Leaflet's files are (Debian's libjs-leaflet by default).
    public var leafletDirectory: String
    /// Where the web app's files are; by default the ones built into the package.
    public var webDirectory: String
    /// `BROLLY_LOG_LEVEL`, default `info`.
    public var logLevel: Logger.Level

    public init(
        host: String = "127.0.0.1", port: Int = 8080, leafletDirectory: String? = nil, webDirectory: String? = nil,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.leafletDirectory = leafletDirectory ?? "/usr/share/javascript/leaflet"
        self.webDirectory = webDirectory ?? Self.bundledWebDirectory
        self.logLevel = logLevel
    }

    /// The settings from `BROLLY_HOST`, `BROLLY_PORT`, `BROLLY_LEAFLET_DIR`, `BROLLY_WEB_DIR` and
    /// `BROLLY_LOG_LEVEL`; `host` and `port` (the command line's) win. Empty variables count as
    /// unset; a bad port or log level is an input error.
    public static func fromEnvironment(_ env: [String: String], host: String? = nil, port: Int? = nil) throws -> ServerSettings {
        func value(_ name: String) -> String? {
            guard let v = env[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty else { return nil }
            return v
        }
        var settings = ServerSettings(
            host: host ?? value("BROLLY_HOST") ?? "127.0.0.1", leafletDirectory: value("BROLLY_LEAFLET_DIR"),
            webDirectory: value("BROLLY_WEB_DIR"))
        if let port {
            settings.port = port
        } else if let raw = value("BROLLY_PORT") {
            guard let p = Int(raw), (0...65_535).contains(p) else {
                throw BrollyServerError.invalidSetting("BROLLY_PORT is not a port number: \(raw)")
            }
            settings.port = p
        }
        if let raw = value("BROLLY_LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: raw.lowercased()) else {
                throw BrollyServerError.invalidSetting(
                    "BROLLY_LOG_LEVEL must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got \(raw)")
            }
            settings.logLevel = level
        }
        return settings
    }

    /// The web app shipped as a package resource.
    public static var bundledWebDirectory: String {
        Bundle.module.resourceURL!.appendingPathComponent("Public").path
    }
}

/// A server setting that cannot be used.
public enum BrollyServerError: Error, CustomStringConvertible {
    case invalidSetting(String)

    public var description: String {
        switch self {
        case .invalidSetting(let message): message
        }
    }
}
