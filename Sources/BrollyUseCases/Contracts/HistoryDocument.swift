import BrollyCore
import BrollyStore
import Foundation

/// A history entry as `GET /api/v1/history` and `brolly history --json` show it: a summary, and
/// the weather snapshot (the weather contract, marked stale) when one entry is asked for.
public struct HistoryDocument: Codable, Sendable {
    public var id: Int64
    /// When the lookup was made, ISO 8601 in UTC.
    public var createdAt: String
    public var latitude: Double
    public var longitude: Double
    public var placeName: String
    public var address: Address?
    /// °C.
    public var temperature: Double
    public var condition: ConditionDocument
    public var weather: WeatherDocument?

    /// The entry with its condition in `language` (from the stored condition, not the provider's
    /// own words of the day).
    public init(_ e: HistoryEntry, weather: WeatherDocument? = nil, language: LanguagePack = Localization.english, now: Date) {
        id = e.id ?? 0
        createdAt = LocalTime.iso8601(e.createdAt, in: TimeZone(secondsFromGMT: 0)!)
        latitude = e.latitude
        longitude = e.longitude
        placeName = e.placeName
        address = e.address
        let metric = WeatherDocument(e.weather, units: .metric, stale: true, age: 0, now: now, language: language)
        temperature = metric.current.temperature
        condition = metric.current.condition
        self.weather = weather
    }
}

/// A list of lookups, newest first: `{ "items": [...] }` in the API and the CLI alike.
public struct HistoryListDocument: Codable, Sendable {
    public var items: [HistoryDocument]

    public init(items: [HistoryDocument]) { self.items = items }
}
