import BrollyCore
import Foundation
import Logging
import PostgresNIO

/// Brolly's database on PostgreSQL, for several `brolly serve` sharing one database: the same
/// operations as `AppDatabase` (GRDB/SQLite), plus the cluster's shared cache tier (answers with
/// their arrival time, and single flight through transaction-scoped advisory locks), shared rate
/// limits (token buckets in a table) and leases for work that must run on one instance.
///
/// Two pools: `client` for short queries, `locks` for the advisory-lock transactions that are held
/// while one upstream call is made, so that those can never take every connection the short
/// queries need. Every short operation has a time limit; when the database cannot be reached the
/// store says so at once (`StoreUnavailable`, and `SharedTierUnavailable` for the cache tier) for a
/// second before trying again, so that requests do not queue behind a dead database.
public final class PostgresDatabase: DataStore, SharedCacheTier, SharedLimiter {
    public var engine: String { "postgresql" }
    public var isAvailable: Bool { health.current == nil }
    let client: PostgresClient
    let locks: PostgresClient
    let logger: Logger
    private let runners: [Task<Void, Never>]
    /// Until when the database is taken as down (it failed to answer a moment ago); nil: up.
    private let health = Locked<Date?>(nil)
    /// The longest a short operation may take before the database counts as unreachable.
    let timeout: TimeInterval

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=require`), starts the
    /// pools and migrates the schema (one instance at a time: the migration holds a lock).
    public static func connect(url: String, logger: Logger = Logger(label: "brolly.postgres"), timeout: TimeInterval = 3)
        async throws -> PostgresDatabase
    {
        let database = try PostgresDatabase(url: url, logger: logger, timeout: timeout)
        do {
            try await database.probe()
            try await database.migrate()
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// One connection made directly, not through the pools (which retry quietly): a database that
    /// refuses this instance — TLS, password, no such database — or is not there says why at
    /// start, within seconds.
    func probe() async throws {
        let connection = try await Deadline.race(6) { [direct] in
            try await PostgresConnection.connect(configuration: direct, id: 0, logger: Self.quiet)
        }
        try? await connection.close()
    }

    let direct: PostgresConnection.Configuration

    /// A one-line account of a failure to reach or use the database, for the operator.
    public static func explain(_ error: any Error) -> String {
        if error is DeadlineExceeded { return "no answer in time" }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            let underlying = error.underlying.map { String(describing: $0) } ?? ""
            return ("\(error.code) " + underlying).replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        }
        return String(describing: error).replacingOccurrences(of: "\n", with: " ")
    }

    init(url: String, logger: Logger, timeout: TimeInterval) throws {
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
        var locking = configuration
        locking.options.maximumConnections = max(2, poolSize)
        // The pools retry a lost database on their own; each failed attempt is not worth a log line.
        var background = logger
        background.logLevel = max(.warning, logger.logLevel)
        client = PostgresClient(configuration: small, backgroundLogger: background)
        locks = PostgresClient(configuration: locking, backgroundLogger: background)
        self.logger = logger
        self.timeout = timeout
        let (c, l) = (client, locks)
        runners = [Task { await c.run() }, Task { await l.run() }]
    }

    public func close() async {
        for runner in runners { runner.cancel() }
    }

    enum TLSMode {
        case disable
        case prefer(TLSConfiguration)
        case require(TLSConfiguration)
    }

    /// The client configuration for a `postgres://` or `postgresql://` URL. `sslmode` as libpq
    /// reads it: `disable` (the default, for a database on the same machine or network) and
    /// `allow` no TLS; `prefer` TLS when the server offers it; `require` TLS always (the
    /// certificate not checked, as libpq does unless a root certificate is given); `verify-ca` TLS
    /// with the certificate checked against `sslrootcert` (a PEM file; else the system's roots);
    /// `verify-full` the same and the host name too. `pool=N` sets the connections per pool
    /// (default 10; each instance has two pools).
    static func configuration(from text: String) throws -> (PostgresClient.Configuration, Int, TLSMode) {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw BrollyError.invalidInput("the database URL must look like postgres://user:password@host:5432/database")
        }
        let user = url.user?.removingPercentEncoding ?? "postgres"
        let password = url.password?.removingPercentEncoding
        var database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = database.removingPercentEncoding ?? database
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let root = query["sslrootcert"], !root.isEmpty {
            guard FileManager.default.isReadableFile(atPath: root) else {
                throw BrollyError.invalidInput("the database URL's sslrootcert \(root) cannot be read")
            }
            tlsConfiguration.trustRoots = .file(root)
        }
        let mode: TLSMode
        switch query["sslmode"] ?? "disable" {
        case "disable", "allow": mode = .disable
        case "prefer":
            tlsConfiguration.certificateVerification = .none
            mode = .prefer(tlsConfiguration)
        case "require":
            if query["sslrootcert"] == nil { tlsConfiguration.certificateVerification = .none }
            mode = .require(tlsConfiguration)
        case "verify-ca":
            tlsConfiguration.certificateVerification = .noHostnameVerification
            mode = .require(tlsConfiguration)
        case "verify-full": mode = .require(tlsConfiguration)
        case let other:
            throw BrollyError.invalidInput(
                "the database URL's sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full")
        }
        let tls: PostgresClient.Configuration.TLS =
            switch mode {
            case .disable: .disable
            case .prefer(let c): .prefer(c)
            case .require(let c): .require(c)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user, password: password, database: database.isEmpty ? nil : database,
            tls: tls)
        configuration.options.connectTimeout = .seconds(3)
        let pool = query["pool"].flatMap(Int.init) ?? 10
        guard (1...200).contains(pool) else { throw BrollyError.invalidInput("the database URL's pool must be 1 to 200") }
        return (configuration, pool, mode)
    }

    // MARK: Running operations

    /// Runs `operation` with a time limit; failures to reach the database become `StoreUnavailable`.
    @discardableResult
    func run<T: Sendable>(
        timeout: TimeInterval? = nil, _ operation: @escaping @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        if let until = health.current, until > Date() { throw StoreUnavailable("not reachable a moment ago") }
        do {
            let value = try await Deadline.race(timeout ?? self.timeout) { [client] in try await operation(client) }
            health.withLock { $0 = nil }
            return value
        } catch let error where Self.isUnavailability(error) {
            health.withLock { $0 = Date().addingTimeInterval(1) }
            logger.warning("database unavailable: \(String(reflecting: error))")
            throw StoreUnavailable(Self.explain(error))
        }
    }

    /// Runs `body` in a transaction on one connection; the body's own error is rethrown as it is.
    func transaction<T: Sendable>(
        timeout: TimeInterval? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await run(timeout: timeout) { client in
            try await client.withConnection { connection in
                try await Self.inTransaction(connection, body)
            }
        }
    }

    static func inTransaction<T: Sendable>(
        _ connection: PostgresConnection, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await connection.query("BEGIN", logger: quiet)
        do {
            let value = try await body(connection)
            try await connection.query("COMMIT", logger: quiet)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: quiet)
            throw error
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

    // MARK: Migrations

    /// The schema's history; migrations never change once shipped. Applied in order, each once,
    /// recorded in `brolly_migration`, under an advisory lock so that instances starting together
    /// do not run them twice.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1-devices-places-history-push",
            [
                """
                CREATE TABLE device (
                    id text PRIMARY KEY, created_at timestamptz NOT NULL, last_seen_at timestamptz NOT NULL)
                """,
                "INSERT INTO device (id, created_at, last_seen_at) VALUES ('local', now(), now())",
                """
                CREATE TABLE place (
                    id bigserial PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    name text NOT NULL, custom_name text, region text, country text NOT NULL DEFAULT '', country_code text,
                    latitude double precision NOT NULL, longitude double precision NOT NULL, timezone text,
                    order_index bigint NOT NULL, created_at timestamptz NOT NULL)
                """,
                "CREATE INDEX place_on_device_order ON place (device_id, order_index)",
                """
                CREATE TABLE history (
                    id bigserial PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL, latitude double precision NOT NULL, longitude double precision NOT NULL,
                    place_name text NOT NULL, address text, weather text NOT NULL)
                """,
                "CREATE INDEX history_on_device_time ON history (device_id, created_at)",
                """
                CREATE TABLE push_subscription (
                    id text PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    endpoint text NOT NULL, p256dh text NOT NULL, auth text NOT NULL, minimum_severity text NOT NULL,
                    created_at timestamptz NOT NULL, UNIQUE (device_id, endpoint))
                """,
                """
                CREATE TABLE push_delivery (
                    subscription_id text NOT NULL REFERENCES push_subscription (id) ON DELETE CASCADE,
                    alert_key text NOT NULL, sent_at timestamptz NOT NULL, status bigint NOT NULL,
                    PRIMARY KEY (subscription_id, alert_key))
                """,
            ]
        ),
        (
            "v2-cluster",
            [
                // The shared cache tier: each answer's JSON and when it arrived (seconds since 1970).
                "CREATE TABLE cache_entry (key text PRIMARY KEY, payload bytea NOT NULL, received_at double precision NOT NULL)",
                // Token buckets shared by the instances: budgets and clients' allowances.
                "CREATE TABLE rate_bucket (key text PRIMARY KEY, tokens double precision NOT NULL, updated_at double precision NOT NULL)",
                // Leases for work that runs on one instance at a time.
                "CREATE TABLE lease (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)",
                // Secrets every instance must agree on: the device-token key, the VAPID key.
                "CREATE TABLE shared_secret (name text PRIMARY KEY, value bytea NOT NULL)",
            ]
        ),
    ]

    func migrate() async throws {
        try await transaction(timeout: 30) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(7301730)", logger: Self.quiet)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS brolly_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: Self.quiet)
            let done = Set(
                try await Self.all(connection.query("SELECT name FROM brolly_migration", logger: Self.quiet).decode(String.self)))
            for migration in Self.migrations where !done.contains(migration.name) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Self.quiet)
                }
                try await connection.query("INSERT INTO brolly_migration (name) VALUES (\(migration.name))", logger: Self.quiet)
            }
        }
    }

    /// The migrations applied, in order (for tests).
    public func appliedMigrations() async throws -> [String] {
        try await run { client in
            try await Self.all(client.query("SELECT name FROM brolly_migration ORDER BY applied_at, name").decode(String.self))
        }
    }

    static let quiet = Logger(label: "brolly.postgres.query")

    /// Every row of a decoded result.
    static func all<Rows: AsyncSequence>(_ rows: Rows) async throws -> [Rows.Element] {
        var list: [Rows.Element] = []
        for try await row in rows { list.append(row) }
        return list
    }
}

// MARK: - Devices

extension PostgresDatabase {
    public func deviceExists(_ id: String) async throws -> Bool {
        try await run { client in
            try await Self.all(client.query("SELECT EXISTS (SELECT 1 FROM device WHERE id = \(id))").decode(Bool.self)).first ?? false
        }
    }

    /// Makes sure the device exists and locks its row until the transaction ends, so that one
    /// device's writes on several instances take turns (list order, history coalescing).
    static func lockDevice(_ id: String, now: Date, on connection: PostgresConnection) async throws {
        try await connection.query(
            "INSERT INTO device (id, created_at, last_seen_at) VALUES (\(id), \(now), \(now)) ON CONFLICT (id) DO NOTHING", logger: quiet)
        try await connection.query("SELECT 1 FROM device WHERE id = \(id) FOR UPDATE", logger: quiet)
    }
}

// MARK: - Saved places

extension PostgresDatabase {
    typealias PlaceRow = (Int64, String, String, String?, String?, String, String?, Double, Double, String?, Int64, Date)
    static let placeColumns =
        "id, device_id, name, custom_name, region, country, country_code, latitude, longitude, timezone, order_index, created_at"

    static func savedPlace(_ r: PlaceRow) -> SavedPlace {
        var saved = SavedPlace(
            place: Place(name: r.2, country: r.5, countryCode: r.6, region: r.4, latitude: r.7, longitude: r.8, timezone: r.9 ?? "UTC"),
            customName: r.3, deviceId: r.1, orderIndex: Int(r.10), createdAt: r.11)
        saved.id = r.0
        saved.timezone = r.9
        return saved
    }

    static func places(device: String, on connection: PostgresConnection) async throws -> [SavedPlace] {
        let rows = try await connection.query(
            "SELECT \(unescaped: placeColumns) FROM place WHERE device_id = \(device) ORDER BY order_index, id", logger: quiet)
        return try await all(rows.decode(PlaceRow.self)).map(savedPlace)
    }

    public func places(device: String) async throws -> [SavedPlace] {
        try await run { client in try await client.withConnection { try await Self.places(device: device, on: $0) } }
    }

    public func place(id: Int64, device: String) async throws -> SavedPlace? {
        try await places(device: device).first { $0.id == id }
    }

    public func addPlace(_ place: Place, customName: String?, device: String, now: Date) async throws -> SavedPlace {
        try await transaction { c in
            try await Self.lockDevice(device, now: now, on: c)
            let next =
                try await Self.all(
                    c.query("SELECT COALESCE(MAX(order_index) + 1, 0) FROM place WHERE device_id = \(device)", logger: Self.quiet)
                        .decode(Int64.self)
                ).first ?? 0
            var saved = SavedPlace(place: place, customName: customName, deviceId: device, orderIndex: Int(next), createdAt: now)
            let rows = try await c.query(
                """
                INSERT INTO place (device_id, name, custom_name, region, country, country_code, latitude, longitude, timezone, order_index, created_at)
                VALUES (\(device), \(saved.name), \(saved.customName), \(saved.region), \(saved.country), \(saved.countryCode),
                        \(saved.latitude), \(saved.longitude), \(saved.timezone), \(next), \(now))
                RETURNING id
                """, logger: Self.quiet)
            saved.id = try await Self.all(rows.decode(Int64.self)).first
            return saved
        }
    }

    public func renamePlace(id: Int64, customName: String?, device: String) async throws -> SavedPlace? {
        try await run { client in
            let rows = try await client.query(
                "UPDATE place SET custom_name = \(customName) WHERE id = \(id) AND device_id = \(device) RETURNING \(unescaped: Self.placeColumns)"
            )
            return try await Self.all(rows.decode(PlaceRow.self)).first.map(Self.savedPlace)
        }
    }

    public func movePlace(id: Int64, to position: Int, device: String) async throws -> [SavedPlace]? {
        try await transaction { c in
            try await Self.lockDevice(device, now: Date(), on: c)
            var list = try await Self.places(device: device, on: c)
            guard let from = list.firstIndex(where: { $0.id == id }) else { return nil }
            let item = list.remove(at: from)
            list.insert(item, at: max(0, min(position, list.count)))
            return try await Self.renumber(list, on: c)
        }
    }

    public func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlace] {
        try await transaction { c in
            try await Self.lockDevice(device, now: Date(), on: c)
            let list = try await Self.places(device: device, on: c)
            guard ids.count == list.count, Set(ids) == Set(list.compactMap(\.id)) else {
                throw BrollyError.invalidInput("the order must list each saved place exactly once")
            }
            let byID = Dictionary(uniqueKeysWithValues: list.map { ($0.id!, $0) })
            return try await Self.renumber(ids.map { byID[$0]! }, on: c)
        }
    }

    public func removePlace(id: Int64, device: String) async throws -> Bool {
        try await transaction { c in
            try await Self.lockDevice(device, now: Date(), on: c)
            let deleted = try await c.query("DELETE FROM place WHERE id = \(id) AND device_id = \(device) RETURNING id", logger: Self.quiet)
            guard try await !deleted.collect().isEmpty else { return false }
            _ = try await Self.renumber(try await Self.places(device: device, on: c), on: c)
            return true
        }
    }

    static func renumber(_ list: [SavedPlace], on c: PostgresConnection) async throws -> [SavedPlace] {
        var result: [SavedPlace] = []
        for (index, var place) in list.enumerated() {
            if place.orderIndex != index, let id = place.id {
                place.orderIndex = index
                try await c.query("UPDATE place SET order_index = \(Int64(index)) WHERE id = \(id)", logger: quiet)
            }
            result.append(place)
        }
        return result
    }
}

// MARK: - History

extension PostgresDatabase {
    typealias HistoryRow = (Int64, String, Date, Double, Double, String, String?, String)
    static let historyColumns = "id, device_id, created_at, latitude, longitude, place_name, address, weather"

    static func historyEntry(_ r: HistoryRow) throws -> HistoryEntry {
        var entry = HistoryEntry(
            deviceId: r.1, createdAt: r.2, latitude: r.3, longitude: r.4, placeName: r.5,
            address: try r.6.map { try decode(Address.self, json: $0) }, weather: try decode(WeatherReport.self, json: r.7))
        entry.id = r.0
        return entry
    }

    public func recordLookup(_ report: WeatherReport, address: Address?, coordinate: Coordinate, device: String, now: Date) async throws
        -> HistoryEntry
    {
        let lookup = AppDatabase.Lookup(device: device, coordinate: coordinate, report: report, address: address, createdAt: now)
        return try await transaction { c in
            try await Self.lockDevice(device, now: now, on: c)
            let entry = try await Self.save(lookup, on: c)
            try await Self.trimHistory(device: device, on: c)
            return entry
        }
    }

    public func recordLookups(_ lookups: [AppDatabase.Lookup], addresses: [AppDatabase.AddressPatch]) async throws {
        guard !lookups.isEmpty || !addresses.isEmpty else { return }
        try await transaction { c in
            // Devices locked in one order, so that two instances' batches never deadlock.
            for device in Set(lookups.map(\.device) + addresses.map(\.device)).sorted() {
                try await Self.lockDevice(device, now: Date(), on: c)
            }
            for lookup in lookups { _ = try await Self.save(lookup, on: c) }
            for device in Set(lookups.map(\.device)) { try await Self.trimHistory(device: device, on: c) }
            for patch in addresses {
                let since = patch.since.addingTimeInterval(-1)
                let candidates = try await c.query(
                    """
                    SELECT id, latitude, longitude FROM history
                    WHERE device_id = \(patch.device) AND created_at >= \(since) AND address IS NULL
                    """, logger: Self.quiet
                ).decode((Int64, Double, Double).self)
                let matching = try await Self.all(candidates).filter {
                    Coordinate(latitude: $0.1, longitude: $0.2).cacheKey == patch.coordinate.cacheKey
                }
                let json = try Self.json(patch.address)
                for (id, _, _) in matching {
                    try await c.query("UPDATE history SET address = \(json) WHERE id = \(id)", logger: Self.quiet)
                }
            }
        }
    }

    /// `AppDatabase.recordLookup`'s rule: a repeat of the device's latest lookup for the same
    /// place within 10 minutes updates that entry.
    static func save(_ lookup: AppDatabase.Lookup, on c: PostgresConnection) async throws -> HistoryEntry {
        let (device, coordinate, now) = (lookup.device, lookup.coordinate, lookup.createdAt)
        let name = lookup.report.place.name.isEmpty ? Place.unnamed(coordinate).name : lookup.report.place.name
        let weather = try json(lookup.report)
        let address = try lookup.address.map { try json($0) }
        let rows = try await c.query(
            "SELECT \(unescaped: historyColumns) FROM history WHERE device_id = \(device) ORDER BY created_at DESC, id DESC LIMIT 1",
            logger: quiet)
        if var latest = try await all(rows.decode(HistoryRow.self)).first.map(historyEntry), let id = latest.id,
            latest.coordinate.cacheKey == coordinate.cacheKey,
            now.timeIntervalSince(latest.createdAt) < 600
        {
            try await c.query(
                """
                UPDATE history SET created_at = \(now), weather = \(weather), place_name = \(name),
                    address = COALESCE(\(address), address) WHERE id = \(id)
                """, logger: quiet)
            latest.createdAt = now
            latest.weather = lookup.report
            latest.placeName = name
            if let a = lookup.address { latest.address = a }
            return latest
        }
        var entry = HistoryEntry(
            deviceId: device, createdAt: now, latitude: coordinate.latitude, longitude: coordinate.longitude, placeName: name,
            address: lookup.address, weather: lookup.report)
        let inserted = try await c.query(
            """
            INSERT INTO history (device_id, created_at, latitude, longitude, place_name, address, weather)
            VALUES (\(device), \(now), \(coordinate.latitude), \(coordinate.longitude), \(name), \(address), \(weather)) RETURNING id
            """, logger: quiet)
        entry.id = try await all(inserted.decode(Int64.self)).first
        return entry
    }

    static func trimHistory(device: String, on c: PostgresConnection) async throws {
        try await c.query(
            """
            DELETE FROM history WHERE device_id = \(device) AND id NOT IN
            (SELECT id FROM history WHERE device_id = \(device) ORDER BY created_at DESC, id DESC LIMIT \(AppDatabase.historyLimit))
            """, logger: quiet)
    }

    public func history(device: String, limit: Int) async throws -> [HistoryEntry] {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.historyColumns) FROM history WHERE device_id = \(device)
                ORDER BY created_at DESC, id DESC LIMIT \(Int64(limit))
                """)
            return try await Self.all(rows.decode(HistoryRow.self)).map(Self.historyEntry)
        }
    }

    public func historyEntry(id: Int64, device: String) async throws -> HistoryEntry? {
        try await run { client in
            let rows = try await client.query(
                "SELECT \(unescaped: Self.historyColumns) FROM history WHERE id = \(id) AND device_id = \(device)")
            return try await Self.all(rows.decode(HistoryRow.self)).first.map(Self.historyEntry)
        }
    }

    public func deleteHistoryEntry(id: Int64, device: String) async throws -> Bool {
        try await run { client in
            try await !client.query("DELETE FROM history WHERE id = \(id) AND device_id = \(device) RETURNING id").collect().isEmpty
        }
    }

    public func deleteHistory(device: String) async throws -> Int {
        try await run { client in
            try await client.query("DELETE FROM history WHERE device_id = \(device) RETURNING id").collect().count
        }
    }
}

// MARK: - Push

extension PostgresDatabase {
    typealias SubscriptionRow = (String, String, String, String, String, String, Date)
    static let subscriptionColumns = "id, device_id, endpoint, p256dh, auth, minimum_severity, created_at"

    static func subscription(_ r: SubscriptionRow) -> PushSubscription {
        PushSubscription(
            id: r.0, deviceId: r.1, endpoint: r.2, p256dh: r.3, auth: r.4, minimumSeverity: AlertSeverity(rawValue: r.5) ?? .severe,
            createdAt: r.6)
    }

    public func subscribe(_ s: PushSubscription, now: Date) async throws -> PushSubscription {
        try await transaction { c in
            try await Self.lockDevice(s.deviceId, now: now, on: c)
            let rows = try await c.query(
                """
                INSERT INTO push_subscription (id, device_id, endpoint, p256dh, auth, minimum_severity, created_at)
                VALUES (\(s.id), \(s.deviceId), \(s.endpoint), \(s.p256dh), \(s.auth), \(s.minimumSeverity.rawValue), \(s.createdAt))
                ON CONFLICT (device_id, endpoint) DO UPDATE SET
                    p256dh = excluded.p256dh, auth = excluded.auth, minimum_severity = excluded.minimum_severity
                RETURNING \(unescaped: Self.subscriptionColumns)
                """, logger: Self.quiet)
            return try await Self.all(rows.decode(SubscriptionRow.self)).first.map(Self.subscription) ?? s
        }
    }

    /// The subscriptions of `device`, or of every device.
    func subscriptions(of device: String?) async throws -> [PushSubscription] {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.subscriptionColumns) FROM push_subscription
                WHERE \(device)::text IS NULL OR device_id = \(device) ORDER BY created_at
                """)
            return try await Self.all(rows.decode(SubscriptionRow.self)).map(Self.subscription)
        }
    }

    public func subscriptions(device: String) async throws -> [PushSubscription] {
        try await subscriptions(of: device)
    }

    public func allSubscriptions() async throws -> [PushSubscription] {
        try await subscriptions(of: nil)
    }

    public func unsubscribe(id: String, device: String) async throws -> Bool {
        try await run { client in
            try await !client.query("DELETE FROM push_subscription WHERE id = \(id) AND device_id = \(device) RETURNING id").collect()
                .isEmpty
        }
    }

    public func removeSubscription(id: String) async throws {
        try await run { client in try await client.query("DELETE FROM push_subscription WHERE id = \(id)") }
    }

    public func deliveredAlertKeys(subscription: String) async throws -> Set<String> {
        try await run { client in
            Set(
                try await Self.all(
                    client.query("SELECT alert_key FROM push_delivery WHERE subscription_id = \(subscription)").decode(String.self)))
        }
    }

    public func recordDelivery(subscription: String, alertKey: String, status: Int, now: Date) async throws {
        try await run { client in
            try await client.query(
                """
                INSERT INTO push_delivery (subscription_id, alert_key, sent_at, status) VALUES (\(subscription), \(alertKey), \(now), \(Int64(status)))
                ON CONFLICT (subscription_id, alert_key) DO NOTHING
                """)
        }
    }
}

// MARK: - Leases, shared cache, shared limits

extension PostgresDatabase {
    /// The cluster's secret `name`: the one stored, or — for the first instance — `proposed`,
    /// stored. Every instance then signs device tokens and Web Push requests with the same keys.
    public func sharedSecret(_ name: String, proposed: Data) async throws -> Data {
        try await run { client in
            try await client.query(
                "INSERT INTO shared_secret (name, value) VALUES (\(name), \(ByteBuffer(bytes: proposed))) ON CONFLICT (name) DO NOTHING")
            return try await Self.all(client.query("SELECT value FROM shared_secret WHERE name = \(name)").decode(Data.self)).first
                ?? proposed
        }
    }

    public func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Bool {
        try await run { client in
            try await !client.query(
                """
                INSERT INTO lease (name, holder, expires_at) VALUES (\(name), \(holder), now() + make_interval(secs => \(duration)))
                ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE lease.holder = excluded.holder OR lease.expires_at < now()
                RETURNING holder
                """
            ).collect().isEmpty
        }
    }

    /// `operation` for the shared tier: the database being away is `SharedTierUnavailable`.
    @discardableResult
    func forSharedTier<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        do { return try await operation() } catch let error as StoreUnavailable { throw SharedTierUnavailable(error.reason) }
    }

    public func read(_ key: String) async throws -> SharedCacheRow? {
        try await forSharedTier {
            try await run(timeout: min(timeout, 1)) { client in
                try await client.withConnection { try await Self.cacheRow(key, on: $0) }
            }
        }
    }

    static func cacheRow(_ key: String, on c: PostgresConnection) async throws -> SharedCacheRow? {
        let rows = try await c.query("SELECT payload, received_at FROM cache_entry WHERE key = \(key)", logger: quiet)
        return try await all(rows.decode((Data, Double).self)).first.map {
            SharedCacheRow(payload: $0.0, receivedAt: Date(timeIntervalSince1970: $0.1))
        }
    }

    public func write(_ key: String, _ row: SharedCacheRow) async throws {
        try await forSharedTier {
            try await run(timeout: min(timeout, 1)) { client in try await client.query(Self.upsert(key, row)) }
        }
    }

    public func sweep(olderThan: Date, maxBytes: Int) async throws -> Int {
        try await run(timeout: 30) { client in
            let cutoff = olderThan.timeIntervalSince1970
            let target = Int64(maxBytes / 10 * 9)
            let old = try await client.query("DELETE FROM cache_entry WHERE received_at < \(cutoff) RETURNING 1").collect().count
            let oversize = try await client.query(
                """
                DELETE FROM cache_entry WHERE key IN (
                    SELECT key FROM (
                        SELECT key, sum(octet_length(payload)) OVER (ORDER BY received_at DESC, key) AS running FROM cache_entry
                    ) newest_first WHERE running > \(target))
                RETURNING 1
                """
            ).collect().count
            // Buckets idle for two days are full again: forgetting them changes nothing.
            try await client.query("DELETE FROM rate_bucket WHERE updated_at < extract(epoch FROM now()) - 172800")
            try await client.query("DELETE FROM lease WHERE expires_at < now() - interval '1 day'")
            return old + oversize
        }
    }

    /// Keeps the newer of two answers when two instances write one key.
    static func upsert(_ key: String, _ row: SharedCacheRow) -> PostgresQuery {
        """
        INSERT INTO cache_entry (key, payload, received_at) VALUES (\(key), \(ByteBuffer(bytes: row.payload)), \(row.receivedAt.timeIntervalSince1970))
        ON CONFLICT (key) DO UPDATE SET payload = excluded.payload, received_at = excluded.received_at
        WHERE cache_entry.received_at <= excluded.received_at
        """
    }

    /// The lock is `pg_advisory_xact_lock` on the key's 64-bit hash, in a transaction on the
    /// `locks` pool: released at commit, or by the server when the connection of a dead instance
    /// closes. Getting a connection has the store's time limit; waiting for the lock (another
    /// instance's upstream call, retries included) gives up after 30 s (`lock_timeout`).
    public func exclusively<T: Sendable>(
        _ key: String, _ body: @escaping @Sendable (SharedCacheRow?) async throws -> (result: T, store: SharedCacheRow?)
    ) async throws -> T {
        if let until = health.current, until > Date() { throw SharedTierUnavailable("not reachable a moment ago") }
        let started = Locked(false)
        do {
            return try await Deadline.race(timeout, unless: started) { [locks] in
                try await locks.withConnection { c in
                    try await Self.inTransaction(c) { c in
                        try await c.query("SET LOCAL lock_timeout = '30s'", logger: Self.quiet)
                        // Connected: from here the time is the lock holder's upstream call.
                        started.withLock { $0 = true }
                        try await c.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: Self.quiet)
                        let (result, store) = try await body(try await Self.cacheRow(key, on: c))
                        if let store { try await c.query(Self.upsert(key, store), logger: Self.quiet) }
                        return result
                    }
                }
            }
        } catch let error where error is PSQLError || Self.isUnavailability(error) {
            // The database's failure, not the body's (a lock wait that timed out included): the
            // caller goes on without the cluster.
            if Self.isUnavailability(error) { health.withLock { $0 = Date().addingTimeInterval(1) } }
            throw SharedTierUnavailable(Self.explain(error))
        }
    }

    /// Token buckets in `rate_bucket`, one row per limit (`key|count/period`), refilled by the
    /// time since their last use (the database's clock, so that the instances agree), in one
    /// transaction: a call takes a token from every bucket or from none.
    public func take(_ key: String, limits: [RateLimit]) async throws -> TimeInterval? {
        do {
            return try await forSharedTier {
                try await transaction { c in
                    for limit in limits {
                        let name = "\(key)|\(limit.count)/\(Int(limit.period))"
                        let (capacity, rate) = (Double(limit.count), Double(limit.count) / limit.period)
                        let granted = try await c.query(
                            """
                            INSERT INTO rate_bucket AS b (key, tokens, updated_at)
                            VALUES (\(name), \(capacity - 1), extract(epoch FROM clock_timestamp()))
                            ON CONFLICT (key) DO UPDATE SET
                                tokens = LEAST(\(capacity), b.tokens + (excluded.updated_at - b.updated_at) * \(rate)) - 1,
                                updated_at = excluded.updated_at
                            WHERE LEAST(\(capacity), b.tokens + (excluded.updated_at - b.updated_at) * \(rate)) >= 1
                            RETURNING tokens
                            """, logger: Self.quiet
                        ).collect()
                        if granted.isEmpty { throw Refused(retryAfter: 1 / rate) }
                    }
                    return nil
                }
            }
        } catch let refused as Refused {
            return refused.retryAfter
        }
    }

    struct Refused: Error { var retryAfter: TimeInterval }
}

// MARK: - Helpers

struct DeadlineExceeded: Error {}

enum Deadline {
    /// The operation's result, or `DeadlineExceeded` after `seconds` (unless `unless` was set by
    /// then: the limit no longer applies). The caller is answered at the deadline even if the
    /// operation does not stop at once (it is cancelled, and its result dropped).
    static func race<T: Sendable>(
        _ seconds: TimeInterval, unless flag: Locked<Bool>? = nil, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = Once<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
                let work = Task {
                    do { once.resume(.success(try await operation())) } catch { once.resume(.failure(error)) }
                }
                once.setWork(work)
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                    if flag?.current == true { return }
                    if once.resume(.failure(DeadlineExceeded())) { work.cancel() }
                }
            }
        } onCancel: {
            once.cancel()
        }
    }

    /// A continuation resumed once, by whichever of the operation and the timer comes first.
    /// `@unchecked Sendable`: `continuation`, `work` and `done` are only read or written while
    /// holding `lock`.
    final class Once<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, any Error>?
        private var work: Task<Void, Never>?
        private var done = false

        func set(_ c: CheckedContinuation<T, any Error>) {
            lock.lock()
            continuation = c
            lock.unlock()
        }

        func setWork(_ task: Task<Void, Never>) {
            lock.lock()
            let cancelled = done
            work = task
            lock.unlock()
            if cancelled { task.cancel() }
        }

        @discardableResult
        func resume(_ result: Result<T, any Error>) -> Bool {
            lock.lock()
            guard !done, let c = continuation else {
                lock.unlock()
                return false
            }
            done = true
            continuation = nil
            lock.unlock()
            c.resume(with: result)
            return true
        }

        func cancel() {
            lock.lock()
            let task = work
            lock.unlock()
            task?.cancel()
            resume(.failure(CancellationError()))
        }
    }
}
