import Foundation

/// Groups forecast slots into days by the place's local calendar date.
public enum DayGrouping {
    /// One `DayForecast` per local date, in order. Min and max come from the slots' temperatures;
    /// precipitation is their sum; the condition is the most severe one seen in the daytime
    /// (06:00–21:00 local), or all day when no slot falls in daytime.
    public static func days(from slots: [HourForecast], in zone: TimeZone) -> [DayForecast] {
        var order: [String] = []
        var groups: [String: [HourForecast]] = [:]
        for slot in slots.sorted(by: { $0.time < $1.time }) {
            let key = LocalTime.dateString(slot.time, in: zone)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(slot)
        }
        return order.map { date in
            let group = groups[date]!
            let temps = group.map(\.temperature)
            let amounts = group.compactMap(\.precipitation)
            let daytime = group.filter { (6...21).contains(LocalTime.hour($0.time, in: zone)) }
            let candidates = daytime.isEmpty ? group : daytime
            let condition = candidates.max(by: { $0.condition.severity < $1.condition.severity })!.condition
            return DayForecast(
                date: date, temperatureMin: temps.min()!, temperatureMax: temps.max()!,
                precipitation: amounts.isEmpty ? nil : amounts.reduce(0, +),
                precipitationProbability: group.compactMap(\.precipitationProbability).max(),
                condition: condition)
        }
    }
}
