import Foundation

/// One news item, as shown to people. Titles and summaries are plain text.
public struct NewsItem: Codable, Sendable, Hashable {
    public var title: String
    public var summary: String
    public var publishedAt: Date
    public var url: String
    public var source: String
}

/// Where a place's news comes from: BBC News publishes by region (`code`: `uk`, `us-and-canada`,
/// `europe`, …, `world`), NewsAPI is searched for the place's name (`code` `place`).
public struct NewsFeed: Codable, Sendable, Hashable {
    public var source: String
    /// The region in English (the page names it in the reader's language by `code`).
    public var region: String
    public var code: String
    /// The language of the items (`en`, `ru`): the reader's where a feed in it exists, else English.
    public var language: String = "en"
}
