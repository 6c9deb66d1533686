import ArgumentParser
import BrollyCore
import BrollyServer
import BrollyUseCases
import Foundation
import Hummingbird
import Logging

/// `brolly serve`: the JSON API and the web app.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the JSON API and the web app (default http://127.0.0.1:8080).",
        discussion: """
            Also reads BROLLY_HOST, BROLLY_PORT, BROLLY_LEAFLET_DIR, BROLLY_WEB_DIR, BROLLY_LOG_LEVEL,
            BROLLY_PUBLIC_ORIGIN, BROLLY_TRUSTED_PROXIES, BROLLY_METRICS_TOKEN, BROLLY_CLIENT_CALLS_PER_MINUTE,
            BROLLY_NEW_DEVICES_PER_MINUTE, BROLLY_CACHE_MAX_MB, BROLLY_TLS_CERT, BROLLY_TLS_KEY, BROLLY_DATABASE_URL and BROLLY_<UPSTREAM>_BUDGET (see
            the README).

            Examples:
              brolly serve                          # http://127.0.0.1:8080
              brolly serve --host 0.0.0.0 --port 9000
              brolly serve --port 8081 --database-url postgres://brolly@127.0.0.1:5432/brolly   # one of several servers
              brolly serve --tls-cert cert.pem --tls-key key.pem   # HTTPS and HTTP/2
            """)

    @Option(name: .long, help: "Address to listen on (else BROLLY_HOST, else 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (else BROLLY_PORT, else 8080).")
    var port: Int?

    @Option(
        name: .long,
        help: "Where the server gets weather and place names: open-meteo (keyless) or openweathermap (needs OPENWEATHERMAP_API_KEY).")
    var provider: String?

    @Option(name: .long, help: "Seconds to wait for each upstream request.")
    var timeout: Double = 10

    @Option(
        name: .customLong("database-url"),
        help:
            "PostgreSQL shared by several servers: postgres://user:password@host:5432/db[?sslmode=require] (else BROLLY_DATABASE_URL, else SQLite in the data directory)."
    )
    var databaseURL: String?

    @Option(
        name: .customLong("tls-cert"),
        help: "Serve HTTPS (and HTTP/2) with this PEM certificate chain; needs --tls-key (else BROLLY_TLS_CERT).")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The certificate's PEM private key (else BROLLY_TLS_KEY).")
    var tlsKey: String?

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if !(timeout.isFinite && timeout > 0 && timeout <= 300) { throw ValidationError("--timeout must be between 0 and 300 seconds") }
    }

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        let settings = try ServerSettings.fromEnvironment(env, host: host, port: port, tlsCertificate: tlsCertificate, tlsKey: tlsKey)
        let directories = Directories.fromEnvironment(env)
        let configuration = try BrollyConfiguration(
            provider: provider, timeout: timeout, cacheDirectory: directories.cache, environment: env)
        // The server's own log handler, in StreamLogHandler's format (LineLogHandler: a request's
        // metadata costs nothing until a line is written).
        LoggingSystem.bootstrap { LineLogHandler(label: $0, clock: SystemClock()) }
        var logger = Logger(label: "brolly")
        logger.logLevel = settings.logLevel
        if !FileManager.default.fileExists(atPath: settings.leafletDirectory + "/leaflet.js") {
            logger.warning(
                "Leaflet not found in \(settings.leafletDirectory): the map will be missing (apt-get install libjs-leaflet, or set BROLLY_LEAFLET_DIR)"
            )
        }
        let flag = databaseURL == nil ? "BROLLY_DATABASE_URL" : "--database-url"
        let database = (databaseURL ?? env["BROLLY_DATABASE_URL"]).flatMap { $0.isEmpty ? nil : DatabaseChoice(url: $0, source: flag) }
        let app: any ApplicationProtocol
        do {
            app = try await buildApplication(
                configuration: configuration, settings: settings, directories: directories, database: database, logger: logger)
        } catch let error as ServerSetupError {
            throw CommandFailure(message: error.description)
        }
        do {
            try await app.runService()
        } catch {
            let text = String(describing: error)
            let reason = text.contains("Address already in use") ? "the address is already in use" : text
            throw CommandFailure(message: "cannot serve on \(settings.host):\(settings.port): \(reason)")
        }
    }
}
