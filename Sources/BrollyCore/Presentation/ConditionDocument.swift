import Foundation

/// A condition as the documents write it (the weather's now, hours and days, the widget's `now`, a
/// saved place's glance): its code and icon, its texts in the reader's language.
public struct ConditionDocument: Codable, Sendable, Hashable {
    public var code: Int
    public var title: String
    public var description: String
    public var icon: String

    public init(_ c: WeatherView.ConditionView) {
        (code, icon) = (c.condition.code, c.condition.icon)
        (title, description) = (c.title, c.description)
    }
}
