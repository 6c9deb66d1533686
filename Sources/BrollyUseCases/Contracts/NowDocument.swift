import BrollyCore
import Foundation

/// The small API of seed 002 (`GET /api/v1/weather/now`): just what a widget shows, a few hundred
/// bytes, from the same cache as the full document. Every key is present; `feelsLike`, `clouds` and
/// `alert` may be null.
public struct NowDocument: Codable, Sendable, Hashable {
    public var place: String
    public var temperature: Double
    @WrittenAsNull public var feelsLike: Double?
    public var temperatureMin: Double
    public var temperatureMax: Double
    @WrittenAsNull public var clouds: Double?
    public var condition: ConditionDocument
    /// The most severe active alert's headline; null when there is none.
    @WrittenAsNull public var alert: String?
    public var units: String
    public var fetchedAt: String
    public var stale: Bool

    public init(_ result: WeatherResult, units: UnitChoice, language: LanguagePack = Localization.english, now: Date) {
        let doc = WeatherDocument(result, units: units, now: now, language: language)
        place = result.report.place.displayName
        temperature = doc.current.temperature
        feelsLike = doc.current.feelsLike
        temperatureMin = doc.current.temperatureMin
        temperatureMax = doc.current.temperatureMax
        clouds = doc.current.clouds
        condition = doc.current.condition
        alert = result.alerts?.mostSevere?.headline
        self.units = doc.units.temperature
        fetchedAt = doc.source.fetchedAt
        stale = doc.source.stale
    }
}
