import BrollyCompatibleAPIs
import BrollyCore
import BrollyStore
import BrollyUseCases
import CoreMetrics
import Foundation
import Hummingbird
import Prometheus

/// The server's metrics, through swift-metrics on a Prometheus registry of its own (not the
/// process-wide bootstrap, so tests can build many servers): requests by route, method and status
/// with a latency histogram; upstream calls by provider and outcome; weather answers from the
/// cache (fresh or stale) or fetched; and, read when scraped, each upstream's budget left and
/// breaker state and the history rows written.
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let factory: PrometheusMetricsFactory
    /// Per route, method and status; bounded (past `maxSeries`, new combinations are counted as
    /// route "other"), read under a lock without reordering anything.
    private let requests = Locked<[RequestKey: RequestMetrics]>([:])
    private let maxSeries = 2048

    struct RequestKey: Hashable, Sendable {
        var route: String
        var method: String
        var status: Int
    }
    private let upstreamCalls: [String: CoreMetrics.Counter]
    private let cacheAnswers: [String: CoreMetrics.Counter]
    /// Weather answers given before the router, by `WeatherRepeatDesk` (also counted as cache hits).
    private let repeatAnswers: CoreMetrics.Counter
    /// `cacheAnswers["hit"]`, without the lookup (every cached answer counts it).
    private let cacheHits: CoreMetrics.Counter
    /// Requests to the compatible APIs by surface and result (never by key).
    /// By API (in `CompatibleSurfaces.all`'s order), answered then refused: picked without a lookup by name.
    private let compatibleRequests: [(answered: CoreMetrics.Counter, refused: CoreMetrics.Counter)]
    /// Read when scraped.
    nonisolated(unsafe) private var sources: (guards: UpstreamGuards, history: HistoryWriter?)?
    nonisolated(unsafe) private var store: (any DataStore)?
    nonisolated(unsafe) private var pushWatch: (watcher: PushWatcher, delivered: Locked<[String: Int]>)?
    // nonisolated(unsafe) (all three): set once by `watch` while the application is built, before
    // the server accepts a connection; only read afterwards.

    struct RequestMetrics: Sendable {
        let counter: CoreMetrics.Counter
        let timer: CoreMetrics.Timer
    }

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        var calls: [String: CoreMetrics.Counter] = [:]
        for upstream in Upstream.allCases {
            for outcome in UpstreamOutcome.allCases {
                calls[upstream.rawValue + "|" + outcome.rawValue] = CoreMetrics.Counter(
                    label: "brolly_upstream_calls_total", dimensions: [("provider", upstream.rawValue), ("outcome", outcome.rawValue)],
                    factory: factory)
            }
        }
        upstreamCalls = calls
        var answers: [String: CoreMetrics.Counter] = [:]
        for kind in ["hit", "stale", "miss"] {
            answers[kind] = CoreMetrics.Counter(label: "brolly_cache_answers_total", dimensions: [("result", kind)], factory: factory)
        }
        cacheAnswers = answers
        cacheHits = answers["hit"]!
        repeatAnswers = CoreMetrics.Counter(label: "brolly_repeat_desk_answers_total", factory: factory)
        compatibleRequests = CompatibleSurfaces.all.map(\.name).map { name in
            func counter(_ result: String) -> CoreMetrics.Counter {
                CoreMetrics.Counter(
                    label: "brolly_compatible_api_requests_total", dimensions: [("api", name), ("result", result)], factory: factory)
            }
            return (counter("answered"), counter("refused-key"))
        }
    }

    /// Counts a request to a compatible API: `answered` (whatever its status) or `refused-key`.
    func compatible(_ index: Int, refusedKey: Bool) {
        let counters = compatibleRequests[index]
        (refusedKey ? counters.refused : counters.answered).increment()
    }

    func watch(guards: UpstreamGuards, history: HistoryWriter?, store: (any DataStore)? = nil) {
        sources = (guards, history)
        self.store = store
    }

    /// The rain and morning watcher's last round and its pushes delivered, read when scraped.
    func watch(_ watcher: PushWatcher, delivered: Locked<[String: Int]>) {
        pushWatch = (watcher, delivered)
    }

    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        let metrics = series(route: route, method: method, status: status)
        metrics.counter.increment()
        metrics.timer.recordNanoseconds(nanoseconds)
    }

    /// The counter and latency of requests to `route` by `method` answered `status` (made on first use).
    func series(route: String, method: String, status: Int) -> RequestMetrics {
        var key = RequestKey(route: route, method: method, status: status)
        if let made = requests.withLock({ $0[key] }) { return made }
        return requests.withLock { series in
            if series.count >= maxSeries { key.route = "other" }
            if let made = series[key] { return made }
            let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
            let made = RequestMetrics(
                counter: CoreMetrics.Counter(label: "brolly_http_requests_total", dimensions: dimensions, factory: factory),
                timer: CoreMetrics.Timer(label: "brolly_http_request_duration_seconds", dimensions: dimensions, factory: factory))
            series[key] = made
            return made
        }
    }

    public func upstream(_ upstream: Upstream, _ outcome: UpstreamOutcome) {
        upstreamCalls[upstream.rawValue + "|" + outcome.rawValue]?.increment()
    }

    /// Counts a fresh answer from the cache.
    func weatherAnswerFromCache(byRepeatDesk: Bool = false) {
        cacheHits.increment()
        if byRepeatDesk { repeatAnswers.increment() }
    }

    /// Counts a weather answer: fresh from the cache, stale from the cache, or fetched.
    func weatherAnswer(_ result: WeatherResult) {
        cacheAnswers[result.isStale ? "stale" : result.isFromCache ? "hit" : "miss"]?.increment()
    }

    /// The Prometheus text exposition.
    func render() -> [UInt8] {
        var out = registry.emitToBuffer()
        guard let (guards, history) = sources else { return out }
        var text = "# TYPE brolly_upstream_budget_remaining gauge\n"
        for upstream in Upstream.allCases {
            let left = guards.buckets[upstream]!.remaining()
            text += "brolly_upstream_budget_remaining{provider=\"\(upstream.rawValue)\"} \(String(format: "%.1f", left))\n"
        }
        text += "# TYPE brolly_upstream_breaker_open gauge\n"
        for upstream in Upstream.allCases {
            let state = guards.breakers[upstream]!.currentState
            let value = state == .open ? 1 : state == .halfOpen ? 0.5 : 0
            text += "brolly_upstream_breaker_open{provider=\"\(upstream.rawValue)\",state=\"\(state.rawValue)\"} \(value)\n"
        }
        text += "# TYPE brolly_history_rows_written_total counter\n"
        text += "brolly_history_rows_written_total \(history?.rowsWritten ?? 0)\n"
        text += "# TYPE brolly_history_rows_buffered gauge\n"
        text += "brolly_history_rows_buffered \(history?.buffered ?? 0)\n"
        if let store {
            text += "# TYPE brolly_database_available gauge\n"
            text += "brolly_database_available{engine=\"\(store.engine)\"} \(store.isAvailable ? 1 : 0)\n"
        }
        if let (watcher, delivered) = pushWatch {
            let round = watcher.lastRound.withLock { $0 }
            text +=
                "# HELP brolly_watch_places Places the rain watcher looked at in its last round, and those it could not (its budget spent).\n"
            text += "# TYPE brolly_watch_places gauge\n"
            text += "brolly_watch_places{state=\"watched\"} \(round.watched)\n"
            text += "brolly_watch_places{state=\"unwatched\"} \(round.unwatched)\n"
            text += "# TYPE brolly_watch_budget_remaining gauge\n"
            text += "brolly_watch_budget_remaining \(String(format: "%.1f", watcher.budgetRemaining))\n"
            let pushed = delivered.withLock { $0 }
            text += "# TYPE brolly_watch_pushes_total counter\n"
            for type in ["rain", "morning"] { text += "brolly_watch_pushes_total{type=\"\(type)\"} \(pushed[type] ?? 0)\n" }
        }
        out.append(contentsOf: Array(text.utf8))
        return out
    }
}
