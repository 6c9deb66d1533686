import Foundation

/// Collapses concurrent calls for one key into one: the first caller does the work, the others
/// await its result.
public actor SingleFlight<Value: Sendable> {
    private var inFlight: [String: Task<Value, any Error>] = [:]

    public init() {}

    public func run(_ key: String, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = inFlight[key] { return try await task.value }
        let task = Task { try await work() }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        return try await task.value
    }
}
