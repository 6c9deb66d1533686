import Foundation

/// The time, injected: services, caches, breakers, budgets and the watcher read `now` and wait
/// with `sleep` from the clock they are given, so that a test (or a simulation) can set the time
/// and let it pass at once instead of sleeping. (A protocol of our own rather than the standard
/// library's `Clock`: Brolly's times are wall-clock `Date`s — cache entries, budgets and local
/// mornings are about the calendar, not a monotonic instant.)
public protocol WallClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Waits `seconds` of this clock's time (throws when the task is cancelled).
    func sleep(_ seconds: TimeInterval) async throws
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}
    public var now: Date { Date() }
    public func sleep(_ seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }
}

/// A clock that moves only when told: `advance(_:)` or `set(_:)` moves the time and wakes every
/// sleeper whose time has come, in order. Tests and the push simulation use it; `brolly serve`
/// uses it with `BROLLY_CLOCK` (a start time), for end-to-end tests of what happens at a moment.
public final class ManualClock: WallClock {
    private struct Sleeper {
        let id: UInt64
        let until: Date
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var now: Date
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
    }
    private let state: Locked<State>

    public init(_ start: Date) { state = Locked(State(now: start)) }

    public var now: Date { state.withLock { $0.now } }

    /// How many are waiting on this clock (a test waits until its code is asleep, then advances).
    public var sleeping: Int { state.withLock { $0.sleepers.count } }

    public func advance(_ seconds: TimeInterval) { set(now.addingTimeInterval(max(0, seconds))) }

    /// Sets the time (never backwards) and wakes the sleepers that are due.
    public func set(_ time: Date) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = max(s.now, time)
            let now = s.now
            let due = s.sleepers.filter { $0.until <= now }.sorted { $0.until < $1.until }
            s.sleepers.removeAll { $0.until <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func sleep(_ seconds: TimeInterval) async throws {
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { s -> Bool in
                    let until = s.now.addingTimeInterval(max(0, seconds))
                    if until <= s.now || Task.isCancelled { return true }
                    s.sleepers.append(Sleeper(id: id, until: until, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let cancelled = state.withLock { s -> Sleeper? in
                guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return s.sleepers.remove(at: i)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
