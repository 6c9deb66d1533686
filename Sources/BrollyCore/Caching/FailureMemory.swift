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
        /// The wait the refusal itself named (a budget's or a provider's Retry-After), in place of
        /// the doubling back-off.
        var wait: TimeInterval?
    }

    public init(base: TimeInterval, max: TimeInterval? = nil, capacity: Int = 4096) {
        self.base = base
        self.max = Swift.max(base, max ?? base)
        entries = MemoryCache(capacity: capacity)
    }

    /// Seconds until `key` may be asked again; nil when it may be asked now.
    public func backingOff(_ key: String, now: Date) -> TimeInterval? {
        guard let entry = entries.get(key) else { return nil }
        let left = (entry.value.wait ?? backOff(after: entry.value.count)) - now.timeIntervalSince(entry.receivedAt)
        return left > 0 ? left : nil
    }

    /// Notes a failure of `key` at `now`; returns the back-off it starts.
    @discardableResult
    public func failed(_ key: String, now: Date, error: (any Error)? = nil) -> TimeInterval {
        let count = (entries.get(key)?.value.count ?? 0) + 1
        entries.set(key, CacheEntry(value: Failure(count: count, error: error as? BrollyError), receivedAt: now))
        return backOff(after: count)
    }

    /// The error of `key`'s latest failure, when it was a `BrollyError`.
    public func lastError(_ key: String) -> BrollyError? {
        entries.get(key)?.value.error
    }

    /// Notes that `key` was refused for now with a wait named (a budget spent, a provider's 429
    /// with Retry-After): it is left alone for exactly that wait, as the refusal told the client,
    /// not for a back-off that doubles (a point was refused for 151 s after "try again in 3 s").
    public func refused(_ key: String, now: Date, error: BrollyError, wait: TimeInterval) {
        let count = entries.get(key)?.value.count ?? 0
        entries.set(key, CacheEntry(value: Failure(count: count, error: error, wait: wait), receivedAt: now))
    }

    /// Runs `work` for `key`: a success forgets the key, a failure is noted — unless it is the
    /// calling client's own limit (not the helper failing), or `refusedKey` is given and the
    /// helper refused our API key (noted there instead); a refusal that names its wait (a budget
    /// spent, a 429 with Retry-After) keeps the key for that wait only.
    public func tracking<T>(
        _ key: String, now: @Sendable () -> Date, refusedKey: FailureMemory? = nil, _ work: () async throws -> T
    ) async throws -> T {
        do {
            let value = try await work()
            succeeded(key)
            return value
        } catch {
            let brolly = error as? BrollyError
            switch brolly?.kind {
            case .clientLimited: break
            case .rateLimited where brolly?.retryAfter != nil: refused(key, now: now(), error: brolly!, wait: brolly!.retryAfter!)
            case .invalidAPIKey where refusedKey != nil: refusedKey?.failed(key, now: now(), error: error)
            default: failed(key, now: now(), error: error)
            }
            throw error
        }
    }

    /// The error to answer at once while `key` is backing off, nil when it may be asked: the
    /// remembered "nothing there" (the sea) stays that answer; any other failure is an outage that
    /// says when to ask again. `what` names the helper ("the address service").
    public func refusal(_ key: String, now: Date, what: String) -> BrollyError? {
        guard let wait = backingOff(key, now: now) else { return nil }
        if let error = lastError(key), error.kind == .placeNotFound { return error }
        return BrollyError(
            .providerUnavailable, "\(what) failed for this point a moment ago; try again in \(Int(wait.rounded(.up))) s",
            retryAfter: wait)
    }

    public func succeeded(_ key: String) {
        entries.remove(key)
    }

    private func backOff(after failures: Int) -> TimeInterval {
        Swift.min(max, base * pow(2, Double(Swift.max(0, failures - 1))))
    }
}
