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
    /// The answers: cached for the hour, one call per place at a time; a failing place is not
    /// asked again for a minute, doubled while it keeps failing (up to 15), so a failing
    /// air-quality API is neither called nor waited for on every request.
    let fetcher: CachedFetcher<AirQuality>

    public init(
        source: OpenMeteoAirQuality, cache: FileCache, freshFor: TimeInterval = 3600, usableFor: TimeInterval = 6 * 3600,
        keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, clock: any WallClock
    ) {
        self.source = source
        self.cache = cache
        self.freshFor = freshFor
        self.usableFor = usableFor
        fetcher = CachedFetcher(
            cache: cache, freshFor: freshFor, usableFor: usableFor, failures: FailureMemory(base: 60, max: 900),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, clock: clock)
    }

    /// An answer and whether it is past its fresh window.
    public struct Result: Sendable, Hashable {
        public var airQuality: AirQuality
        public var isStale: Bool
    }

    /// The cache key: coordinates rounded to about 1 km (the models' grids are 11–40 km).
    public func key(for c: Coordinate) -> String { "air-quality-\(c.cacheKey)" }

    /// The cached answer for `c` if one is usable, without a call.
    public func cached(at c: Coordinate) async -> Result? {
        await fetcher.cached(key(for: c)).map { Result(airQuality: $0.value, isStale: $0.isStale) }
    }

    /// Air quality at `c`: fresh from the cache; else one call (shared by concurrent callers); a
    /// failed call falls back to a usable cached answer, marked stale; nil when there is none.
    /// `offline`: the cache only. `grace`: wait for the call at most this long after it started
    /// (so only the first requests for a place wait for a slow source; the call goes on and its
    /// answer is cached); nil: wait for it.
    public func airQuality(at c: Coordinate, offline: Bool = false, grace: TimeInterval? = nil) async -> Result? {
        let answer = await fetcher.answer(key(for: c), offline: offline, grace: grace, stamp: { $0.fetchedAt }) { [source] in
            try await source.airQuality(at: c)
        }
        return answer.map { Result(airQuality: $0.value, isStale: $0.isStale) }
    }
}
