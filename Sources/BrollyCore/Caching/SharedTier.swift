import Foundation

/// One row of the shared cache tier: a cached answer's bytes (its JSON) and when the provider's
/// answer arrived.
public struct SharedCacheRow: Sendable, Equatable {
    public var payload: Data
    public var receivedAt: Date

    public init(payload: Data, receivedAt: Date) {
        self.payload = payload
        self.receivedAt = receivedAt
    }
}

/// A cache shared by several processes (several `brolly serve` behind one load balancer, on one
/// PostgreSQL), behind each process's own file and memory cache: what any instance fetched, every
/// instance serves. The core only knows this protocol; the server plugs in PostgreSQL.
public protocol SharedCacheTier: Sendable {
    /// The row for `key`, or nil. Throws `SharedTierUnavailable` when the tier cannot be reached.
    func read(_ key: String) async throws -> SharedCacheRow?
    /// Stores (or replaces) the row for `key`.
    func write(_ key: String, _ row: SharedCacheRow) async throws
    /// Runs `body` while holding the cluster-wide lock on `key`, given the row as read *after* the
    /// lock was taken; the row `body` returns (if any) is stored before the lock is let go. A
    /// process that dies while holding the lock loses it with its connection. Concurrent calls
    /// for one key on different processes therefore run one after the other, and each later one
    /// sees what the earlier one stored.
    func exclusively<T: Sendable>(
        _ key: String, _ body: @escaping @Sendable (SharedCacheRow?) async throws -> (result: T, store: SharedCacheRow?)
    ) async throws -> T
    /// Keeps the tier bounded, as `FileCache.evict` does the files: removes rows received before
    /// `olderThan`, then the oldest until the payloads take at most 90% of `maxBytes`. Returns
    /// how many rows were removed.
    func sweep(olderThan: Date, maxBytes: Int) async throws -> Int
}

/// Rate limits shared by several processes: the upstream budgets and the per-client allowances
/// hold for the cluster as a whole.
public protocol SharedLimiter: Sendable {
    /// Takes one call from the shared token buckets named `key` (one per limit); nil when allowed,
    /// else the seconds until a call would be. Throws `SharedTierUnavailable` when the limiter
    /// cannot be reached (the caller then relies on its own process's limits).
    func take(_ key: String, limits: [RateLimit]) async throws -> TimeInterval?
}

/// The shared tier (the database) could not be reached or did not answer in time.
public struct SharedTierUnavailable: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "the shared database is unavailable: \(reason)" }
}

extension FileCache {
    /// The entry for `key` as this process has it (memory, then file) or, when that is missing or
    /// `isCurrent` says it is not current enough, the shared tier's row if it is newer (adopted into
    /// this process's file and memory). The shared tier is asked at most once per `recheck`
    /// seconds per key, so a stale entry that cannot be refreshed does not cost a database read
    /// per request; an unreachable tier is the same as an empty one.
    public func newest<Value: Codable & Sendable>(
        _ type: Value.Type, key: String, memory: MemoryCache<Value>?, now: Date, recheck: TimeInterval = 2,
        isCurrent: (CacheEntry<Value>) -> Bool
    ) async -> CacheEntry<Value>? {
        let local = read(type, key: key, memory: memory)
        guard let shared, local.map({ !isCurrent($0) }) ?? true else { return local }
        if let checked = sharedChecks?.get(key), now.timeIntervalSince(checked.receivedAt) < recheck, checked.receivedAt <= now {
            return local
        }
        sharedChecks?.set(key, CacheEntry(value: true, receivedAt: now))
        guard let row = try? await shared.read(key) else { return local }
        return adopt(type, row: row, key: key, local: local, memory: memory)
    }

    /// `newest`, kept only when `isCurrent` accepts it.
    public func current<Value: Codable & Sendable>(
        _ type: Value.Type, key: String, memory: MemoryCache<Value>?, now: Date, isCurrent: (CacheEntry<Value>) -> Bool
    ) async -> CacheEntry<Value>? {
        guard let entry = await newest(type, key: key, memory: memory, now: now, isCurrent: isCurrent), isCurrent(entry) else { return nil }
        return entry
    }

    /// The shared row decoded and written locally, when it is newer than `local`.
    func adopt<Value: Codable & Sendable>(
        _ type: Value.Type, row: SharedCacheRow, key: String, local: CacheEntry<Value>?, memory: MemoryCache<Value>?
    ) -> CacheEntry<Value>? {
        if let local, local.receivedAt >= row.receivedAt { return local }
        guard let value = try? Self.decoder.decode(Value.self, from: row.payload) else { return local }
        try? write(value, key: key, receivedAt: row.receivedAt, memory: memory)
        return CacheEntry(value: value, receivedAt: row.receivedAt)
    }

    /// Writes `value` here and, when there is a shared tier, there too (an unreachable tier is
    /// skipped: this process still has it).
    public func writeThrough<Value: Codable & Sendable>(
        _ value: Value, key: String, receivedAt: Date, memory: MemoryCache<Value>? = nil
    ) async {
        try? write(value, key: key, receivedAt: receivedAt, memory: memory)
        guard let shared, let payload = try? Self.encoder.encode(value) else { return }
        try? await shared.write(key, SharedCacheRow(payload: payload, receivedAt: receivedAt))
    }

    /// Single flight across processes: under the shared tier's lock on `key`, the row another
    /// process stored meanwhile is used when `isCurrent` accepts it; otherwise `fetch` runs (once
    /// for the whole cluster) and what it returns is stored in both tiers. Without a shared tier,
    /// or when it cannot be reached, `fetch` simply runs.
    public func fetchOnce<Value: Codable & Sendable>(
        _ type: Value.Type, key: String, memory: MemoryCache<Value>?, isCurrent: @escaping @Sendable (Date) -> Bool,
        fetch: @escaping @Sendable () async throws -> CacheEntry<Value>
    ) async throws -> CacheEntry<Value> {
        guard let shared else { return try await fetchAndWrite(key: key, memory: memory, fetch) }
        let cache = self
        do {
            return try await shared.exclusively(key) { row -> (result: CacheEntry<Value>, store: SharedCacheRow?) in
                if let row, isCurrent(row.receivedAt), let entry = cache.adopt(type, row: row, key: key, local: nil, memory: memory) {
                    return (entry, nil)
                }
                let entry = try await cache.fetchAndWrite(key: key, memory: memory, fetch)
                let payload = try? Self.encoder.encode(entry.value)
                return (entry, payload.map { SharedCacheRow(payload: $0, receivedAt: entry.receivedAt) })
            }
        } catch is SharedTierUnavailable {
            // The fetch may have run before the tier went away: then this process has the answer.
            if let local = read(type, key: key, memory: memory), isCurrent(local.receivedAt) { return local }
            return try await fetchAndWrite(key: key, memory: memory, fetch)
        }
    }

    private func fetchAndWrite<Value: Codable & Sendable>(
        key: String, memory: MemoryCache<Value>?, _ fetch: @Sendable () async throws -> CacheEntry<Value>
    ) async throws -> CacheEntry<Value> {
        let entry = try await fetch()
        try? write(entry.value, key: key, receivedAt: entry.receivedAt, memory: memory)
        return entry
    }
}
