import Foundation

/// The upstream services Brolly calls, each with its own budget and circuit breaker.
public enum Upstream: String, Sendable, CaseIterable, Hashable {
    case openMeteo = "open-meteo"
    /// Open-Meteo's air-quality API: its own breaker (its failures must not pause the forecast) and
    /// a budget of its own, small beside the forecast's since answers keep for an hour.
    case openMeteoAirQuality = "open-meteo-air-quality"
    /// Open-Meteo's Previous Runs API (forecast accuracy): its own breaker and a small budget (one
    /// call per place per 6 hours), so that scoring forecasts never costs the forecast.
    case openMeteoPreviousRuns = "open-meteo-previous-runs"
    /// Open-Meteo's Historical Weather API (the ERA5 reanalysis forecasts are scored against where
    /// no station reports enough days): its own breaker and budget; one call per place a day.
    case openMeteoArchive = "open-meteo-archive"
    /// Open-Meteo's Ensemble API (the forecast's ranges): its own breaker and a small budget (one
    /// call per place per 6 hours).
    case openMeteoEnsemble = "open-meteo-ensemble"
    case openWeatherMap = "openweathermap"
    case nominatim
    case google
    case newsAPI = "newsapi"
    case bbc
    case ipLocation = "ip-location"
    /// The US National Weather Service's alerts API.
    case nws
    /// MeteoAlarm's country feeds.
    case meteoAlarm = "meteoalarm"
    /// CAP feeds from `BROLLY_CAP_FEEDS`, together.
    case cap
    /// The Aviation Weather Center's METAR observations (measured weather nearby).
    case aviationWeather = "aviationweather"
    /// The rain radar's frame list (RainViewer's weather-maps API): one call every 5 minutes for all.
    case radar
    /// OpenWeatherMap's precipitation tiles (with its key): a share of OpenWeatherMap's own budget.
    case openWeatherMapTiles = "openweathermap-tiles"

    /// The upstream a request for `provider` (the label providers give `NetworkService.get`) goes to.
    public init?(providerLabel label: String) {
        switch label {
        case "Open-Meteo air quality": self = .openMeteoAirQuality
        case "Open-Meteo previous runs": self = .openMeteoPreviousRuns
        case "Open-Meteo archive": self = .openMeteoArchive
        case "Open-Meteo ensemble": self = .openMeteoEnsemble
        case let l where l.hasPrefix("Open-Meteo"): self = .openMeteo
        case "OpenWeatherMap tiles": self = .openWeatherMapTiles
        case let l where l.hasPrefix("OpenWeatherMap"): self = .openWeatherMap
        case "Nominatim": self = .nominatim
        case let l where l.hasPrefix("Google"): self = .google
        case "NewsAPI": self = .newsAPI
        case "BBC News": self = .bbc
        case "IP location service": self = .ipLocation
        case "NWS": self = .nws
        case "MeteoAlarm": self = .meteoAlarm
        case "CAP feed": self = .cap
        case "Aviation Weather Center": self = .aviationWeather
        case "Radar": self = .radar
        default: return nil
        }
    }

    /// The upstream whose budget this one's calls also count against: the Previous Runs API is
    /// Open-Meteo's, so each of its calls takes from Open-Meteo's budget too (never waiting for it:
    /// when Open-Meteo's budget is tight, scoring forecasts gives way to the forecast).
    /// Open-Meteo's free tier (600 a minute, 5,000 an hour, 10,000 a day per address) holds for all
    /// its APIs together: the forecast, geocoding and the pass-through (labelled Open-Meteo), air
    /// quality and Previous Runs all count in `.openMeteo`'s budget.
    public var parent: Upstream? {
        switch self {
        case .openMeteoPreviousRuns, .openMeteoArchive, .openMeteoAirQuality, .openMeteoEnsemble: .openMeteo
        case .openWeatherMapTiles: .openWeatherMap
        default: nil
        }
    }

    /// The share of a parent's budget its children leave free, for the parent's own calls: air
    /// quality and scoring give way before the forecast runs out.
    public static let parentShareKept = 0.2

    /// The share of its parent's budget this child leaves free: the ensemble's ranges, the least
    /// needed of Open-Meteo's helpers, give way at half (with 3 calls a day, the forecast of a
    /// second place comes before a first place's ranges), the others at `parentShareKept`.
    public var parentShareKept: Double { self == .openMeteoEnsemble ? 0.5 : Self.parentShareKept }

    /// The environment variable that overrides the budget: `BROLLY_OPEN_METEO_BUDGET`, …
    public var budgetVariable: String {
        "BROLLY_" + String(rawValue.uppercased().map { $0 == "-" ? "_" : $0 }) + "_BUDGET"
    }

    /// The default budget, from each provider's published terms (or conservative where the terms
    /// are per account): Open-Meteo's free API 600/min, 5,000/h, 10,000/day; OpenWeatherMap's free
    /// plan 60/min; Nominatim's usage policy one request a second; NewsAPI's developer plan
    /// 100 a day; ip-api.com 45/min.
    public var defaultBudget: Budget {
        switch self {
        case .openMeteo: Budget([.init(600, per: 60), .init(5_000, per: 3_600), .init(10_000, per: 86_400)])
        case .openMeteoAirQuality: Budget([.init(60, per: 60), .init(600, per: 3_600), .init(2_000, per: 86_400)])
        case .openWeatherMap: Budget([.init(60, per: 60)])
        case .nominatim: Budget([.init(1, per: 1)])
        case .google: Budget([.init(600, per: 60)])
        case .newsAPI: Budget([.init(100, per: 86_400)])
        case .bbc: Budget([.init(60, per: 60)])
        case .ipLocation: Budget([.init(45, per: 60)])
        case .nws: Budget([.init(60, per: 60)])
        case .meteoAlarm: Budget([.init(60, per: 60)])
        case .cap: Budget([.init(60, per: 60)])
        // Its own share, carved from Open-Meteo's 10,000 a day: each place costs one call per 6 hours.
        case .openMeteoPreviousRuns: Budget([.init(30, per: 60), .init(300, per: 3_600), .init(1_000, per: 86_400)])
        // The reference days change once a day: each place costs one call a day.
        case .openMeteoArchive: Budget([.init(30, per: 60), .init(300, per: 3_600), .init(1_000, per: 86_400)])
        // Each place's cell costs one call per 6 hours, like the scores.
        case .openMeteoEnsemble: Budget([.init(30, per: 60), .init(300, per: 3_600), .init(1_000, per: 86_400)])
        // The AWC asks for at most 100 requests a minute from one address.
        case .aviationWeather: Budget([.init(60, per: 60), .init(1_000, per: 3_600)])
        // The frame list is cached 5 minutes for every client: a dozen calls an hour are plenty.
        case .radar: Budget([.init(10, per: 60), .init(100, per: 3_600)])
        // A third of OpenWeatherMap's free 60 a minute at most (tiles are kept 10 minutes for all).
        case .openWeatherMapTiles: Budget([.init(20, per: 60), .init(600, per: 3_600)])
        }
    }
}

/// A number of calls per period.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var period: TimeInterval

    public init(_ count: Int, per period: TimeInterval) {
        self.count = count
        self.period = period
    }

    public var description: String {
        let unit = [(86_400.0, "day"), (3_600, "h"), (60, "min"), (1, "s")].first { period == $0.0 }
        return unit.map { "\(count)/\($0.1)" } ?? "\(count)/\(period)s"
    }
}

/// Several limits that must all allow a call, e.g. `600/min,5000/h,10000/day`.
public struct Budget: Sendable, Hashable, CustomStringConvertible {
    public var limits: [RateLimit]

    public init(_ limits: [RateLimit]) { self.limits = limits }

    public var description: String { limits.map(\.description).joined(separator: ",") }

    /// Parses `N/s`, `N/min`, `N/h`, `N/day` items separated by commas.
    public static func parse(_ text: String) throws -> Budget {
        let units: [String: TimeInterval] = [
            "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3_600, "hour": 3_600, "d": 86_400, "day": 86_400,
        ]
        var limits: [RateLimit] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "/").map { $0.trimmedOfSpace }
            guard parts.count == 2, let count = Int(parts[0]), count > 0, count <= 10_000_000, let period = units[parts[1].lowercased()]
            else { throw BrollyError.invalidInput("a budget is like 600/min,5000/h,10000/day; cannot read '\(item)'") }
            limits.append(RateLimit(count, per: period))
        }
        guard !limits.isEmpty else { throw BrollyError.invalidInput("the budget is empty") }
        return Budget(limits)
    }
}
