import Foundation

/// Today's news for a place: BBC News RSS by default, NewsAPI.org when a key is set.
public struct NewsService: Sendable {
    public enum Source: Sendable {
        case bbc(baseURL: URL)
        case newsAPI(baseURL: URL, apiKey: String)
    }

    public var network: NetworkService
    public var source: Source
    public var cache: FileCache
    /// The feed's answers: fresh for 10 minutes, through the cluster's shared tier; when the
    /// provider fails, older items stand in (they are filtered to today by the caller).
    let fetcher: CachedFetcher<[NewsItem]>
    /// The injected clock (its fetchers wait on it too).
    let clock: any WallClock

    public init(network: NetworkService, source: Source, cache: FileCache, clock: any WallClock) {
        self.network = network
        self.source = source
        self.cache = cache
        self.clock = clock
        fetcher = CachedFetcher(cache: cache, freshFor: 600, usableFor: .infinity, shared: true, clock: clock)
    }

    /// Up to 10 of today's items (in the place's time zone) for the place's city and country.
    /// Where the items for `place` come from: the news source and the region its feed covers.
    /// In `language` where the source has it: the BBC World Service's feed in that language (the
    /// whole world's news), NewsAPI's articles in it; else English.
    public func feed(for place: Place, language: String = "en") -> NewsFeed {
        let code = Localization.baseCode(language)
        switch source {
        case .bbc:
            if code != "en", NewsSelection.bbcLanguageFeedPath(code) != nil {
                return NewsFeed(source: "BBC News", region: "World", code: "world", language: code)
            }
            let region = NewsSelection.bbcFeedRegion(countryCode: place.countryCode)
            return NewsFeed(source: "BBC News", region: region.name, code: region.code)
        case .newsAPI:
            return NewsFeed(
                source: "NewsAPI", region: place.name, code: "place", language: NewsSelection.newsAPILanguages.contains(code) ? code : "en")
        }
    }

    public func today(for place: Place, limit: Int = 10, language: String = "en") async throws -> [NewsItem] {
        let items = try await fetch(for: place, language: feed(for: place, language: language).language)
        return NewsSelection.today(
            items, in: place.timeZone, now: clock.now, city: place.name, country: place.country, limit: limit)
    }

    func fetch(for place: Place, language: String) async throws -> [NewsItem] {
        let url: URL
        var headers: [String: String] = [:]
        switch source {
        case .bbc(let base):
            let path = NewsSelection.bbcLanguageFeedPath(language) ?? NewsSelection.bbcFeedPath(countryCode: place.countryCode)
            url = base.appending(providerPath: path, query: [])
            headers["Accept"] = "application/rss+xml, application/xml, text/xml"
        case .newsAPI(let base, let key):
            let from = LocalTime.dateString(clock.now.addingTimeInterval(-86_400), in: TimeZone(secondsFromGMT: 0)!)
            url = base.appending(
                providerPath: "/v2/everything",
                query: [("q", "\"\(place.name)\""), ("from", from), ("sortBy", "publishedAt"), ("pageSize", "50"), ("language", language)])
            headers["X-Api-Key"] = key  // a header, so the key is never in a logged URL
        }
        // The key takes in the credentials too: an answer got with one API key is not another's.
        let key = "news-\(Checksum.hex(Data((url.absoluteString + " " + (headers["X-Api-Key"] ?? "")).utf8)))"
        let isNewsAPI = if case .newsAPI = source { true } else { false }
        let source = source
        return try await fetcher.value(key) { [network, headers] in
            let response = try await network.get(url, headers: headers, provider: isNewsAPI ? "NewsAPI" : "BBC News") { response in
                // NewsAPI explains its errors in the body ({"status": "error", "code": ...}).
                guard isNewsAPI else { return nil }
                do {
                    _ = try NewsDecoding.newsAPI(response.body)
                    return nil
                } catch {
                    return error as? BrollyError
                }
            }
            switch source {
            case .bbc: return try NewsDecoding.rss(response.body)
            case .newsAPI: return try NewsDecoding.newsAPI(response.body)
            }
        }.value
    }
}
