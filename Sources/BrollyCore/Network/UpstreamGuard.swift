import Foundation

/// The upstream services Brolly calls, each with its own budget and circuit breaker.
public enum Upstream: String, Sendable, CaseIterable, Hashable {
    case openMeteo = "open-meteo"
    /// Open-Meteo's air-quality API: its own breaker (its failures must not pause the forecast) and
    /// a budget of its own, small beside the forecast's since answers keep for an hour.
    case openMeteoAirQuality = "open-meteo-air-quality"
    case openWeatherMap = "openweathermap"
    case nominatim
    case google
    case newsAPI = "newsapi"
    case bbc
    case ipLocation = "ip-location"
    /// The US National Weather Service's alerts API.
    case nws
    /// MeteoAlarm's country feeds.
    case meteoAlarm = "meteoalarm"
    /// CAP feeds from `BROLLY_CAP_FEEDS`, together.
    case cap

    /// The upstream a request for `provider` (the label providers give `NetworkService.get`) goes to.
    public init?(providerLabel label: String) {
        switch label {
        case "Open-Meteo air quality": self = .openMeteoAirQuality
        case let l where l.hasPrefix("Open-Meteo"): self = .openMeteo
        case let l where l.hasPrefix("OpenWeatherMap"): self = .openWeatherMap
        case "Nominatim": self = .nominatim
        case let l where l.hasPrefix("Google"): self = .google
        case "NewsAPI": self = .newsAPI
        case "BBC News": self = .bbc
        case "IP location service": self = .ipLocation
        case "NWS": self = .nws
        case "MeteoAlarm": self = .meteoAlarm
        case "CAP feed": self = .cap
        default: return nil
        }
    }

    /// The environment variable that overrides the budget: `BROLLY_OPEN_METEO_BUDGET`, …
    public var budgetVariable: String {
        "BROLLY_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_") + "_BUDGET"
    }

    /// The default budget, from each provider's published terms (or conservative where the terms
    /// are per account): Open-Meteo's free API 600/min, 5,000/h, 10,000/day; OpenWeatherMap's free
    /// plan 60/min; Nominatim's usage policy one request a second; NewsAPI's developer plan
    /// 100 a day; ip-api.com 45/min.
    public var defaultBudget: Budget {
        switch self {
        case .openMeteo: Budget([.init(600, per: 60), .init(5_000, per: 3_600), .init(10_000, per: 86_400)])
        case .openMeteoAirQuality: Budget([.init(60, per: 60), .init(600, per: 3_600), .init(2_000, per: 86_400)])
        case .openWeatherMap: Budget([.init(60, per: 60)])
        case .nominatim: Budget([.init(1, per: 1)])
        case .google: Budget([.init(600, per: 60)])
        case .newsAPI: Budget([.init(100, per: 86_400)])
        case .bbc: Budget([.init(60, per: 60)])
        case .ipLocation: Budget([.init(45, per: 60)])
        case .nws: Budget([.init(60, per: 60)])
        case .meteoAlarm: Budget([.init(60, per: 60)])
        case .cap: Budget([.init(60, per: 60)])
        }
    }
}

/// A number of calls per period.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    public var count: Int
    public var period: TimeInterval

    public init(_ count: Int, per period: TimeInterval) {
        self.count = count
        self.period = period
    }

    public var description: String {
        let unit = [(86_400.0, "day"), (3_600, "h"), (60, "min"), (1, "s")].first { period == $0.0 }
        return unit.map { "\(count)/\($0.1)" } ?? "\(count)/\(period)s"
    }
}

/// Several limits that must all allow a call, e.g. `600/min,5000/h,10000/day`.
public struct Budget: Sendable, Hashable, CustomStringConvertible {
    public var limits: [RateLimit]

    public init(_ limits: [RateLimit]) { self.limits = limits }

    public var description: String { limits.map(\.description).joined(separator: ",") }

    /// Parses `N/s`, `N/min`, `N/h`, `N/day` items separated by commas.
    public static func parse(_ text: String) throws -> Budget {
        let units: [String: TimeInterval] = [
            "s": 1, "sec": 1, "second": 1, "min": 60, "minute": 60, "h": 3_600, "hour": 3_600, "d": 86_400, "day": 86_400,
        ]
        var limits: [RateLimit] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let count = Int(parts[0]), count > 0, count <= 10_000_000, let period = units[parts[1].lowercased()]
            else { throw BrollyError.invalidInput("a budget is like 600/min,5000/h,10000/day; cannot read '\(item)'") }
            limits.append(RateLimit(count, per: period))
        }
        guard !limits.isEmpty else { throw BrollyError.invalidInput("the budget is empty") }
        return Budget(limits)
    }
}

/// Token buckets, one per limit of a budget, refilled continuously; a call takes one token from
/// each. A call may reserve a token up to `maxWait` ahead (so the queue is bounded by
/// `maxWait × rate`, never unbounded); beyond that it is refused with the time to wait.
public final class TokenBuckets: @unchecked Sendable {
    // @unchecked Sendable: `tokens` and `updatedAt` are only read or written while holding `lock`.
    public let budget: Budget
    private var tokens: [Double]
    private var updatedAt: Date
    private let lock = NSLock()

    public init(_ budget: Budget, now: Date = Date()) {
        self.budget = budget
        tokens = budget.limits.map { Double($0.count) }
        updatedAt = now
    }

    private func refill(_ now: Date) {
        let elapsed = now.timeIntervalSince(updatedAt)
        guard elapsed > 0 else { return }
        for (i, limit) in budget.limits.enumerated() {
            tokens[i] = min(Double(limit.count), tokens[i] + elapsed * Double(limit.count) / limit.period)
        }
        updatedAt = now
    }

    /// Takes one token from each bucket. Returns the seconds the caller must wait before its call
    /// (0: at once), or nil — and nothing is taken — when that would be longer than `maxWait`;
    /// `retryAfter` then says when a token will be there.
    public func reserve(maxWait: TimeInterval, now: Date = Date()) -> Reservation {
        lock.lock()
        defer { lock.unlock() }
        refill(now)
        var wait: TimeInterval = 0
        for (i, limit) in budget.limits.enumerated() where tokens[i] < 1 {
            wait = max(wait, (1 - tokens[i]) * limit.period / Double(limit.count))
        }
        guard wait <= maxWait else { return .refused(retryAfter: wait) }
        for i in tokens.indices { tokens[i] -= 1 }
        return .granted(after: wait)
    }

    /// Tokens left in the tightest bucket (for metrics).
    public func remaining(now: Date = Date()) -> Double {
        lock.lock()
        defer { lock.unlock() }
        refill(now)
        return tokens.min() ?? 0
    }

    public enum Reservation: Sendable, Equatable {
        case granted(after: TimeInterval)
        case refused(retryAfter: TimeInterval)
    }
}

/// Stops calling a provider that keeps failing: after `threshold` failures in a row the circuit
/// opens for `coolDown` seconds (no calls at all); then one trial call is let through, whose
/// outcome closes the circuit or opens it again.
public final class CircuitBreaker: @unchecked Sendable {
    // @unchecked Sendable: `state` and `failures` are only read or written while holding `lock`.
    public enum State: String, Sendable { case closed, open, halfOpen = "half-open" }

    public let threshold: Int
    public let coolDown: TimeInterval
    private var state = State.closed
    private var failures = 0
    private var openedAt = Date.distantPast
    private var trialInFlight = false
    private let lock = NSLock()

    public init(threshold: Int = 5, coolDown: TimeInterval = 30) {
        self.threshold = max(1, threshold)
        self.coolDown = coolDown
    }

    public enum Permission: Sendable, Equatable {
        case allowed
        /// The one trial call after a cool-down; report its outcome.
        case trial
        /// Open: try again after this many seconds.
        case refused(retryAfter: TimeInterval)
    }

    public func permit(now: Date = Date()) -> Permission {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .closed:
            return .allowed
        case .open:
            let left = coolDown - now.timeIntervalSince(openedAt)
            if left > 0 { return .refused(retryAfter: left) }
            state = .halfOpen
            trialInFlight = true
            return .trial
        case .halfOpen:
            if trialInFlight { return .refused(retryAfter: 1) }
            trialInFlight = true
            return .trial
        }
    }

    public func recordSuccess() {
        lock.lock()
        defer { lock.unlock() }
        state = .closed
        failures = 0
        trialInFlight = false
    }

    public func recordFailure(now: Date = Date()) {
        lock.lock()
        defer { lock.unlock() }
        failures += 1
        trialInFlight = false
        if state == .halfOpen || failures >= threshold {
            state = .open
            openedAt = now
        }
    }

    /// A trial that was let through but not made (the budget refused it): the next caller may try.
    public func abandonTrial() {
        lock.lock()
        defer { lock.unlock() }
        trialInFlight = false
    }

    public var currentState: State {
        lock.lock()
        defer { lock.unlock() }
        return state
    }
}

/// What happened to one upstream call, for metrics.
public enum UpstreamOutcome: String, Sendable, CaseIterable {
    case success, failure
    /// Not made: the budget was spent.
    case budgetSpent = "budget_spent"
    /// Not made: the circuit was open.
    case circuitOpen = "circuit_open"
    /// Not made: the client had used its share.
    case clientLimited = "client_limited"
}

/// The budget and circuit breaker of every upstream, shared by all requests of the process.
public final class UpstreamGuards: Sendable {
    public let buckets: [Upstream: TokenBuckets]
    public let breakers: [Upstream: CircuitBreaker]
    /// The longest a call waits for its turn in the budget (the issue's "a call that cannot start
    /// within 2 s is not made").
    public let maxWait: TimeInterval
    /// Told about every call and every call not made, for metrics.
    public let observe: @Sendable (Upstream, UpstreamOutcome) -> Void
    /// Buckets shared with the other servers of a cluster: with them the budgets and the clients'
    /// allowances hold for the cluster as a whole (each process's own buckets still apply, and
    /// alone when the shared ones cannot be reached).
    public let shared: (any SharedLimiter)?

    public init(
        budgets: [Upstream: Budget] = [:], breakerThreshold: Int = 5, breakerCoolDown: TimeInterval = 30, maxWait: TimeInterval = 2,
        shared: (any SharedLimiter)? = nil, observe: @escaping @Sendable (Upstream, UpstreamOutcome) -> Void = { _, _ in }
    ) {
        self.shared = shared
        var buckets: [Upstream: TokenBuckets] = [:]
        var breakers: [Upstream: CircuitBreaker] = [:]
        for upstream in Upstream.allCases {
            buckets[upstream] = TokenBuckets(budgets[upstream] ?? upstream.defaultBudget)
            breakers[upstream] = CircuitBreaker(threshold: breakerThreshold, coolDown: breakerCoolDown)
        }
        self.buckets = buckets
        self.breakers = breakers
        self.maxWait = maxWait
        self.observe = observe
    }

    /// The budgets from `BROLLY_<UPSTREAM>_BUDGET` variables, else the defaults.
    public static func budgets(from env: [String: String]) throws -> [Upstream: Budget] {
        var budgets: [Upstream: Budget] = [:]
        for upstream in Upstream.allCases {
            guard let raw = env[upstream.budgetVariable]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { continue }
            do { budgets[upstream] = try Budget.parse(raw) } catch let error as BrollyError {
                throw BrollyError.invalidInput("\(upstream.budgetVariable): \(error.message)")
            }
        }
        return budgets
    }
}

/// Who an upstream call is made for, so that one client cannot spend everybody's budget. The
/// server sets one per request (a task-local value, inherited by the tasks the request starts);
/// the CLI sets none.
public struct ClientAllowance: Sendable {
    /// Takes one of the client's calls; returns nil when allowed, else the seconds to wait.
    public let take: @Sendable () -> TimeInterval?
    /// The client's allowance for what comes with the weather (air quality, warnings), kept apart
    /// so that it never uses up the weather's; nil: the same as `take`.
    public let takeAuxiliary: (@Sendable () -> TimeInterval?)?
    /// The client's name in the cluster's shared buckets (`d:<device>`, `i:<address>`) and its
    /// allowance there; nil: the process's own buckets only.
    public let sharedKey: (@Sendable () -> String)?
    public let sharedLimit: RateLimit?

    public init(
        take: @escaping @Sendable () -> TimeInterval?, auxiliary: (@Sendable () -> TimeInterval?)? = nil,
        sharedKey: (@Sendable () -> String)? = nil, sharedLimit: RateLimit? = nil
    ) {
        self.take = take
        self.takeAuxiliary = auxiliary
        self.sharedKey = sharedKey
        self.sharedLimit = sharedLimit
    }

    /// The allowance for auxiliary lookups.
    public var auxiliary: ClientAllowance {
        var auxiliaryKey: (@Sendable () -> String)?
        if let key = sharedKey { auxiliaryKey = { "x" + key() } }
        return ClientAllowance(take: takeAuxiliary ?? take, sharedKey: auxiliaryKey, sharedLimit: sharedLimit)
    }

    @TaskLocal public static var current: ClientAllowance?
}

/// The latest moment by which a whole operation (retries included) must be done: the CLI's
/// `--timeout`. Task-local, so every upstream call of a command shares it.
public enum RequestDeadline {
    @TaskLocal public static var current: Date?
}
