import Foundation

/// The next two hours' precipitation in one plain sentence: "Rain starting in about 30 min, for
/// about 45 min", "Rain stopping in about 15 min", "Rain for the next 2 hours"; nil when it stays dry.
public enum NowcastSummary {
    /// The sentence for `slots` (15-minute slots, in time order) seen at `now`; only the slots that
    /// end after `now` and start within two hours of it count.
    public static func sentence(_ slots: [NowcastSlot], now: Date, language: LanguagePack = Localization.english) -> String? {
        let l = language
        let horizon = now.addingTimeInterval(2 * 3600)
        let ahead = slots.filter { $0.end > now && $0.start < horizon }
        guard let first = ahead.first else { return nil }
        let word = ahead.contains { $0.isWet && $0.isSnow } ? l.text("snowWord") : l.text("rainWord")
        if first.isWet && first.start <= now {
            guard let dry = ahead.firstIndex(where: { !$0.isWet }) else {
                let covered = ahead.last!.end.timeIntervalSince(now)
                return covered >= 105 * 60
                    ? l.text("twoHours", ["what": word]) : l.text("atLeast", ["what": word, "duration": String(minutes(covered))])
            }
            return l.text("stopping", ["what": word, "start": String(minutes(ahead[dry].start.timeIntervalSince(now)))])
        }
        guard let wet = ahead.firstIndex(where: \.isWet) else { return nil }
        let startsIn = minutes(ahead[wet].start.timeIntervalSince(now))
        let rest = ahead[wet...]
        if let dry = rest.firstIndex(where: { !$0.isWet }) {
            let lasts = minutes(ahead[dry].start.timeIntervalSince(ahead[wet].start))
            return l.text("starting", ["what": word, "start": String(startsIn), "duration": String(lasts)])
        }
        let lasts = minutes(ahead.last!.end.timeIntervalSince(ahead[wet].start))
        return l.text("startingAtLeast", ["what": word, "start": String(startsIn), "duration": String(lasts)])
    }

    /// Seconds as whole minutes rounded to the nearest 5, a half up (never below 5: "in about 5
    /// min" rather than "0 min"). Times taken from clocks a few microseconds apart are rounded to
    /// the millisecond first, so 12.5 min is 15, never 10 (issue 51: a push said "about 10 min" at
    /// 12.5).
    public static func minutes(_ seconds: TimeInterval) -> Int {
        let exact = (seconds * 1000).rounded() / 1000
        return max(5, Int((exact / 300).rounded(.toNearestOrAwayFromZero)) * 5)
    }
}
