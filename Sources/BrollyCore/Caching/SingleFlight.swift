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
    /// The injected clock's time: when a flight started.
    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

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
        let startedAt = now()
        inFlight[key] = Flight(id: id, task: task, startedAt: startedAt)
        return (task, startedAt)
    }

    /// Whether a flight for `key` is under way.
    public func isRunning(_ key: String) -> Bool { inFlight[key] != nil }

    private func finish(_ key: String, id: UInt64) {
        if inFlight[key]?.id == id { inFlight[key] = nil }
    }
}
