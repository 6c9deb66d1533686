import Foundation

/// What the service answered and how.
public struct WeatherResult: Sendable {
    public var report: WeatherReport
    /// True when the answer is older than the fresh window or a refresh failed.
    public var isStale: Bool
    /// True when no call was made (or the call failed and the cache answered).
    public var isFromCache: Bool
    /// Seconds since the answer was received.
    public var age: TimeInterval
    /// Why a refresh failed, when the cache answered instead.
    public var refreshError: BrollyError?

    public init(report: WeatherReport, isStale: Bool, isFromCache: Bool, age: TimeInterval, refreshError: BrollyError?) {
        self.report = report
        self.isStale = isStale
        self.isFromCache = isFromCache
        self.age = age
        self.refreshError = refreshError
    }
}

/// The data caching service in front of a provider: stores each good answer with its arrival
/// time, decides when to call, and makes concurrent calls for one place share one request.
public final class WeatherService: Sendable {
    public let provider: any WeatherProvider
    /// The same provider with a short time-out, for refreshing stale data.
    public let quickProvider: any WeatherProvider
    public let cache: FileCache
    public let policy: CachePolicy
    let now: @Sendable () -> Date
    let flights = SingleFlight<WeatherReport>()
    /// Decoded entries this process has read or written (nil: always read the file).
    let memory: MemoryCache<WeatherReport>?

    /// How old a cached answer may be and still stand in for a failed or refused call; nil: any age.
    let staleLimit: TimeInterval?

    /// - Parameters:
    ///   - keepsEntriesInMemory: for long-running processes (the server): entries are decoded once,
    ///     not on every request, in an LRU of `memoryEntries`.
    ///   - staleLimit: how old a cached answer may be when it stands in for a call that failed or
    ///     was refused (the server: 24 h); nil: any age.
    public init(
        provider: any WeatherProvider, quickProvider: (any WeatherProvider)? = nil, cache: FileCache,
        policy: CachePolicy = CachePolicy(), keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048,
        staleLimit: TimeInterval? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.memory = keepsEntriesInMemory ? MemoryCache(capacity: memoryEntries) : nil
        self.staleLimit = staleLimit
        self.provider = provider
        self.quickProvider = quickProvider ?? provider
        self.cache = cache
        self.policy = policy.enforcing(provider.id)
        self.now = now
    }

    /// The cache key: provider and coordinates rounded to about 1 km.
    public func key(for coordinate: Coordinate) -> String {
        "weather-\(provider.id.rawValue)-\(coordinate.cacheKey)"
    }

    /// The cached entry for a place, whatever its age.
    public func cached(for coordinate: Coordinate) -> CacheEntry<WeatherReport>? {
        cache.read(WeatherReport.self, key: key(for: coordinate), memory: memory)
    }

    /// The weather at `place` under `mode`.
    public func weather(for place: Place, mode: FetchMode = .normal) async throws -> WeatherResult {
        let key = key(for: place.coordinate)
        let entry = cache.read(WeatherReport.self, key: key, memory: memory)
        let age = entry.map { now().timeIntervalSince($0.receivedAt) }

        switch mode {
        case .offline:
            guard let entry else { throw BrollyError.notCached(place.displayName) }
            return result(from: entry, for: place, stale: age! >= policy.freshFor)
        case .refresh:
            return try await fetch(place, key: key, using: provider, fallback: entry)
        case .normal, .staleWhileRevalidate:
            if let entry, let age, age >= 0, age < policy.freshFor {
                return result(from: entry, for: place, stale: false)
            }
            if let entry, let age, age < policy.usableFor {
                if mode == .staleWhileRevalidate {
                    refreshInBackground(place, key: key)
                    return result(from: entry, for: place, stale: true)
                }
                return try await fetch(place, key: key, using: quickProvider, fallback: entry)
            }
            return try await fetch(place, key: key, using: provider, fallback: entry)
        }
    }

    private func result(
        from entry: CacheEntry<WeatherReport>, for place: Place, stale: Bool, error: BrollyError? = nil
    ) -> WeatherResult {
        WeatherResult(
            report: Self.renamed(entry.value, as: place), isStale: stale, isFromCache: true,
            age: max(0, now().timeIntervalSince(entry.receivedAt)), refreshError: error)
    }

    /// Starts a refresh that nobody waits for (single-flight, so repeated calls make one request).
    public func refreshInBackground(_ place: Place, key: String) {
        let provider = self.provider
        Task { [self] in
            _ = try? await flights.run(key) { try await self.store(provider.weather(for: place), key: key) }
        }
    }

    private func fetch(
        _ place: Place, key: String, using provider: any WeatherProvider,
        fallback: CacheEntry<WeatherReport>?
    ) async throws -> WeatherResult {
        do {
            let report = try await flights.run(key) { [self] in
                try self.store(try await provider.weather(for: place), key: key)
            }
            return WeatherResult(report: Self.renamed(report, as: place), isStale: false, isFromCache: false, age: 0, refreshError: nil)
        } catch let error as BrollyError {
            // A wrong key or an unknown place is not papered over with old data.
            if let fallback, error.kind != .invalidAPIKey,
                staleLimit.map({ now().timeIntervalSince(fallback.receivedAt) < $0 }) ?? true
            {
                return result(from: fallback, for: place, stale: true, error: error)
            }
            throw error
        }
    }

    private func store(_ report: WeatherReport, key: String) throws -> WeatherReport {
        var report = report
        report.fetchedAt = now()
        try? cache.write(report, key: key, receivedAt: report.fetchedAt, memory: memory)
        return report
    }

    /// The cached report with the caller's name for the place (nearby points share an entry).
    static func renamed(_ report: WeatherReport, as place: Place) -> WeatherReport {
        var report = report
        if !place.country.isEmpty || report.place.country.isEmpty && !place.name.isEmpty {
            report.place.name = place.name
            report.place.country = place.country
            report.place.countryCode = place.countryCode
            report.place.region = place.region
        }
        report.place.latitude = place.latitude
        report.place.longitude = place.longitude
        return report
    }
}
