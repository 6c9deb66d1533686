import Foundation

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
