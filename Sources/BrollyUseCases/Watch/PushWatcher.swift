import BrollyCore
import BrollyStore
import Foundation

/// Watches the saved places of every subscription that asked for rain alerts or a morning
/// summary: each round, every place (0.01° cell, however many subscribers) is looked at once, from
/// the cached forecast when it is younger than `interval`, else with one call — at most one per
/// cell per `interval`, and within a budget of its own (`BROLLY_WATCH_BUDGET`) on top of the
/// provider's. When the budget is spent, the places with the most subscribers have been watched
/// first and the rest are counted as not watched. The decisions are `RainRules` and `PushTexts`;
/// what was pushed is remembered in the store, so a restart or another instance taking over does
/// not push twice.
public final class PushWatcher: Sendable {
    let useCases: UseCases
    /// How often a cell may be asked upstream (`BROLLY_WATCH_SECONDS`): its forecast is read from
    /// the cache while younger than this.
    public let interval: TimeInterval
    /// How often a round runs: every minute at the most, so that a push comes within a minute of
    /// its lead (10 minutes before rain, not 12.5 or never). A round between calls reads only the
    /// cache: it costs no upstream call.
    public var tick: TimeInterval { Self.tick(for: interval) }
    public static func tick(for interval: TimeInterval) -> TimeInterval { min(60, interval) }
    /// How often a cell whose cached forecast shows no chance of rain in the coming hours is asked
    /// again: eight intervals (two hours by default), at most three hours. Only cells where rain is
    /// possible are asked every interval.
    public var dryRecheck: TimeInterval { min(3 * 3600, max(interval, 8 * interval)) }
    /// How far ahead a cell's forecast is read for a chance of rain: the nowcast's two hours and
    /// the longest lead.
    static let rainHorizon: TimeInterval = 3 * 3600

    /// Whether `report` shows a chance of rain (or snow) from `now` to the horizon: an hour with a
    /// chance of 20 % or more or 0.1 mm, or a wet 15-minute slot still to come.
    static func mayRain(_ report: WeatherReport, from now: Date) -> Bool {
        let end = now.addingTimeInterval(rainHorizon)
        let hourly = report.hours.contains {
            $0.time > now.addingTimeInterval(-3600) && $0.time <= end
                && (($0.precipitationProbability ?? 0) >= 20 || ($0.precipitation ?? 0) >= 0.1)
        }
        return hourly || (report.nowcast?.contains { $0.end > now && $0.isWet } ?? false)
    }
    let budget: TokenBuckets?
    /// When each cell was last asked for (a call made or tried), in memory.
    let lastAsked = Locked<[String: Date]>([:])
    /// The last round's counts, for metrics.
    public let lastRound = Locked(Counts())

    public struct Counts: Sendable, Hashable {
        public var watched = 0
        public var unwatched = 0
        public var calls = 0
        public var pushes = 0
        /// Cells read from the cache because their forecast shows no chance of rain.
        public var dry = 0
    }

    /// Calls left in the watcher's budget (for metrics).
    public var budgetRemaining: Double { budget?.remaining() ?? .infinity }

    public init(useCases: UseCases, interval: TimeInterval, budget: Budget?) {
        self.useCases = useCases
        self.interval = interval
        self.budget = budget.map { TokenBuckets($0, clock: useCases.services.clock) }
    }

    /// One place watched for one or more subscriptions.
    struct Cell {
        var place: Place
        var watchers: [(subscription: PushSubscription, saved: SavedPlace)] = []
        var subscribers: Set<String> = []
    }

    /// One round: the pushes due now. State changes that push nothing are written at once.
    public func round() async throws -> [PushMessage] {
        let now = useCases.now()
        let store = useCases.services.store
        var cells: [String: Cell] = [:]
        var byDevice: [String: [PushSubscription]] = [:]
        for s in try await store.allSubscriptions() where s.settings.rain.enabled || s.settings.morning.enabled {
            byDevice[s.deviceId, default: []].append(s)
        }
        for (device, subscriptions) in byDevice {
            let places = try await store.places(device: device)
            for subscription in subscriptions {
                for saved in places where subscription.settings.covers(saved.id) {
                    let key = saved.place.coordinate.cacheKey
                    cells[key, default: Cell(place: saved.place)].watchers.append((subscription, saved))
                    cells[key]?.subscribers.insert(subscription.id)
                }
            }
        }
        var counts = Counts()
        var pushes: [PushMessage] = []
        var states: [String: [String: String]] = [:]
        let ordered = cells.sorted { ($0.value.subscribers.count, $1.key) > ($1.value.subscribers.count, $0.key) }
        for (key, cell) in ordered {
            guard let report = await report(for: cell.place, key: key, now: now, counts: &counts) else { continue }
            counts.watched += 1
            for (subscription, saved) in cell.watchers {
                if states[subscription.id] == nil { states[subscription.id] = try await store.pushStates(subscription: subscription.id) }
                pushes += try await decide(subscription, saved, report, now: now, states: states[subscription.id] ?? [:])
            }
        }
        counts.pushes = pushes.count
        lastRound.withLock { $0 = counts }
        return pushes
    }

    /// The forecast for a cell: cached when young enough, else one call within the budget; nil when
    /// it cannot be had this round.
    func report(for place: Place, key: String, now: Date, counts: inout Counts) async -> WeatherReport? {
        let service = useCases.services.weather
        let entry = service.cached(for: place.coordinate)
        if let entry, now.timeIntervalSince(entry.receivedAt) < interval { return entry.value }
        // No chance of rain in the forecast the cache holds: asked again only every `dryRecheck`.
        if let entry, now.timeIntervalSince(entry.receivedAt) < dryRecheck, !Self.mayRain(entry.value, from: now) {
            counts.dry += 1
            return entry.value
        }
        if let asked = lastAsked.withLock({ $0[key] }), now.timeIntervalSince(asked) < interval {
            // Asked this interval and failed: what the cache has, if it still says something.
            return entry.flatMap { now.timeIntervalSince($0.receivedAt) < service.policy.usableFor ? $0.value : nil }
        }
        if let budget, case .refused = budget.reserve(maxWait: 0, now: now) {
            counts.unwatched += 1
            return nil
        }
        lastAsked.withLock { $0[key] = now }
        counts.calls += 1
        return try? await service.weather(for: place, mode: .refresh).report
    }

    func decide(
        _ subscription: PushSubscription, _ saved: SavedPlace, _ report: WeatherReport, now: Date, states: [String: String]
    ) async throws -> [PushMessage] {
        let settings = subscription.settings
        let language = Localization.pack(for: settings.language)
        let zone = report.place.timeZone
        let place = PushPlace(saved)
        let id = saved.id ?? 0
        let url = "/?place=\(id)"
        var out: [PushMessage] = []
        if settings.rain.enabled, let slots = report.nowcast {
            let key = "rain|\(id)"
            let old = states[key].flatMap { try? JSONDecoder().decode(RainWatchState.self, from: Data($0.utf8)) } ?? RainWatchState()
            let quiet = settings.rain.quietHours?.contains(ClockTime(now, in: zone)) ?? false
            let (new, notice) = RainRules.decide(old, slots: slots, now: now, settings: settings.rain, quiet: quiet)
            let value = Self.json(new)
            if let notice {
                let e = notice.event
                let text = PushTexts.rain(notice, place: place.name, now: now, language: language)
                let payload = PushPayload(
                    type: "rain", title: text.title, body: text.body, place: place, url: url,
                    start: LocalTime.iso8601(e.start, in: zone), end: e.end.map { LocalTime.iso8601($0, in: zone) },
                    precipitation: Rounding.round(settings.unitChoice.precipitation.convert(e.total), 2),
                    precipitationUnit: settings.unitChoice.precipitation.symbol, intensity: e.intensity.rawValue, kind: e.kind.rawValue,
                    status: notice.status.rawValue)
                // Worth showing until the rain is due: a warning that arrives after it began is none.
                out.append(
                    PushMessage(
                        subscription: subscription, payload: payload, topic: "rain-\(id)", usefulUntil: e.start,
                        urgent: notice.status != .cancelled, record: .watchState(key: key, value: value)))
            } else if new != old {
                try await useCases.services.store.setPushState(subscription: subscription.id, key: key, value: value, now: now)
            }
        }
        let morningKey = "morning|\(id)"
        if settings.morning.enabled, let day = PushTexts.morningDue(at: settings.morning.at, zone: zone, now: now),
            states[morningKey] != day
        {
            let alerts = await useCases.alerts(for: saved.place, language: settings.language, grace: 3).here
            let text = PushTexts.morning(
                report, place: place.name, alerts: alerts, now: now, units: settings.unitChoice, language: language)
            let payload = PushPayload(
                type: "morning", title: text.title, body: text.body, place: place, url: url, alerts: alerts.map(\.event))
            out.append(
                PushMessage(
                    subscription: subscription, payload: payload, topic: "morning-\(id)",
                    usefulUntil: now.addingTimeInterval(PushTexts.morningWindow + 3600), urgent: false,
                    record: .watchState(key: morningKey, value: day)))
        }
        return out
    }

    /// Records that a push was delivered (or given up on): it is not sent again.
    public func delivered(_ push: PushMessage) async throws {
        guard case .watchState(let key, let value) = push.record else { return }
        try await useCases.services.store.setPushState(subscription: push.subscription.id, key: key, value: value, now: useCases.now())
    }

    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
