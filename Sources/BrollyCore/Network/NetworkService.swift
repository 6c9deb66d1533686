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
    public func get(
        _ url: URL, headers: [String: String] = [:], provider: String,
        classify: @Sendable (HTTPResponse) -> BrollyError? = { _ in nil }
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(url: url, headers: headers, timeout: timeout)
        if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = userAgent }
        if request.headers["Accept"] == nil { request.headers["Accept"] = "application/json" }
        var attempt = 0
        while true {
            attempt += 1
            var wait: TimeInterval?
            let failure: BrollyError
            let isRetryable: Bool
            do {
                let response = try await transport.send(request)
                log("GET \(request.redactedURL) -> \(response.status)")
                if (200..<300).contains(response.status) { return response }
                let status = response.status
                if status == 429 || status == 503 { wait = Self.retryAfter(response.headers["retry-after"]) }
                var classified = classify(response) ?? Self.classify(status: status, provider: provider)
                if classified.kind == .rateLimited { classified = .rateLimited(retryAfter: wait) }
                failure = classified
                isRetryable = status == 429 || (500..<600).contains(status)
            } catch let error as TransportError {
                log("GET \(request.redactedURL) -> \(error)")
                failure = Self.map(error, host: request.url.host ?? provider)
                isRetryable = true
            } catch let error as BrollyError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failure = .offline("cannot connect to \(request.url.host ?? provider)")
                isRetryable = true
            }
            guard isRetryable, attempt < retry.maxAttempts else { throw failure }
            // A provider that wants us away longer than we are willing to wait: tell the user now.
            if let wait, wait > retry.maxDelay { throw failure }
            let delay = max(retry.delay(forRetry: attempt, jitter: jitter()), wait ?? 0)
            try await sleep(delay)
        }
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
