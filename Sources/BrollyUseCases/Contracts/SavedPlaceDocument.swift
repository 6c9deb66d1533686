import BrollyCore
import BrollyStore
import Foundation

/// A saved place as `brolly places list --json` prints it and `/api/v1/places` serves it: the
/// place's own fields (`PlaceDocument`, as search answers it) and, beside them in the same object,
/// what saving it added (`PlaceSaving`). The database record (`SavedPlace`) stays a storage type: its
/// device id never leaves the store.
public typealias SavedPlaceDocument = SideBySide<PlaceDocument, PlaceSaving>

/// What saving a place adds to it, as the documents show it.
public struct PlaceSaving: Codable, Sendable, Hashable {
    public var id: Int64
    public var customName: String?
    /// The custom name when there is one, else the place's own.
    public var displayName: String
    /// Position in the list, from 0; the first is the default place.
    public var position: Int
    /// The weather the cache already has for the place, shown beside its name; nil when the
    /// cache has none (the list never makes an upstream call).
    public var now: Glance?

    /// A saved place's weather at a glance: the temperature (°C) and condition of the cached answer.
    public struct Glance: Codable, Sendable, Hashable {
        public var temperature: Double
        public var condition: ConditionDocument
        /// When the provider's answer arrived (ISO 8601, the place's offset).
        public var fetchedAt: String
        /// Past the cache's freshness: shown, marked as old.
        public var stale: Bool
    }
}

extension SideBySide where Main == PlaceDocument, Added == PlaceSaving {
    public init(_ p: SavedPlace) {
        self.init(p.row.main, PlaceSaving(id: p.id ?? 0, customName: p.customName, displayName: p.displayName, position: p.orderIndex))
    }

    /// The place with the weather `entry` holds (temperature rounded to a tenth, the condition in `language`).
    public func glancing(at entry: CacheEntry<WeatherReport>?, freshFor: TimeInterval, language: LanguagePack, now: Date)
        -> SavedPlaceDocument
    {
        guard let entry else { return self }
        var copy = self
        let report = entry.value
        copy.now = PlaceSaving.Glance(
            temperature: Rounding.round(report.current.temperature, 1),
            condition: ConditionDocument(.init(report.current.condition, of: report, in: language)),
            fetchedAt: LocalTime.iso8601(report.fetchedAt, in: report.place.timeZone),
            stale: now.timeIntervalSince(report.fetchedAt) >= freshFor)
        return copy
    }

    /// The place for weather lookups.
    public var place: Place { main.place }
}
