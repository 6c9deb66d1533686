import Foundation

/// "Cache, single flight, stale on failure" for the auxiliary sources (air quality, each alert
/// source, news), written once. An answer is kept with the time it arrived: younger than
/// `freshFor` it is served without a call; otherwise one call per key at a time is made (shared by
/// every caller), and while it fails — or is slow past the caller's grace — an answer younger than
/// `usableFor` stands in, marked stale. A key whose call failed is left alone for a back-off
/// (`failures`), so a source that is down is neither called nor waited for on every request; a
/// source that refused our API key is left alone longer (`refusals`).
public final class CachedFetcher<Value: Codable & Sendable>: Sendable {
    let cache: FileCache
    let memory: MemoryCache<Value>?
    let flights: SingleFlight<Value>
    /// Keys whose call failed a moment ago; nil: every request may call.
    public let failures: FailureMemory?
    /// Keys whose source refused our API key.
    public let refusals: FailureMemory?
    public let freshFor: TimeInterval
    public let usableFor: TimeInterval
    /// Whether answers go through the cluster's shared tier as well (when the cache has one).
    let shared: Bool
    /// The injected clock: answers' ages, and how long a caller waits for a call under way.
    let clock: any WallClock

    public init(
        cache: FileCache, freshFor: TimeInterval, usableFor: TimeInterval, failures: FailureMemory? = nil,
        refusals: FailureMemory? = nil, keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, shared: Bool = false,
        clock: any WallClock
    ) {
        self.cache = cache
        self.freshFor = freshFor
        self.usableFor = usableFor
        self.failures = failures
        self.refusals = refusals
        self.memory = keepsEntriesInMemory ? MemoryCache(capacity: memoryEntries) : nil
        self.shared = shared
        self.clock = clock
        flights = SingleFlight(now: { clock.now })
    }

    /// An answer and whether it is past its fresh window.
    public struct Answer: Sendable {
        public var value: Value
        public var isStale: Bool
    }

    /// The cached answer for `key` while it is usable, without a call.
    public func cached(_ key: String) async -> Answer? {
        let at = clock.now
        let entry =
            shared
            ? await cache.newest(
                Value.self, key: key, memory: memory, now: at, isCurrent: { at.timeIntervalSince($0.receivedAt) < self.freshFor })
            : cache.read(Value.self, key: key, memory: memory)
        guard let entry else { return nil }
        let age = at.timeIntervalSince(entry.receivedAt)
        guard age < usableFor else { return nil }
        return Answer(value: entry.value, isStale: age < 0 || age >= freshFor)
    }

    /// The answer for `key`: fresh from the cache; else `call`'s (one at a time per key), waited
    /// for at most `grace` seconds after that call started (nil: until it ends; the call goes on
    /// and its answer is kept for the next request); else the usable cached answer, marked stale;
    /// nil when there is none. `offline`: the cache only. Never throws: an auxiliary source that
    /// cannot be had is simply absent.
    public func answer(
        _ key: String, offline: Bool = false, grace: TimeInterval? = nil, stamp: (@Sendable (Value) -> Date)? = nil,
        call: @escaping @Sendable () async throws -> Value
    ) async -> Answer? {
        let cached = await cached(key)
        if offline { return cached }
        if let cached, !cached.isStale { return cached }
        guard let (task, startedAt) = await flight(key, stamp: stamp, call: call) else { return cached }
        let value: Value? =
            if let grace { await FirstOf.value(task, orNilBy: startedAt.addingTimeInterval(grace), on: clock) } else {
                try? await task.value
            }
        guard let value else { return cached }
        return Answer(value: value, isStale: false)
    }

    /// Like `answer`, for a caller that shows why nothing could be had: the call's error is thrown
    /// when no usable answer stands in (and the remembered one while the key backs off).
    public func value(
        _ key: String, stamp: (@Sendable (Value) -> Date)? = nil, call: @escaping @Sendable () async throws -> Value
    ) async throws -> Answer {
        let cached = await cached(key)
        if let cached, !cached.isStale { return cached }
        guard let (task, _) = await flight(key, stamp: stamp, call: call) else {
            if let cached { return cached }
            throw failures?.lastError(key) ?? refusals?.lastError(key) ?? BrollyError(.providerUnavailable, "failed a moment ago")
        }
        do {
            let value = try await task.value
            return Answer(value: value, isStale: false)
        } catch {
            if let cached { return cached }
            throw error
        }
    }

    /// The call for `key` under way (started now, or joined), with when it started; nil while the
    /// key backs off after a failure or a refused key.
    func flight(_ key: String, stamp: (@Sendable (Value) -> Date)?, call: @escaping @Sendable () async throws -> Value) async
        -> (Task<Value, any Error>, Date)?
    {
        let at = clock.now
        if failures?.backingOff(key, now: at) != nil || refusals?.backingOff(key, now: at) != nil { return nil }
        return await flights.start(key) { [self] in
            let work: @Sendable () async throws -> Value = {
                let value = try await call()
                let receivedAt = stamp?(value) ?? self.clock.now
                if self.shared {
                    await self.cache.writeThrough(value, key: key, receivedAt: receivedAt, memory: self.memory)
                } else {
                    try? self.cache.write(value, key: key, receivedAt: receivedAt, memory: self.memory)
                }
                return value
            }
            guard let failures else { return try await work() }
            return try await failures.tracking(key, now: { [clock] in clock.now }, refusedKey: refusals, work)
        }
    }
}
