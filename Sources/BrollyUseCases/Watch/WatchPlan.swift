import BrollyCore
import BrollyStore
import Foundation

/// When the rain watcher next looks at a cell (`wake`: reads what it holds, pushes what is due)
/// and when it next asks upstream for it (`nextCall`). A look costs no call; only `nextCall` does.
public struct WatchPlan: Sendable, Hashable {
    public var nextCall: Date
    public var wake: Date

    public init(nextCall: Date, wake: Date) {
        self.nextCall = nextCall
        self.wake = min(wake, nextCall)
    }

    /// What the subscribers of one cell want of it.
    public struct Needs: Sendable, Hashable {
        /// The rain leads in use, seconds.
        public var leads: [TimeInterval] = []
        /// The smallest rain minimum in use, mm in a quarter hour.
        public var minimum: Double = .infinity
        /// The morning summaries' local times, with the place's zone.
        public var mornings: [ClockTime] = []

        public init(leads: [TimeInterval] = [], minimum: Double = .infinity, mornings: [ClockTime] = []) {
            self.leads = leads
            self.minimum = minimum
            self.mornings = mornings
        }

        public var longestLead: TimeInterval { leads.max() ?? 0 }
    }

    /// The closest two calls for one cell come: a forecast 5 minutes old is as new as the
    /// provider's 15-minute slots make it.
    public static let closestCalls: TimeInterval = 5 * 60
    /// How much earlier than a chance of rain the hourly forecast shows a cell is asked, so that
    /// the 15-minute slots see the rain before the longest lead: the slots reach 2¼ hours ahead.
    public static let ahead: TimeInterval = 45 * 60

    /// The plan after a look at `now` at a forecast (nil: none could be had; asked again after
    /// `interval`). The calls come closer as the rain nears:
    ///
    /// - rain in the 15-minute slots: the look at each subscriber's push moment (start − lead), and
    ///   a call at half the time to the first moment (never closer than 5 minutes, never further
    ///   than `interval`), so that the start pushed is the newest forecast's;
    /// - rain falling, or just pushed and not begun: a call every `interval` (moved or cancelled);
    /// - a chance in the hourly forecast but not yet in the slots: a call when the slots will reach
    ///   it before the longest lead (every `interval` while it is near);
    /// - no chance in the hours ahead: a call after `dry` (or when a later chance comes near).
    ///
    /// The look also comes at each morning summary's local time.
    public static func after(
        _ report: WeatherReport?, needs: Needs, now: Date, interval: TimeInterval, dry: TimeInterval, zone: TimeZone
    ) -> WatchPlan {
        let morning = needs.mornings.map { nextMorning(at: $0, zone: zone, after: now) }.min() ?? .distantFuture
        guard let report else {
            let next = now.addingTimeInterval(interval)
            return WatchPlan(nextCall: next, wake: min(next, morning))
        }
        let slots = report.nowcast ?? []
        let raining = slots.contains { $0.start <= now && now < $0.end && $0.isWet }
        if !needs.leads.isEmpty, !raining, let event = RainRules.nextEvent(slots, now: now, minimum: needs.minimum),
            event.start > now
        {
            let moments = needs.leads.map { event.start.addingTimeInterval(-$0) }.filter { $0 > now }
            guard let first = moments.min() else {
                let next = now.addingTimeInterval(interval)
                return WatchPlan(nextCall: next, wake: min(next, morning))
            }
            let gap = first.timeIntervalSince(now)
            let next = now.addingTimeInterval(min(interval, max(closestCalls, gap / 2)))
            return WatchPlan(nextCall: next, wake: min(first, morning))
        }
        if raining || needs.leads.isEmpty && needs.mornings.isEmpty {
            let next = now.addingTimeInterval(interval)
            return WatchPlan(nextCall: next, wake: min(next, morning))
        }
        // No rain in the slots: when does the hourly forecast first show a chance?
        let chance = firstChance(report, from: now)
        let reach = slots.map(\.end).max() ?? now
        var next: Date
        if let chance, chance <= reach {
            next = now.addingTimeInterval(interval)
        } else if let chance {
            // The slots reach it `ahead` before the longest lead: asked then, not before `interval`.
            let when = chance.addingTimeInterval(-needs.longestLead - ahead)
            next = max(now.addingTimeInterval(interval), min(when, now.addingTimeInterval(dry)))
        } else {
            next = now.addingTimeInterval(dry)
        }
        if needs.leads.isEmpty { next = now.addingTimeInterval(dry) }
        return WatchPlan(nextCall: next, wake: min(next, morning))
    }

    /// The start of the first hour from `now` with a chance of rain (20 % or 0.1 mm), or of a wet
    /// 15-minute slot; nil when the forecast shows none.
    static func firstChance(_ report: WeatherReport, from now: Date) -> Date? {
        // An hourly value is the hour that ends at its time.
        let hour = report.hours.lazy.filter {
            $0.time > now && (($0.precipitationProbability ?? 0) >= 20 || ($0.precipitation ?? 0) >= 0.1)
        }.map { max(now, $0.time.addingTimeInterval(-3600)) }.min()
        let slot = report.nowcast?.lazy.filter { $0.end > now && $0.isWet }.map { max(now, $0.start) }.min()
        return [hour, slot].compactMap { $0 }.min()
    }

    /// The next local `at` in `zone` after `now` (07:00 stays 07:00 across a clock change).
    public static func nextMorning(at: ClockTime, zone: TimeZone, after now: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var c = calendar.dateComponents([.year, .month, .day], from: now)
        c.hour = at.hour
        c.minute = at.minute
        guard let today = calendar.date(from: c) else { return now.addingTimeInterval(86_400) }
        if today > now { return today }
        return calendar.date(byAdding: .day, value: 1, to: today) ?? today.addingTimeInterval(86_400)
    }
}
