import Foundation

/// Base URLs of every upstream, overridable by environment variables so that tests, proxies and
/// self-hosted instances can be used. Paths under them are the providers' real paths.
public struct UpstreamURLs: Sendable, Hashable {
    public var openMeteo: URL
    public var openMeteoGeocoding: URL
    public var openMeteoAirQuality: URL
    public var openWeatherMap: URL
    public var ipLocation: URL
    public var nominatim: URL
    public var googleGeocoding: URL
    public var bbcFeeds: URL
    public var newsAPI: URL
    public var nws: URL = URL(string: "https://api.weather.gov")!
    public var meteoAlarm: URL = URL(string: "https://feeds.meteoalarm.org")!
    public var openMeteoPreviousRuns: URL = URL(string: "https://previous-runs-api.open-meteo.com")!
    /// Open-Meteo's Historical Weather API (the ERA5 reanalysis).
    public var openMeteoArchive: URL = URL(string: "https://archive-api.open-meteo.com")!
    /// Open-Meteo's Ensemble API (the forecast's ranges).
    public var openMeteoEnsemble: URL = URL(string: "https://ensemble-api.open-meteo.com")!
    public var aviationWeather: URL = URL(string: "https://aviationweather.gov")!
    /// A server speaking RainViewer's public weather-maps API (RainViewer, or a self-hosted LibreWXR).
    public var radar: URL = URL(string: "https://api.rainviewer.com")!
    /// OpenWeatherMap's map tiles (used only with its key).
    public var openWeatherMapTiles: URL = URL(string: "https://tile.openweathermap.org")!

    public init(
        openMeteo: URL = URL(string: "https://api.open-meteo.com")!,
        openMeteoGeocoding: URL = URL(string: "https://geocoding-api.open-meteo.com")!,
        openMeteoAirQuality: URL = URL(string: "https://air-quality-api.open-meteo.com")!,
        openWeatherMap: URL = URL(string: "https://api.openweathermap.org")!,
        ipLocation: URL = URL(string: "http://ip-api.com/json")!,
        nominatim: URL = URL(string: "https://nominatim.openstreetmap.org")!,
        googleGeocoding: URL = URL(string: "https://maps.googleapis.com")!,
        bbcFeeds: URL = URL(string: "https://feeds.bbci.co.uk")!,
        newsAPI: URL = URL(string: "https://newsapi.org")!
    ) {
        self.openMeteo = openMeteo
        self.openMeteoGeocoding = openMeteoGeocoding
        self.openMeteoAirQuality = openMeteoAirQuality
        self.openWeatherMap = openWeatherMap
        self.ipLocation = ipLocation
        self.nominatim = nominatim
        self.googleGeocoding = googleGeocoding
        self.bbcFeeds = bbcFeeds
        self.newsAPI = newsAPI
    }

    /// Reads `BROLLY_OPEN_METEO_URL`, `BROLLY_OPEN_METEO_GEOCODING_URL`,
    /// `BROLLY_OPEN_METEO_AIR_QUALITY_URL`, `BROLLY_OPENWEATHERMAP_URL`,
    /// `BROLLY_IP_LOCATION_URL`, `BROLLY_NOMINATIM_URL`, `BROLLY_GOOGLE_GEOCODING_URL`,
    /// `BROLLY_BBC_FEEDS_URL`, `BROLLY_NEWSAPI_URL`, `BROLLY_NWS_URL`, `BROLLY_METEOALARM_URL`,
    /// `BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL`, `BROLLY_OPEN_METEO_ARCHIVE_URL`,
    /// `BROLLY_OPEN_METEO_ENSEMBLE_URL` and `BROLLY_AVIATIONWEATHER_URL` (and the others in
    /// `environment`).
    public static func fromEnvironment(_ env: [String: String]) throws -> UpstreamURLs {
        try fromEnvironment(env, names: environment)
    }

    /// Every variable that overrides an upstream's base URL, and the URL it sets (`brolly --help`
    /// lists them from here).
    static let environment: [(String, WritableKeyPath<UpstreamURLs, URL> & Sendable)] = [
        ("BROLLY_OPEN_METEO_URL", \.openMeteo), ("BROLLY_OPEN_METEO_GEOCODING_URL", \.openMeteoGeocoding),
        ("BROLLY_OPEN_METEO_AIR_QUALITY_URL", \.openMeteoAirQuality), ("BROLLY_OPENWEATHERMAP_URL", \.openWeatherMap),
        ("BROLLY_IP_LOCATION_URL", \.ipLocation), ("BROLLY_NOMINATIM_URL", \.nominatim),
        ("BROLLY_GOOGLE_GEOCODING_URL", \.googleGeocoding), ("BROLLY_BBC_FEEDS_URL", \.bbcFeeds), ("BROLLY_NEWSAPI_URL", \.newsAPI),
        ("BROLLY_NWS_URL", \.nws), ("BROLLY_METEOALARM_URL", \.meteoAlarm),
        ("BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL", \.openMeteoPreviousRuns), ("BROLLY_OPEN_METEO_ARCHIVE_URL", \.openMeteoArchive),
        ("BROLLY_OPEN_METEO_ENSEMBLE_URL", \.openMeteoEnsemble),
        ("BROLLY_AVIATIONWEATHER_URL", \.aviationWeather), ("BROLLY_RADAR_URL", \.radar),
        ("BROLLY_OPENWEATHERMAP_TILES_URL", \.openWeatherMapTiles),
    ]

    /// The names of the variables that override an upstream's base URL.
    public static var environmentNames: [String] { environment.map(\.0) }

    static func fromEnvironment(
        _ env: [String: String], names environment: [(String, WritableKeyPath<UpstreamURLs, URL> & Sendable)]
    ) throws -> UpstreamURLs {
        var urls = UpstreamURLs()
        func read(_ name: String, into keyPath: WritableKeyPath<UpstreamURLs, URL>) throws {
            guard let raw = env[name]?.trimmedOfSpace, !raw.isEmpty else { return }
            guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else { throw BrollyError.invalidInput("\(name) is not an http(s) URL: \(raw)") }
            urls[keyPath: keyPath] = url
        }
        for (name, keyPath) in environment { try read(name, into: keyPath) }
        return urls
    }
}
