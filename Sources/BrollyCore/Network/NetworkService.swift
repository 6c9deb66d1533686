import Foundation

/// How many times and how patiently a request is retried.
public struct RetryPolicy: Sendable, Hashable {
    /// Total attempts, including the first.
    public var maxAttempts: Int
    /// Delay before the first retry; doubles each time.
    public var baseDelay: TimeInterval
    /// Upper bound for any one delay, including a provider's `Retry-After`.
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// No retries at all.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The backoff before retry number `retry` (1-based): `base · 2^(retry-1)`, capped, with
    /// "equal jitter" (half fixed, half random) so that clients do not retry in step.
    public func delay(forRetry retry: Int, jitter: Double) -> TimeInterval {
        let exp = min(maxDelay, baseDelay * pow(2, Double(max(0, retry - 1))))
        return exp / 2 + exp / 2 * min(1, max(0, jitter))
    }
}

/// Sends requests through a transport with time-outs and bounded retries, and maps every failure
/// to a `BrollyError` a user understands.
public struct NetworkService: Sendable {
    public let transport: any HTTPTransport
    public var retry: RetryPolicy
    /// Per-attempt overall time-out, seconds.
    public var timeout: TimeInterval
    /// The time of the deadlines and the waits.
    public var clock: any WallClock
    /// Sleeps between attempts (the clock's sleep unless given; tests inject one that records).
    public var sleep: @Sendable (TimeInterval) async throws -> Void
    /// Random source for jitter, 0…1.
    public var jitter: @Sendable () -> Double
    /// The User-Agent sent upstream.
    public var userAgent: String
    /// Called with each upstream request (URL with keys redacted) and its outcome, for logs.
    public var log: @Sendable (String) -> Void = { _ in }
    /// The budgets and circuit breakers shared by the process; nil: no limits (tests, apps).
    public var guards: UpstreamGuards?

    public init(
        transport: any HTTPTransport, retry: RetryPolicy = RetryPolicy(), timeout: TimeInterval = 10,
        userAgent: String = "Brolly/1.0 (+https://github.com/brolly-weather/brolly)",
        clock: any WallClock = SystemClock(), sleep: (@Sendable (TimeInterval) async throws -> Void)? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.clock = clock
        self.transport = transport
        self.retry = retry
        self.timeout = timeout
        self.userAgent = userAgent
        self.sleep = sleep ?? { try await clock.sleep($0) }
        self.jitter = jitter
    }

    /// A copy with another time-out and retry policy (for quick background refreshes).
    public func with(timeout: TimeInterval, retry: RetryPolicy? = nil) -> NetworkService {
        var copy = self
        copy.timeout = timeout
        if let retry { copy.retry = retry }
        return copy
    }

    /// GETs `url` and returns a 2xx response. Non-2xx answers go to `classify` first, so that a
    /// provider can turn its error bodies into typed errors; what it does not claim is mapped here.
    ///
    /// The request passes the upstream's circuit breaker and the calling client's allowance
    /// (`ClientAllowance.current`) once, and each attempt, retries included, the upstream's budget
    /// (every attempt costs the upstream; only the request is the client's). The breaker hears the
    /// request's outcome once, not each attempt's. The whole call ends by `timeout` (or
    /// `RequestDeadline.current`, when sooner). A connection that cannot be made at all is not
    /// retried: without a network, retrying only makes the user wait. A request that failed because
    /// the upstream did carries, in `retryAfter`, when it is worth asking again.
    public func get(
        _ url: URL, headers: [String: String] = [:], provider: String,
        classify: @Sendable (HTTPResponse) -> BrollyError? = { _ in nil }
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url, headers: headers, timeout: timeout)
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = userAgent }
        if request.headers["Accept"] == nil { request.headers["Accept"] = "application/json" }
        let upstream = Upstream(providerLabel: provider)
        var deadline = clock.now.addingTimeInterval(timeout)
        if let shared = RequestDeadline.current, shared < deadline { deadline = shared }
        let breaker = upstream.flatMap { guards?.breakers[$0] }
        let permit = try await admitRequest(upstream, breaker: breaker, provider: provider)
        // The one trial call after a cool-down is one attempt: its outcome decides.
        let maxAttempts = permit == .trial ? 1 : retry.maxAttempts
        var attempt = 0
        var lastFailure: BrollyError?
        /// The request failed because the upstream did: the breaker hears it once.
        func upstreamFailed(_ failure: BrollyError) -> BrollyError {
            breaker?.recordFailure()
            if failure.retryAfter != nil || failure.kind == .invalidAPIKey { return failure }
            let wait = breaker.map { $0.retryAfter() } ?? 0
            return BrollyError(failure.kind, failure.message, retryAfter: wait > 0 ? wait : nil)
        }
        while true {
            attempt += 1
            let left = deadline.timeIntervalSince(clock.now)
            if left <= 0.05 {
                if let lastFailure { throw upstreamFailed(lastFailure) }
                if permit == .trial { breaker?.abandonTrial() }
                throw BrollyError.timedOut("\(provider) was given no time to answer")
            }
            request.timeout = left
            do { try await admitAttempt(upstream, provider: provider, deadline: deadline) } catch let refusal as BrollyError {
                // A retry the budget does not allow: the first failure is the news.
                if let lastFailure { throw upstreamFailed(lastFailure) }
                if permit == .trial { breaker?.abandonTrial() }
                throw refusal
            } catch {
                if permit == .trial { breaker?.abandonTrial() }
                throw error
            }
            var wait: TimeInterval?
            let failure: BrollyError
            let isRetryable: Bool
            do {
                let response = try await transport.send(request)
                log("GET \(request.redactedURL) -> \(response.status)")
                let status = response.status
                let failedUpstream = status == 429 || (500..<600).contains(status)
                observe(upstream, failed: failedUpstream)
                if (200..<300).contains(status) {
                    breaker?.recordSuccess()
                    return response
                }
                if status == 429 || status == 503 { wait = Self.retryAfter(response.headers["retry-after"], now: clock.now) }
                var classified = classify(response) ?? Self.classify(status: status, provider: provider)
                if classified.kind == .rateLimited { classified = .rateLimited(retryAfter: wait) }
                if !failedUpstream {
                    // The upstream answered (not found, a refused key): it is working.
                    breaker?.recordSuccess()
                    throw classified
                }
                failure = classified
                isRetryable = true
            } catch let error as TransportError {
                log("GET \(request.redactedURL) -> \(error)")
                observe(upstream, failed: true)
                failure = Self.map(error, host: request.url.host ?? provider)
                if case .cannotConnect = error { isRetryable = false } else { isRetryable = true }
            } catch let error as BrollyError {
                throw error
            } catch is CancellationError {
                if permit == .trial { breaker?.abandonTrial() }
                throw CancellationError()
            } catch {
                observe(upstream, failed: true)
                failure = .offline("cannot connect to \(request.url.host ?? provider)")
                isRetryable = false
            }
            lastFailure = failure
            guard isRetryable, attempt < maxAttempts else { throw upstreamFailed(failure) }
            // A provider that wants us away longer than we are willing to wait: tell the user now.
            if let wait, wait > retry.maxDelay { throw upstreamFailed(failure) }
            let delay = max(retry.delay(forRetry: attempt, jitter: jitter()), wait ?? 0)
            if clock.now.addingTimeInterval(delay + 0.05) >= deadline { throw upstreamFailed(failure) }
            do { try await sleep(delay) } catch {
                if permit == .trial { breaker?.abandonTrial() }
                throw error
            }
        }
    }

    /// Lets the request through the upstream's breaker and the client's allowance (charged once
    /// per request, and once per operation under `ClientAllowance.once()`), or throws why not.
    private func admitRequest(_ upstream: Upstream?, breaker: CircuitBreaker?, provider: String) async throws -> CircuitBreaker.Permission {
        var permit = CircuitBreaker.Permission.allowed
        if let breaker, let upstream, let guards {
            permit = breaker.permit()
            if case .refused(let retryAfter) = permit {
                guards.observe(upstream, .circuitOpen)
                throw BrollyError(
                    .providerUnavailable,
                    "\(provider) failed repeatedly; calls are paused for \(Int(retryAfter.rounded(.up))) s", retryAfter: retryAfter)
            }
        }
        guard let allowance = ClientAllowance.current, allowance.needsCharge else { return permit }
        // A refused request gives its breaker trial back, and is counted.
        func refused(_ retryAfter: TimeInterval) -> BrollyError {
            if permit == .trial { breaker?.abandonTrial() }
            if let upstream { guards?.observe(upstream, .clientLimited) }
            return .clientLimited(retryAfter: retryAfter)
        }
        if let retryAfter = allowance.take() { throw refused(retryAfter) }
        // Several servers: the client's allowance also holds for the cluster.
        if let shared = guards?.shared, let key = allowance.sharedKey, let limit = allowance.sharedLimit,
            let retryAfter = (try? await shared.take("client:" + key(), limits: [limit])) ?? nil
        {
            throw refused(retryAfter)
        }
        allowance.markCharged()
        return permit
    }

    /// Lets one attempt through the upstream's budget (waiting for its turn when that is near),
    /// or throws why it may not be made.
    private func admitAttempt(_ upstream: Upstream?, provider: String, deadline: Date) async throws {
        guard let guards, let upstream else { return }
        let maxWait = min(guards.maxWait, max(0, deadline.timeIntervalSince(clock.now) - 0.1))
        let buckets = guards.buckets[upstream]!
        switch buckets.reserve(maxWait: maxWait) {
        case .refused(let retryAfter):
            guards.observe(upstream, .budgetSpent)
            throw BrollyError.budgetSpent(provider, retryAfter: retryAfter)
        case .granted(let after):
            if after > 0 { try await clock.sleep(after) }
        }
        // Several servers: the budget also holds for the cluster.
        if let shared = guards.shared,
            let retryAfter = (try? await shared.take("budget:" + upstream.rawValue, limits: buckets.budget.limits)) ?? nil
        {
            guards.observe(upstream, .budgetSpent)
            throw BrollyError.budgetSpent(provider, retryAfter: retryAfter)
        }
        // An upstream that is part of another counts against its budget as well, without waiting.
        if let parent = upstream.parent, let parentBuckets = guards.buckets[parent] {
            if case .refused(let retryAfter) = parentBuckets.reserve(maxWait: 0, keeping: upstream.parentShareKept) {
                guards.observe(upstream, .budgetSpent)
                throw BrollyError.budgetSpent(provider, retryAfter: retryAfter)
            }
            if let shared = guards.shared,
                let retryAfter = (try? await shared.take("budget:" + parent.rawValue, limits: parentBuckets.budget.limits)) ?? nil
            {
                guards.observe(upstream, .budgetSpent)
                throw BrollyError.budgetSpent(provider, retryAfter: retryAfter)
            }
        }
    }

    /// Counts one attempt's outcome for metrics.
    private func observe(_ upstream: Upstream?, failed: Bool) {
        guard let guards, let upstream else { return }
        guards.observe(upstream, failed ? .failure : .success)
    }

    /// Maps a transport failure to a user-facing error.
    public static func map(_ error: TransportError, host: String) -> BrollyError {
        switch error {
        case .timedOut: .timedOut(host)
        case .cannotConnect: .offline("cannot connect to \(host)")
        case .connectionLost: .offline("\(host) closed the connection before answering")
        case .other: .offline("cannot connect to \(host)")
        }
    }

    /// Maps a non-2xx status a provider did not explain.
    public static func classify(status: Int, provider: String) -> BrollyError {
        switch status {
        case 401, 403: .invalidAPIKey(provider)
        case 404: .placeNotFound("the requested location")
        case 429: .rateLimited(retryAfter: nil)
        case 400..<500: BrollyError(.providerUnavailable, "\(provider) refused the request (HTTP \(status))")
        default: .providerUnavailable("HTTP \(status) from \(provider)")
        }
    }

    /// Parses `Retry-After`: delta-seconds or an HTTP date.
    public static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        // A finite number of seconds, at most a day ("nan" or "1e400" must not reach a status line).
        if let seconds = Double(value) { return seconds.isFinite ? min(max(0, seconds), 86_400) : nil }
        // Foundation's DateFormatter traps on some strings that are not ASCII (found by fuzzing); an
        // HTTP date is ASCII.
        guard value.count <= 64, value.allSatisfy(\.isASCII) else { return nil }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = f.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        return nil
    }
}
