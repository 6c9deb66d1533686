import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One news item, as shown to people. Titles and summaries are plain text.
public struct NewsItem: Codable, Sendable, Hashable {
    public var title: String
    public var summary: String
    public var publishedAt: Date
    public var url: String
    public var source: String

    public init(title: String, summary: String, publishedAt: Date, url: String, source: String) {
        self.title = title
        self.summary = summary
        self.publishedAt = publishedAt
        self.url = url
        self.source = source
    }
}

/// Choosing today's news for a place.
public enum NewsSelection {
    /// Only items published today in `zone` (an item from 23:30 yesterday is out, 00:10 today is
    /// in), those that mention the city or country first, newest first within each group, at most
    /// `limit`.
    public static func today(
        _ items: [NewsItem], in zone: TimeZone, now: Date, city: String?, country: String?, limit: Int = 10
    ) -> [NewsItem] {
        let today = LocalTime.dateString(now, in: zone)
        let terms = [city, country].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 3 }
            .map { $0.lowercased() }
        func mentions(_ item: NewsItem) -> Bool {
            let text = (item.title + " " + item.summary).lowercased()
            return terms.contains { text.contains($0) }
        }
        var seen = Set<String>()
        let fresh = items.filter { item in
            LocalTime.dateString(item.publishedAt, in: zone) == today && item.publishedAt <= now.addingTimeInterval(300)
                && seen.insert(item.url.isEmpty ? item.title : item.url).inserted
        }
        let sorted = fresh.sorted { a, b in
            let (ma, mb) = (mentions(a), mentions(b))
            return ma != mb ? ma : a.publishedAt > b.publishedAt
        }
        return Array(sorted.prefix(limit))
    }

    /// The BBC News feed path that covers a country (ISO code).
    public static func bbcFeedPath(countryCode: String?) -> String {
        switch countryCode?.uppercased() {
        case "GB", "UK", "IE", "IM", "JE", "GG": "/news/uk/rss.xml"
        case "US", "CA": "/news/world/us_and_canada/rss.xml"
        case "AU", "NZ", "FJ", "PG": "/news/world/australia/rss.xml"
        case let code? where europe.contains(code): "/news/world/europe/rss.xml"
        case let code? where asia.contains(code): "/news/world/asia/rss.xml"
        case let code? where middleEast.contains(code): "/news/world/middle_east/rss.xml"
        case let code? where africa.contains(code): "/news/world/africa/rss.xml"
        case let code? where latinAmerica.contains(code): "/news/world/latin_america/rss.xml"
        default: "/news/world/rss.xml"
        }
    }

    static let europe: Set<String> = [
        "AL", "AD", "AT", "BY", "BE", "BA", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IS", "IT",
        "XK", "LV", "LI", "LT", "LU", "MT", "MD", "MC", "ME", "NL", "MK", "NO", "PL", "PT", "RO", "RU", "SM", "RS", "SK",
        "SI", "ES", "SE", "CH", "UA", "VA", "GE", "AM", "AZ", "FO", "GL",
    ]
    static let asia: Set<String> = [
        "AF", "BD", "BT", "BN", "KH", "CN", "HK", "MO", "TW", "IN", "ID", "JP", "KZ", "KG", "LA", "MY", "MV", "MN", "MM",
        "NP", "KP", "KR", "PK", "PH", "SG", "LK", "TJ", "TH", "TL", "TM", "UZ", "VN",
    ]
    static let middleEast: Set<String> = [
        "BH", "EG", "IR", "IQ", "IL", "JO", "KW", "LB", "OM", "PS", "QA", "SA", "SY", "TR", "AE", "YE",
    ]
    static let africa: Set<String> = [
        "DZ", "AO", "BJ", "BW", "BF", "BI", "CV", "CM", "CF", "TD", "KM", "CG", "CD", "CI", "DJ", "GQ", "ER", "SZ", "ET",
        "GA", "GM", "GH", "GN", "GW", "KE", "LS", "LR", "LY", "MG", "MW", "ML", "MR", "MU", "MA", "MZ", "NA", "NE", "NG",
        "RW", "ST", "SN", "SC", "SL", "SO", "ZA", "SS", "SD", "TZ", "TG", "TN", "UG", "ZM", "ZW",
    ]
    static let latinAmerica: Set<String> = [
        "AR", "BO", "BR", "CL", "CO", "CR", "CU", "DO", "EC", "SV", "GT", "HN", "HT", "JM", "MX", "NI", "PA", "PY", "PE",
        "PR", "TT", "UY", "VE", "BS", "BB", "BZ", "GY", "SR",
    ]
}

/// Decoders for the news providers' formats.
public enum NewsDecoding {
    /// Parses an RSS 2.0 feed (BBC News): CDATA or plain text, HTML in descriptions reduced to
    /// text, RFC 822 dates with zone names or numeric offsets. Items without a date are dropped.
    public static func rss(_ data: Data, source: String = "BBC News") throws -> [NewsItem] {
        let delegate = RSSDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        guard parser.parse() || !delegate.items.isEmpty else {
            throw BrollyError.unreadableResponse("the news feed is not valid RSS")
        }
        guard delegate.sawChannel else { throw BrollyError.unreadableResponse("the news feed has no channel") }
        return delegate.items.compactMap { raw in
            guard let title = raw["title"].map(plainText), !title.isEmpty,
                let date = raw["pubDate"].flatMap(rfc822)
            else { return nil }
            return NewsItem(
                title: title, summary: plainText(raw["description"] ?? ""), publishedAt: date,
                url: (raw["link"] ?? raw["guid"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines), source: source)
        }
    }

    /// Parses a NewsAPI.org answer (`/v2/top-headlines` or `/v2/everything`); `null` authors,
    /// descriptions and source ids are fine. An error status becomes a typed error.
    public static func newsAPI(_ data: Data) throws -> [NewsItem] {
        let json = try JSONValue.parse(data, provider: "NewsAPI")
        if json["status"]?.string == "error" {
            let code = json["code"]?.string ?? ""
            let message = json["message"].nonEmptyString ?? code
            switch code {
            case "apiKeyInvalid", "apiKeyMissing", "apiKeyDisabled", "apiKeyExhausted": throw BrollyError.invalidAPIKey("NewsAPI")
            case "rateLimited": throw BrollyError.rateLimited(retryAfter: nil)
            default: throw BrollyError.providerUnavailable("NewsAPI: \(message)")
            }
        }
        guard let articles = json["articles"]?.array else { throw BrollyError.unreadableResponse("NewsAPI answer has no articles") }
        return articles.compactMap { a in
            guard let title = a["title"].nonEmptyString, title != "[Removed]",
                let date = a["publishedAt"]?.string.flatMap(iso8601)
            else { return nil }
            return NewsItem(
                title: plainText(title), summary: plainText(a["description"].nonEmptyString ?? ""), publishedAt: date,
                url: a["url"].nonEmptyString ?? "", source: a["source"]?["name"].nonEmptyString ?? "NewsAPI")
        }
    }

    /// RFC 822 / 1123 dates as RSS uses them.
    public static func rfc822(_ string: String) -> Date? {
        let s = string.trimmingCharacters(in: .whitespacesAndNewlines)
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm zzz",
        ] {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = TimeZone(secondsFromGMT: 0)
            f.dateFormat = format
            if let d = f.date(from: s) { return d }
        }
        return nil
    }

    static func iso8601(_ string: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: string) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: string)
    }

    /// Text with tags removed, common entities decoded and whitespace collapsed.
    public static func plainText(_ html: String) -> String {
        var s = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, char) in [
            ("&nbsp;", " "), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"),
        ] {
            s = s.replacingOccurrences(of: entity, with: char)
        }
        return s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

private final class RSSDelegate: NSObject, XMLParserDelegate {
    var items: [[String: String]] = []
    var sawChannel = false
    private var current: [String: String]?
    private var text = ""
    private var depthInItem = 0

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        if name == "channel" { sawChannel = true }
        if name == "item" {
            current = [:]
            depthInItem = 0
        } else if current != nil {
            depthInItem += 1
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "item", let item = current {
            items.append(item)
            current = nil
        } else if current != nil {
            if depthInItem == 1, current?[name] == nil {
                current?[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            depthInItem -= 1
        }
        text = ""
    }
}

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
        if let entry = cache.read([NewsItem].self, key: key), now().timeIntervalSince(entry.receivedAt) < 600 {
            return entry.value
        }
        do {
            let isNewsAPI = if case .newsAPI = source { true } else { false }
            let response = try await network.get(url, headers: headers, provider: "news service") { response in
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
            try? cache.write(items, key: key, receivedAt: now())
            return items
        } catch is BrollyError where cache.read([NewsItem].self, key: key) != nil {
            // The provider failed: older items are still filtered to today by the caller.
            return cache.read([NewsItem].self, key: key)!.value
        }
    }
}
