import Foundation

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
    /// The region the BBC feed of `bbcFeedPath(countryCode:)` covers: a code and its English name.
    public static func bbcFeedRegion(countryCode: String?) -> (code: String, name: String) {
        let path = bbcFeedPath(countryCode: countryCode)
        let regions: [(String, String, String)] = [
            ("/news/uk/", "uk", "UK"), ("/us_and_canada/", "us-and-canada", "US & Canada"), ("/australia/", "australia", "Australia"),
            ("/europe/", "europe", "Europe"), ("/asia/", "asia", "Asia"), ("/middle_east/", "middle-east", "Middle East"),
            ("/africa/", "africa", "Africa"), ("/latin_america/", "latin-america", "Latin America"),
        ]
        for (part, code, name) in regions where path.contains(part) { return (code, name) }
        return ("world", "World")
    }

    /// The BBC World Service's feed in `language` (a two-letter code), where it has one: Russian,
    /// Ukrainian, Arabic, Japanese, Chinese, Portuguese (Brasil), Spanish (Mundo) and Turkish.
    public static func bbcLanguageFeedPath(_ language: String) -> String? {
        switch language {
        case "ru": "/russian/rss.xml"
        case "uk": "/ukrainian/rss.xml"
        case "ar": "/arabic/rss.xml"
        case "ja": "/japanese/rss.xml"
        case "zh": "/zhongwen/simp/rss.xml"
        case "pt": "/portuguese/rss.xml"
        case "es": "/mundo/rss.xml"
        case "tr": "/turkce/rss.xml"
        default: nil
        }
    }

    /// The languages NewsAPI searches in (its `language=`).
    static let newsAPILanguages: Set<String> = ["ar", "de", "en", "es", "fr", "he", "it", "nl", "no", "pt", "ru", "sv", "zh"]

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
