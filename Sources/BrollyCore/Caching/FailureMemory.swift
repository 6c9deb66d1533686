import Foundation

/// Keys whose last fetch failed: each is left alone for a back-off (`base` seconds, doubled on
/// each failure that follows, up to `max`), so that a helper that is down is not asked — and
/// nobody waits for it or is charged for it — on every request. A success forgets the key.
public final class FailureMemory: Sendable {
    public let base: TimeInterval
    public let max: TimeInterval
    /// Failures in a row per key and the latest one's error, and when it was.
    private let entries: MemoryCache<Failure>

    struct Failure: Sendable {
        var count: Int
        var error: BrollyError?
    }

    public init(base: TimeInterval, max: TimeInterval? = nil, capacity: Int = 4096) {
        self.base = base
        self.max = Swift.max(base, max ?? base)
        entries = MemoryCache(capacity: capacity)
    }

    /// Seconds until `key` may be asked again; nil when it may be asked now.
    public func backingOff(_ key: String, now: Date = Date()) -> TimeInterval? {
        guard let entry = entries.get(key) else { return nil }
        let left = backOff(after: entry.value.count) - now.timeIntervalSince(entry.receivedAt)
        return left > 0 ? left : nil
    }

    /// Notes a failure of `key` at `now`; returns the back-off it starts.
    @discardableResult
    public func failed(_ key: String, now: Date = Date(), error: (any Error)? = nil) -> TimeInterval {
        let count = (entries.get(key)?.value.count ?? 0) + 1
        entries.set(key, CacheEntry(value: Failure(count: count, error: error as? BrollyError), receivedAt: now))
        return backOff(after: count)
    }

    /// The error of `key`'s latest failure, when it was a `BrollyError`.
    public func lastError(_ key: String) -> BrollyError? {
        entries.get(key)?.value.error
    }

    public func succeeded(_ key: String) {
        entries.remove(key)
    }

    private func backOff(after failures: Int) -> TimeInterval {
        Swift.min(max, base * pow(2, Double(Swift.max(0, failures - 1))))
    }
}
