import BrollyCore
import BrollyHTTP
import BrollyStore
import BrollyUseCases
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Why the server could not be built, in one line for the operator (`brolly serve` prints it and
/// exits non-zero).
public struct ServerSetupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Where a PostgreSQL URL came from, for messages: the option or the environment.
public struct DatabaseChoice: Sendable {
    public var url: String
    /// `--database-url` or `BROLLY_DATABASE_URL`.
    public var source: String

    public init(url: String, source: String) {
        self.url = url
        self.source = source
    }
}

/// The whole of `brolly serve`, built from its configuration: the store (PostgreSQL when a
/// database URL is given, shared with the other instances; else SQLite in the data directory), the
/// keys (device tokens, VAPID; shared through the database in a cluster), the upstream guards, the
/// services, the batched history writer and the application with its background services. The
/// database and the HTTP client are services too: they stop last, after the history is written.
public func buildApplication(
    configuration: BrollyConfiguration, settings: ServerSettings, directories: Directories, database: DatabaseChoice?,
    logger: Logger
) async throws -> some ApplicationProtocol {
    var settings = settings
    // The one clock of the process: every service, cache, limit and the database read and wait on it.
    let clock: any WallClock = SystemClock()
    logger.info("provider \(configuration.provider.rawValue), cache \(directories.cache.path)")
    let store: any DataStore
    var cluster: PostgresDatabase?
    if let database {
        let shown = redactedDatabaseURL(database.url)
        do {
            let postgres = try await PostgresDatabase.connect(url: database.url, logger: logger, clock: clock)
            store = postgres
            cluster = postgres
        } catch let error as BrollyError {
            throw ServerSetupError("\(database.source): \(error.message)")
        } catch {
            throw ServerSetupError("cannot use the database \(shown): \(PostgresDatabase.explain(error))")
        }
        logger.info("database \(shown) (PostgreSQL, shared with the other instances)")
    } else {
        let path = directories.data.appendingPathComponent("brolly.sqlite")
        do { store = try AppDatabase.open(at: path) } catch {
            throw ServerSetupError("cannot open the database \(path.path): \(error.localizedDescription)")
        }
        logger.info("database \(path.path)")
    }
    let secretURL = directories.data.appendingPathComponent("device-secret")
    do { settings.deviceSecret = try DeviceSecret.load(at: secretURL) } catch {
        throw ServerSetupError("cannot keep the device secret \(secretURL.path): \(error)")
    }
    let vapidURL = directories.data.appendingPathComponent("vapid-private-key")
    do { try settings.loadVAPIDKey(at: vapidURL) } catch {
        throw ServerSetupError("cannot keep the Web Push (VAPID) key \(vapidURL.path): \(error)")
    }
    if let cluster {
        // The instances share their keys (the first one's files seed them): a device's cookie and
        // a browser's push subscription are good on every instance.
        do {
            settings.deviceSecret = Array(try await cluster.sharedSecret("device-secret", proposed: Data(settings.deviceSecret)))
            if let raw = settings.vapidPrivateKey {
                try settings.useVAPIDKey(raw: try await cluster.sharedSecret("vapid-private-key", proposed: raw))
            }
        } catch {
            throw ServerSetupError("cannot share the keys through the database: \(error)")
        }
    }
    let transport = AsyncHTTPTransport(connectTimeout: min(5, configuration.timeout))
    let metrics = ServerMetrics()
    let guards = UpstreamGuards(
        budgets: configuration.budgets, breakerThreshold: configuration.breakerFailures,
        breakerCoolDown: configuration.breakerCoolDown, breakerMaxCoolDown: configuration.breakerMaxCoolDown, shared: cluster,
        clock: clock, observe: { metrics.upstream($0, $1) })
    logger.info("budgets: \(Upstream.allCases.map { "\($0.rawValue) \(guards.buckets[$0]!.budget)" }.joined(separator: "; "))")
    let services = Services.make(
        configuration: configuration, transport: transport, store: store,
        options: .init(
            keepsEntriesInMemory: true, log: { [logger] in logger.info("upstream \($0)") }, clock: clock, guards: guards,
            staleLimit: 86_400,
            sharedCache: cluster))
    let historyFailed: @Sendable (any Error) -> Void = { [logger] in logger.error("could not save history: \(String(describing: $0))") }
    let writer = HistoryWriter(store: store, clock: clock, failed: historyFailed)
    let useCases = UseCases(services: services, historyWriter: writer, historyFailed: historyFailed)
    // Stopped in reverse order: the server, the history writer (its last flush), then these.
    // Pushes go to addresses that clients gave: a client of their own that never follows a
    // redirect, with short connect (and TLS) time-outs and small answers.
    let pushTransport = AsyncHTTPTransport(connectTimeout: 3, maxBodyBytes: 64 << 10, followsRedirects: false)
    var lastToStop: [any Service] = [
        Closing(name: "HTTP client") { await transport.shutdown() }, Closing(name: "push client") { await pushTransport.shutdown() },
    ]
    if let cluster { lastToStop.insert(cluster, at: 0) }
    return buildApplication(
        useCases: useCases, settings: settings, logger: logger, metrics: metrics, exitsByShutdownDeadline: true,
        pushTransport: pushTransport, services: lastToStop)
}

/// A database URL without its password, for logs and messages.
public func redactedDatabaseURL(_ url: String) -> String {
    guard var parts = URLComponents(string: url) else { return "(unreadable URL)" }
    if parts.password != nil { parts.password = "***" }
    return parts.string ?? "(unreadable URL)"
}

/// Waits for the service group to shut down, then closes something (the HTTP client).
struct Closing: Service {
    let name: String
    let close: @Sendable () async -> Void

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }
}
