import BrollyCore
import BrollyStore
import Foundation

/// When the morning summary is due, and the words of the rain and morning pushes, in the reader's
/// language and units.
public enum PushTexts {
    /// How late a summary may still come after its time (a server that was down at 07:00 sends it
    /// at 08:10, not at noon).
    public static let morningWindow: TimeInterval = 2 * 3600

    /// The place's local day (`2026-11-25`) whose summary is due at `now`: `at` has passed on that
    /// day in `zone`, less than `morningWindow` ago. Nil when none is due. Local clock times hold
    /// across a daylight-saving change (07:00 stays 07:00 at the place).
    public static func morningDue(at: ClockTime, zone: TimeZone, now: Date) -> String? {
        guard let due = localTime(at, on: now, zone: zone), now >= due, now.timeIntervalSince(due) < morningWindow else { return nil }
        return LocalTime.dateString(now, in: zone)
    }

    /// `at` on the local day of `now` in `zone` (07:00 stays 07:00 across a clock change).
    static func localTime(_ at: ClockTime, on now: Date, zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var c = calendar.dateComponents([.year, .month, .day], from: now)
        c.hour = at.hour
        c.minute = at.minute
        return calendar.date(from: c)
    }

    /// "Rain starting in about 20 min at Home — moderate, for about 40 min".
    public static func rain(_ notice: RainNotice, place: String, now: Date, language: LanguagePack) -> (title: String, body: String) {
        let l = language
        let what = l.text(notice.event.kind == .snow ? "snowWord" : "rainWord")
        var values = ["what": what, "whatLower": what.lowercased(), "place": place]
        let title = l.text("pushRainTitle", values)
        if notice.status == .cancelled { return (title, l.text("pushRainCancelled", values)) }
        let e = notice.event
        values["start"] = String(NowcastSummary.minutes(e.start.timeIntervalSince(now)))
        values["intensity"] = l.text("intensity" + e.intensity.rawValue.prefix(1).uppercased() + e.intensity.rawValue.dropFirst())
        let key = notice.status == .moved ? "pushRainMoved" : "pushRainStarting"
        values["duration"] = String(NowcastSummary.minutes((e.end ?? e.seenUntil).timeIntervalSince(e.start)))
        return (title, l.text(e.end == nil ? key + "AtLeast" : key, values))
    }

    /// "Home today: 12° / 4°, rain from 15:00 (70%), wind up to 40 km/h, warning: Wind warning".
    public static func morning(
        _ report: WeatherReport, place: String, alerts: [Alert], now: Date, units: UnitChoice, language: LanguagePack
    ) -> (title: String, body: String) {
        morning(WeatherView(report, units: units, language: language, now: now), place: place, alerts: alerts)
    }

    /// The morning summary written from the one view of the weather.
    public static func morning(_ v: WeatherView, place: String, alerts: [Alert]) -> (title: String, body: String) {
        let l = v.language, zone = v.zone, now = v.now
        let today = v.today
        let day = v.days.first { $0.date == today } ?? v.days.first
        let hours = v.hours(on: today).filter { $0.time > now.addingTimeInterval(-3600) }
        func degrees(_ t: Measure<TemperatureUnit>?) -> String { t.map { l.number(String(Rounding.whole($0.value))) + "°" } ?? "—" }

        var parts: [String] = []
        // When rain starts: the one rule of the page's line and the hours (`RainRule`).
        if let wet = hours.firstIndex(where: \.isWet) {
            let chance = hours[wet...].compactMap(\.chance).max()
            var text = l.text(
                hours[wet].condition.isSnow ? "pushSnowFrom" : "pushRainFrom",
                ["time": ClockTime(hours[wet].time, in: zone).description, "chance": chance.map { String(Int($0.rounded())) } ?? ""])
            if chance == nil { text = text.replacingOccurrences(of: " (%)", with: "") }
            parts.append(text)
        } else {
            parts.append(l.text("pushDry"))
        }
        if let wind = hours.compactMap(\.wind).max(by: { $0.value < $1.value }) {
            let speed = l.number(String(Rounding.whole(wind.value)))
            parts.append(l.text("pushWindUpTo", ["wind": "\(speed) \(l.text("unit_" + wind.unit.rawValue))"]))
        }
        for alert in alerts.prefix(2) { parts.append(l.text("pushWarning", ["event": alert.event])) }
        let values = [
            "place": place, "high": degrees(day?.high), "low": degrees(day?.low), "parts": parts.joined(separator: ", "),
        ]
        return (l.text("pushMorningTitle", values), l.text("pushMorning", values))
    }
}
