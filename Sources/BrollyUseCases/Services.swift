import BrollyCore
import BrollyStore
import Foundation

/// Every service of the seeds — network, weather provider, caching, search, naming, addresses,
/// news, IP location — built once from one configuration by ``make(configuration:transport:store:options:)``.
/// The CLI and the server hold one of these; nothing patches a service after it is built.
public struct Services: Sendable {
    public let configuration: BrollyConfiguration
    /// The data caching service in front of the weather provider.
    public let weather: WeatherService
    /// Place search, cached so a place searched once works offline.
    public let search: PlaceSearch
    /// Names coordinates (the provider's reverse geocoding, else the address service).
    public let namer: PlaceNamer
    /// Street addresses (Google with a key, else Nominatim; OpenWeatherMap as the fallback).
    public let addresses: AddressService
    /// Today's news (NewsAPI with a key, else BBC News RSS).
    public let news: NewsService
    /// Air quality, UV and pollen (Open-Meteo's air-quality API), cached for an hour.
    public let airQuality: AirQualityService
    /// The ensemble's spread, for each day's range; nil: no ranges.
    public let ensemble: EnsembleService?
    /// Official weather warnings (NWS, MeteoAlarm, OpenWeatherMap One Call, CAP feeds), cached 5 minutes.
    public let alerts: AlertService
    /// How good the forecasts have been at a place (Open-Meteo's Previous Runs, METAR stations), and
    /// the measured weather nearby.
    public let accuracy: AccuracyService
    /// Open-Meteo queries Brolly's cache cannot answer, passed upstream once (the compatible API).
    public let openMeteoPassthrough: OpenMeteoPassthrough?
    /// The rain radar's frames (RainViewer's weather-maps API).
    public let radar: RadarService?
    /// OpenWeatherMap's precipitation tiles, when the server has its key.
    public let precipitationTiles: PrecipitationTiles?
    /// OpenWeatherMap with the server's key (`OPENWEATHERMAP_API_KEY`), for what only it knows:
    /// its city ids. Nil without a key.
    public let openWeatherMapCities: OpenWeatherMapProvider?
    /// The one-time IP location lookup (used by the CLI when it has no place at all).
    public let ipLocator: IPLocator
    /// Saved places, history and devices.
    public let store: any DataStore
    /// The budgets and circuit breakers every upstream call goes through.
    public let guards: UpstreamGuards
    /// The disk cache all services share.
    public var cache: FileCache { weather.cache }
    /// The time of every service, budget and breaker (the one given to `make` in its options).
    public var clock: any WallClock { guards.clock }

    /// How the services are tuned for the process that runs them.
    public struct Options: Sendable {
        /// Keep decoded cache entries in memory (a long-running server), not only on disk.
        public var keepsEntriesInMemory: Bool
        /// Called with each upstream request (keys redacted), for logs.
        public var log: (@Sendable (String) -> Void)?
        /// The time of every service, cache, budget and breaker (a `ManualClock` in tests).
        public var clock: any WallClock
        /// The clock's time, as the services read it.
        public var now: @Sendable () -> Date { { [clock] in clock.now } }
        /// The budgets and circuit breakers of every upstream; nil: made from the configuration's
        /// budgets.
        public var guards: UpstreamGuards?
        /// How old a cached answer may be and still be served when the provider cannot be asked
        /// (budget spent, breaker open, failure); nil: any age (the CLI, offline on a plane).
        public var staleLimit: TimeInterval?
        /// The most decoded entries each in-memory cache keeps.
        public var memoryEntries: Int
        /// The cache tier shared with the other servers of a cluster (PostgreSQL), behind this
        /// process's memory and files; nil: this process alone.
        public var sharedCache: (any SharedCacheTier)?

        public init(
            keepsEntriesInMemory: Bool = false, log: (@Sendable (String) -> Void)? = nil,
            clock: any WallClock = SystemClock(), guards: UpstreamGuards? = nil, staleLimit: TimeInterval? = nil,
            memoryEntries: Int = 2048, sharedCache: (any SharedCacheTier)? = nil
        ) {
            self.sharedCache = sharedCache
            self.keepsEntriesInMemory = keepsEntriesInMemory
            self.log = log
            self.clock = clock
            self.guards = guards
            self.staleLimit = staleLimit
            self.memoryEntries = memoryEntries
        }
    }

    public init(
        configuration: BrollyConfiguration, weather: WeatherService, search: PlaceSearch, namer: PlaceNamer,
        addresses: AddressService, news: NewsService, airQuality: AirQualityService, alerts: AlertService,
        accuracy: AccuracyService, ipLocator: IPLocator, store: any DataStore, guards: UpstreamGuards = UpstreamGuards(),
        openMeteoPassthrough: OpenMeteoPassthrough? = nil, radar: RadarService? = nil,
        precipitationTiles: PrecipitationTiles? = nil, openWeatherMapCities: OpenWeatherMapProvider? = nil,
        ensemble: EnsembleService? = nil
    ) {
        self.ensemble = ensemble
        self.openWeatherMapCities = openWeatherMapCities
        self.radar = radar
        self.precipitationTiles = precipitationTiles
        self.accuracy = accuracy
        self.openMeteoPassthrough = openMeteoPassthrough
        self.alerts = alerts
        self.airQuality = airQuality
        self.guards = guards
        self.configuration = configuration
        self.weather = weather
        self.search = search
        self.namer = namer
        self.addresses = addresses
        self.news = news
        self.ipLocator = ipLocator
        self.store = store
    }

    /// Builds every service for `configuration` on `transport` (AsyncHTTPClient in the CLI and the
    /// server, `URLSessionTransport` in an app, a double in tests).
    public static func make(
        configuration c: BrollyConfiguration, transport: any HTTPTransport, store: any DataStore, options: Options = Options()
    ) -> Services {
        let guards =
            options.guards
            ?? UpstreamGuards(
                budgets: c.budgets, breakerThreshold: c.breakerFailures, breakerCoolDown: c.breakerCoolDown,
                breakerMaxCoolDown: c.breakerMaxCoolDown, clock: options.clock)
        func network(timeout: TimeInterval, retry: RetryPolicy) -> NetworkService {
            var n = NetworkService(transport: transport, retry: retry, timeout: timeout, clock: options.clock)
            if let log = options.log { n.log = log }
            n.guards = guards
            return n
        }
        let standard = network(timeout: c.timeout, retry: RetryPolicy())
        // Refreshing stale data and naming points must not hold a user up: short, one attempt.
        let quick = network(timeout: min(c.timeout, 3), retry: .none)
        let cache = FileCache(directory: c.cacheDirectory, shared: options.sharedCache, maxBytes: c.cacheMaxBytes, clock: options.clock)
        let accuracy = AccuracyService(
            previousRuns: OpenMeteoPreviousRuns(
                network: network(timeout: min(c.timeout, 10), retry: .none), baseURL: c.urls.openMeteoPreviousRuns),
            stations: AviationWeather(network: network(timeout: min(c.timeout, 5), retry: .none), baseURL: c.urls.aviationWeather),
            archive: OpenMeteoArchive(network: network(timeout: min(c.timeout, 10), retry: .none), baseURL: c.urls.openMeteoArchive),
            cache: cache, keepsEntriesInMemory: options.keepsEntriesInMemory, memoryEntries: options.memoryEntries, clock: options.clock)
        // `auto`: the best model at the place from scores already computed (no call of its own).
        let chooser: (@Sendable (Coordinate) async -> String?)? =
            BrollyConfiguration.choosesModel(c.model) ? { @Sendable [accuracy] place in accuracy.autoModel(at: place) } : nil
        let provider = makeProvider(c, network: standard, chooseModel: chooser, now: options.now)
        let quickProvider = makeProvider(c, network: quick, chooseModel: chooser, now: options.now)

        // With an OpenWeatherMap key, Open-Meteo and OpenWeatherMap back each other up.
        let fallback = c.fallbackProvider.map { id in
            var other = c
            other.provider = id
            return FallbackProvider(
                provider: makeProvider(other, network: standard, now: options.now),
                quickProvider: makeProvider(other, network: quick, now: options.now),
                policy: c.cachePolicy)
        }
        let weather = WeatherService(
            provider: provider, quickProvider: quickProvider, cache: cache, policy: c.cachePolicy,
            keepsEntriesInMemory: options.keepsEntriesInMemory, memoryEntries: options.memoryEntries, staleLimit: options.staleLimit,
            fallback: fallback, model: c.namedModel, now: options.now)
        let airQuality = AirQualityService(
            source: OpenMeteoAirQuality(network: quick, baseURL: c.urls.openMeteoAirQuality, now: options.now), cache: cache,
            keepsEntriesInMemory: options.keepsEntriesInMemory, memoryEntries: options.memoryEntries, clock: options.clock)

        let addressNetwork = network(timeout: min(c.timeout, 5), retry: RetryPolicy(maxAttempts: 2))
        // Nominatim's one request a second is its budget in `guards`, shared by the process.
        let addresses = AddressService(
            nominatim: NominatimGeocoder(network: addressNetwork, baseURL: c.urls.nominatim),
            network: addressNetwork, googleURL: c.urls.googleGeocoding, googleAPIKey: c.googleAPIKey,
            fallback: c.openWeatherMapAPIKey.map {
                OpenWeatherMapProvider(network: addressNetwork, baseURL: c.urls.openWeatherMap, apiKey: $0, now: options.now)
            },
            cache: cache, now: options.now)

        let newsNetwork = network(timeout: min(c.timeout, 8), retry: RetryPolicy(maxAttempts: 2))
        let newsSource: NewsService.Source =
            c.newsAPIKey.map { .newsAPI(baseURL: c.urls.newsAPI, apiKey: $0) } ?? .bbc(baseURL: c.urls.bbcFeeds)

        return Services(
            configuration: c, weather: weather, search: PlaceSearch(provider: provider, cache: cache, now: options.now),
            namer: PlaceNamer(
                provider: quickProvider, addresses: addresses, cache: cache, memoryEntries: options.memoryEntries, now: options.now),
            addresses: addresses,
            news: NewsService(network: newsNetwork, source: newsSource, cache: cache, clock: options.clock),
            airQuality: airQuality,
            alerts: AlertService(
                network: network(timeout: min(c.timeout, 5), retry: RetryPolicy(maxAttempts: 2)),
                sources: AlertService.Sources(
                    nws: c.urls.nws, meteoAlarm: c.urls.meteoAlarm, openWeatherMap: c.urls.openWeatherMap,
                    openWeatherMapKey: c.openWeatherMapAPIKey, capFeeds: c.capFeeds, contact: c.contact),
                cache: cache, keepsEntriesInMemory: options.keepsEntriesInMemory, memoryEntries: options.memoryEntries,
                clock: options.clock),
            accuracy: accuracy,
            ipLocator: IPLocator(network: network(timeout: min(c.timeout, 5), retry: RetryPolicy(maxAttempts: 2)), url: c.urls.ipLocation),
            store: store, guards: guards,
            openMeteoPassthrough: OpenMeteoPassthrough(
                network: standard, baseURL: c.urls.openMeteo, cache: cache, keepsEntriesInMemory: options.keepsEntriesInMemory,
                clock: options.clock),
            radar: RadarService(
                network: network(timeout: min(c.timeout, 5), retry: .none), baseURL: c.urls.radar, cache: cache, clock: options.clock),
            precipitationTiles: c.openWeatherMapAPIKey.map {
                PrecipitationTiles(
                    network: network(timeout: min(c.timeout, 5), retry: .none), baseURL: c.urls.openWeatherMapTiles, key: $0,
                    now: options.now)
            },
            openWeatherMapCities: c.openWeatherMapAPIKey.map {
                OpenWeatherMapProvider(network: addressNetwork, baseURL: c.urls.openWeatherMap, apiKey: $0, now: options.now)
            },
            ensemble: EnsembleService(
                source: OpenMeteoEnsemble(
                    network: network(timeout: min(c.timeout, 10), retry: .none), baseURL: c.urls.openMeteoEnsemble, now: options.now),
                cache: cache, keepsEntriesInMemory: options.keepsEntriesInMemory, memoryEntries: options.memoryEntries,
                clock: options.clock))
    }

    /// The configured weather provider on `network`.
    static func makeProvider(
        _ c: BrollyConfiguration, network: NetworkService, chooseModel: (@Sendable (Coordinate) async -> String?)? = nil,
        now: @escaping @Sendable () -> Date
    ) -> any WeatherProvider {
        switch c.provider {
        case .openMeteo:
            OpenMeteoProvider(
                network: network, baseURL: c.urls.openMeteo, geocodingURL: c.urls.openMeteoGeocoding, chooseModel: chooseModel, now: now)
        case .openWeatherMap:
            OpenWeatherMapProvider(network: network, baseURL: c.urls.openWeatherMap, apiKey: c.openWeatherMapAPIKey ?? "", now: now)
        }
    }
}
