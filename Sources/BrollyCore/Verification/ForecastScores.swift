import Foundation

/// How good one model's forecasts have been at one place, for one lead time (days ahead).
public struct LeadScore: Codable, Sendable, Hashable {
    public var lead: Int
    /// The days scored.
    public var n: Int
    /// Mean absolute error of the day's high and low, °C (a reader's unit is applied where it is shown).
    public var highMAE: Double
    public var lowMAE: Double
    /// The share of days (0–1) whose high (low) was forecast within 2 °C.
    public var highWithin2: Double
    public var lowWithin2: Double
    /// Of the wet days (≥ 1 mm), the share forecast wet; nil when there was none.
    public var wetHitRate: Double?
    /// Of the days forecast wet, the share that stayed dry; nil when none was forecast wet.
    public var wetFalseAlarmRate: Double?
}

/// One local day's truth or forecast: high, low (°C) and amount (mm).
public struct DayValues: Sendable, Hashable {
    public var high: Double
    public var low: Double
    public var precipitation: Double?

    public init(high: Double, low: Double, precipitation: Double?) {
        self.high = high
        self.low = low
        self.precipitation = precipitation
    }
}

/// Scores of forecasts against what happened, by the place's local day. Only whole days are
/// scored (all their hours present in both), before today, within the window asked for; nothing is
/// filled in where data is missing.
public enum ForecastScores {
    /// A day is wet from 1 mm.
    public static let wetDay = 1.0
    /// "Within 2 °C".
    public static let close = 2.0

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

    /// Each lead's score of `forecast` (lead → day → values) against `truth`, over the days before
    /// `today` and at most `window` of them, in °C. Leads with no day scored are left out.
    public static func scores(
        forecast: [Int: [String: DayValues]], truth: [String: DayValues], today: String, window: Int = 30
    ) -> [LeadScore] {
        let days = truth.keys.filter { $0 < today }.sorted().suffix(window)
        var out: [LeadScore] = []
        for lead in forecast.keys.sorted() {
            guard let predicted = forecast[lead] else { continue }
            var highErrors: [Double] = []
            var lowErrors: [Double] = []
            var wet = (hits: 0, wetDays: 0, falseAlarms: 0, forecastWet: 0)
            for day in days {
                guard let f = predicted[day], let t = truth[day] else { continue }
                highErrors.append(abs(f.high - t.high))
                lowErrors.append(abs(f.low - t.low))
                if let fp = f.precipitation, let tp = t.precipitation {
                    let forecastWet = fp >= wetDay
                    let wasWet = tp >= wetDay
                    if wasWet { wet.wetDays += 1 }
                    if forecastWet { wet.forecastWet += 1 }
                    if wasWet && forecastWet { wet.hits += 1 }
                    if forecastWet && !wasWet { wet.falseAlarms += 1 }
                }
            }
            let n = highErrors.count
            guard n > 0 else { continue }
            func mean(_ xs: [Double]) -> Double { xs.reduce(0, +) / Double(xs.count) }
            func share(_ xs: [Double]) -> Double { Double(xs.filter { $0 <= close }.count) / Double(xs.count) }
            out.append(
                LeadScore(
                    lead: lead, n: n, highMAE: Rounding.round(mean(highErrors), 2), lowMAE: Rounding.round(mean(lowErrors), 2),
                    highWithin2: Rounding.round(share(highErrors), 2), lowWithin2: Rounding.round(share(lowErrors), 2),
                    wetHitRate: wet.wetDays > 0 ? Rounding.round(Double(wet.hits) / Double(wet.wetDays), 2) : nil,
                    wetFalseAlarmRate: wet.forecastWet > 0 ? Rounding.round(Double(wet.falseAlarms) / Double(wet.forecastWet), 2) : nil))
        }
        return out
    }

    /// Every model's scores from one Previous Runs answer, each against its own analysis (lead 0):
    /// model → scores for leads 1…7.
    public static func againstAnalysis(_ runs: PreviousRuns, today: String, window: Int = 30) -> [String:
        [LeadScore]]
    {
        against(runs, today: today, window: window) { analysis in analysis }
    }

    /// Every model's scores against what a station measured: its days' highs and lows. A station
    /// reports no reliable amounts of rain (METAR's are American and hourly at best), so wet days
    /// are judged against the model's own analysis, on the station's days.
    public static func againstStation(
        _ runs: PreviousRuns, station: [String: DayValues], today: String, window: Int = 30
    ) -> [String: [LeadScore]] {
        against(runs, today: today, window: window) { analysis in
            var truth: [String: DayValues] = [:]
            for (day, measured) in station {
                truth[day] = DayValues(high: measured.high, low: measured.low, precipitation: analysis[day]?.precipitation)
            }
            return truth
        }
    }

    /// Each model's leads 1…7 against the truth `truth` makes of its analysis' days.
    static func against(
        _ runs: PreviousRuns, today: String, window: Int, truth: ([String: DayValues]) -> [String: DayValues]
    ) -> [String: [LeadScore]] {
        var out: [String: [LeadScore]] = [:]
        for (model, temperatures) in runs.temperature {
            let analysis =
                temperatures[0].map { days(hours: runs.hours, temperature: $0, precipitation: runs.precipitation[model]?[0]) } ?? [:]
            var forecast: [Int: [String: DayValues]] = [:]
            for (lead, values) in temperatures where lead > 0 {
                forecast[lead] = days(hours: runs.hours, temperature: values, precipitation: runs.precipitation[model]?[lead])
            }
            let scored = scores(forecast: forecast, truth: truth(analysis), today: today, window: window)
            if !scored.isEmpty { out[model] = scored }
        }
        return out
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
