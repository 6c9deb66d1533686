import BrollyCore
import BrollyStore
import Foundation

/// A spell of rain (or snow) in the next two hours' 15-minute slots.
public struct RainEvent: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable { case rain, snow }

    public var start: Date
    /// When it stops; nil when it goes on past the slots there are.
    public var end: Date?
    /// The end of the last slot seen (how far "at least" reaches when there is no `end`).
    public var seenUntil: Date
    public var kind: Kind
    /// The most in one quarter hour, mm.
    public var peak: Double
    /// The whole spell's amount (within the slots there are), mm.
    public var total: Double

    public init(start: Date, end: Date?, seenUntil: Date, kind: Kind, peak: Double, total: Double) {
        self.start = start
        self.end = end
        self.seenUntil = seenUntil
        self.kind = kind
        self.peak = peak
        self.total = total
    }

    /// The word people are told, by the most in a quarter hour: light below 0.5 mm (the
    /// subscription's "moderate" minimum, 2 mm an hour), heavy from 1.9 mm (7.6 mm an hour, the
    /// AMS's heavy rain), moderate between.
    public var intensity: Intensity {
        peak < 0.5 ? .light : peak < 1.9 ? .moderate : .heavy
    }

    public enum Intensity: String, Codable, Sendable { case light, moderate, heavy }
}

/// What the rain watcher remembers for one subscription and place.
public struct RainWatchState: Codable, Sendable, Hashable {
    /// The event last pushed (its start as pushed), until it has passed and an hour stayed dry.
    public var alerted: RainEvent?
    /// The last time rain was seen falling (for "a new event only after at least an hour dry").
    public var lastWet: Date?

    public init(alerted: RainEvent? = nil, lastWet: Date? = nil) {
        self.alerted = alerted
        self.lastWet = lastWet
    }
}

/// One rain push: what changed about the rain at a place.
public struct RainNotice: Sendable, Hashable {
    public enum Status: String, Codable, Sendable { case starting, moved, cancelled }
    public var status: Status
    public var event: RainEvent
}

/// The rules of rain alerts, as pure decisions: the watcher reads a place's 15-minute slots and
/// the subscription's remembered state, and writes what these return.
///
/// - A push comes when rain of at least the subscription's minimum is due within its lead time,
///   outside its quiet hours (in the place's local time), and not while it already rains.
/// - One push per event: a forecast that still shows the same event (its start within 15 minutes
///   of the one pushed) does not push again; a start that moves by more than 15 minutes is pushed
///   as `moved`; an event that vanishes before it began is pushed as `cancelled` (only when
///   something was pushed); a new event is pushed only after at least an hour without rain.
public enum RainRules {
    /// How far the start may move without a new push.
    public static let sameEvent: TimeInterval = 15 * 60
    /// How long it must stay dry before rain is a new event.
    public static let dryBetweenEvents: TimeInterval = 3600

    /// The first spell in `slots` seen at `now`: from the first slot (ending after now) with at
    /// least `minimum` mm, until the first slot after it that is dry (under 0.1 mm).
    public static func nextEvent(_ slots: [NowcastSlot], now: Date, minimum: Double) -> RainEvent? {
        let ahead = slots.filter { $0.end > now }.sorted { $0.end < $1.end }
        guard let first = ahead.firstIndex(where: { $0.precipitation >= minimum && $0.isWet }) else { return nil }
        let rest = ahead[first...]
        let dry = rest.firstIndex { !$0.isWet }
        let spell = dry.map { ahead[first..<$0] } ?? rest
        let snowy = spell.filter(\.isSnow).count * 2 >= spell.count
        return RainEvent(
            start: ahead[first].start, end: dry.map { ahead[$0].start }, seenUntil: ahead.last!.end, kind: snowy ? .snow : .rain,
            peak: spell.map(\.precipitation).max() ?? 0, total: spell.reduce(0) { $0 + $1.precipitation })
    }

    /// The new state, and the push to send (nil: none). `quiet` says whether `now` is within the
    /// subscription's quiet hours at the place: nothing is pushed then, and what would have been
    /// is re-decided at the next look.
    public static func decide(
        _ state: RainWatchState, slots: [NowcastSlot], now: Date, settings: PushSettings.Rain, quiet: Bool
    ) -> (RainWatchState, RainNotice?) {
        var s = state
        let event = nextEvent(slots, now: now, minimum: settings.minimum.millimetres)
        // Rain falling in the slot under way (of any amount that counts as wet).
        let raining = slots.contains { $0.start <= now && now < $0.end && $0.isWet }
        if raining { s.lastWet = now }

        if let alerted = s.alerted {
            if now < alerted.start && !raining {
                // Pushed, not begun.
                guard let event else {
                    s.alerted = nil
                    return (s, quiet ? nil : RainNotice(status: .cancelled, event: alerted))
                }
                if event.start <= now { return (s, nil) }
                if abs(event.start.timeIntervalSince(alerted.start)) <= sameEvent {
                    s.alerted?.end = event.end
                    return (s, nil)
                }
                s.alerted = event
                return (s, quiet ? nil : RainNotice(status: .moved, event: event))
            }
            // It should have begun (or has): the same event until an hour has stayed dry.
            let since = s.lastWet ?? alerted.start
            let sameEpisode = event.map { $0.start.timeIntervalSince(since) < dryBetweenEvents } ?? true
            if raining || now.timeIntervalSince(since) < dryBetweenEvents && sameEpisode { return (s, nil) }
            s.alerted = nil
        }

        // Nothing due, or already raining (too late to warn).
        guard let event, !raining, event.start > now else { return (s, nil) }
        if event.start.timeIntervalSince(now) > TimeInterval(settings.leadMinutes * 60) { return (s, nil) }
        if let wet = s.lastWet, event.start.timeIntervalSince(wet) < dryBetweenEvents { return (s, nil) }
        if quiet { return (s, nil) }
        s.alerted = event
        return (s, RainNotice(status: .starting, event: event))
    }
}
