import BrollyCore
import Foundation

/// The small API of seed 002 (`GET /api/v1/weather/now`): just what a widget shows, a few hundred
/// bytes, from the same cache as the full document.
public struct NowDocument: Codable, Sendable, Hashable {
    public var place: String
    public var temperature: Double
    public var feelsLike: Double?
    public var temperatureMin: Double
    public var temperatureMax: Double
    public var clouds: Double?
    public var condition: WeatherDocument.ConditionInfo
    /// The most severe active alert's headline; null when there is none.
    public var alert: String?
    public var units: String
    public var fetchedAt: String
    public var stale: Bool

    enum CodingKeys: String, CodingKey {
        case place, temperature, feelsLike, temperatureMin, temperatureMax, clouds, condition, alert, units, fetchedAt, stale
    }

    /// Every key is present; `feelsLike`, `clouds` and `alert` may be null.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(place, forKey: .place)
        try c.encode(temperature, forKey: .temperature)
        try c.encode(feelsLike, forKey: .feelsLike)
        try c.encode(temperatureMin, forKey: .temperatureMin)
        try c.encode(temperatureMax, forKey: .temperatureMax)
        try c.encode(clouds, forKey: .clouds)
        try c.encode(condition, forKey: .condition)
        try c.encode(alert, forKey: .alert)
        try c.encode(units, forKey: .units)
        try c.encode(fetchedAt, forKey: .fetchedAt)
        try c.encode(stale, forKey: .stale)
    }

    public init(_ result: WeatherResult, units: UnitChoice, language: LanguagePack = Localization.english) {
        let doc = WeatherDocument(result, units: units, language: language)
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
