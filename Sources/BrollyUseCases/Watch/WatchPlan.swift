import BrollyCore
import BrollyStore
import Foundation

/// When the rain watcher next looks at a cell (`wake`: reads what it holds, pushes what is due)
/// and when it next asks upstream for it (`nextCall`). A look costs no call; only `nextCall` does.
public struct WatchPlan: Sendable, Hashable {
    public var nextCall: Date
    public var wake: Date
    /// Why the next call comes when it does (for metrics and the simulation's account of calls).
    public var reason: Reason

    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The last call failed or was not made.
        case failed
        /// Once more before a push moment.
        case refine
        /// Rain pushed, not begun: moved or cancelled?
        case pushed
        case raining
        /// Only a morning summary is watched here.
        case morning
        /// A chance within the slots' reach, no rain in them.
        case chanceNear
        /// A chance only beyond the slots' reach.
        case chanceLater
        /// No chance in the hours ahead.
        case dry
    }

    public init(nextCall: Date, wake: Date, reason: Reason = .failed) {
        self.nextCall = nextCall
        self.wake = min(wake, nextCall)
        self.reason = reason
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

        /// What two groups of subscribers need together.
        public func joined(with other: Needs) -> Needs {
            Needs(
                leads: (leads + other.leads).sorted(), minimum: min(minimum, other.minimum),
                mornings: (mornings + other.mornings).sorted { ($0.hour, $0.minute) < ($1.hour, $1.minute) })
        }
    }

    /// How long before a push moment the forecast is asked once more.
    public static let refine: TimeInterval = 10 * 60
    /// How many intervals apart a cell is asked while the hourly forecast shows a chance within
    /// the slots' reach but the slots no rain: an hour, so that a shower the models see two hours
    /// before it forms is seen in time for a 60-minute lead.
    public static let nearChance: Double = 4

    /// How much earlier than a chance of rain the hourly forecast shows a cell is asked, so that
    /// the 15-minute slots see the rain before the longest lead: the slots reach 2¼ hours ahead.
    public static let ahead: TimeInterval = 45 * 60

    /// The plan after a look at `now` at a forecast (nil: none could be had; asked again after
    /// `interval`). The calls follow the rain and the leads in use:
    ///
    /// - rain in the 15-minute slots: a look at each subscriber's push moment (start − lead), and
    ///   one more call ten minutes before the first, so that the start pushed is the newest
    ///   forecast's (its timing error grows with how far ahead it looks);
    /// - every moment passed, the rain not begun: a call every `interval` (moved or cancelled);
    /// - rain falling: when an onset after an hour dry could be seen in time (the spell's end in
    ///   the slots, plus an hour, less the longest lead and a quarter hour), every other interval
    ///   while the end is not in sight;
    /// - no rain in the slots but a chance within their reach (2¼ hours): every `nearChance`
    ///   intervals (an hour), or sooner when rain entering the slots at their far end would
    ///   otherwise be seen after the longest lead;
    /// - a chance only further ahead: when the slots will reach it before the longest lead;
    /// - no chance in the hours ahead: after `dry` (six hours, a new run of the global models).
    ///
    /// Never two calls closer than `interval` but for the refinement before a push. The look also
    /// comes at each morning summary's local time.
    public static func after(
        _ report: WeatherReport?, needs: Needs, now: Date, interval: TimeInterval, dry: TimeInterval, zone: TimeZone
    ) -> WatchPlan {
        let morning = needs.mornings.map { nextMorning(at: $0, zone: zone, after: now) }.min() ?? .distantFuture
        guard let report else {
            let next = now.addingTimeInterval(interval)
            return WatchPlan(nextCall: next, wake: min(next, morning), reason: .failed)
        }
        let slots = report.nowcast ?? []
        let raining = slots.contains { $0.start <= now && now < $0.end && $0.isWet }
        if !needs.leads.isEmpty, !raining, let event = RainRules.nextEvent(slots, now: now, minimum: needs.minimum),
            event.start > now
        {
            if let first = needs.leads.map({ event.start.addingTimeInterval(-$0) }).filter({ $0 > now }).min() {
                // One more call ten minutes before the first push moment, so that the start pushed
                // is the newest forecast's (a forecast's timing error grows with how far it looks).
                let gap = first.timeIntervalSince(now)
                let next = gap >= 15 * 60 ? first.addingTimeInterval(-refine) : now.addingTimeInterval(interval)
                return WatchPlan(nextCall: next, wake: min(first, morning), reason: .refine)
            }
            // Every push moment has passed and the rain has not begun: asked every interval for a
            // move or a cancellation (what was pushed is kept true), and once after it should have begun.
            let next = now.addingTimeInterval(interval)
            return WatchPlan(nextCall: next, wake: min(next, morning), reason: .pushed)
        }
        if raining {
            // The next onset needs an hour dry after this spell: asked when one could be seen in
            // time (the spell's end in the slots, plus an hour, less the longest lead and a quarter
            // hour), every other interval while the end is not in sight.
            let ahead = slots.filter { $0.end > now }.sorted { $0.end < $1.end }
            let end = ahead.first { !$0.isWet }?.start
            let seen = end.map { $0.addingTimeInterval(RainRules.dryBetweenEvents - needs.longestLead - 900) } ?? .distantPast
            let next = max(now.addingTimeInterval(2 * interval), seen)
            return WatchPlan(nextCall: next, wake: min(next, morning), reason: .raining)
        }
        guard !needs.leads.isEmpty else {
            let next = now.addingTimeInterval(dry)
            return WatchPlan(nextCall: next, wake: min(next, morning), reason: .morning)
        }
        // No rain in the slots. Rain that comes into them at their far end must be seen before the
        // longest lead: asked again when the slots' reach, less that lead and a quarter hour, comes.
        let reach = slots.map(\.end).max() ?? now
        let edge = reach.addingTimeInterval(-needs.longestLead - 900)
        // A chance in the hours ahead: by the slots' edge, or when the chance comes near; none:
        // after `dry`.
        let chance = firstChance(report, from: now)
        var target = chance.map { max(edge, $0.addingTimeInterval(-needs.longestLead - ahead)) }
        // The chance is within the slots' reach: a shower may still form or drift in; asked every
        // other interval while it lasts.
        if let chance, chance <= reach { target = min(edge, now.addingTimeInterval(nearChance * interval)) }
        let next = max(now.addingTimeInterval(interval), min(target ?? .distantFuture, now.addingTimeInterval(dry)))
        let reason: Reason = chance == nil ? .dry : chance! <= reach ? .chanceNear : .chanceLater
        return WatchPlan(nextCall: next, wake: min(next, morning), reason: reason)
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
        guard let today = PushTexts.localTime(at, on: now, zone: zone) else { return now.addingTimeInterval(86_400) }
        if today > now { return today }
        // Tomorrow's, as a local clock time (a day with a clock change is not 24 hours): the day
        // that holds today's noon plus a day.
        let noon = PushTexts.localTime(ClockTime(hour: 12, minute: 0), on: now, zone: zone) ?? today
        return PushTexts.localTime(at, on: noon.addingTimeInterval(86_400), zone: zone) ?? today.addingTimeInterval(86_400)
    }
}
