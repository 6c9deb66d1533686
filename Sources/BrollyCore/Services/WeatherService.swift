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
    /// The configured provider, when it failed and the other one answered (`report.provider`).
    public var fallbackFrom: ProviderID?
    /// Air quality, UV and pollen at the place, when they could be had (added by the use cases).
    public var airQuality: AirQualityService.Result?
    /// Official warnings at the place, when asked for (added by the use cases).
    public var alerts: AlertSet?
    /// What the nearest station within 25 km measured in the last 90 minutes (added by the use cases).
    public var measured: MeasuredWeather?
    /// What the helpers could not add (failed, slow, or left alone after a failure).
    public var lacking: [Helper] = []
    /// The place is where the request's address is, not where the reader said or the browser
    /// measured: approximate.
    public var isApproximate = false

    /// The helpers whose parts an answer may lack; the weather never waits on them for long.
    public enum Helper: String, Sendable, Hashable {
        case name, airQuality, alerts
        /// The days' 80 % ranges (the ensemble).
        case ranges
    }

    public init(
        report: WeatherReport, isStale: Bool, isFromCache: Bool, age: TimeInterval, refreshError: BrollyError?,
        fallbackFrom: ProviderID? = nil
    ) {
        self.report = report
        self.isStale = isStale
        self.isFromCache = isFromCache
        self.age = age
        self.refreshError = refreshError
        self.fallbackFrom = fallbackFrom
    }
}

/// The second provider that answers when the configured one fails (automatic failover).
public struct FallbackProvider: Sendable {
    public var provider: any WeatherProvider
    /// The same provider with a short time-out.
    public var quickProvider: any WeatherProvider
    /// Its own cache policy (OpenWeatherMap's 10-minute floor holds for it as a fallback too).
    public var policy: CachePolicy

    public init(provider: any WeatherProvider, quickProvider: (any WeatherProvider)? = nil, policy: CachePolicy = CachePolicy()) {
        self.provider = provider
        self.quickProvider = quickProvider ?? provider
        self.policy = policy.enforcing(provider.id)
    }

    /// The failures the other provider can help with: the provider being down, slow, refusing for
    /// load, over budget, paused by the breaker, unreachable or sending unreadable data. A
    /// rejected API key, an unknown place, bad input or this client's own limit are not among
    /// them: they are shown, not hidden behind another provider's answer.
    public static func helps(with error: BrollyError) -> Bool {
        switch error.kind {
        case .timedOut, .providerUnavailable, .rateLimited, .offline, .unreadableResponse: true
        case .invalidAPIKey, .placeNotFound, .clientLimited, .invalidInput, .notCached, .noSuchItem: false
        }
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
    let flights: SingleFlight<WeatherReport>
    /// The latest refresh nobody waits for (a test awaits it instead of sleeping).
    let latestBackgroundRefresh = Locked<Task<Void, Never>?>(nil)
    /// Decoded entries this process has read or written (nil: always read the file).
    let memory: MemoryCache<WeatherReport>?

    /// How old a cached answer may be and still stand in for a failed or refused call; nil: any age.
    let staleLimit: TimeInterval?
    /// The other provider, asked when this one fails and nothing fresh is cached; nil: none.
    public let fallback: FallbackProvider?
    /// The forecast model every lookup asks for (`BROLLY_MODEL=icon_seamless`); nil: the provider's
    /// choice (`auto`, or Open-Meteo's own).
    public let model: String?

    /// - Parameters:
    ///   - keepsEntriesInMemory: for long-running processes (the server): entries are decoded once,
    ///     not on every request, in an LRU of `memoryEntries`.
    ///   - staleLimit: how old a cached answer may be when it stands in for a call that failed or
    ///     was refused (the server: 24 h); nil: any age.
    public init(
        provider: any WeatherProvider, quickProvider: (any WeatherProvider)? = nil, cache: FileCache,
        policy: CachePolicy = CachePolicy(), keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048,
        staleLimit: TimeInterval? = nil, fallback: FallbackProvider? = nil, model: String? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.model = provider.id == .openMeteo ? model : nil
        self.fallback = fallback.flatMap { $0.provider.id == provider.id ? nil : $0 }
        self.memory = keepsEntriesInMemory ? MemoryCache(capacity: memoryEntries) : nil
        self.staleLimit = staleLimit
        self.provider = provider
        self.quickProvider = quickProvider ?? provider
        self.cache = cache
        self.policy = policy.enforcing(provider.id)
        self.now = now
        flights = SingleFlight(now: now)
    }

    /// The cache key: provider and coordinates rounded to about 1 km.
    public func key(for coordinate: Coordinate) -> String {
        key(for: coordinate, provider: provider.id, model: model)
    }

    /// Cached answers stay keyed by the provider that gave them (and the model, when one was named).
    public func key(for coordinate: Coordinate, provider: ProviderID, model: String? = nil) -> String {
        guard let model else { return "weather-\(provider.rawValue)-\(coordinate.cacheKey)" }
        return "weather-\(provider.rawValue)-\(model)-\(coordinate.cacheKey)"
    }

    /// The cached entry for a place, whatever its age.
    public func cached(for coordinate: Coordinate) -> CacheEntry<WeatherReport>? {
        cache.read(WeatherReport.self, key: key(for: coordinate), memory: memory)
    }

    /// The weather at `place` under `mode`. A call asks for the provider's own texts in `language`
    /// where it has them (OpenWeatherMap); the cache keeps one answer per place, whatever its
    /// language (the report says which), so that no language adds calls within a fresh window.
    /// `model`: a forecast model the caller named (kept under its own key); nil: the provider's choice.
    public func weather(
        for place: Place, mode: FetchMode = .normal, language: String = "en", model: String? = nil
    ) async throws -> WeatherResult {
        let model = provider.id == .openMeteo ? model ?? self.model : nil
        let key = key(for: place.coordinate, provider: provider.id, model: model)
        // With a shared tier (several servers), a newer answer another instance fetched is used.
        let freshFor = policy.freshFor
        let entry = await cache.newest(WeatherReport.self, key: key, memory: memory, now: now()) { [now] in
            now().timeIntervalSince($0.receivedAt) < freshFor
        }
        let age = entry.map { now().timeIntervalSince($0.receivedAt) }

        switch mode {
        case .offline:
            guard let entry else { throw BrollyError.notCached(place.displayName) }
            return result(from: entry, for: place, stale: age! >= policy.freshFor)
        case .refresh:
            return try await fetch(place, key: key, quick: false, fallback: entry, language: language, model: model)
        case .normal, .staleWhileRevalidate:
            if let entry, let age, age >= 0, age < policy.freshFor {
                return result(from: entry, for: place, stale: false)
            }
            if let entry, let age, age < policy.usableFor {
                if mode == .staleWhileRevalidate {
                    refreshInBackground(place, key: key, language: language, model: model)
                    return result(from: entry, for: place, stale: true)
                }
                return try await fetch(place, key: key, quick: true, fallback: entry, language: language, model: model)
            }
            return try await fetch(place, key: key, quick: false, fallback: entry, language: language, model: model)
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
    public func refreshInBackground(_ place: Place, key: String, language: String = "en", model: String? = nil) {
        let provider = self.provider
        let task = Task { [self] in
            _ = try? await flights.run(key) { [self] in
                try await fetchOnce(key: key, freshFor: policy.freshFor, forced: false) {
                    try await provider.weather(for: place, language: language, model: model)
                }
            }
        }
        latestBackgroundRefresh.withLock { $0 = task }
    }

    private func fetch(
        _ place: Place, key: String, quick: Bool, fallback: CacheEntry<WeatherReport>?, language: String = "en", model: String? = nil
    ) async throws -> WeatherResult {
        let provider = quick ? quickProvider : self.provider
        do {
            let forced = fallback.map { now().timeIntervalSince($0.receivedAt) < policy.freshFor } ?? false
            let report = try await flights.run(key) { [self] in
                try await fetchOnce(key: key, freshFor: policy.freshFor, forced: forced) {
                    try await provider.weather(for: place, language: language, model: model)
                }
            }
            return WeatherResult(report: Self.renamed(report, as: place), isStale: false, isFromCache: false, age: 0, refreshError: nil)
        } catch let error as BrollyError {
            var error = error
            if let alternate = self.fallback, FallbackProvider.helps(with: error) {
                do {
                    return try await failOver(place, to: alternate, quick: quick, language: language)
                } catch let other as BrollyError where other.kind == .invalidAPIKey {
                    // Not hidden: the operator has a key to fix.
                    error = BrollyError(error.kind, error.message + "; and " + other.message, retryAfter: error.retryAfter)
                } catch {}
            }
            // A wrong key or an unknown place is not papered over with old data.
            if let fallback, error.kind != .invalidAPIKey,
                staleLimit.map({ now().timeIntervalSince(fallback.receivedAt) < $0 }) ?? true
            {
                return result(from: fallback, for: place, stale: true, error: error)
            }
            throw error
        }
    }

    /// The other provider's answer after the configured one failed: its fresh cache
    /// entry, else a call (single-flight on its own key), stored under its own key.
    private func failOver(
        _ place: Place, to alternate: FallbackProvider, quick: Bool, language: String = "en"
    ) async throws -> WeatherResult {
        let key = key(for: place.coordinate, provider: alternate.provider.id)
        if let entry = cache.read(WeatherReport.self, key: key, memory: memory) {
            let age = now().timeIntervalSince(entry.receivedAt)
            if age >= 0, age < alternate.policy.freshFor {
                var result = result(from: entry, for: place, stale: false)
                result.fallbackFrom = provider.id
                return result
            }
        }
        let provider = quick ? alternate.quickProvider : alternate.provider
        let report = try await flights.run(key) { [self] in
            try await fetchOnce(key: key, freshFor: alternate.policy.freshFor, forced: false) {
                try await provider.weather(for: place, language: language)
            }
        }
        return WeatherResult(
            report: Self.renamed(report, as: place), isStale: false, isFromCache: false, age: 0, refreshError: nil,
            fallbackFrom: self.provider.id)
    }

    /// One call for `key` across every process sharing the cache: under the shared tier's lock, an
    /// answer another instance stored meanwhile is used (fresh, or — for a forced refresh of a
    /// fresh entry — received after this call began); otherwise `call` runs and its answer, stamped
    /// with its arrival time, is stored in every tier.
    private func fetchOnce(
        key: String, freshFor: TimeInterval, forced: Bool, _ call: @escaping @Sendable () async throws -> WeatherReport
    ) async throws -> WeatherReport {
        let now = self.now
        let started = now()
        return try await cache.fetchOnce(
            WeatherReport.self, key: key, memory: memory,
            isCurrent: { forced ? $0 >= started : now().timeIntervalSince($0) < freshFor }
        ) {
            var report = try await call()
            report.fetchedAt = now()
            return CacheEntry(value: report, receivedAt: report.fetchedAt)
        }.value
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
