import Foundation

/// Air quality, UV and pollen with their own fresh window (one hour: the models are hourly): one
/// upstream call per place per window, shared by every caller (single-flight), within the budgets.
/// It never throws: air quality that cannot be had is absent, it never hides the weather.
public final class AirQualityService: Sendable {
    public let source: OpenMeteoAirQuality
    public let cache: FileCache
    /// Younger than this: served without a call.
    public let freshFor: TimeInterval
    /// How old an answer may be and still stand in when a call fails (it is marked stale).
    public let usableFor: TimeInterval
    let memory: MemoryCache<AirQuality>?
    let flights = SingleFlight<AirQuality>()
    /// Places whose last call failed, and when: not asked again for `retryAfterFailure` seconds,
    /// so a failing air-quality API is not called on every weather request.
    let failures = MemoryCache<Bool>(capacity: 4096)
    public let retryAfterFailure: TimeInterval = 300
    let now: @Sendable () -> Date

    public init(
        source: OpenMeteoAirQuality, cache: FileCache, freshFor: TimeInterval = 3600, usableFor: TimeInterval = 6 * 3600,
        keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.source = source
        self.cache = cache
        self.freshFor = freshFor
        self.usableFor = usableFor
        self.memory = keepsEntriesInMemory ? MemoryCache(capacity: memoryEntries) : nil
        self.now = now
    }

    /// An answer and whether it is past its fresh window.
    public struct Result: Sendable, Hashable {
        public var airQuality: AirQuality
        public var isStale: Bool
    }

    /// The cache key: coordinates rounded to about 1 km (the models' grids are 11–40 km).
    public func key(for c: Coordinate) -> String { "air-quality-\(c.cacheKey)" }

    /// The cached answer for `c` if one is usable, without a call.
    public func cached(at c: Coordinate) -> Result? {
        guard let entry = cache.read(AirQuality.self, key: key(for: c), memory: memory) else { return nil }
        let age = now().timeIntervalSince(entry.receivedAt)
        guard age < usableFor else { return nil }
        return Result(airQuality: entry.value, isStale: age < 0 || age >= freshFor)
    }

    /// Air quality at `c`: fresh from the cache; else one call (shared by concurrent callers); a
    /// failed call falls back to a usable cached answer, marked stale; nil when there is none.
    /// `offline`: the cache only.
    public func airQuality(at c: Coordinate, offline: Bool = false) async -> Result? {
        let cached = cached(at: c)
        if offline { return cached }
        if let cached, !cached.isStale { return cached }
        let key = key(for: c)
        if let failed = failures.get(key), now().timeIntervalSince(failed.receivedAt) < retryAfterFailure {
            return cached
        }
        do {
            let value = try await flights.run(key) { [self] in
                let value = try await source.airQuality(at: c)
                try? cache.write(value, key: key, receivedAt: value.fetchedAt, memory: memory)
                return value
            }
            return Result(airQuality: value, isStale: false)
        } catch {
            // This client's own limit is not the source failing.
            if (error as? BrollyError)?.kind != .clientLimited { failures.set(key, CacheEntry(value: true, receivedAt: now())) }
            return cached
        }
    }
}
