import BrollyCore
import Foundation

/// How good the forecasts have been at a place, as `GET /api/v1/accuracy` and
/// `brolly accuracy --json` show it: per model, per lead day, over at most the last 30 local days,
/// against an independent reference, and what correcting the forecast for the place does.
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

    /// A model's lasting error at tomorrow's high or low, large enough to name: "Highs here run
    /// 1.5° warm in GFS".
    public struct Bias: Codable, Sendable, Hashable {
        public var model: String
        public var name: String
        /// `high` or `low`.
        public var variable: String
        /// Forecast − reference, in `units.temperature`: positive is too warm.
        public var bias: Double
    }

    /// The single model `auto` switches to, and why.
    public struct Auto: Codable, Sendable, Hashable {
        public var model: String
        public var name: String
        public var days: Int
        /// Its error of tomorrow's high was lower than Open-Meteo's choice's by this…
        public var improvement: Double
        /// …which is more than this: twice the standard error of the daily differences.
        public var margin: Double
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

    public var place: PlaceDocument
    /// The local days scored (the most any model's lead had); fewer than 30 when fewer exist.
    public var days: Int
    /// Below this many days nothing is ranked, drawn or corrected.
    public var minimumDays: Int
    /// `days` ≥ `minimumDays`.
    public var enough: Bool
    /// `station`: the highs and lows a station within 25 km measured; `reanalysis`: the ERA5
    /// reanalysis. Never a model's own run.
    public var truth: String
    /// What the forecasts were scored against: which, where, how far, over which days (and where
    /// wet days came from).
    public var reference: AccuracyReport.Reference
    /// The station nearby that was not used, having too few whole days.
    public var passedOver: AccuracyReport.PassedOver?
    /// "Lead N is the value forecast N × 24 hours before each hour" (Open-Meteo's `previous_dayN`).
    public var leadDefinition: String
    public var station: StationInfo?
    public var models: [Model]
    /// The forecast Brolly shows, scored exactly like the models (n, bias, error and its standard
    /// error, within 2 °C, by lead) from an out-of-sample replay at the place: each past day
    /// corrected (`brolly`, named "Brolly") or chosen (`auto`, "Brolly auto") only with what was
    /// known when that forecast was made. Nil when a named model is shown (its row is `chosen`) or
    /// no day could be replayed yet.
    public var shown: Model?
    /// Both forecasts Brolly can show, scored the same way: the corrected one (`brolly`) and
    /// `auto`'s; `chosen` marks the one shown.
    public var brolly: [Model]
    /// How far the truth has fallen from the forecast shown by lead, for its 80 % ranges: the 10th
    /// and 90th percentile of truth − forecast (`high`, `low`, in `units.temperature`), and how
    /// often the range made for each day without it and its neighbours held the truth
    /// (`coverage`, 0–1, out of sample; nil below 7 such days). Nil when the forecast shown is not
    /// scored.
    public var ranges: [ErrorRange]?
    /// The model with the lowest error of tomorrow's high, among those with enough days scored;
    /// nil below the minimum.
    public var best: Best?
    /// The model `model=auto` switches to here (better than Open-Meteo's choice by more than its
    /// uncertainty); nil: Open-Meteo's choice.
    public var auto: Auto?
    /// The lasting errors of tomorrow's high and low worth naming (at least 0.5 °C, and more than
    /// twice the bias's standard error), largest first.
    public var biases: [Bias]
    /// Whether the forecast shown (`model=brolly`, the default) is corrected for these errors.
    public var corrected: Bool
    public var units: Units
    /// When the scores were computed; they are kept 6 hours.
    public var computedAt: String
    /// The scores are older than 6 hours (they could not be computed again just now).
    public var stale: Bool

    /// `chosenModel`: the model the forecasts shown come from (the configured one; for `auto`, the
    /// best here when enough days are scored).
    public init(place: Place, report: AccuracyReport, stale: Bool, units: UnitSystem, chosenModel: String? = nil) {
        let report = report.measured(from: place.coordinate)
        let chosenModelArgument = chosenModel
        let corrects = (chosenModel ?? BrollyConfiguration.corrected) == BrollyConfiguration.corrected && report.isEnough
        let chosenModel =
            corrects
            ? nil
            : BrollyConfiguration.choosesModel(chosenModel) || chosenModel == nil
                ? report.autoModel ?? OpenMeteoProvider.defaultModel : chosenModel
        self.place = PlaceDocument(place)
        self.place.timezone = report.timezone
        days = report.days
        minimumDays = ForecastScores.minimumDays
        enough = report.isEnough
        truth = report.truth
        reference = report.reference
        passedOver = report.passedOver
        leadDefinition = "lead N: the value forecast N × 24 hours before each hour (Open-Meteo's previous_dayN)"
        station = report.station
        corrected = corrects
        let degrees = units.temperature
        func d(_ x: Double) -> Double { Rounding.round(degrees.difference(x), 2) }
        func scaled(_ s: LeadScore) -> LeadScore {
            var s = s
            (s.highMAE, s.lowMAE, s.highBias, s.lowBias) = (d(s.highMAE), d(s.lowMAE), d(s.highBias), d(s.lowBias))
            (s.highMAEStandardError, s.lowMAEStandardError) = (d(s.highMAEStandardError), d(s.lowMAEStandardError))
            (s.highBiasStandardError, s.lowBiasStandardError) = (d(s.highBiasStandardError), d(s.lowBiasStandardError))
            return s
        }
        models = report.models.map {
            Model(
                model: $0.model, name: WeatherDocument.modelNames[$0.model] ?? $0.model, chosen: $0.model == chosenModel,
                leads: $0.leads.map(scaled))
        }
        // The forecast shown: corrected once enough days are scored, else `auto`'s (as the weather
        // falls back); a named model's row is its own.
        let configured = chosenModelArgument ?? BrollyConfiguration.corrected
        let shownRow = corrects ? BrollyConfiguration.corrected : BrollyConfiguration.choosesModel(configured) ? "auto" : nil
        ranges = shownRow.flatMap { report.ranges[$0] }.map { leads in
            leads.keys.sorted().compactMap { lead in
                leads[lead].map {
                    var r = $0
                    (r.high, r.low) = (r.high.map(d), r.low.map(d))
                    return r
                }
            }
        }
        brolly = report.shown.map {
            Model(
                model: $0.model, name: Self.shownNames[$0.model] ?? $0.model, chosen: $0.model == shownRow, leads: $0.leads.map(scaled))
        }
        shown = brolly.first { $0.chosen }
        let name = { (model: String) in WeatherDocument.modelNames[model] ?? model }
        best = report.isEnough ? report.best().map { Best(model: $0.model, lead: 1, highMAE: d($0.score.highMAE)) } : nil
        auto = report.autoModel.flatMap { _ in report.auto }.map {
            Auto(model: $0.model, name: name($0.model), days: $0.n, improvement: d($0.improvement), margin: d($0.margin))
        }
        var biases: [Bias] = []
        for m in report.models where report.isEnough {
            guard let one = m.leads.first(where: { $0.lead == 1 && $0.n >= ForecastScores.minimumDays }) else { continue }
            // A bias is named when it is more than twice its own standard error (the errors' spread
            // over √n), not the error's.
            for (variable, bias, spread) in [
                ("high", one.highBias, one.highBiasStandardError), ("low", one.lowBias, one.lowBiasStandardError),
            ]
            where abs(bias) >= 0.5 && abs(bias) > 2 * spread {
                biases.append(Bias(model: m.model, name: name(m.model), variable: variable, bias: d(bias)))
            }
        }
        self.biases = biases.sorted { (abs($0.bias), $1.model) > (abs($1.bias), $0.model) }
        self.units = Units(temperature: degrees.symbol, tolerance: Rounding.round(degrees.difference(ForecastScores.close), 1))
        computedAt = LocalTime.iso8601(report.computedAt, in: TimeZone(identifier: report.timezone) ?? .gmt)
        self.stale = stale
    }

    /// The names of the forecasts Brolly shows (a product's name, the same in every language).
    public static let shownNames = [BrollyConfiguration.corrected: "Brolly", "auto": "Brolly auto"]

    /// The lead-1 score of the forecast shown, else the chosen model's, else the best's: the one
    /// sentence people read.
    public var tomorrow: (model: Model, score: LeadScore)? {
        let pick = shown ?? models.first { $0.chosen } ?? models.first { $0.model == best?.model }
        return pick.flatMap { m in m.leads.first { $0.lead == 1 }.map { (m, $0) } }
    }
}
