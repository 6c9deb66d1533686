import Foundation

/// How good the forecasts have been at one place: every model's scores by lead day over the last
/// 30 local days against an independent reference (a station nearby with enough whole days, else
/// the ERA5 reanalysis; never a model's own run), and what correcting them takes. Kept in °C; the
/// reader's units are applied when it is shown.
public struct AccuracyReport: Codable, Sendable, Hashable {
    public struct ModelScores: Codable, Sendable, Hashable {
        public var model: String
        public var leads: [LeadScore]
    }

    /// What the forecasts were scored against.
    public struct Reference: Codable, Sendable, Hashable {
        /// `station` (a METAR station's highs and lows) or `reanalysis` (ERA5 / ERA5-Land).
        public var kind: String
        /// The station's ICAO id, or the reanalysis' model name (`era5_seamless`).
        public var id: String
        public var name: String
        /// From the place to the station, or to the reanalysis' grid point.
        public var distanceKm: Double?
        /// Where the station or the grid point is.
        public var latitude: Double?
        public var longitude: Double?
        /// The whole local days the reference has before today (the scores use at most 30).
        public var days: Int
        public var firstDay: String?
        public var lastDay: String?
        /// Where precipitation days came from when the temperatures came from a station (it
        /// reports no reliable amounts): the reanalysis, or nil when it could not be had.
        public var precipitation: String?
    }

    /// A station near enough that was not used: it has too few whole days.
    public struct PassedOver: Codable, Sendable, Hashable {
        public var station: StationInfo
        public var days: Int
    }

    /// When the scores were computed (the answers' arrival).
    public var computedAt: Date
    /// The place's time zone, whose days were scored.
    public var timezone: String
    public var reference: Reference
    public var passedOver: PassedOver?
    /// The days scored (the most any lead had).
    public var days: Int
    /// Models with at least one scored day, in `OpenMeteoPreviousRuns.models`' order.
    public var models: [ModelScores]
    /// The forecasts Brolly shows, scored like the models from an out-of-sample replay at the
    /// place (each past day corrected, or chosen, only with what was known before it was made):
    /// `brolly` (the corrected forecast) and `auto`; a row only where a day could be replayed.
    public var shown: [ModelScores]
    /// The forecast shown's error ranges by lead (`brolly`, `auto` → lead → range): what
    /// calibrates each day's 80 % range, with its out-of-sample coverage.
    public var ranges: [String: [Int: ErrorRange]]
    /// Model → lead → what correcting it takes (models and leads with enough days).
    public var fits: [String: [Int: CorrectionFit]]
    /// Lead → `blend`, or the one model that corrected alone did better than the blend here out
    /// of sample (the models' errors shared).
    public var choices: [Int: String]
    /// The single model `auto` switches to, and by how much it was better; nil: Open-Meteo's choice.
    public var auto: AutoChoice?
    /// The local day the scores were computed on: the latest runs' lead is counted from it.
    public var today: String
    /// Each model's latest run for today and the days after: model → day → values.
    public var latest: [String: [String: DayValues]]

    /// `station` or `reanalysis`.
    public var truth: String { reference.kind }
    public var station: StationInfo? {
        reference.kind == "station"
            ? StationInfo(
                id: reference.id, name: reference.name, distanceKm: reference.distanceKm ?? 0, latitude: reference.latitude,
                longitude: reference.longitude) : nil
    }

    /// The report with its distances measured from `c`, the place asked about (the scores are its
    /// 0.1° cell's, up to 7 km away).
    public func measured(from c: Coordinate) -> AccuracyReport {
        var r = self
        if let lat = reference.latitude, let lon = reference.longitude {
            r.reference.distanceKm = Rounding.round(c.distanceKm(to: Coordinate(latitude: lat, longitude: lon)), 1)
        }
        if let p = passedOver { r.passedOver?.station = p.station.measured(from: c) }
        return r
    }
    /// Whether enough days are scored to rank the models, draw them and correct them.
    public var isEnough: Bool { days >= ForecastScores.minimumDays }

    /// The model `BROLLY_MODEL=auto` asks for here; nil (Open-Meteo's own choice) unless one was
    /// better by more than its uncertainty.
    public var autoModel: String? { isEnough ? auto?.model : nil }

    /// The model whose forecast of tomorrow's high (lead 1) was best, among models with at least
    /// `minimumDays` days scored; nil when none has that many.
    public func best(minimumDays: Int = ForecastScores.minimumDays) -> (model: String, score: LeadScore)? {
        models.compactMap { m in m.leads.first { $0.lead == 1 && $0.n >= minimumDays }.map { (m.model, $0) } }
            .min { ($0.1.highMAE, $0.0) < ($1.1.highMAE, $1.0) }
    }

    /// The corrected high and low of each local day from today on that the latest runs reach,
    /// with `fresh` (a newer forecast of `freshModel`, issued on `freshToday`) in place of that
    /// model's latest run. Empty below the minimum of days.
    public func corrected(fresh: [String: DayValues] = [:], freshModel: String? = nil, freshToday: String? = nil) -> [String:
        CorrectedDay]
    {
        guard isEnough else { return [:] }
        var out: [String: CorrectedDay] = [:]
        let days = Set(latest.values.flatMap(\.keys)).union(fresh.keys).filter { $0 >= (freshToday ?? today) }
        for day in days {
            var forecasts: [(model: String, lead: Int, day: DayValues)] = []
            for (model, byDay) in latest where model != freshModel || fresh.isEmpty {
                if let v = byDay[day] { forecasts.append((model, LocalTime.daysBetween(today, day) ?? 0, v)) }
            }
            if let freshModel, let v = fresh[day] {
                forecasts.append((freshModel, LocalTime.daysBetween(freshToday ?? today, day) ?? 0, v))
            }
            if let c = ForecastCorrection.blend(forecasts, fits: fits, choices: choices) { out[day] = c }
        }
        return out
    }
}
