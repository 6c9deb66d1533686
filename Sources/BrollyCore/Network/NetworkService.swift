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
    /// Sleeps between attempts; tests inject one that records instead of sleeping.
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
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.transport = transport
        self.retry = retry
        self.timeout = timeout
        self.userAgent = userAgent
        self.sleep = sleep
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
    /// Every attempt, retries included, must pass the upstream's circuit breaker, the calling
    /// client's allowance (`ClientAllowance.current`) and the upstream's budget, and the whole call
    /// ends by `timeout` (or `RequestDeadline.current`, when sooner). A connection that cannot be
    /// made at all is not retried: without a network, retrying only makes the user wait.
    public func get(
        _ url: URL, headers: [String: String] = [:], provider: String,
        classify: @Sendable (HTTPResponse) -> BrollyError? = { _ in nil }
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url, headers: headers, timeout: timeout)
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = userAgent }
        if request.headers["Accept"] == nil { request.headers["Accept"] = "application/json" }
        let upstream = Upstream(providerLabel: provider)
        var deadline = Date().addingTimeInterval(timeout)
        if let shared = RequestDeadline.current, shared < deadline { deadline = shared }
        var attempt = 0
        var lastFailure: BrollyError?
        while true {
            attempt += 1
            let left = deadline.timeIntervalSinceNow
            if left <= 0.05 { throw lastFailure ?? .timedOut("\(provider) was given no time to answer") }
            request.timeout = left
            let permit: CircuitBreaker.Permission
            do { permit = try await admit(upstream, provider: provider, deadline: deadline) } catch let refusal as BrollyError {
                // A retry the budget or the breaker does not allow: the first failure is the news.
                throw lastFailure ?? refusal
            }
            var wait: TimeInterval?
            let failure: BrollyError
            let isRetryable: Bool
            do {
                let response = try await transport.send(request)
                log("GET \(request.redactedURL) -> \(response.status)")
                let status = response.status
                let upstreamFailed = status == 429 || (500..<600).contains(status)
                report(upstream, failed: upstreamFailed)
                if (200..<300).contains(status) { return response }
                if status == 429 || status == 503 { wait = Self.retryAfter(response.headers["retry-after"]) }
                var classified = classify(response) ?? Self.classify(status: status, provider: provider)
                if classified.kind == .rateLimited { classified = .rateLimited(retryAfter: wait) }
                failure = classified
                isRetryable = upstreamFailed
            } catch let error as TransportError {
                log("GET \(request.redactedURL) -> \(error)")
                report(upstream, failed: true)
                failure = Self.map(error, host: request.url.host ?? provider)
                if case .cannotConnect = error { isRetryable = false } else { isRetryable = true }
            } catch let error as BrollyError {
                report(upstream, failed: false)
                throw error
            } catch is CancellationError {
                if permit == .trial, let upstream { guards?.breakers[upstream]?.abandonTrial() }
                throw CancellationError()
            } catch {
                report(upstream, failed: true)
                failure = .offline("cannot connect to \(request.url.host ?? provider)")
                isRetryable = false
            }
            lastFailure = failure
            guard isRetryable, attempt < retry.maxAttempts else { throw failure }
            // A provider that wants us away longer than we are willing to wait: tell the user now.
            if let wait, wait > retry.maxDelay { throw failure }
            let delay = max(retry.delay(forRetry: attempt, jitter: jitter()), wait ?? 0)
            if Date().addingTimeInterval(delay + 0.05) >= deadline { throw failure }
            try await sleep(delay)
        }
    }

    /// Lets one attempt through the breaker, the client's allowance and the budget (waiting for
    /// its turn in the budget when that is near), or throws why it may not be made.
    private func admit(_ upstream: Upstream?, provider: String, deadline: Date) async throws -> CircuitBreaker.Permission {
        guard let guards, let upstream else {
            if let allowance = ClientAllowance.current, let retryAfter = allowance.take() {
                throw BrollyError.clientLimited(retryAfter: retryAfter)
            }
            return .allowed
        }
        let breaker = guards.breakers[upstream]!
        let permit = breaker.permit()
        if case .refused(let retryAfter) = permit {
            guards.observe(upstream, .circuitOpen)
            throw BrollyError(
                .providerUnavailable,
                "\(provider) failed repeatedly; calls are paused for \(Int(retryAfter.rounded(.up))) s", retryAfter: retryAfter)
        }
        // A refused attempt gives its breaker trial back, and is counted.
        func refused(_ outcome: UpstreamOutcome, _ error: BrollyError) -> BrollyError {
            if permit == .trial { breaker.abandonTrial() }
            guards.observe(upstream, outcome)
            return error
        }
        if let allowance = ClientAllowance.current, let retryAfter = allowance.take() {
            throw refused(.clientLimited, .clientLimited(retryAfter: retryAfter))
        }
        let maxWait = min(guards.maxWait, max(0, deadline.timeIntervalSinceNow - 0.1))
        let buckets = guards.buckets[upstream]!
        switch buckets.reserve(maxWait: maxWait) {
        case .refused(let retryAfter):
            throw refused(.budgetSpent, .budgetSpent(provider, retryAfter: retryAfter))
        case .granted(let after):
            if after > 0 { try await Task.sleep(nanoseconds: UInt64(after * 1_000_000_000)) }
        }
        // Several servers: the client's allowance and the budget also hold for the cluster.
        if let shared = guards.shared {
            if let allowance = ClientAllowance.current, let key = allowance.sharedKey, let limit = allowance.sharedLimit,
                let retryAfter = (try? await shared.take("client:" + key(), limits: [limit])) ?? nil
            {
                throw refused(.clientLimited, .clientLimited(retryAfter: retryAfter))
            }
            if let retryAfter = (try? await shared.take("budget:" + upstream.rawValue, limits: buckets.budget.limits)) ?? nil {
                throw refused(.budgetSpent, .budgetSpent(provider, retryAfter: retryAfter))
            }
        }
        return permit
    }

    private func report(_ upstream: Upstream?, failed: Bool) {
        guard let guards, let upstream else { return }
        if failed {
            guards.breakers[upstream]?.recordFailure()
        } else {
            guards.breakers[upstream]?.recordSuccess()
        }
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
    public static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        if let date = f.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        return nil
    }
}
