import BrollyCore
import Foundation

/// Today's news for a place, as `GET /api/v1/news` and `brolly news --json` show it.
public struct NewsDocument: Codable, Sendable, Hashable {
    /// One item; `publishedAt` is ISO 8601 with the place's offset.
    public struct Item: Codable, Sendable, Hashable {
        public var title: String
        public var summary: String
        public var publishedAt: String
        public var url: String
        public var source: String
    }

    /// The place's display name.
    public var place: String
    /// Where the items come from (the feed's region, which may be wider than the place).
    public var feed: NewsFeed?
    /// At most 10, published today in the place's time zone, those mentioning the place first.
    public var items: [Item]

    public init(place: Place, items: [NewsItem], feed: NewsFeed? = nil) {
        self.place = place.displayName
        self.feed = feed
        let zone = place.timeZone
        self.items = items.map {
            Item(
                title: $0.title, summary: $0.summary, publishedAt: LocalTime.iso8601($0.publishedAt, in: zone), url: $0.url,
                source: $0.source)
        }
    }
}
