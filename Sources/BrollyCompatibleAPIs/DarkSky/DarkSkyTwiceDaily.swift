import BrollyCore
import Foundation

extension DarkSkyDocument {
    /// Pirate Weather's twice-daily block: the day (04:00–16:00 local) and the night (16:00–04:00)
    /// in turn from today's day, each from the view's hours: the worst condition (a night icon at
    /// night), the day's highest and the night's lowest temperature, the most likely chance, the
    /// fall (rate an hour and accumulation), the mean wind. The block ends at the first period with fewer
    /// than half its hours known.
    static func dayNight(_ timeline: [WeatherView.Hour], zone: TimeZone, units unitChoice: UnitChoice, now: Date) -> DataBlock? {
        guard let first = timeline.first, let today = LocalTime.parse(LocalTime.dateString(now, in: zone) + "T04:00", in: zone) else {
            return nil
        }
        var points: [DataPoint] = []
        var start = today
        let last = timeline.last?.time ?? first.time
        var isDay = true
        while start <= last {
            let end = start.addingTimeInterval(12 * 3600)
            let hours = timeline.filter { $0.time >= start && $0.time < end }
            // A period with fewer than half its hours known ends the block (day and night stay in turn).
            guard hours.count >= 6 else { break }
            do {
                var p = DataPoint(time: Int(start.timeIntervalSince1970), block: .dayNight)
                let worst = Condition.worst(hours.map(\.condition.condition))
                let shown = hours.first { $0.condition.condition == worst } ?? hours[0]
                p.summary = shown.condition.title
                p.icon = Self.icon(shown.condition.kind, isDay: isDay)
                let temperatures = hours.map(\.temperature.value)
                p.temperature = Self.r((isDay ? temperatures.max() : temperatures.min()) ?? temperatures[0])
                p.precipProbability = hours.compactMap(\.chance).max().map { Self.r($0 / 100) }
                let fallen = hours.compactMap(\.precipitation)
                if let unit = fallen.first?.unit {
                    let total = fallen.reduce(0) { $0 + $1.base }
                    p.precipIntensity = Self.r(Measure(total / Double(hours.count), in: unit).value, 3)
                    p["precipAccumulation"] = Self.r(Measure(total, in: unit.snow).value, 4)
                    p.precipType = total > 0 ? Self.precipType(shown.condition.kind, temperature: shown.temperature.base) : "none"
                }
                let winds = hours.compactMap(\.wind?.value)
                if !winds.isEmpty { p.windSpeed = Self.r(winds.reduce(0, +) / Double(winds.count)) }
                // The rest from the period's hours, summed up as the view sums up a day: means of
                // humidity, cloud, pressure and the view's fields (`ViewField.all`); the strongest gust and UV; the day's
                // highest feels-like or the night's lowest.
                if let h = WeatherView.HourlySummary(hours, units: unitChoice) {
                    p.humidity = h.humidity.map { Self.r($0 / 100) }
                    p["cloudCover"] = h.clouds.map { Self.r($0 / 100) }
                    p["pressure"] = h.pressure.map { Self.r($0.base) }
                    p["windGust"] = h.gustMax.map { Self.r($0.value) }
                    p["windBearing"] = h.windDirection
                    p["uvIndex"] = h.uvMax.map { Self.r($0) }
                    Self.write(h.fields, into: &p)
                    p["apparentTemperature"] = (isDay ? h.feelsLikeHigh : h.feelsLikeLow).map { Self.r($0.value) }
                    p["feelsLike"] = p["apparentTemperature"]
                }
                points.append(p)
            }
            start = end
            isDay.toggle()
        }
        // Day first, as its clients count (an even index is a day).
        guard let head = points.first else { return nil }
        return DataBlock(summary: head.summary, icon: head.icon, data: points)
    }
}

extension DarkSkyDocument.DataBlock {
    /// A block summed up by the worst of its conditions: that condition's text and day icon.
    init(worstOf conditions: [WeatherView.ConditionView], data: [DarkSkyDocument.DataPoint]) {
        let worst = Condition.worst(conditions.map(\.condition))
        self.init(
            summary: conditions.first { $0.condition == worst }?.title, icon: worst.map { DarkSkyDocument.icon($0.kind, isDay: true) },
            data: data)
    }
}
