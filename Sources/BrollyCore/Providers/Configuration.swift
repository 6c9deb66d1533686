import Foundation

/// Everything needed to talk to the providers, resolved from options and the environment the
/// same way by the CLI and the server.
public struct BrollyConfiguration: Sendable {
    public var provider: ProviderID
    public var openWeatherMapAPIKey: String?
    /// `GOOGLE_MAPS_API_KEY`: street addresses from Google Geocoding instead of Nominatim.
    public var googleAPIKey: String?
    /// `NEWSAPI_API_KEY`: news from NewsAPI.org instead of BBC News RSS.
    public var newsAPIKey: String?
    public var urls: UpstreamURLs
    public var directories: Directories
    /// Per-request overall time-out, seconds.
    public var timeout: TimeInterval
    /// The cache's fresh window (`BROLLY_FRESH_SECONDS`, default 600); never less than 10 minutes
    /// for OpenWeatherMap.
    public var cachePolicy: CachePolicy

    /// Chooses the provider: the named one; else OpenWeatherMap when `OPENWEATHERMAP_API_KEY` is
    /// set and non-empty; else Open-Meteo. Throws a usage error for an unknown name or a missing key.
    public init(provider name: String?, timeout: TimeInterval = 10, environment env: [String: String]) throws {
        let key = env["OPENWEATHERMAP_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        openWeatherMapAPIKey = (key?.isEmpty ?? true) ? nil : key
        func secret(_ name: String) -> String? {
            guard let v = env[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
            return v
        }
        googleAPIKey = secret("GOOGLE_MAPS_API_KEY")
        newsAPIKey = secret("NEWSAPI_API_KEY")
        if let name {
            guard let id = ProviderID(rawValue: name.lowercased()) else {
                throw BrollyError.invalidInput(
                    "unknown provider '\(name)'; use one of: \(ProviderID.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            provider = id
        } else {
            provider = openWeatherMapAPIKey == nil ? .openMeteo : .openWeatherMap
        }
        if provider == .openWeatherMap && openWeatherMapAPIKey == nil {
            throw BrollyError.invalidInput("OpenWeatherMap needs an API key: set OPENWEATHERMAP_API_KEY")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 300 else {
            throw BrollyError.invalidInput("timeout must be between 0 and 300 seconds, got \(timeout)")
        }
        self.timeout = timeout
        var policy = CachePolicy()
        if let raw = env["BROLLY_FRESH_SECONDS"], !raw.isEmpty {
            guard let seconds = TimeInterval(raw), seconds.isFinite, seconds >= 1, seconds <= 86_400 else {
                throw BrollyError.invalidInput("BROLLY_FRESH_SECONDS must be between 1 and 86400, got \(raw)")
            }
            policy = CachePolicy(freshFor: seconds, usableFor: max(3600, seconds))
        }
        cachePolicy = policy.enforcing(provider)
        urls = try UpstreamURLs.fromEnvironment(env)
        directories = Directories.fromEnvironment(env)
    }

    /// The network service for a transport with this configuration's time-out.
    public func makeNetwork(transport: any HTTPTransport, timeout: TimeInterval? = nil, retry: RetryPolicy = RetryPolicy())
        -> NetworkService
    {
        NetworkService(transport: transport, retry: retry, timeout: timeout ?? self.timeout)
    }

    /// The chosen provider on `network`.
    public func makeProvider(network: NetworkService) -> any WeatherProvider {
        switch provider {
        case .openMeteo:
            OpenMeteoProvider(network: network, baseURL: urls.openMeteo, geocodingURL: urls.openMeteoGeocoding)
        case .openWeatherMap:
            OpenWeatherMapProvider(network: network, baseURL: urls.openWeatherMap, apiKey: openWeatherMapAPIKey ?? "")
        }
    }

    /// The address service: Google with a key, else Nominatim; OpenWeatherMap as the fallback
    /// when its key is set.
    public func makeAddressService(transport: any HTTPTransport, gate: RateGate = RateGate(interval: 1)) -> AddressService {
        let network = makeNetwork(transport: transport, timeout: min(timeout, 5), retry: RetryPolicy(maxAttempts: 2))
        return AddressService(
            nominatim: NominatimGeocoder(network: network, baseURL: urls.nominatim, gate: gate), network: network,
            googleURL: urls.googleGeocoding, googleAPIKey: googleAPIKey,
            fallback: openWeatherMapAPIKey.map { OpenWeatherMapProvider(network: network, baseURL: urls.openWeatherMap, apiKey: $0) },
            cache: FileCache(directory: directories.cache))
    }

    /// Today's news: NewsAPI.org with a key, else BBC News RSS.
    public func makeNewsService(transport: any HTTPTransport) -> NewsService {
        let network = makeNetwork(transport: transport, timeout: min(timeout, 8), retry: RetryPolicy(maxAttempts: 2))
        let source: NewsService.Source = newsAPIKey.map { .newsAPI(baseURL: urls.newsAPI, apiKey: $0) } ?? .bbc(baseURL: urls.bbcFeeds)
        return NewsService(network: network, source: source, cache: FileCache(directory: directories.cache))
    }

    /// The weather service: the provider, a quick variant for refreshing stale data (a short
    /// time-out, one attempt), and the file cache.
    public func makeWeatherService(transport: any HTTPTransport) -> WeatherService {
        let quick = makeNetwork(transport: transport, timeout: min(timeout, 3), retry: .none)
        return WeatherService(
            provider: makeProvider(network: makeNetwork(transport: transport)),
            quickProvider: makeProvider(network: quick),
            cache: FileCache(directory: directories.cache), policy: cachePolicy)
    }
}

/// Place search with a cache, so that a place searched once can be used offline.
public struct PlaceSearch: Sendable {
    public let provider: any WeatherProvider
    public let cache: FileCache
    public var maxAge: TimeInterval = 30 * 86_400
    let now: @Sendable () -> Date

    public init(provider: any WeatherProvider, cache: FileCache, now: @escaping @Sendable () -> Date = { Date() }) {
        self.provider = provider
        self.cache = cache
        self.now = now
    }

    /// Validates a user's query: trimmed, not empty, at most 200 characters.
    public static func validated(_ query: String) throws -> String {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !q.isEmpty else { throw BrollyError.invalidInput("the place name is empty") }
        guard q.count <= 200 else { throw BrollyError.invalidInput("the place name is longer than 200 characters") }
        guard !q.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw BrollyError.invalidInput("the place name contains control characters")
        }
        return q
    }

    /// Matching places, best first; served from the cache when searched before, or when offline.
    public func search(_ query: String, limit: Int = 10, offline: Bool = false) async throws -> [Place] {
        let q = try Self.validated(query)
        let key = "search-\(provider.id.rawValue)-\(Checksum.hex(Data(q.lowercased().utf8)))"
        if let entry = cache.read([Place].self, key: key), offline || now().timeIntervalSince(entry.receivedAt) < maxAge {
            return Array(entry.value.prefix(limit))
        }
        if offline { throw BrollyError.notCached("\"\(q)\"") }
        let places = try await provider.search(q, limit: limit)
        try? cache.write(places, key: key, receivedAt: now())
        return places
    }
}
