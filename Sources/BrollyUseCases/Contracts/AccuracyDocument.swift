import BrollyCore
import Foundation

/// How good the forecasts have been at a place, as `GET /api/v1/accuracy` and
/// `brolly accuracy --json` show it: per model, per lead day, over the last 30 local days.
public struct AccuracyDocument: Codable, Sendable, Hashable {
    public struct Model: Codable, Sendable, Hashable {
        /// Open-Meteo's model name (`ecmwf_ifs025`), as `models=` takes it.
        public var model: String
        /// A name for people ("ECMWF IFS").
        public var name: String
        /// Whether this model makes the forecasts Brolly shows.
        public var chosen: Bool
        public var leads: [LeadScore]
    }

    public struct Best: Codable, Sendable, Hashable {
        public var model: String
        public var lead: Int
        public var highMAE: Double
    }

    public struct Units: Codable, Sendable, Hashable {
        /// The unit of the errors (`°C`, `°F`, `K`).
        public var temperature: String
        /// What "within" means, in that unit: 2 °C is 3.6 °F.
        public var tolerance: Double

        /// "2 °C", "3.6 °F", "2 K", with the language's decimal separator.
        public func toleranceText(_ l: LanguagePack) -> String {
            l.number(String(format: tolerance == tolerance.rounded() ? "%.0f" : "%.1f", tolerance)) + " " + temperature
        }
    }

    public var place: WeatherDocument.PlaceInfo
    /// The local days scored (the most any model's lead had); fewer than 30 when fewer exist.
    public var days: Int
    /// `station`: the temperatures a station within 25 km measured; `analysis`: each model's own
    /// latest analysis of each hour. Wet days are always judged against the analysis.
    public var truth: String
    public var station: StationInfo?
    public var models: [Model]
    /// The model with the lowest error of tomorrow's high, among those with 5 days or more scored.
    public var best: Best?
    public var units: Units
    /// When the scores were computed; they are kept 6 hours.
    public var computedAt: String
    /// The scores are older than 6 hours (they could not be computed again just now).
    public var stale: Bool

    /// `chosenModel`: the model the forecasts shown come from (the configured one; for `auto`, the
    /// best here when enough days are scored).
    public init(place: Place, report: AccuracyReport, stale: Bool, units: UnitSystem, chosenModel: String? = nil) {
        let chosenModel = chosenModel ?? report.autoModel ?? OpenMeteoProvider.defaultModel
        self.place = WeatherDocument.PlaceInfo(
            name: place.name, country: place.country, countryCode: place.countryCode, region: place.region,
            latitude: place.latitude, longitude: place.longitude, timezone: report.timezone)
        days = report.days
        truth = report.truth
        station = report.station
        let degrees = units.temperature
        func scaled(_ s: LeadScore) -> LeadScore {
            var s = s
            s.highMAE = Rounding.round(degrees.difference(s.highMAE), 2)
            s.lowMAE = Rounding.round(degrees.difference(s.lowMAE), 2)
            return s
        }
        models = report.models.map {
            Model(
                model: $0.model, name: WeatherDocument.modelNames[$0.model] ?? $0.model, chosen: $0.model == chosenModel,
                leads: $0.leads.map(scaled))
        }
        best = report.best().map { Best(model: $0.model, lead: 1, highMAE: Rounding.round(degrees.difference($0.score.highMAE), 2)) }
        self.units = Units(temperature: degrees.symbol, tolerance: Rounding.round(degrees.difference(ForecastScores.close), 1))
        computedAt = LocalTime.iso8601(report.computedAt, in: TimeZone(identifier: report.timezone) ?? .gmt)
        self.stale = stale
    }

    /// The chosen model's lead-1 score, else the best's: the one sentence people read.
    public var tomorrow: (model: Model, score: LeadScore)? {
        let pick = models.first { $0.chosen } ?? models.first { $0.model == best?.model }
        return pick.flatMap { m in m.leads.first { $0.lead == 1 }.map { (m, $0) } }
    }
}
