import Foundation

/// Stops calling a provider that keeps failing, without letting a short blip deny users for long.
///
/// Each *request* counts once, whatever its retries (`NetworkService` reports the call's outcome,
/// not each attempt). The circuit opens when, within the last `window` seconds, at least
/// `minimumRequests` requests were made and at least `failureRate` of them failed, or when the
/// last `minimumRequests` requests all failed (as Envoy's outlier detection and resilience4j do).
/// An open circuit makes no calls for its cool-down: `coolDown` the first time, doubled on each
/// trip that follows without a success in between, up to `maxCoolDown`. The first request after
/// the cool-down is the trial call; its success closes the circuit (and the next trip starts from
/// `coolDown` again), its failure opens it for the next, longer cool-down.
public final class CircuitBreaker: Sendable {
    public enum State: String, Sendable { case closed, open, halfOpen = "half-open" }

    /// Requests needed in the window before the failure rate counts; also the failures in a row
    /// that open the circuit whatever the window holds.
    public let minimumRequests: Int
    /// The share of failed requests in the window that opens the circuit.
    public let failureRate: Double
    /// How far back requests count, seconds.
    public let window: TimeInterval
    /// The first cool-down, seconds.
    public let coolDown: TimeInterval
    /// The longest cool-down, seconds.
    public let maxCoolDown: TimeInterval
    /// The time the window and the cool-downs are measured in.
    public let clock: any WallClock

    private struct Status {
        var state = State.closed
        /// Outcomes in the window: when, and whether it failed (oldest first).
        var outcomes: [(at: Date, failed: Bool)] = []
        var failuresInARow = 0
        var openedAt = Date.distantPast
        /// The current trip's cool-down.
        var currentCoolDown: TimeInterval = 0
        /// Trips since the last success.
        var trips = 0
        var trialInFlight = false
    }
    private let status = Locked(Status())

    public init(
        minimumRequests: Int = 5, failureRate: Double = 0.5, window: TimeInterval = 30, coolDown: TimeInterval = 2,
        maxCoolDown: TimeInterval = 120, clock: any WallClock = SystemClock()
    ) {
        self.clock = clock
        self.minimumRequests = max(1, minimumRequests)
        self.failureRate = min(1, max(0.01, failureRate))
        self.window = window
        self.coolDown = coolDown
        self.maxCoolDown = max(coolDown, maxCoolDown)
    }

    public enum Permission: Sendable, Equatable {
        case allowed
        /// The one trial call after a cool-down; report its outcome.
        case trial
        /// Open: try again after this many seconds.
        case refused(retryAfter: TimeInterval)
    }

    public func permit() -> Permission { permit(now: clock.now) }

    public func permit(now: Date) -> Permission {
        status.withLock { s in
            switch s.state {
            case .closed:
                return .allowed
            case .open:
                let left = s.currentCoolDown - now.timeIntervalSince(s.openedAt)
                if left > 0 { return .refused(retryAfter: left) }
                s.state = .halfOpen
                s.trialInFlight = true
                return .trial
            case .halfOpen:
                if s.trialInFlight { return .refused(retryAfter: 1) }
                s.trialInFlight = true
                return .trial
            }
        }
    }

    /// A request that got its answer.
    public func recordSuccess() { recordSuccess(now: clock.now) }

    public func recordSuccess(now: Date) {
        status.withLock { s in
            s.state = .closed
            s.failuresInARow = 0
            s.trips = 0
            s.trialInFlight = false
            Self.append(&s, at: now, failed: false, window: window)
        }
    }

    /// A request that failed (after its retries).
    public func recordFailure() { recordFailure(now: clock.now) }

    public func recordFailure(now: Date) {
        status.withLock { s in
            s.failuresInARow += 1
            s.trialInFlight = false
            Self.append(&s, at: now, failed: true, window: window)
            let failed = s.outcomes.count { $0.failed }
            let trips =
                s.state == .halfOpen || s.failuresInARow >= minimumRequests
                || (s.outcomes.count >= minimumRequests && Double(failed) >= failureRate * Double(s.outcomes.count))
            guard trips, s.state != .open else { return }
            s.currentCoolDown = min(maxCoolDown, coolDown * pow(2, Double(s.trips)))
            s.trips += 1
            s.state = .open
            s.openedAt = now
            s.outcomes.removeAll()
        }
    }

    private static func append(_ s: inout Status, at now: Date, failed: Bool, window: TimeInterval) {
        s.outcomes.append((now, failed))
        let cut = s.outcomes.firstIndex { now.timeIntervalSince($0.at) < window } ?? s.outcomes.count
        if cut > 0 { s.outcomes.removeFirst(cut) }
        // Bounded whatever the traffic: the rate of the latest 1,000 requests is the rate.
        if s.outcomes.count > 1_000 { s.outcomes.removeFirst(s.outcomes.count - 1_000) }
    }

    /// A trial that was let through but not made (the budget refused it): the next caller may try.
    public func abandonTrial() {
        status.withLock { $0.trialInFlight = false }
    }

    public var currentState: State { status.withLock { $0.state } }

    /// Seconds until an open circuit lets its trial through (0 when closed or half-open).
    public func retryAfter() -> TimeInterval { retryAfter(now: clock.now) }

    public func retryAfter(now: Date) -> TimeInterval {
        status.withLock { s in
            s.state == .open ? max(0, s.currentCoolDown - now.timeIntervalSince(s.openedAt)) : 0
        }
    }
}
