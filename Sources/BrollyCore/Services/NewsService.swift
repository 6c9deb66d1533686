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
    let now: @Sendable () -> Date

    public init(network: NetworkService, source: Source, cache: FileCache, now: @escaping @Sendable () -> Date = { Date() }) {
        self.network = network
        self.source = source
        self.cache = cache
        self.now = now
    }

    /// Up to 10 of today's items (in the place's time zone) for the place's city and country.
    public func today(for place: Place, limit: Int = 10) async throws -> [NewsItem] {
        let items = try await fetch(for: place)
        return NewsSelection.today(
            items, in: place.timeZone, now: now(), city: place.name, country: place.country, limit: limit)
    }

    func fetch(for place: Place) async throws -> [NewsItem] {
        let url: URL
        var headers: [String: String] = [:]
        switch source {
        case .bbc(let base):
            url = base.appending(providerPath: NewsSelection.bbcFeedPath(countryCode: place.countryCode), query: [])
            headers["Accept"] = "application/rss+xml, application/xml, text/xml"
        case .newsAPI(let base, let key):
            let from = LocalTime.dateString(now().addingTimeInterval(-86_400), in: TimeZone(secondsFromGMT: 0)!)
            url = base.appending(
                providerPath: "/v2/everything",
                query: [("q", "\"\(place.name)\""), ("from", from), ("sortBy", "publishedAt"), ("pageSize", "50"), ("language", "en")])
            headers["X-Api-Key"] = key  // a header, so the key is never in a logged URL
        }
        // The key takes in the credentials too: an answer got with one API key is not another's.
        let key = "news-\(Checksum.hex(Data((url.absoluteString + " " + (headers["X-Api-Key"] ?? "")).utf8)))"
        let now = self.now
        if let entry = await cache.current(
            [NewsItem].self, key: key, memory: nil, now: now(), isCurrent: { now().timeIntervalSince($0.receivedAt) < 600 })
        {
            return entry.value
        }
        do {
            let isNewsAPI = if case .newsAPI = source { true } else { false }
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
            let items: [NewsItem]
            switch source {
            case .bbc: items = try NewsDecoding.rss(response.body)
            case .newsAPI: items = try NewsDecoding.newsAPI(response.body)
            }
            await cache.writeThrough(items, key: key, receivedAt: now())
            return items
        } catch is BrollyError where cache.read([NewsItem].self, key: key) != nil {
            // The provider failed: older items are still filtered to today by the caller.
            return cache.read([NewsItem].self, key: key)!.value
        }
    }
}
