import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Decoders for the news providers' formats.
public enum NewsDecoding {
    /// Parses an RSS 2.0 feed (BBC News): CDATA or plain text, HTML in descriptions reduced to
    /// text, RFC 822 dates with zone names or numeric offsets. Items without a date are dropped.
    public static func rss(_ data: Data, source: String = "BBC News") throws -> [NewsItem] {
        let delegate = RSSDelegate()
        let parser = XMLParser(data: XMLInput.sanitized(data))
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
        // Foundation's DateFormatter traps on some strings that are not ASCII ("Thu, 26ֱov 2026 …",
        // found by fuzzing, Fuzz/found/bbc-rss); an RFC 822 date is ASCII.
        guard s.count <= 64, s.allSatisfy(\.isASCII) else { return nil }
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
        guard string.count <= 64, string.allSatisfy(\.isASCII) else { return nil }
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
