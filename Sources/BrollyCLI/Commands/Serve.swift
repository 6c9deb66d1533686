import ArgumentParser
import BrollyCore
import BrollyHTTP
import BrollyServer
import BrollyStore
import BrollyUseCases
import Foundation
import Logging

/// `brolly serve`: the JSON API and the web app.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the JSON API and the web app (default http://127.0.0.1:8080).",
        discussion: """
            Also reads BROLLY_HOST, BROLLY_PORT, BROLLY_LEAFLET_DIR, BROLLY_WEB_DIR, BROLLY_LOG_LEVEL,
            BROLLY_PUBLIC_ORIGIN, BROLLY_TRUSTED_PROXIES, BROLLY_METRICS_TOKEN, BROLLY_CLIENT_CALLS_PER_MINUTE,
            BROLLY_NEW_DEVICES_PER_MINUTE, BROLLY_CACHE_MAX_MB, BROLLY_DATABASE_URL and BROLLY_<UPSTREAM>_BUDGET (see
            the README).

            Examples:
              brolly serve                          # http://127.0.0.1:8080
              brolly serve --host 0.0.0.0 --port 9000
              brolly serve --port 8081 --database-url postgres://brolly@127.0.0.1:5432/brolly   # one of several servers
            """)

    @Option(name: .long, help: "Address to listen on (else BROLLY_HOST, else 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (else BROLLY_PORT, else 8080).")
    var port: Int?

    @Option(name: .long, help: "Where the server gets weather and place names: open-meteo (keyless) or openweathermap (needs OPENWEATHERMAP_API_KEY).")
    var provider: String?

    @Option(name: .long, help: "Seconds to wait for each upstream request.")
    var timeout: Double = 10

    @Option(
        name: .customLong("database-url"),
        help: "PostgreSQL shared by several servers: postgres://user:password@host:5432/db[?sslmode=require] (else BROLLY_DATABASE_URL, else SQLite in the data directory)."
    )
    var databaseURL: String?

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if !(timeout.isFinite && timeout > 0 && timeout <= 300) { throw ValidationError("--timeout must be between 0 and 300 seconds") }
    }

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        var settings = try ServerSettings.fromEnvironment(env, host: host, port: port)
        let directories = Directories.fromEnvironment(env)
        let configuration = try BrollyConfiguration(
            provider: provider, timeout: timeout, cacheDirectory: directories.cache, environment: env)
        var logger = Logger(label: "brolly")
        logger.logLevel = settings.logLevel
        if !FileManager.default.fileExists(atPath: settings.leafletDirectory + "/leaflet.js") {
            logger.warning(
                "Leaflet not found in \(settings.leafletDirectory): the map will be missing (apt-get install libjs-leaflet, or set BROLLY_LEAFLET_DIR)"
            )
        }
        logger.info("provider \(configuration.provider.rawValue), cache \(directories.cache.path)")
        let store: any DataStore
        var cluster: PostgresDatabase?
        if let url = (databaseURL ?? env["BROLLY_DATABASE_URL"]).flatMap({ $0.isEmpty ? nil : $0 }) {
            let shown = Self.redacted(url)
            do {
                let postgres = try await PostgresDatabase.connect(url: url, logger: logger)
                store = postgres
                cluster = postgres
            } catch let error as BrollyError {
                throw CommandFailure(message: "\(databaseURL == nil ? "BROLLY_DATABASE_URL" : "--database-url"): \(error.message)")
            } catch {
                throw CommandFailure(message: "cannot use the database \(shown): \(PostgresDatabase.explain(error))")
            }
            logger.info("database \(shown) (PostgreSQL, shared with the other instances)")
        } else {
            let databaseURL = directories.data.appendingPathComponent("brolly.sqlite")
            do { store = try AppDatabase.open(at: databaseURL) } catch {
                throw CommandFailure(message: "cannot open the database \(databaseURL.path): \(error.localizedDescription)")
            }
            logger.info("database \(databaseURL.path)")
        }
        let secretURL = directories.data.appendingPathComponent("device-secret")
        do { settings.deviceSecret = try DeviceSecret.load(at: secretURL) } catch {
            throw CommandFailure(message: "cannot keep the device secret \(secretURL.path): \(error)")
        }
        let vapidURL = directories.data.appendingPathComponent("vapid-private-key")
        do { try settings.loadVAPIDKey(at: vapidURL) } catch {
            throw CommandFailure(message: "cannot keep the Web Push (VAPID) key \(vapidURL.path): \(error)")
        }
        if let cluster {
            // The instances share their keys (the first one's files seed them): a device's
            // cookie and a browser's push subscription are good on every instance.
            do {
                settings.deviceSecret = Array(try await cluster.sharedSecret("device-secret", proposed: Data(settings.deviceSecret)))
                if let raw = settings.vapidPrivateKey {
                    try settings.useVAPIDKey(raw: try await cluster.sharedSecret("vapid-private-key", proposed: raw))
                }
            } catch {
                throw CommandFailure(message: "cannot share the keys through the database: \(error)")
            }
        }
        let transport = AsyncHTTPTransport(connectTimeout: min(5, timeout))
        let metrics = ServerMetrics()
        let guards = UpstreamGuards(
            budgets: configuration.budgets, breakerThreshold: configuration.breakerFailures,
            breakerCoolDown: configuration.breakerCoolDown, breakerMaxCoolDown: configuration.breakerMaxCoolDown, shared: cluster, observe: { metrics.upstream($0, $1) })
        logger.info(
            "budgets: \(Upstream.allCases.map { "\($0.rawValue) \(guards.buckets[$0]!.budget)" }.joined(separator: "; "))")
        let services = Services.make(
            configuration: configuration, transport: transport, store: store,
            options: .init(
                keepsEntriesInMemory: true, log: { [logger] in logger.info("upstream \($0)") }, guards: guards, staleLimit: 86_400,
                sharedCache: cluster))
        let historyFailed: @Sendable (any Error) -> Void = { [logger] in logger.error("could not save history: \(String(describing: $0))") }
        let writer = HistoryWriter(store: store, failed: historyFailed)
        let useCases = UseCases(services: services, historyWriter: writer, historyFailed: historyFailed)
        let app = buildApplication(
            useCases: useCases, settings: settings, logger: logger, metrics: metrics, exitsByShutdownDeadline: true,
            pushTransport: transport)
        do {
            try await app.runService()
        } catch {
            await transport.shutdown()
            let text = String(describing: error)
            let reason = text.contains("Address already in use") ? "the address is already in use" : text
            throw CommandFailure(message: "cannot serve on \(settings.host):\(settings.port): \(reason)")
        }
        await writer.flush()
        await transport.shutdown()
        await store.close()
    }

    /// The URL without its password, for logs and messages.
    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(unreadable URL)" }
        if parts.password != nil { parts.password = "***" }
        return parts.string ?? "(unreadable URL)"
    }
}
