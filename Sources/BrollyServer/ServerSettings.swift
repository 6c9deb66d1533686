import BrollyCore
import Crypto
import Foundation
import Logging
import NIOSSL

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
    /// `BROLLY_TRUSTED_PROXIES`: peers whose `X-Forwarded-For` is believed (comma-separated IPs).
    public var trustedProxies: Set<String> = []
    /// `BROLLY_PUBLIC_ORIGIN`: the origins (scheme, host and port) pages may write from, comma-
    /// separated; by default the listen address and `localhost` on its port, over http.
    public var publicOrigins: [String] = []
    /// `BROLLY_METRICS_TOKEN`: when set, `/metrics` is served to anyone with this bearer token;
    /// otherwise to loopback clients only.
    public var metricsToken: String?
    /// `BROLLY_CLIENT_CALLS_PER_MINUTE` (default 30): upstream calls one client may cause a minute.
    public var clientCallsPerMinute = 30
    /// `BROLLY_NEW_DEVICES_PER_MINUTE` (default 30): new devices one IP address may be given a minute.
    public var newDevicesPerMinute = 30
    /// The key of the device tokens' HMAC (`brolly serve` keeps it in the data directory).
    public var deviceSecret: [UInt8]
    /// `BROLLY_VAPID_SUBJECT`: the contact push services may use (`mailto:` or `https:`).
    public var vapidSubject = "https://github.com/brolly-weather/brolly"
    /// `BROLLY_ALERT_POLL_SECONDS` (default 300): how often saved places' alerts are checked for pushes.
    public var alertPollSeconds: Double = 300
    /// How often the rain and morning watcher looks (`BROLLY_WATCH_SECONDS`; 900: Open-Meteo's
    /// forecast is not asked for one place more often than that for the watcher).
    public var watchSeconds: Double = 900
    /// The rain watcher's cell, degrees (`BROLLY_WATCH_GRID`, 0.01 to 0.25): one call per cell.
    public var watchGrid: Double = 0.01
    /// The watcher's own share of the forecast provider's budget (`BROLLY_WATCH_BUDGET`, like
    /// `1000/h,5000/day`: by default half of Open-Meteo's free daily allowance, the other half
    /// for lookups). Places whose forecast is cached and young cost nothing.
    public static let defaultWatchBudget = Budget([RateLimit(1_000, per: 3_600), RateLimit(5_000, per: 86_400)])
    public var watchBudget = ServerSettings.defaultWatchBudget
    /// `BROLLY_MAX_CONNECTIONS_PER_ADDRESS` (default 64): open connections one client address may
    /// hold (a trusted proxy's are not counted: it carries everybody's); more are closed at once.
    public var maxConnectionsPerAddress = 64
    /// `BROLLY_IDLE_TIMEOUT` (default 15 s): a connection that has not sent a whole request head
    /// (or a next request) in this time is closed — a slow client cannot hold it open.
    public var idleTimeout: Double = 15
    /// Seconds an answer may wait for a client that reads none of it (the connection's buffers
    /// full, nothing drained) before the connection is closed (`BROLLY_WRITE_TIMEOUT`).
    public var writeTimeout: Double = 30
    /// `BROLLY_PUSH_ALLOW_INSECURE=1`: allow `http` push endpoints on loopback (tests only).
    public var pushAllowInsecure = false
    /// HTTPS with this certificate chain and key, HTTP/2 to the clients that offer it
    /// (`--tls-cert`/`--tls-key`, `BROLLY_TLS_CERT`/`BROLLY_TLS_KEY`); nil: plain HTTP/1.1.
    public var tls: TLSConfiguration?
    /// `BROLLY_API_KEYS`: the keys the compatible APIs answer (nil: any key).
    var apiKeys: APIKeys?
    /// `BROLLY_API_KEYS_FOR`: the compatible APIs that ask for one of those keys (`darksky`,
    /// `open-meteo`, `openweathermap`); nil: all of them. The others answer without a key, each
    /// client by its address's allowance — for the apps that cannot send one (Open-Meteo's).
    var keyedAPIs: Set<String>?

    /// The API names `BROLLY_API_KEYS_FOR` takes, with the names people know them by.
    static let apiNames = [
        "darksky": "darksky", "pirateweather": "darksky", "open-meteo": "open-meteo", "openmeteo": "open-meteo",
        "openweathermap": "openweathermap",
    ]

    /// The keys `surface` asks for: `apiKeys` when it is among `keyedAPIs` (OpenWeatherMap's One Call
    /// with OpenWeatherMap), else none.
    func keys(for surface: String) -> APIKeys? {
        guard let keyedAPIs else { return apiKeys }
        return keyedAPIs.contains { surface == $0 || surface.hasPrefix($0 + "-") } ? apiKeys : nil
    }
    /// The server's VAPID key (made once in the data directory by ``loadVAPIDKey(at:)``); without
    /// it, Web Push is off (`/api/v1/push/*` answers 503).
    var vapid: VAPID?

    /// Loads (or makes, mode 0600) the VAPID key at `url`.
    public mutating func loadVAPIDKey(at url: URL) throws {
        vapid = try VAPID.load(at: url, subject: vapidSubject)
    }

    /// The VAPID private key's raw bytes (to share it with the other servers of a cluster).
    public var vapidPrivateKey: Data? { vapid?.key.rawRepresentation }

    /// Uses the cluster's VAPID key (raw P-256 private key), so that any instance can push to a
    /// browser that subscribed through another.
    public mutating func useVAPIDKey(raw: Data) throws {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
            throw BrollyError.invalidInput("the shared VAPID key is not a P-256 private key")
        }
        vapid = VAPID(key: key, subject: vapidSubject)
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, leafletDirectory: String? = nil, webDirectory: String? = nil,
        logLevel: Logger.Level = .info
    ) {
        self.host = host
        self.port = port
        self.leafletDirectory = leafletDirectory ?? "/usr/share/javascript/leaflet"
        self.webDirectory = webDirectory ?? Self.bundledWebDirectory
        self.logLevel = logLevel
        var generator = SystemRandomNumberGenerator()
        deviceSecret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The origins writes are accepted from: `publicOrigins`, else this server's own address and
    /// `localhost`/`127.0.0.1` on its port over http.
    public var allowedOrigins: Set<String> {
        if !publicOrigins.isEmpty { return Set(publicOrigins) }
        var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        if host != "0.0.0.0" && host != "::" { hosts.insert(host.contains(":") ? "[\(host)]" : host) }
        let scheme = tls == nil ? "http" : "https"
        return Set(hosts.map { "\(scheme)://\($0):\(port)" })
    }

    /// The settings from `BROLLY_HOST`, `BROLLY_PORT`, `BROLLY_LEAFLET_DIR`, `BROLLY_WEB_DIR` and
    /// `BROLLY_LOG_LEVEL`; `host` and `port` (the command line's) win. Empty variables count as
    /// unset; a bad port or log level is an input error.
    public static func fromEnvironment(
        _ env: [String: String], host: String? = nil, port: Int? = nil, tlsCertificate: String? = nil, tlsKey: String? = nil
    ) throws -> ServerSettings {
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
        settings.tls = try tls(certificate: tlsCertificate ?? value("BROLLY_TLS_CERT"), key: tlsKey ?? value("BROLLY_TLS_KEY"))
        if let raw = value("BROLLY_TRUSTED_PROXIES") {
            settings.trustedProxies = Set(raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        if let raw = value("BROLLY_PUBLIC_ORIGIN") {
            settings.publicOrigins = try raw.split(separator: ",").map { item in
                let text = item.trimmingCharacters(in: .whitespaces)
                guard let url = URL(string: text), url.path.isEmpty || url.path == "/", let origin = Origin(text),
                    origin.scheme == "http" || origin.scheme == "https"
                else {
                    throw BrollyServerError.invalidSetting(
                        "BROLLY_PUBLIC_ORIGIN must list origins like https://weather.example.com, got \(text)")
                }
                return origin.normalized
            }
        }
        settings.metricsToken = value("BROLLY_METRICS_TOKEN")
        if let path = value("BROLLY_API_KEYS") { settings.apiKeys = try APIKeys.load(path: path) }
        if let raw = value("BROLLY_API_KEYS_FOR") {
            settings.keyedAPIs = Set(
                try raw.split(separator: ",").map { item in
                    let name = item.trimmingCharacters(in: .whitespaces).lowercased()
                    guard let known = Self.apiNames[name] else {
                        throw BrollyServerError.invalidSetting(
                            "BROLLY_API_KEYS_FOR lists darksky, open-meteo or openweathermap, got \(name.prefix(40))")
                    }
                    return known
                })
        }
        func count(_ name: String, into keyPath: WritableKeyPath<ServerSettings, Int>) throws {
            guard let raw = value(name) else { return }
            guard let n = Int(raw), (1...1_000_000).contains(n) else {
                throw BrollyServerError.invalidSetting("\(name) must be a whole number from 1 to 1000000, got \(raw)")
            }
            settings[keyPath: keyPath] = n
        }
        try count("BROLLY_CLIENT_CALLS_PER_MINUTE", into: \.clientCallsPerMinute)
        try count("BROLLY_NEW_DEVICES_PER_MINUTE", into: \.newDevicesPerMinute)
        try count("BROLLY_MAX_CONNECTIONS_PER_ADDRESS", into: \.maxConnectionsPerAddress)
        if let raw = value("BROLLY_IDLE_TIMEOUT") {
            guard let n = Double(raw), n.isFinite, n >= 0.5, n <= 3_600 else {
                throw BrollyServerError.invalidSetting("BROLLY_IDLE_TIMEOUT must be between 0.5 and 3600 seconds, got \(raw)")
            }
            settings.idleTimeout = n
        }
        if let raw = value("BROLLY_WRITE_TIMEOUT") {
            guard let n = Double(raw), n.isFinite, n >= 0.5, n <= 3_600 else {
                throw BrollyServerError.invalidSetting("BROLLY_WRITE_TIMEOUT must be between 0.5 and 3600 seconds, got \(raw)")
            }
            settings.writeTimeout = n
        }
        if let raw = value("BROLLY_VAPID_SUBJECT") {
            guard raw.hasPrefix("mailto:") || raw.hasPrefix("https://"), raw.count <= 200 else {
                throw BrollyServerError.invalidSetting("BROLLY_VAPID_SUBJECT must be a mailto: or https: contact, got \(raw)")
            }
            settings.vapidSubject = raw
        } else if let contact = value("BROLLY_CONTACT"), contact.hasPrefix("https://") || contact.contains("@") {
            settings.vapidSubject = contact.hasPrefix("https://") || contact.hasPrefix("mailto:") ? contact : "mailto:" + contact
        }
        if let raw = value("BROLLY_ALERT_POLL_SECONDS") {
            guard let n = Double(raw), n.isFinite, n >= 0.5, n <= 86_400 else {
                throw BrollyServerError.invalidSetting("BROLLY_ALERT_POLL_SECONDS must be between 0.5 and 86400, got \(raw)")
            }
            settings.alertPollSeconds = n
        }
        if let raw = value("BROLLY_WATCH_SECONDS") {
            guard let n = Double(raw), n.isFinite, n >= 0.5, n <= 86_400 else {
                throw BrollyServerError.invalidSetting("BROLLY_WATCH_SECONDS must be between 0.5 and 86400, got \(raw)")
            }
            settings.watchSeconds = n
        }
        if let raw = value("BROLLY_WATCH_GRID") {
            guard let n = Double(raw), n.isFinite, n >= 0.01, n <= 0.25 else {
                throw BrollyServerError.invalidSetting("BROLLY_WATCH_GRID must be between 0.01 and 0.25 degrees, got \(raw)")
            }
            settings.watchGrid = n
        }
        if let raw = value("BROLLY_WATCH_BUDGET") {
            do { settings.watchBudget = try Budget.parse(raw) } catch let error as BrollyError {
                throw BrollyServerError.invalidSetting("BROLLY_WATCH_BUDGET: \(error.message)")
            }
        }
        settings.pushAllowInsecure = ["1", "true", "yes", "on"].contains(value("BROLLY_PUSH_ALLOW_INSECURE")?.lowercased() ?? "")
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
