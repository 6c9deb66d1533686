import BrollyCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Brolly's database on PostgreSQL, for several `brolly serve` sharing one database: the same
/// operations as `AppDatabase` (GRDB/SQLite) under the same `StoreRules`, plus the cluster's shared
/// cache tier (answers with their arrival time, and single flight through transaction-scoped
/// advisory locks), shared rate limits (token buckets in a table) and leases for work that must
/// run on one instance.
///
/// Two pools: `client` for short queries, `locks` for the advisory-lock transactions that are held
/// while one upstream call is made, so that those can never take every connection the short
/// queries need. The pools are a `Service`: the server runs the database in its service group
/// (first, so that it stops last, after the history is written). Every short operation has a time
/// limit; when the database cannot be reached the store says so at once (`StoreUnavailable`, and
/// `SharedTierUnavailable` for the cache tier) for a second before trying again, so that requests
/// do not queue behind a dead database.
public final class PostgresDatabase: DataStore, SharedCacheTier, SharedLimiter, Service {
    public var engine: String { "postgresql" }
    public var isAvailable: Bool { health.current == nil }
    let client: PostgresClient
    let locks: PostgresClient
    let logger: Logger
    /// Until when the database is taken as down (it failed to answer a moment ago); nil: up.
    let health = Locked<Date?>(nil)
    /// The longest a short operation may take before the database counts as unreachable: the
    /// server's own `statement_timeout` on the short-query pool, so that a slow query stops there
    /// rather than running on after the caller gave up; and, a moment later, the caller's own
    /// limit on `clock`, for a database that does not answer at all.
    let timeout: TimeInterval
    /// The injected clock: the caller's limits and the second the database is taken as down.
    let clock: any WallClock
    /// The configuration of one connection made directly, not through the pools: at start.
    let direct: PostgresConnection.Configuration
    /// A run started by `runDetached()` (a process without a service group), for `close()`.
    private let detached = Locked<Task<Void, Never>?>(nil)

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=require`) and
    /// migrates the schema (one instance at a time: the migration holds a lock), on one direct
    /// connection. The pools serve queries once `run()` is running.
    public static func connect(
        url: String, logger: Logger = Logger(label: "brolly.postgres"), timeout: TimeInterval = 3, clock: any WallClock
    ) async throws -> PostgresDatabase {
        let database = try PostgresDatabase(url: url, logger: logger, timeout: timeout, clock: clock)
        try await database.withDirectConnection { try await Self.migrate(on: $0) }
        return database
    }

    init(url: String, logger: Logger, timeout: TimeInterval, clock: any WallClock) throws {
        let (configuration, poolSize, tlsMode) = try Self.configuration(from: url)
        var direct = PostgresConnection.Configuration(
            host: configuration.host ?? "127.0.0.1", port: configuration.port ?? 5432, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        switch tlsMode {
        case .disable: break
        case .prefer(let c): direct.tls = .prefer(try NIOSSLContext(configuration: c))
        case .require(let c): direct.tls = .require(try NIOSSLContext(configuration: c))
        }
        direct.options.connectTimeout = .seconds(5)
        self.direct = direct
        var small = configuration
        small.options.maximumConnections = poolSize
        // The server ends a short query at the time limit itself (SQLSTATE 57014, "the database is
        // unavailable" like any class 57 error): the connection goes back to the pool free.
        small.options.additionalStartupParameters = [("statement_timeout", String(Int(timeout * 1000)))]
        var locking = configuration
        locking.options.maximumConnections = max(2, poolSize)
        // A lock transaction's statements wait at most `lock_timeout` (30 s) for the lock.
        locking.options.additionalStartupParameters = [("statement_timeout", String(Int((timeout + 30) * 1000)))]
        // The pools retry a lost database on their own; each failed attempt is not worth a log line.
        var background = logger
        background.logLevel = max(.warning, logger.logLevel)
        client = PostgresClient(configuration: small, backgroundLogger: background)
        locks = PostgresClient(configuration: locking, backgroundLogger: background)
        self.logger = logger
        self.timeout = timeout
        self.clock = clock
    }

    /// Runs the two pools until the task is cancelled or the service group shuts down.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.locks.run() }
        }
    }

    /// Runs the pools in a task of their own until `close()`: for a process without a service
    /// group (the tests).
    public func runDetached() {
        detached.withLock { task in
            guard task == nil else { return }
            task = Task { await self.run() }
        }
    }

    /// Stops a detached run; under a service group the group stops the pools.
    public func close() async {
        detached.withLock { $0 }?.cancel()
    }

    /// `body` on one connection made directly, not through the pools (which retry quietly): a
    /// database that refuses this instance — TLS, password, no such database — or is not there
    /// says why at start, within seconds.
    func withDirectConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await Deadline.race(6, on: clock) { [direct] in
            try await PostgresConnection.connect(configuration: direct, id: 0, logger: Self.quiet)
        }
        do {
            let value = try await body(connection)
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A one-line account of a failure to reach or use the database, for the operator.
    public static func explain(_ error: any Error) -> String {
        if error is DeadlineExceeded { return "no answer in time" }
        if let error = error as? PostgresTransactionError, let inner = error.closureError ?? error.beginError ?? error.commitError {
            return explain(inner)
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            let underlying = error.underlying.map { String(describing: $0) } ?? ""
            return ("\(error.code) " + underlying).replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        }
        return String(describing: error).replacingOccurrences(of: "\n", with: " ")
    }

    // MARK: Running operations

    /// Runs `operation` with a time limit; failures to reach the database become `StoreUnavailable`.
    @discardableResult
    func run<T: Sendable>(
        timeout: TimeInterval? = nil, _ operation: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        if let until = health.current, until > clock.now { throw StoreUnavailable("not reachable a moment ago") }
        do {
            // The server's statement_timeout answers first for a slow query; this, a moment later,
            // for a database that answers nothing (a stopped server, a lost network).
            let value = try await Deadline.race((timeout ?? self.timeout) + Self.answerMargin, on: clock) { [client] in
                try await operation(client)
            }
            health.withLock { $0 = nil }
            return value
        } catch let error where Self.isUnavailability(error) {
            markDown()
            logger.warning("database unavailable: \(String(reflecting: error))")
            throw StoreUnavailable(Self.explain(error))
        }
    }

    /// Takes the database as down for a second: requests meanwhile are answered at once.
    func markDown() { health.withLock { [clock] in $0 = clock.now.addingTimeInterval(1) } }

    /// How long after the server's own time limit the caller stops waiting for an answer.
    static let answerMargin: TimeInterval = 0.5

    /// Runs `body` in a transaction (postgres-nio's `withTransaction`) on one connection; the
    /// body's own error is rethrown as it is.
    func transaction<T: Sendable>(
        timeout: TimeInterval? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await run(timeout: timeout) { client in
            try await Self.unwrapped { try await client.withTransaction(logger: Self.quiet) { try await body($0) } }
        }
    }

    /// `body`, with a transaction's error replaced by the error that made it fail.
    static func unwrapped<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    /// True for errors that mean "the database is not there" rather than a mistake in a query:
    /// no connection, a closed connection, a time-out, or the server shutting down or out of room
    /// (SQLSTATE classes 08, 53, 57).
    static func isUnavailability(_ error: any Error) -> Bool {
        if error is DeadlineExceeded || error is StoreUnavailable { return true }
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                return state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57")
            }
            return true
        }
        return error is ChannelError || error is IOError
    }

    /// JSON columns (addresses, weather snapshots) use the cache's coders (dates in seconds).
    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try FileCache.encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, json: String) throws -> T {
        try FileCache.decoder.decode(type, from: Data(json.utf8))
    }

    static let quiet = Logger(label: "brolly.postgres.query")

    /// Every row of a result, each read by column name with `read`.
    static func rows<T>(_ result: PostgresRowSequence, _ read: (PostgresRandomAccessRow) throws -> T) async throws -> [T] {
        var list: [T] = []
        for try await row in result { list.append(try read(row.makeRandomAccess())) }
        return list
    }

    /// The one column of every row of a result.
    static func column<T: PostgresDecodable>(_ result: PostgresRowSequence, _ name: String, as type: T.Type = T.self) async throws -> [T] {
        try await rows(result) { try $0[name].decode(T.self) }
    }
}
