import Foundation

/// Spaces calls to a service that allows one request per second.
public actor RateGate {
    let interval: TimeInterval
    var next = Date.distantPast

    public init(interval: TimeInterval) { self.interval = interval }

    public func wait() async throws {
        let now = Date()
        let start = max(now, next)
        next = start.addingTimeInterval(interval)
        let delay = start.timeIntervalSince(now)
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
    }
}
