import Foundation

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
