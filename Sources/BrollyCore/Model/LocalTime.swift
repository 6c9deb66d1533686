import Foundation

/// Local calendar helpers: dates are grouped and printed in the place's time zone, never UTC.
public enum LocalTime {
    static func calendar(_ zone: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        return cal
    }

    /// `YYYY-MM-DD` of `date` in `zone`.
    public static func dateString(_ date: Date, in zone: TimeZone) -> String {
        guard let wall = wallClock(date, in: zone) else {
            let c = calendar(zone).dateComponents([.year, .month, .day], from: date)
            return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0, 2))-\(pad(c.day ?? 0, 2))"
        }
        return "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2))"
    }

    /// Hour of day (0–23) of `date` in `zone`.
    public static func hour(_ date: Date, in zone: TimeZone) -> Int {
        wallClock(date, in: zone).map { $0.seconds / 3600 } ?? calendar(zone).component(.hour, from: date)
    }

    /// `HH:mm` of `date` in `zone`.
    public static func clock(_ date: Date, in zone: TimeZone) -> String {
        guard let wall = wallClock(date, in: zone) else {
            let c = calendar(zone).dateComponents([.hour, .minute], from: date)
            return "\(pad(c.hour ?? 0, 2)):\(pad(c.minute ?? 0, 2))"
        }
        return "\(pad(wall.seconds / 3600, 2)):\(pad(wall.seconds / 60 % 60, 2))"
    }

    /// The wall clock of `date` in `zone`: its proleptic Gregorian date and the whole seconds into
    /// that day, from the zone's offset at that instant and integer arithmetic (Howard Hinnant's
    /// `civil_from_days`). A week of hours is grouped and printed by these several hundred times
    /// per answer, and Foundation's `Calendar` is far slower at it. Nil for an instant too far off
    /// to be a forecast's (the callers then ask `Calendar`). `offset`: the zone's at that instant,
    /// when the caller has it already.
    static func wallClock(_ date: Date, in zone: TimeZone, offset: Int? = nil) -> (year: Int, month: Int, day: Int, seconds: Int)? {
        let t = date.timeIntervalSince1970
        guard t.isFinite, abs(t) < 1e11 else { return nil }
        let local = Int(t.rounded(.down)) + (offset ?? zone.secondsFromGMT(for: date))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let m = (5 * dayOfYear + 2) / 153
        let month = m < 10 ? m + 3 : m - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, dayOfYear - (153 * m + 2) / 5 + 1, local - days * 86_400)
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` in UTC: how GRDB stores a `Date` in SQLite, written without the
    /// `DateFormatter` it uses (whose ICU set-up costs a short command like `brolly now --offline`
    /// more than its history write). The milliseconds are counted as Foundation hands the instant to
    /// ICU: half a millisecond added, then floored, so a half goes to the later millisecond before
    /// 1970 as after it (rounding a half away from zero wrote 1954's `.338` where GRDB writes `.339`).
    /// Nil for an instant too far off (the caller binds the `Date`).
    public static func sqlTimestamp(_ date: Date) -> String? {
        let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e14 else { return nil }
        let whole = Int(milliseconds)
        let seconds = whole >= 0 ? whole / 1000 : (whole - 999) / 1000
        guard let wall = wallClock(Date(timeIntervalSince1970: Double(seconds)), in: TimeZone(secondsFromGMT: 0)!, offset: 0) else {
            return nil
        }
        let s = wall.seconds
        return
            "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2)) \(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))."
            + pad(whole - seconds * 1000, 3)
    }

    /// `n` written with at least `width` digits.
    static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n.magnitude)
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Whole days from `from` to `to` (both `YYYY-MM-DD`); nil when either cannot be read.
    public static func daysBetween(_ from: String, _ to: String) -> Int? {
        let utc = TimeZone(secondsFromGMT: 0)!
        guard let a = parse(from, in: utc), let b = parse(to, in: utc) else { return nil }
        return Int((b.timeIntervalSince(a) / 86_400).rounded())
    }

    /// The `YYYY-MM-DD` `days` after (before, when negative) `date`.
    public static func adding(_ days: Int, to date: String) -> String {
        let utc = TimeZone(secondsFromGMT: 0)!
        guard let d = parse(date, in: utc) else { return date }
        return dateString(d.addingTimeInterval(Double(days) * 86_400), in: utc)
    }

    /// Short weekday name ("Mon") of a `YYYY-MM-DD` date.
    public static func weekday(ofDate string: String) -> String {
        guard let date = parse(string, in: TimeZone(secondsFromGMT: 0)!) else { return string }
        let names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let wd = calendar(TimeZone(secondsFromGMT: 0)!).component(.weekday, from: date)
        return names[(wd - 1) % 7]
    }

    /// ISO 8601 with the zone's offset at that instant, e.g. `2026-11-21T14:00:00+10:00`.
    public static func iso8601(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let m = abs(offset) / 60
        let zoneText = (offset < 0 ? "-" : "+") + pad(m / 60, 2) + ":" + pad(m % 60, 2)
        guard let wall = wallClock(date, in: zone, offset: offset) else {
            let c = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0, 2))-\(pad(c.day ?? 0, 2))T\(pad(c.hour ?? 0, 2)):"
                + "\(pad(c.minute ?? 0, 2)):\(pad(c.second ?? 0, 2))\(zoneText)"
        }
        let s = wall.seconds
        return "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2))T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
            + zoneText
    }

    /// Parses a local wall-clock time without an offset — `YYYY-MM-DD`, `YYYY-MM-DDTHH:mm` or
    /// `YYYY-MM-DD HH:mm:ss` — as it reads in `zone`.
    public static func parse(_ string: String, in zone: TimeZone) -> Date? {
        let digits = string.split(whereSeparator: { !$0.isNumber }).map { Int($0) }
        guard digits.count >= 3, let y = digits[0], let mo = digits[1], let d = digits[2] else { return nil }
        var comps = DateComponents(year: y, month: mo, day: d, hour: 0, minute: 0, second: 0)
        if digits.count >= 5 {
            comps.hour = digits[3]
            comps.minute = digits[4]
        }
        if digits.count >= 6 { comps.second = digits[5] }
        guard (1...12).contains(mo), (1...31).contains(d) else { return nil }
        return calendar(zone).date(from: comps)
    }

    /// Parses an ISO 8601 instant with an offset or `Z` (`2022-10-18T11:30:00-04:00`,
    /// `2026-03-02T02:02:43.123Z`); without one, as UTC.
    public static func parseISO8601(_ string: String) -> Date? {
        let s = string.trimmingCharacters(in: .whitespaces)
        guard s.count >= 10 else { return nil }
        var body = Substring(s)
        var offset = 0
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
        } else if body.count > 19, let signIndex = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
            body.distance(from: body.startIndex, to: signIndex) >= 19
        {
            let tz = body[body.index(after: signIndex)...].split(separator: ":")
            let joined = tz.joined()
            guard joined.count == 4 || joined.count == 2, let v = Int(joined) else { return nil }
            let minutes = joined.count == 4 ? (v / 100) * 60 + v % 100 : v * 60
            offset = (body[signIndex] == "-" ? -1 : 1) * minutes * 60
            body = body[..<signIndex]
        }
        var fraction = 0.0
        if let dot = body.firstIndex(of: ".") {
            fraction = Double("0" + body[dot...]) ?? 0
            body = body[..<dot]
        }
        guard let local = parse(String(body), in: TimeZone(secondsFromGMT: 0)!) else { return nil }
        return local.addingTimeInterval(fraction - Double(offset))
    }
}
