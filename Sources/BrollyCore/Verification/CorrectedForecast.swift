import Foundation

/// What correcting a forecast did, for the document to say: the models blended and how far
/// tomorrow's high and low moved, °C.
public struct CorrectionNote: Codable, Sendable, Hashable {
    public var models: [String]
    /// The local days corrected (today and the days the models' latest runs reach).
    public var days: Int
    public var tomorrowHigh: Double?
    public var tomorrowLow: Double?
}

extension WeatherReport {
    /// The report with each corrected day's high and low (`days`, by local date) in place of its
    /// own, and every temperature of that day moved with them: the day's own low moves by the
    /// low's correction, its high by the high's, a temperature between by the share of the way
    /// from one to the other (so the corrected hours still reach the corrected high and low).
    /// The current reading moves as its hour does. Days without a correction are left alone.
    public func correcting(_ days: [String: CorrectedDay]) -> WeatherReport {
        guard !days.isEmpty else { return self }
        var r = self
        let zone = place.timeZone
        var shifts: [String: (low: Double, high: Double, byLow: Double, byHigh: Double)] = [:]
        for i in r.days.indices {
            let d = r.days[i]
            guard let c = days[d.date] else { continue }
            shifts[d.date] = (d.temperatureMin, d.temperatureMax, c.low - d.temperatureMin, c.high - d.temperatureMax)
            r.days[i].temperatureMax = Rounding.round(c.high, 1)
            r.days[i].temperatureMin = Rounding.round(c.low, 1)
        }
        // Each corrected day's local midnight, found once (not a calendar sum per hour).
        let spans = shifts.keys.compactMap { day -> (start: Date, end: Date, day: String)? in
            guard let start = LocalTime.parse(day, in: zone), let end = LocalTime.parse(LocalTime.adding(1, to: day), in: zone)
            else { return nil }
            return (start, end, day)
        }
        func day(of time: Date) -> String? { spans.first { $0.start <= time && time < $0.end }?.day }
        func corrected(_ t: Double, at time: Date) -> Double {
            guard let d = day(of: time), let s = shifts[d] else { return t }
            let span = s.high - s.low
            let share = span > 0.1 ? min(1, max(0, (t - s.low) / span)) : 0.5
            return Rounding.round(t + s.byLow + share * (s.byHigh - s.byLow), 1)
        }
        for i in r.hours.indices { r.hours[i].temperature = corrected(r.hours[i].temperature, at: r.hours[i].time) }
        let now = r.current.temperature
        r.current.temperature = corrected(now, at: r.current.time)
        r.current.feelsLike = r.current.feelsLike.map { Rounding.round($0 + r.current.temperature - now, 1) }
        let today = LocalTime.dateString(r.current.time, in: zone)
        if let c = days[today] {
            r.current.temperatureMax = Rounding.round(c.high, 1)
            r.current.temperatureMin = Rounding.round(c.low, 1)
        }
        let tomorrow = LocalTime.adding(1, to: today)
        let own = self.days.first { $0.date == tomorrow }
        r.modelSelection = "corrected"
        r.correction = CorrectionNote(
            models: Array(Set(days.values.flatMap(\.models))).sorted(), days: shifts.count,
            tomorrowHigh: days[tomorrow].flatMap { c in own.map { Rounding.round(c.high - $0.temperatureMax, 1) } },
            tomorrowLow: days[tomorrow].flatMap { c in own.map { Rounding.round(c.low - $0.temperatureMin, 1) } })
        return r
    }

    /// The report's days as a correction reads them: date → high and low.
    public var dayValues: [String: DayValues] {
        Dictionary(
            days.map { ($0.date, DayValues(high: $0.temperatureMax, low: $0.temperatureMin, precipitation: $0.precipitation)) },
            uniquingKeysWith: { a, _ in a })
    }
}
