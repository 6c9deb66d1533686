import Foundation

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
    /// The time of every budget and breaker, and of the waits for a turn.
    public let clock: any WallClock

    public init(
        budgets: [Upstream: Budget] = [:], breakerThreshold: Int = 5, breakerCoolDown: TimeInterval = 2,
        breakerMaxCoolDown: TimeInterval = 120, maxWait: TimeInterval = 2,
        shared: (any SharedLimiter)? = nil, clock: any WallClock = SystemClock(),
        observe: @escaping @Sendable (Upstream, UpstreamOutcome) -> Void = { _, _ in }
    ) {
        self.shared = shared
        self.clock = clock
        var buckets: [Upstream: TokenBuckets] = [:]
        var breakers: [Upstream: CircuitBreaker] = [:]
        for upstream in Upstream.allCases {
            buckets[upstream] = TokenBuckets(budgets[upstream] ?? upstream.defaultBudget, clock: clock)
            breakers[upstream] = CircuitBreaker(
                minimumRequests: breakerThreshold, coolDown: breakerCoolDown, maxCoolDown: breakerMaxCoolDown, clock: clock)
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
            guard let raw = env[upstream.budgetVariable]?.trimmedOfSpace, !raw.isEmpty else { continue }
            do { budgets[upstream] = try Budget.parse(raw) } catch let error as BrollyError {
                throw BrollyError.invalidInput("\(upstream.budgetVariable): \(error.message)")
            }
        }
        return budgets
    }
}
