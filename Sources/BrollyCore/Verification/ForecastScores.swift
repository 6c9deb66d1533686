import Foundation

/// How good one model's forecasts have been at one place, for one lead time (days ahead), against
/// an independent reference (a station, else a reanalysis), °C (a reader's unit is applied where
/// it is shown).
public struct LeadScore: Codable, Sendable, Hashable {
    public var lead: Int
    /// The days scored.
    public var n: Int
    /// Mean error (forecast − reference) of the day's high and low: positive is too warm.
    public var highBias: Double
    public var lowBias: Double
    /// Mean absolute error of the day's high and low.
    public var highMAE: Double
    public var lowMAE: Double
    /// The standard error of each mean absolute error (the spread of the absolute errors over √n):
    /// two models whose errors differ by less than about twice this are not told apart.
    public var highMAEStandardError: Double
    public var lowMAEStandardError: Double
    /// The standard error of each bias (the spread of the errors over √n): a bias is worth naming
    /// when it is more than about twice this.
    public var highBiasStandardError: Double
    public var lowBiasStandardError: Double
    /// The share of days (0–1) whose high (low) was forecast within 2 °C.
    public var highWithin2: Double
    public var lowWithin2: Double
    /// The days with a forecast and a reference amount of precipitation.
    public var wetScored: Int?
    /// Of the days the reference was wet (≥ 1 mm), the share forecast wet; nil when there was none.
    public var wetHitRate: Double?
    /// Of the days forecast wet, the share the reference had dry (the false-alarm ratio); nil when
    /// none was forecast wet.
    public var wetFalseAlarmRatio: Double?

    /// The scores of `errors` at `lead`; nil when there is no day.
    public init?(lead: Int, errors: [DayError]) {
        guard !errors.isEmpty else { return nil }
        let n = Double(errors.count)
        func mean(_ xs: [Double]) -> Double { xs.reduce(0, +) / Double(xs.count) }
        func standardError(_ xs: [Double]) -> Double {
            guard xs.count > 1 else { return 0 }
            let m = mean(xs)
            return (xs.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(xs.count - 1)).squareRoot() / Double(xs.count).squareRoot()
        }
        let high = errors.map(\.high)
        let low = errors.map(\.low)
        self.lead = lead
        self.n = errors.count
        highBias = Rounding.round(mean(high), 2)
        lowBias = Rounding.round(mean(low), 2)
        highMAE = Rounding.round(mean(high.map(abs)), 2)
        lowMAE = Rounding.round(mean(low.map(abs)), 2)
        highMAEStandardError = Rounding.round(standardError(high.map(abs)), 2)
        lowMAEStandardError = Rounding.round(standardError(low.map(abs)), 2)
        highBiasStandardError = Rounding.round(standardError(high), 2)
        lowBiasStandardError = Rounding.round(standardError(low), 2)
        highWithin2 = Rounding.round(Double(high.filter { abs($0) <= ForecastScores.close }.count) / n, 2)
        lowWithin2 = Rounding.round(Double(low.filter { abs($0) <= ForecastScores.close }.count) / n, 2)
        let wet = errors.compactMap { e in e.forecastWet.flatMap { f in e.wasWet.map { (forecast: f, was: $0) } } }
        let wetDays = wet.filter(\.was).count
        let forecastWet = wet.filter(\.forecast).count
        wetScored = wet.isEmpty ? nil : wet.count
        wetHitRate = wetDays > 0 ? Rounding.round(Double(wet.filter { $0.was && $0.forecast }.count) / Double(wetDays), 2) : nil
        wetFalseAlarmRatio =
            forecastWet > 0 ? Rounding.round(Double(wet.filter { $0.forecast && !$0.was }.count) / Double(forecastWet), 2) : nil
    }
}

/// One local day's reference or forecast: high, low (°C) and amount (mm).
public struct DayValues: Codable, Sendable, Hashable {
    public var high: Double
    public var low: Double
    public var precipitation: Double?

    public init(high: Double, low: Double, precipitation: Double?) {
        self.high = high
        self.low = low
        self.precipitation = precipitation
    }
}

/// One day's errors of one model at one lead: forecast − reference, °C; whether it was forecast
/// wet and was wet (nil when either amount is unknown).
public struct DayError: Codable, Sendable, Hashable {
    public var day: String
    public var high: Double
    public var low: Double
    public var forecastWet: Bool?
    public var wasWet: Bool?

    public init(day: String, high: Double, low: Double, forecastWet: Bool? = nil, wasWet: Bool? = nil) {
        self.day = day
        self.high = high
        self.low = low
        self.forecastWet = forecastWet
        self.wasWet = wasWet
    }
}

/// Model → lead → the days' errors, oldest day first.
public typealias ModelErrors = [String: [Int: [DayError]]]

/// Scores of forecasts against what happened, by the place's local day. Only whole days are
/// scored (all their hours present in both), before today, within the window asked for; nothing is
/// filled in where data is missing. The reference is never a scored model's own run: a model's
/// latest run shares its errors, so scoring against it hides them.
public enum ForecastScores {
    /// A day is wet from 1 mm.
    public static let wetDay = 1.0
    /// "Within 2 °C".
    public static let close = 2.0
    /// Fewer days than this: no ranking, no chart, no correction — "not enough data yet".
    public static let minimumDays = 7

    /// The whole local days of an hourly series (hours as local `YYYY-MM-DDTHH:MM`): each day with
    /// at least 24 hours, none missing, keyed `YYYY-MM-DD`. (A day of 23 or 25 hours — a
    /// daylight-saving change — counts when every hour the answer lists has a value.)
    public static func days(hours: [String], temperature: [Double?], precipitation: [Double?]?) -> [String: DayValues] {
        var byDay: [String: (t: [Double?], p: [Double?])] = [:]
        for (i, hour) in hours.enumerated() where i < temperature.count {
            let day = String(hour.prefix(10))
            byDay[day, default: ([], [])].t.append(temperature[i])
            byDay[day, default: ([], [])].p.append(precipitation.flatMap { i < $0.count ? $0[i] : nil })
        }
        var out: [String: DayValues] = [:]
        for (day, v) in byDay where v.t.count >= 23 {
            let t = v.t.compactMap { $0 }
            guard t.count == v.t.count, let high = t.max(), let low = t.min() else { continue }
            let p = v.p.compactMap { $0 }
            out[day] = DayValues(high: high, low: low, precipitation: p.count == v.p.count ? p.reduce(0, +) : nil)
        }
        return out
    }

    /// The errors of `forecast` against `reference` on `days` (those both have).
    public static func errors(forecast: [String: DayValues], reference: [String: DayValues], days: [String]) -> [DayError] {
        days.compactMap { day in
            guard let f = forecast[day], let t = reference[day] else { return nil }
            let wet = f.precipitation.flatMap { fp in t.precipitation.map { (fp >= wetDay, $0 >= wetDay) } }
            return DayError(day: day, high: f.high - t.high, low: f.low - t.low, forecastWet: wet?.0, wasWet: wet?.1)
        }
    }

    /// The days scored: the reference's days before `today`, the latest `window` of them.
    public static func scoredDays(_ reference: [String: DayValues], today: String, window: Int = 30) -> [String] {
        Array(reference.keys.filter { $0 < today }.sorted().suffix(window))
    }

    /// Every model's errors at leads 1…7 against `reference` (temperatures, and amounts where it
    /// has them): model → lead → days. Lead 0 (the model's own latest run) is never scored.
    public static func errors(_ runs: PreviousRuns, reference: [String: DayValues], today: String, window: Int = 30) -> ModelErrors {
        let days = scoredDays(reference, today: today, window: window)
        var out: ModelErrors = [:]
        for (model, temperatures) in runs.temperature {
            for (lead, values) in temperatures where lead > 0 {
                let forecast = Self.days(hours: runs.hours, temperature: values, precipitation: runs.precipitation[model]?[lead])
                let e = errors(forecast: forecast, reference: reference, days: days)
                if !e.isEmpty { out[model, default: [:]][lead] = e }
            }
        }
        return out
    }

    /// The scores of `errors`: model → leads in order.
    public static func scores(_ errors: ModelErrors) -> [String: [LeadScore]] {
        errors.mapValues { leads in leads.keys.sorted().compactMap { LeadScore(lead: $0, errors: leads[$0] ?? []) } }
    }

    /// A station's whole local days in `zone`: the highest and lowest temperature of each day on
    /// which it reported a temperature in at least `minimumHours` different hours (a station
    /// silent half the day has no high or low worth scoring against).
    public static func stationDays(_ observations: [Observation], in zone: TimeZone, minimumHours: Int = 18) -> [String: DayValues] {
        var byDay: [String: (hours: Set<Int>, values: [Double])] = [:]
        for o in observations {
            guard let t = o.temperature else { continue }
            let day = LocalTime.dateString(o.time, in: zone)
            byDay[day, default: ([], [])].hours.insert(LocalTime.hour(o.time, in: zone))
            byDay[day, default: ([], [])].values.append(t)
        }
        var out: [String: DayValues] = [:]
        for (day, v) in byDay where v.hours.count >= minimumHours {
            out[day] = DayValues(high: v.values.max()!, low: v.values.min()!, precipitation: nil)
        }
        return out
    }
}
