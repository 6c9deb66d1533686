import Foundation

/// Everything needed to talk to the providers, resolved from options and the environment the
/// same way by the CLI and the server. It holds values only: the use-case layer's service
/// factory builds every service from it, once.
public struct BrollyConfiguration: Sendable {
    public var provider: ProviderID
    public var openWeatherMapAPIKey: String?
    /// `GOOGLE_MAPS_API_KEY`: street addresses from Google Geocoding instead of Nominatim.
    public var googleAPIKey: String?
    /// `NEWSAPI_API_KEY`: news from NewsAPI.org instead of BBC News RSS.
    public var newsAPIKey: String?
    public var urls: UpstreamURLs
    /// Where provider answers are cached.
    public var cacheDirectory: URL
    /// Per-request overall time-out, seconds.
    public var timeout: TimeInterval
    /// The cache's fresh window (`BROLLY_FRESH_SECONDS`, default 600); never less than 10 minutes
    /// for OpenWeatherMap.
    public var cachePolicy: CachePolicy
    /// Budgets per upstream from `BROLLY_<UPSTREAM>_BUDGET` (the rest keep their defaults).
    public var budgets: [Upstream: Budget]
    /// The disk cache's size limit (`BROLLY_CACHE_MAX_MB`, default 256).
    public var cacheMaxBytes: Int
    /// Failed requests in a row that open an upstream's circuit, and the requests in its 30-second
    /// window before half of them failing opens it (`BROLLY_BREAKER_FAILURES`, default 5).
    public var breakerFailures = 5
    /// Seconds an open circuit first waits before its trial call (`BROLLY_BREAKER_COOLDOWN_SECONDS`,
    /// default 2); doubled on each trip that follows without a success.
    public var breakerCoolDown: TimeInterval = 2
    /// The longest cool-down (`BROLLY_BREAKER_MAX_COOLDOWN_SECONDS`, default 120).
    public var breakerMaxCoolDown: TimeInterval = 120
    /// The other provider answers when the configured one fails (needs an OpenWeatherMap key;
    /// `BROLLY_FAILOVER=off` turns it off).
    public var failover = true
    /// Atom/RSS feeds (or single documents) of CAP 1.2 alerts, `BROLLY_CAP_FEEDS` (comma-separated).
    public var capFeeds: [URL] = []
    /// A contact for upstreams that ask for one (NWS), `BROLLY_CONTACT` (an e-mail address or URL).
    public var contact = "https://github.com/brolly-weather/brolly"
    /// The forecast model, `BROLLY_MODEL` (Open-Meteo only): `brolly` (the default: the forecast
    /// corrected for the place once it has enough scored days, else as `auto`), `auto` (a model
    /// better here than Open-Meteo's own choice by more than its uncertainty, else Open-Meteo's
    /// choice) or a model's name (`icon_seamless`), honoured everywhere.
    public var model = Self.corrected

    /// `brolly`: the forecast corrected for the place.
    public static let corrected = "brolly"

    /// Whether `model` leaves the choice of model to Brolly (`auto`, `brolly`).
    public static func choosesModel(_ model: String?) -> Bool { model == "auto" || model == corrected }

    /// The named model every lookup asks for; nil for `auto` and `brolly`.
    public var namedModel: String? { Self.choosesModel(model) ? nil : model }

    /// A model named by a user (`--model`, `?model=`, `BROLLY_MODEL`): `brolly`, `auto` or one of
    /// Open-Meteo's.
    public static func checkedModel(_ raw: String) throws -> String {
        let name = raw.trimmedOfSpace.lowercased()
        guard choosesModel(name) || OpenMeteoProvider.knownModels.contains(name) else {
            throw BrollyError.invalidInput(
                "unknown model '\(raw.prefix(40))'; use brolly, auto or one of Open-Meteo's: \(OpenMeteoProvider.knownModels.sorted().joined(separator: ", "))"
            )
        }
        return name
    }

    /// The provider that backs up the configured one: the other provider when OpenWeatherMap has a
    /// key and failover is on; nil otherwise.
    public var fallbackProvider: ProviderID? {
        guard failover, openWeatherMapAPIKey != nil else { return nil }
        return provider == .openMeteo ? .openWeatherMap : .openMeteo
    }

    /// Chooses the provider: the named one; else OpenWeatherMap when `OPENWEATHERMAP_API_KEY` is
    /// set and non-empty; else Open-Meteo. Throws a usage error for an unknown name or a missing key.
    public init(
        provider name: String?, timeout: TimeInterval = 10, cacheDirectory: URL, environment env: [String: String]
    ) throws {
        func secret(_ name: String) -> String? {
            guard let v = env[name]?.trimmedOfSpace, !v.isEmpty else { return nil }
            return v
        }
        openWeatherMapAPIKey = secret("OPENWEATHERMAP_API_KEY")
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
        budgets = try UpstreamGuards.budgets(from: env)
        cacheMaxBytes = 256 << 20
        if let raw = env["BROLLY_CACHE_MAX_MB"]?.trimmedOfSpace, !raw.isEmpty {
            guard let mb = Int(raw), mb >= 1, mb <= 1_000_000 else {
                throw BrollyError.invalidInput("BROLLY_CACHE_MAX_MB must be a whole number of megabytes (1 or more), got \(raw)")
            }
            cacheMaxBytes = mb << 20
        }
        if let raw = env["BROLLY_BREAKER_FAILURES"]?.trimmedOfSpace, !raw.isEmpty {
            guard let n = Int(raw), (1...10_000).contains(n) else {
                throw BrollyError.invalidInput("BROLLY_BREAKER_FAILURES must be a whole number from 1 to 10000, got \(raw)")
            }
            breakerFailures = n
        }
        if let raw = env["BROLLY_BREAKER_COOLDOWN_SECONDS"]?.trimmedOfSpace, !raw.isEmpty {
            guard let n = TimeInterval(raw), n.isFinite, n >= 0.1, n <= 86_400 else {
                throw BrollyError.invalidInput("BROLLY_BREAKER_COOLDOWN_SECONDS must be between 0.1 and 86400, got \(raw)")
            }
            breakerCoolDown = n
        }
        if let raw = env["BROLLY_BREAKER_MAX_COOLDOWN_SECONDS"]?.trimmedOfSpace, !raw.isEmpty {
            guard let n = TimeInterval(raw), n.isFinite, n >= 0.1, n <= 86_400 else {
                throw BrollyError.invalidInput("BROLLY_BREAKER_MAX_COOLDOWN_SECONDS must be between 0.1 and 86400, got \(raw)")
            }
            breakerMaxCoolDown = n
        }
        if let raw = env["BROLLY_FAILOVER"]?.trimmedOfSpace.lowercased(), !raw.isEmpty {
            switch raw {
            case "on", "1", "true", "yes": failover = true
            case "off", "0", "false", "no": failover = false
            default: throw BrollyError.invalidInput("BROLLY_FAILOVER must be on or off, got \(raw)")
            }
        }
        if let raw = env["BROLLY_CAP_FEEDS"]?.trimmedOfSpace, !raw.isEmpty {
            capFeeds = try raw.split(separator: ",").map { item in
                let text = item.trimmedOfSpace
                guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw BrollyError.invalidInput("BROLLY_CAP_FEEDS must be http(s) URLs separated by commas, got \(text)")
                }
                return url
            }
        }
        if let raw = env["BROLLY_CONTACT"]?.trimmedOfSpace, !raw.isEmpty {
            guard raw.count <= 200, !raw.contains(where: { $0.isNewline || $0 == "(" || $0 == ")" }) else {
                throw BrollyError.invalidInput("BROLLY_CONTACT must be an e-mail address or URL on one line")
            }
            contact = raw
        }
        if let raw = env["BROLLY_MODEL"], !raw.trimmedOfSpace.isEmpty {
            model = try Self.checkedModel(raw)
        }
        self.cacheDirectory = cacheDirectory
    }
}

extension StringProtocol {
    /// Without white space at either end, in the standard library alone: the settings are read on
    /// every command's start, and Foundation's `trimmingCharacters(in:)` bridges to `NSString` for
    /// each (measured at ~2 % of `brolly now --offline`).
    var trimmedOfSpace: String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return String(self[start..<end])
    }
}
