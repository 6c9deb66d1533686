import Foundation

/// Official weather warnings for a place from every source that covers it: NWS (United States),
/// MeteoAlarm (Europe, by country feed), OpenWeatherMap One Call 3.0 (with a key) and any CAP
/// feeds configured. Each source answer is cached with a 5-minute fresh window ("near real
/// time"), one upstream call per place (or country feed) per window shared by every caller, within
/// the budgets. It never throws: a failing source is listed in `failedSources` and the others (and
/// the weather) are shown.
public final class AlertService: Sendable {
    public struct Sources: Sendable {
        public var nws: URL
        public var meteoAlarm: URL
        public var openWeatherMap: URL
        public var openWeatherMapKey: String?
        public var capFeeds: [URL]
        /// Who to contact about our requests (NWS requires one in the User-Agent).
        public var contact: String

        public init(
            nws: URL = URL(string: "https://api.weather.gov")!, meteoAlarm: URL = URL(string: "https://feeds.meteoalarm.org")!,
            openWeatherMap: URL = URL(string: "https://api.openweathermap.org")!, openWeatherMapKey: String? = nil,
            capFeeds: [URL] = [], contact: String = "https://github.com/brolly-weather/brolly"
        ) {
            self.nws = nws
            self.meteoAlarm = meteoAlarm
            self.openWeatherMap = openWeatherMap
            self.openWeatherMapKey = openWeatherMapKey
            self.capFeeds = capFeeds
            self.contact = contact
        }
    }

    public let sources: Sources
    let network: NetworkService
    let cache: FileCache
    /// Each source's answers: cached for the fresh window, one call per source key at a time; a
    /// failed key is not asked again for a minute (at most the fresh window), doubled while it
    /// keeps failing, and a source that refused the API key not for an hour — so a failing source
    /// is neither called nor waited for on every request.
    let fetcher: CachedFetcher<[CAPMessage]>
    public let freshFor: TimeInterval
    /// How old a source's answer may be and still stand in when it fails (its alerts carry their
    /// own expiry, so old answers never show expired alerts).
    public var usableFor: TimeInterval { fetcher.usableFor }
    /// The injected clock (its fetchers wait on it too).
    let clock: any WallClock

    public init(
        network: NetworkService, sources: Sources, cache: FileCache, freshFor: TimeInterval = 300,
        keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, clock: any WallClock
    ) {
        var network = network
        network.userAgent = "Brolly/1.0 (+https://github.com/brolly-weather/brolly; \(sources.contact))"
        self.network = network
        self.sources = sources
        self.cache = cache
        self.freshFor = freshFor
        self.clock = clock
        fetcher = CachedFetcher(
            cache: cache, freshFor: freshFor, usableFor: 6 * 3600, failures: FailureMemory(base: min(60, freshFor), max: 900),
            refusals: FailureMemory(base: 3600), keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, clock: clock)
    }

    /// NWS covers the United States and its territories.
    static let nwsCountries: Set<String> = ["US", "PR", "GU", "VI", "AS", "MP", "UM"]

    /// One source request: where, how to read it, and how its alerts are matched to the place.
    struct Request: Sendable {
        enum Matching { case point, region, polygon }
        var key: String
        var name: String
        var url: URL
        var headers: [String: String]
        var label: String
        var matching: Matching
        var decode: @Sendable (Data) throws -> [CAPMessage]
    }

    func requests(for place: Place) -> [Request] {
        let c = place.coordinate
        var out: [Request] = []
        let code = place.countryCode?.uppercased()
        if code.map(Self.nwsCountries.contains) ?? Self.roughlyUS(c) {
            let point = Coordinate.fixed(c.latitude, places: 3) + "," + Coordinate.fixed(c.longitude, places: 3)
            out.append(
                Request(
                    key: "alerts-nws-\(c.cacheKey)", name: "nws",
                    url: sources.nws.appending(providerPath: "/alerts/active", query: [("point", point)]),
                    headers: ["Accept": "application/geo+json"], label: "NWS", matching: .point, decode: CAPDecoding.nws))
        }
        if let slug = code.flatMap({ MeteoAlarmCountries.slugs[$0] }) {
            out.append(
                Request(
                    key: "alerts-meteoalarm-\(slug)", name: "meteoalarm",
                    url: sources.meteoAlarm.appending(providerPath: "/api/v1/warnings/feeds-\(slug)", query: []),
                    headers: [:], label: "MeteoAlarm", matching: .region, decode: CAPDecoding.meteoAlarm))
        }
        if let key = sources.openWeatherMapKey {
            out.append(
                Request(
                    key: "alerts-owm-\(c.cacheKey)-\(Checksum.hex(Data(key.utf8)))", name: "openweathermap",
                    url: sources.openWeatherMap.appending(
                        providerPath: "/data/3.0/onecall",
                        query: [
                            ("lat", Coordinate.fixed(c.latitude, places: 3)), ("lon", Coordinate.fixed(c.longitude, places: 3)),
                            ("exclude", "current,minutely,hourly,daily"), ("appid", key),
                        ]),
                    headers: [:], label: "OpenWeatherMap One Call", matching: .point, decode: CAPDecoding.openWeatherMap))
        }
        for feed in sources.capFeeds {
            out.append(
                Request(
                    key: "alerts-cap-\(Checksum.hex(Data(feed.absoluteString.utf8)))", name: "cap", url: feed,
                    headers: ["Accept": "application/cap+xml, application/atom+xml, application/rss+xml, application/xml, text/xml"],
                    label: "CAP feed", matching: .polygon, decode: { try CAPDecoding.xml($0).messages }))
        }
        return out
    }

    /// A generous box around the 50 states, for places whose country is not known.
    static func roughlyUS(_ c: Coordinate) -> Bool {
        (18...72).contains(c.latitude) && (-180 ... -65).contains(c.longitude)
    }

    /// The current alerts for `place`. `names` are what the place is called at several levels
    /// (city, county, state), for matching MeteoAlarm's regions. `offline`: cached answers only.
    /// `grace`: wait for each source's call at most this long after it started (nil: wait for it).
    public func alerts(
        for place: Place, names: [String], language: String = "en", offline: Bool = false, grace: TimeInterval? = nil
    ) async -> AlertSet {
        let requests = requests(for: place)
        let answers = await withTaskGroup(of: (Request, [CAPMessage]?).self) { group in
            for r in requests { group.addTask { (r, await self.messages(r, offline: offline, grace: grace)) } }
            return await group.reduce(into: [(Request, [CAPMessage]?)]()) { $0.append($1) }
        }
        var set = AlertSet()
        let at = clock.now
        let c = place.coordinate
        var elsewhereCountry: String?
        for (request, messages) in answers.sorted(by: { $0.0.name < $1.0.name }) {
            guard let messages else {
                set.failedSources.append(request.name)
                continue
            }
            set.sources.append(request.name)
            for (alert, info) in AlertFilter.current(messages, language: language, now: at) {
                switch request.matching {
                case .point:
                    set.here.append(alert)
                case .polygon:
                    if info.areas.contains(where: { $0.covers(c) }) { set.here.append(alert) }
                case .region:
                    if info.areas.contains(where: { $0.covers(c) }) || AlertFilter.names(info, match: names) {
                        set.here.append(alert)
                    } else {
                        set.elsewhere.append(alert)
                        elsewhereCountry = place.country.isEmpty ? place.countryCode : place.country
                    }
                }
            }
        }
        set.here = Self.unique(set.here).sorted(by: Alert.ordered)
        set.elsewhere = Self.unique(set.elsewhere).sorted(by: Alert.ordered)
        set.elsewhereCountry = set.elsewhere.isEmpty ? nil : elsewhereCountry
        return set
    }

    static func unique(_ alerts: [Alert]) -> [Alert] {
        var seen = Set<String>()
        return alerts.filter { seen.insert($0.source + "|" + $0.id).inserted }
    }

    /// A source's messages: fresh from the cache; else one call (shared); on failure a usable
    /// cached answer; nil when there is none.
    func messages(_ r: Request, offline: Bool, grace: TimeInterval? = nil) async -> [CAPMessage]? {
        await fetcher.answer(r.key, offline: offline, grace: grace) { [self] in try await fetch(r) }?.value
    }

    func fetch(_ r: Request) async throws -> [CAPMessage] {
        do {
            let response = try await network.get(r.url, headers: r.headers, provider: r.label) { response in
                // NWS answers a point outside its area with 400 problem+json: "not covered".
                if r.name == "nws", response.status == 400 { return BrollyError(.placeNotFound, "NWS does not cover this point") }
                if r.name == "openweathermap", response.status == 401 { return .invalidAPIKey("OpenWeatherMap One Call 3.0") }
                return nil
            }
            var messages = try r.decode(response.body)
            if r.matching == .polygon {
                messages += await linkedCAP(response.body)
            }
            return messages
        } catch let error as BrollyError where r.name == "nws" && error.kind == .placeNotFound {
            return []
        }
    }

    /// The CAP documents an Atom or RSS feed links to (at most 20 per poll), when it does not embed them.
    func linkedCAP(_ feed: Data) async -> [CAPMessage] {
        guard let parsed = try? CAPDecoding.xml(feed), parsed.messages.isEmpty else { return [] }
        var out: [CAPMessage] = []
        for link in parsed.links.prefix(20) {
            let key = "cap-doc-\(Checksum.hex(Data(link.absoluteString.utf8)))"
            if let cached = cache.read([CAPMessage].self, key: key, memory: fetcher.memory) {
                out += cached.value
                continue
            }
            guard let r = try? await network.get(link, headers: ["Accept": "application/cap+xml, application/xml"], provider: "CAP feed"),
                let messages = try? CAPDecoding.xml(r.body).messages
            else { continue }
            try? cache.write(messages, key: key, receivedAt: clock.now, memory: fetcher.memory)
            out += messages
        }
        return out
    }
}

/// MeteoAlarm's country feed names (`feeds-<slug>`), by ISO 3166 code.
public enum MeteoAlarmCountries {
    public static let slugs: [String: String] = [
        "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria", "CH": "switzerland", "CY": "cyprus",
        "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia", "ES": "spain", "FI": "finland", "FR": "france",
        "GB": "united-kingdom", "GR": "greece", "HR": "croatia", "HU": "hungary", "IE": "ireland", "IL": "israel",
        "IS": "iceland", "IT": "italy", "LT": "lithuania", "LU": "luxembourg", "LV": "latvia", "MD": "moldova",
        "ME": "montenegro", "MK": "republic-of-north-macedonia", "MT": "malta", "NL": "netherlands", "NO": "norway",
        "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia", "SE": "sweden", "SI": "slovenia",
        "SK": "slovakia", "UA": "ukraine",
    ]
}
