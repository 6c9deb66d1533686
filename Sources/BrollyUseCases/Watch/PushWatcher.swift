import BrollyCore
import BrollyStore
import Foundation

/// Watches the saved places of every subscription that asked for rain alerts or a morning
/// summary. Each place (0.01° cell, however many subscribers) has a `WatchPlan`: a look (free: the
/// forecast it holds, the pushes due) at each subscriber's push moment, and a call only when the
/// forecast needs renewing — every `interval` while rain is possible, closer as the rain nears,
/// every `dryRecheck` where the forecast shows no chance. Calls are shared with the normal cache and
/// made within a budget of their own (`BROLLY_WATCH_BUDGET`) on top of the provider's; when it is
/// spent, the places with the most subscribers are watched first and the rest are marked not
/// watched for their subscribers to see. The decisions are `RainRules` and `PushTexts`; what was
/// pushed is remembered in the store, so a restart or another instance taking over does not push
/// twice.
public final class PushWatcher: Sendable {
    let useCases: UseCases
    /// How often a cell where rain is possible is asked upstream (`BROLLY_WATCH_SECONDS`).
    public let interval: TimeInterval
    /// How often a round runs: every minute at the most, so that a push comes within a minute of
    /// its lead. A round looks only at the cells whose plan is due: it costs no call otherwise.
    public var tick: TimeInterval { Self.tick(for: interval) }
    public static func tick(for interval: TimeInterval) -> TimeInterval { min(60, interval) }
    /// The longest a cell whose forecast shows no chance of rain is left before it is asked again:
    /// six hours (a new run of the global models), or 24 intervals when they are shorter. A chance
    /// further ahead brings the call forward to when the slots will show it in time.
    public var dryRecheck: TimeInterval { min(6 * 3600, max(interval, 24 * interval)) }
    /// How long the list of watched places is kept before it is read again from the store (a
    /// change made through this instance is seen at the next round).
    static let indexAge: TimeInterval = 300
    /// The most cells one device has watched: its places beyond are "unwatched: budget" (issue
    /// 52: 2 devices × 100 places × 10 rain subscriptions had a lone subscriber's place unwatched).
    public static let cellsPerDevice = 20

    let budget: TokenBuckets?
    /// The calls a day the budget allows (its tightest limit, as a daily rate); nil: no budget.
    let dailyCalls: Double?
    /// When each cell was asked over the last day: what watching it costs.
    let callLog = Locked<[String: [Date]]>([:])
    /// What a unit is reckoned to cost before any has been watched for an hour: a call an hour
    /// (rather too many than too few: a place admitted and then left out is told twice).
    static let reckonedCost = 24.0
    /// The calls that found which grid point answers a cell (counted in the day's budget).
    let discoveries = Locked<[Date]>([])
    /// Each cell's plan, in memory (a restart looks at every cell once).
    let plans = Locked<[String: WatchPlan]>([:])
    /// The state key that marks a subscription's place as not watched (`unwatched|<place id>`).
    public static let unwatchedMark = "unwatched|"
    /// The cells the budget left unwatched.
    let unwatched = Locked<Set<String>>([])
    /// The cells the budget leaves unwatched now (keys of `cell(of:)`).
    public var unwatchedCells: Set<String> {
        let left = unwatched.current
        return Set(units.withLock { units in left.flatMap { units[$0]?.cells ?? [$0] } })
    }
    let index = Locked<Index?>(nil)
    /// The model grid point each cell is answered from (learned from the answers: Open-Meteo's
    /// `latitude`/`longitude`): cells on one grid point get the same forecast and share one call.
    let gridOf = Locked<[String: String]>([:])
    /// What each unit (a grid point, or a cell not yet asked) holds and needs, as last seen.
    let units = Locked<[String: (cells: [String], needs: WatchPlan.Needs, asked: Coordinate?)]>([:])
    /// Changes each time a cell is found to share a grid point.
    let gridVersion = Locked(0)
    /// The last grouping and admission, kept while the list and the grid points stand (at most
    /// `indexAge`: the budget's admission follows the costs).
    let lastGrouping = Locked<(version: (Date, Int), at: Date, cells: [(key: String, cell: Cell)], admitted: Set<String>)?>(nil)
    /// How many units (grid points, or cells not yet asked) are watched.
    public var unitCount: Int { units.withLock { $0.values.filter { !$0.cells.isEmpty }.count } }
    /// When this watcher's first round ran.
    let started = Locked<Date?>(nil)
    /// The last round's counts, for metrics.
    public let lastRound = Locked(Counts())

    public struct Counts: Sendable, Hashable {
        public var watched = 0
        public var unwatched = 0
        public var calls = 0
        public var pushes = 0
        /// Cells read from the cache because their forecast shows no chance of rain.
        public var dry = 0
        /// Cells whose plan let the round pass them by.
        public var asleep = 0
        /// The calls by why they were planned (a cell's first call: `failed`, nothing known).
        public var callsBy: [WatchPlan.Reason: Int] = [:]
    }

    /// Calls left in the watcher's budget (for metrics).
    public var budgetRemaining: Double { budget?.remaining() ?? .infinity }

    /// The size of a watched cell, degrees (`BROLLY_WATCH_GRID`, 0.01 by default: the normal
    /// cache's cell, so the watcher's calls serve lookups too). A coarser grid shares one call among
    /// more places — the provider's finest 15-minute data (ICON-D2, HRRR) is 2–3 km — at the price
    /// of a place up to half a cell from the point asked.
    public let grid: Double

    public init(useCases: UseCases, interval: TimeInterval, budget: Budget?, grid: Double = 0.01) {
        self.useCases = useCases
        self.grid = max(0.01, grid)
        self.interval = interval
        self.budget = budget.map { TokenBuckets($0, clock: useCases.services.clock) }
        self.dailyCalls = budget.flatMap { $0.limits.map { Double($0.count) * 86_400 / $0.period }.min() }
    }

    /// One place watched for one or more subscriptions.
    struct Cell: Sendable {
        var place: Place
        var watchers: [Watcher] = []
        var subscribers: Set<String> = []
        /// The devices whose subscriptions follow the cell.
        var devices: Set<String> = []
        /// The cell's turn: its place's position among the places its device watches (the
        /// smallest over its devices): every device's first place comes before any device's
        /// second, so many subscriptions from one device cannot rank above a lone subscriber.
        var turn = Int.max
        var needs = WatchPlan.Needs()
    }

    struct Watcher: Sendable {
        var subscription: PushSubscription
        var saved: SavedPlace
    }

    struct Index: Sendable {
        var cells: [(key: String, cell: Cell)]
        var builtAt: Date
        var version: Version

        /// The changes to what is watched when the list was read: those made through this
        /// instance, and those the store counted for every instance.
        struct Version: Sendable, Equatable {
            var local: Int
            var shared: Int64
        }
    }

    /// One round: the pushes due now. State changes that push nothing are written at once.
    public func round() async throws -> [PushMessage] {
        let now = useCases.now()
        let store = useCases.services.store
        var counts = Counts()
        var pushes: [PushMessage] = []
        var states: [String: [String: String]] = [:]
        func state(_ id: String) async throws -> [String: String] {
            if let known = states[id] { return known }
            let read = try await store.pushStates(subscription: id)
            states[id] = read
            return read
        }
        started.withLock { $0 = $0 ?? now }
        let listed = try await cells(now: now)
        let version = (index.withLock { $0?.builtAt } ?? now, gridVersion.current)
        let (cells, admitted): ([(key: String, cell: Cell)], Set<String>)
        if let last = lastGrouping.withLock({ $0 }), last.version == version, now.timeIntervalSince(last.at) < Self.indexAge {
            (cells, admitted) = (last.cells, last.admitted)
        } else {
            cells = grouped(listed, now: now)
            admitted = self.admitted(cells, now: now)
            lastGrouping.withLock { $0 = (version, now, cells, admitted) }
        }
        for (key, cell) in cells {
            let plan = plans.withLock { $0[key] }
            if let plan, now < plan.wake {
                counts.asleep += 1
                if unwatched.withLock({ $0.contains(key) }) { counts.unwatched += 1 } else { counts.watched += 1 }
                continue
            }
            // A cell not yet placed on its grid point, whose forecast the cache holds from a lookup
            // (a place is saved from its weather): placed from it, without a call.
            if plan == nil, !key.hasPrefix(Self.gridPrefix),
                let point = useCases.services.weather.cached(for: cell.place.coordinate)?.value.gridPoint
            {
                learn(point, unit: key, plan: WatchPlan(nextCall: now, wake: now), asked: cell.place.coordinate, fromCache: true)
                if grid(of: point) != key { continue }
            }
            let due = plan.map { now >= $0.nextCall } ?? true
            let calledBefore = counts.calls
            let asked = units.withLock { $0[key]?.asked } ?? cell.place.coordinate
            let (report, refused, failed) = await report(
                for: cell.place, asked: asked, key: key, due: due, admitted: admitted.contains(key), now: now, counts: &counts)
            let called = counts.calls > calledBefore
            if called { counts.callsBy[plan?.reason ?? .failed, default: 0] += 1 }
            let zone = report?.place.timeZone ?? cell.place.timeZone
            var next = WatchPlan.after(failed ? nil : report, needs: cell.needs, now: now, interval: interval, dry: dryRecheck, zone: zone)
            // A look without a call never puts the next call off.
            if !called, let plan { next = WatchPlan(nextCall: min(next.nextCall, plan.nextCall), wake: next.wake, reason: next.reason) }
            // A push held by a subscriber's quiet hours is decided again when they end.
            for w in cell.watchers where w.subscription.settings.rain.enabled {
                guard let quiet = w.subscription.settings.rain.quietHours, quiet.contains(ClockTime(now, in: zone)) else { continue }
                next.wake = min(next.wake, WatchPlan.nextMorning(at: quiet.to, zone: zone, after: now))
            }
            plans.withLock { $0[key] = next }
            if called, !failed {
                units.withLock { $0[key]?.asked = cell.place.coordinate }
                if let point = report?.gridPoint { learn(point, unit: key, plan: next, asked: cell.place.coordinate) }
            }
            // Each subscriber sees whether the place is watched (a first look, or a change).
            let changed = refused ? unwatched.withLock { $0.insert(key).inserted } : unwatched.withLock { $0.remove(key) != nil }
            if plan == nil || changed {
                for w in cell.watchers {
                    let flag = Self.unwatchedMark + "\(w.saved.id ?? 0)"
                    let flagged = try await state(w.subscription.id)[flag] != nil
                    guard flagged != refused else { continue }
                    try await store.setPushState(subscription: w.subscription.id, key: flag, value: refused ? "budget" : nil, now: now)
                    states[w.subscription.id]?[flag] = refused ? "budget" : nil
                }
            }
            if refused { counts.unwatched += 1 } else { counts.watched += 1 }
            guard let report else { continue }
            for w in cell.watchers {
                pushes += try await decide(w.subscription, w.saved, report, now: now, states: try await state(w.subscription.id))
            }
        }
        counts.pushes = pushes.count
        lastRound.withLock { $0 = counts }
        return pushes
    }

    /// The forecast for a cell: one call when `due` (within the budget: `refused` when it is spent),
    /// unless the cache has one younger than `interval`; else the cached one while usable.
    /// `failed`: a call was due and could not be made or answered (the plan asks again after
    /// `interval`; the decisions use what the cache still has).
    func report(for place: Place, asked: Coordinate, key: String, due: Bool, admitted: Bool, now: Date, counts: inout Counts) async
        -> (WeatherReport?, refused: Bool, failed: Bool)
    {
        let service = useCases.services.weather
        let entry = service.cached(for: asked)
        let usable = entry.flatMap { now.timeIntervalSince($0.receivedAt) < service.policy.usableFor ? $0.value : nil }
        if let entry, now.timeIntervalSince(entry.receivedAt) < interval { return (entry.value, false, false) }
        guard due else {
            // Between calls the plan stands on the forecast it was made from (as old as the
            // longest wait between calls), whatever the cache's own limits.
            counts.dry += 1
            let planned = entry.flatMap { now.timeIntervalSince($0.receivedAt) <= dryRecheck + interval ? $0.value : nil }
            return (planned ?? usable, false, false)
        }
        guard admitted else { return (usable, true, true) }
        if let budget, case .refused = budget.reserve(maxWait: 0, now: now) { return (usable, true, true) }
        counts.calls += 1
        callLog.withLock { $0[key, default: []].append(now) }
        if let fresh = try? await service.weather(for: place, mode: .refresh).report { return (fresh, false, false) }
        return (usable, false, true)
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
