import Foundation

/// Collapses concurrent calls for one key into one: the first caller starts the work, the others
/// join it. Each flight knows when it started, so that callers can share one deadline for it
/// (only the first request for a place waits for a slow helper; the others answer without it).
public actor SingleFlight<Value: Sendable> {
    private struct Flight {
        var id: UInt64
        var task: Task<Value, any Error>
        var startedAt: Date
    }
    private var inFlight: [String: Flight] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// Runs `work` for `key`, or waits for the run under way, and returns its value.
    public func run(_ key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await start(key, work).task.value
    }

    /// Starts the flight for `key` (the task inherits the caller's task-local values: its client
    /// allowance), or joins the one under way; returns its task and when it started.
    public func start(_ key: String, _ work: @escaping @Sendable () async throws -> Value) -> (
        task: Task<Value, any Error>, startedAt: Date
    ) {
        if let flight = inFlight[key] { return (flight.task, flight.startedAt) }
        nextID &+= 1
        let id = nextID
        let task = Task<Value, any Error> {
            do {
                let value = try await work()
                self.finish(key, id: id)
                return value
            } catch {
                self.finish(key, id: id)
                throw error
            }
        }
        let startedAt = Date()
        inFlight[key] = Flight(id: id, task: task, startedAt: startedAt)
        return (task, startedAt)
    }

    /// Whether a flight for `key` is under way.
    public func isRunning(_ key: String) -> Bool { inFlight[key] != nil }

    private func finish(_ key: String, id: UInt64) {
        if inFlight[key]?.id == id { inFlight[key] = nil }
    }
}

/// Waits for a task's value, or for a deadline, whichever comes first, without cancelling the task
/// (a slow helper's answer is still cached for the next request).
public enum FirstOf {
    /// The value, or nil when `seconds` pass first.
    public static func value<T: Sendable>(_ task: Task<T?, Never>, orNilAfter seconds: Double) async -> T? {
        await value(task, orNilBy: Date().addingTimeInterval(seconds)) ?? nil
    }

    /// The value, or nil when the task fails or `deadline` comes first.
    public static func value<T: Sendable, Failure: Error>(_ task: Task<T, Failure>, orNilBy deadline: Date) async -> T? {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return nil }
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Locked(false)
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if once.claim() { continuation.resume(returning: nil) }
            }
            Task {
                let value = try? await task.value
                if once.claim() {
                    // The timer is not left sleeping: under a flood of new places it would hold a
                    // task per request for the whole deadline.
                    timer.cancel()
                    continuation.resume(returning: value)
                }
            }
        }
    }
}
