import BrollyCore
import Foundation
import PostgresNIO

extension PostgresDatabase {
    /// The cluster's secret `name`: the one stored, or — for the first instance — `proposed`,
    /// stored. Every instance then signs device tokens and Web Push requests with the same keys.
    /// At start, on a direct connection (the pools run later, in the service group).
    public func sharedSecret(_ name: String, proposed: Data) async throws -> Data {
        try await withDirectConnection { c in
            try await c.query(
                "INSERT INTO shared_secret (name, value) VALUES (\(name), \(ByteBuffer(bytes: proposed))) ON CONFLICT (name) DO NOTHING",
                logger: Self.quiet)
            return try await Self.column(
                c.query("SELECT value FROM shared_secret WHERE name = \(name)", logger: Self.quiet), "value", as: Data.self
            ).first ?? proposed
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

    /// A sequence: not transactional and never locked, so marking costs no waiting on another
    /// writer, and its last value is read by every session.
    public func markWatchedChange() async throws {
        try await run { client in _ = try await client.query("SELECT nextval('watched_change')").collect() }
    }

    public func watchedChanges() async throws -> Int64 {
        try await run { client in
            // A sequence never used holds its start (1) too: `is_called` tells them apart.
            try await Self.column(
                client.query("SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM watched_change"), "n", as: Int64.self
            ).first ?? 0
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
        return try await self.rows(rows) {
            SharedCacheRow(
                payload: try $0["payload"].decode(Data.self),
                receivedAt: Date(timeIntervalSince1970: try $0["received_at"].decode(Double.self)))
        }.first
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
        if let until = health.current, until > clock.now { throw SharedTierUnavailable("not reachable a moment ago") }
        let started = Locked(false)
        do {
            return try await Deadline.race(timeout, on: clock, unless: started) { [locks] in
                try await Self.unwrapped {
                    try await locks.withTransaction(logger: Self.quiet) { c in
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
            if Self.isUnavailability(error) { markDown() }
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
