import Foundation

/// The calls a budget allows, as a sliding window per limit: a call is let through at the earliest
/// moment when no window of any limit's length would hold more calls than its count — whatever the
/// window (not only from midnight or from the top of the minute), and from the very start (a new
/// budget does not begin with a full bucket plus a refill: at most `count` calls in any `period`).
/// Each limit keeps the times of its last `count` calls. A call may reserve its moment up to
/// `maxWait` ahead (so the queue is bounded); beyond that it is refused with the time to wait.
/// (The name stays from the token buckets this replaced: they allowed up to twice a budget in a
/// window, a full bucket and its refill.)
public final class TokenBuckets: Sendable {
    public let budget: Budget
    /// The time the windows are measured in.
    public let clock: any WallClock

    /// The last `count` calls' times of one limit, oldest first once full (a ring).
    private struct Window {
        var times: [Date] = []
        var head = 0
        let count: Int
        let period: TimeInterval

        /// The earliest moment a further call may be made while the window holds fewer than `cap`.
        func earliest(cap: Int) -> Date {
            let n = times.count
            guard cap > 0 else { return .distantFuture }
            guard n >= cap else { return .distantPast }
            let oldestFirst = n - cap
            return times[n < count ? oldestFirst : (head + oldestFirst) % count].addingTimeInterval(period)
        }

        mutating func record(_ t: Date) {
            if times.count < count {
                times.append(t)
            } else {
                times[head] = t
                head = (head + 1) % count
            }
        }

        func used(at now: Date) -> Int {
            times.reduce(0) { $0 + ($1 > now.addingTimeInterval(-period) && $1 <= now ? 1 : 0) }
        }
    }

    private struct State {
        var windows: [Window]
        /// The latest moment granted so far: calls are granted in order, so no window can gain a
        /// call behind one already counted.
        var last: Date = .distantPast
    }
    private let state: Locked<State>

    public init(_ budget: Budget, clock: any WallClock = SystemClock()) {
        self.budget = budget
        self.clock = clock
        state = Locked(State(windows: budget.limits.map { Window(count: max(1, $0.count), period: $0.period) }))
    }

    /// Takes one call's place in each limit. Returns the seconds the caller must wait before its
    /// call (0: at once), or nil — and nothing is taken — when that would be longer than `maxWait`;
    /// `retryAfter` then says when a place will be free. `keeping` is the share of each limit that
    /// must stay free after the call (another upstream's calls counted in this budget keep a share
    /// for the budget's own: the forecast first).
    public func reserve(maxWait: TimeInterval, keeping: Double = 0) -> Reservation {
        reserve(maxWait: maxWait, keeping: keeping, now: clock.now)
    }

    public func reserve(maxWait: TimeInterval, keeping: Double = 0, now: Date) -> Reservation {
        state.withLock { s in
            var at = max(now, s.last)
            for w in s.windows {
                at = max(at, w.earliest(cap: w.count - Int((Double(w.count) * keeping).rounded(.down))))
            }
            guard at < .distantFuture else { return .refused(retryAfter: budget.limits.map(\.period).max() ?? 60) }
            let wait = at.timeIntervalSince(now)
            guard wait <= maxWait else { return .refused(retryAfter: wait) }
            for i in s.windows.indices { s.windows[i].record(at) }
            s.last = at
            return .granted(after: wait)
        }
    }

    /// Calls left now in the tightest limit (for metrics).
    public func remaining() -> Double { remaining(now: clock.now) }

    public func remaining(now: Date) -> Double {
        state.withLock { s in
            Double(s.windows.map { $0.count - $0.used(at: now) }.min() ?? 0)
        }
    }

    public enum Reservation: Sendable, Equatable {
        case granted(after: TimeInterval)
        case refused(retryAfter: TimeInterval)
    }
}
