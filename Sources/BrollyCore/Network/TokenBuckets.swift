import Foundation

/// Token buckets, one per limit of a budget, refilled continuously; a call takes one token from
/// each. A call may reserve a token up to `maxWait` ahead (so the queue is bounded by
/// `maxWait × rate`, never unbounded); beyond that it is refused with the time to wait.
public final class TokenBuckets: Sendable {
    public let budget: Budget
    /// The tokens of each limit, and when they were last refilled.
    private struct Buckets {
        var tokens: [Double]
        var updatedAt: Date

        mutating func refill(_ now: Date, _ budget: Budget) {
            let elapsed = now.timeIntervalSince(updatedAt)
            guard elapsed > 0 else { return }
            for (i, limit) in budget.limits.enumerated() {
                tokens[i] = min(Double(limit.count), tokens[i] + elapsed * Double(limit.count) / limit.period)
            }
            updatedAt = now
        }
    }
    private let buckets: Locked<Buckets>

    public init(_ budget: Budget, now: Date = Date()) {
        self.budget = budget
        buckets = Locked(Buckets(tokens: budget.limits.map { Double($0.count) }, updatedAt: now))
    }

    /// Takes one token from each bucket. Returns the seconds the caller must wait before its call
    /// (0: at once), or nil — and nothing is taken — when that would be longer than `maxWait`;
    /// `retryAfter` then says when a token will be there.
    public func reserve(maxWait: TimeInterval, now: Date = Date()) -> Reservation {
        buckets.withLock { b in
            b.refill(now, budget)
            var wait: TimeInterval = 0
            for (i, limit) in budget.limits.enumerated() where b.tokens[i] < 1 {
                wait = max(wait, (1 - b.tokens[i]) * limit.period / Double(limit.count))
            }
            guard wait <= maxWait else { return .refused(retryAfter: wait) }
            for i in b.tokens.indices { b.tokens[i] -= 1 }
            return .granted(after: wait)
        }
    }

    /// Tokens left in the tightest bucket (for metrics).
    public func remaining(now: Date = Date()) -> Double {
        buckets.withLock { b in
            b.refill(now, budget)
            return b.tokens.min() ?? 0
        }
    }

    public enum Reservation: Sendable, Equatable {
        case granted(after: TimeInterval)
        case refused(retryAfter: TimeInterval)
    }
}
