import Foundation

/// When an hour counts as rain (or snow) a person notices, the one rule every surface uses — the
/// page's summary line, the hours, the morning push: some falls (0.1 mm or more) and it is not
/// unlikely (40 % or more, or no chance given), or it is likely (60 % or more).
public enum RainRule {
    public static func isWet(precipitation mm: Double?, chance: Double?) -> Bool {
        ((mm ?? 0) >= 0.1 && (chance ?? 100) >= 40) || (chance ?? 0) >= 60
    }
}

extension WeatherView.Hour {
    /// Whether rain or snow falls this hour as a person notices it (`RainRule`).
    public var isWet: Bool { RainRule.isWet(precipitation: precipitation?.base, chance: chance) }
}

extension WeatherView {
    /// What the next 24 hours bring, told once for every surface (the page's line over the hours,
    /// the terminal): when rain or snow starts or stops — the next two hours from the 15-minute
    /// nowcast where there is one, so the line agrees with "Snow starting in about 5 min" — and
    /// today's high before 15:00, tonight's low after it (named apart from today's low and high).
    public struct Story: Sendable {
        public enum Fall: Sendable, Equatable {
            /// Nothing falls in the next 24 hours.
            case dry
            /// It rains (snows) now, until `until` (nil: all 24 hours).
            case now(snow: Bool, until: Date?)
            /// It starts at `from`.
            case from(Date, snow: Bool)
        }
        public let fall: Fall
        /// Today's high (before 15:00) or tonight's low (after it, until 09:00 tomorrow).
        public let temperature: Measure<TemperatureUnit>
        public let isTonightsLow: Bool
    }

    /// The story of the next 24 hours; nil with fewer than two hours.
    public var story: Story? {
        let next = Array(hours.prefix(24))
        guard next.count >= 2 else { return nil }
        // The nowcast's slots say the next two hours where the provider gives them; the hours after.
        let slots = (nowcast ?? []).filter { $0.end > now && $0.start < now.addingTimeInterval(2 * 3600) }
        let nowcastEnds = slots.last?.end
        let later = next.filter { h in nowcastEnds.map { h.time.addingTimeInterval(3600) > $0 } ?? true }
        // Each moment ahead: (when, wet, snow), the slots first.
        var moments: [(time: Date, wet: Bool, snow: Bool)] = slots.map { (max($0.start, now), $0.isWet, $0.isSnow) }
        moments += later.map { h in (h.isNow ? now : max(h.time, nowcastEnds ?? h.time), h.isWet, h.condition.isSnow) }
        let fall: Story.Fall
        if let first = moments.first, first.wet, first.time <= now {
            let dry = moments.first { !$0.wet }
            fall = .now(snow: first.snow, until: dry?.time)
        } else if let start = moments.first(where: \.wet) {
            fall = .from(start.time, snow: start.snow)
        } else {
            fall = .dry
        }
        let hour = LocalTime.hour(next[0].time, in: zone)
        let today = LocalTime.dateString(next[0].time, in: zone)
        if hour < 15 {
            let rest = next.filter { LocalTime.dateString($0.time, in: zone) == today }
            let high = rest.map(\.temperature).max { $0.value < $1.value } ?? next[0].temperature
            return Story(fall: fall, temperature: high, isTonightsLow: false)
        }
        let night = next.filter { LocalTime.dateString($0.time, in: zone) == today || LocalTime.hour($0.time, in: zone) < 9 }
        let low = night.map(\.temperature).min { $0.value < $1.value } ?? next[0].temperature
        return Story(fall: fall, temperature: low, isTonightsLow: true)
    }
}
