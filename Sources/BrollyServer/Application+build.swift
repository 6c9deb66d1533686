import BrollyCompatibleAPIs
import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// What the routers of one server share: the use cases, the settings and the page they serve; the
/// metrics, the table of routes (for `405`) and the device middleware (the device cookie and each
/// client's allowance) around them.
struct ServerParts: Sendable {
    let useCases: UseCases
    let settings: ServerSettings
    /// The page in every language, made once for both routers (nil without a web directory).
    let page: WebPage?
    let metrics: ServerMetrics
    /// Every route's path and methods, for `405` and its `Allow`.
    let routes = RouteTable()
    /// Signs and checks the device cookie and holds each client's allowance of calls and of new
    /// devices per minute: one value for both routers.
    let devices: DeviceMiddleware
    /// The weather documents, memoised (the API's weather and Dark Sky routes and the repeat desk).
    let documents: WeatherAnswerMemo<EncodedJSON>
    /// The compression, with its cache of compressed bodies (both routers and the repeat desk).
    let compression = CompressionMiddleware()

    init(useCases: UseCases, settings: ServerSettings, metrics: ServerMetrics) {
        self.useCases = useCases
        self.settings = settings
        page = WebPage(webDirectory: settings.webDirectory)
        self.metrics = metrics
        let store = useCases.services.store
        devices = DeviceMiddleware(
            tokens: DeviceTokens(secret: settings.deviceSecret, isKnownDevice: { (try? await store.deviceExists($0)) ?? false }),
            limits: ClientLimits(
                callsPerMinute: settings.clientCallsPerMinute, devicesPerMinute: settings.newDevicesPerMinute,
                shared: useCases.services.guards.shared, clock: useCases.services.clock))
        metrics.watch(guards: useCases.services.guards, history: useCases.historyWriter, store: useCases.services.store)
        documents = WeatherController.documents(useCases: useCases)
    }

    /// Answers repeats of recent weather requests before the router (`WeatherRepeatDesk`).
    var repeatDesk: WeatherRepeatDesk {
        WeatherRepeatDesk(
            documents: documents, devices: devices, compression: compression, metrics: metrics,
            trustedProxies: settings.trustedProxies, logLevel: settings.logLevel <= .info ? .info : nil)
    }
}

/// The router of the API (`api`) or of the rest of the site (`site`): `buildApplication` serves
/// `/api/v1/*` from the first, without the static-file and terminal middleware, and all else from
/// the second.
func makeRouter(_ p: ServerParts, api: Bool, site: Bool) -> Router<AppRequestContext> {
    // HEAD is each GET route's answer without its body (RFC 9110 §9.3.2), through the same
    // middleware (it was 405, with an `Allow` that named HEAD).
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Metrics and the security headers in one middleware: every layer costs on the hot path.
    let page = p.page
    let policy = SecurityHeaders.policy(
        radarTileOrigins: SecurityHeaders.radarTileOrigins(radarURL: p.useCases.services.configuration.urls.radar),
        scriptHashes: page?.scriptHashes ?? [])
    router.add(middleware: MetricsAndSecurityHeadersMiddleware(metrics: p.metrics, policy: policy))
    router.add(middleware: p.compression)
    if p.settings.logLevel <= .info { router.add(middleware: RequestLogMiddleware(level: .info)) }
    router.add(middleware: ProblemMiddleware(routes: p.routes))
    if site || !p.settings.trustedProxies.isEmpty {
        router.add(middleware: ClientMiddleware(limits: p.devices.limits, trustedProxies: p.settings.trustedProxies, setsAllowance: site))
    }
    if site {
        router.add(middleware: TerminalRootMiddleware())
        router.add(
            middleware: FileMiddleware(
                p.settings.leafletDirectory, urlBasePath: "/vendor/leaflet",
                cacheControl: .init([(MediaType(type: .any), [.public, .maxAge(86_400)])])))
        router.add(
            middleware: FileMiddleware(
                p.settings.webDirectory, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true))
        router.addRoutes(LanguageController().routes)
        // Written by the server, not a file: the page in the reader's language with its first
        // paint's data (texts, the conversion table) inline — so that no unit constant and no
        // English is written in the page's code — its device cookie, and a returning browser's card.
        if let page {
            router.group().add(middleware: p.devices)
                .addRoutes(PageController(page: page, useCases: p.useCases).routes)
        }
        router.addRoutes(OperationsController(metrics: p.metrics, metricsToken: p.settings.metricsToken).routes)
        router.addRoutes(WidgetController(webDirectory: p.settings.webDirectory, page: page).routes)
        router.addRoutes(ManifestController(useCases: p.useCases, webDirectory: p.settings.webDirectory, tokens: p.devices.tokens).routes)
        router.addRoutes(TerminalController(useCases: p.useCases, webDirectory: p.settings.webDirectory, metrics: p.metrics).routes)
    }
    if api {
        let group = router.group("/api/v1")
            .add(middleware: ETagMiddleware())
            .add(middleware: SameOriginMiddleware(allowedOrigins: p.settings.allowedOrigins))
            .add(middleware: p.devices)
        let documents = p.documents
        group.addRoutes(WeatherController(documents: documents, metrics: p.metrics).routes)
        group.addRoutes(PlacesController(useCases: p.useCases).routes)
        group.addRoutes(HistoryController(useCases: p.useCases).routes)
        group.addRoutes(AlertsController(useCases: p.useCases).routes)
        group.addRoutes(AccuracyController(useCases: p.useCases).routes)
        group.addRoutes(RadarController(useCases: p.useCases).routes)
        group.addRoutes(AddressController(useCases: p.useCases).routes)
        group.addRoutes(NewsController(useCases: p.useCases).routes)
        group.addRoutes(PushController(useCases: p.useCases, vapid: p.settings.vapid, allowInsecure: p.settings.pushAllowInsecure).routes)
        // The APIs other apps speak: no cookies, no same-origin rule; each client's allowance by its
        // address, or by its key when the server has `BROLLY_API_KEYS` (for the APIs in `BROLLY_API_KEYS_FOR`).
        for (index, surface) in CompatibleSurfaces.all.enumerated() {
            let controller = CompatibleController(
                surface: surface, index: index, documents: documents, metrics: p.metrics, useCases: p.useCases,
                keys: p.settings.keys(for: surface.name),
                limits: p.devices.limits)
            router.addRoutes(controller.routes, atPath: RouterPath(surface.mount))
        }
    }
    return router
}

/// Sends `/api/v1/…` and the compatible APIs (`/forecast/…`, `/v1/…`, `/data/2.5/…`) to the API's router, which has no
/// static files or terminal pages to pass through, and everything else to the site's.
struct TwoLaneResponder: HTTPResponder {
    typealias Context = AppRequestContext
    let api: RouterResponder<AppRequestContext>
    let site: RouterResponder<AppRequestContext>
    /// Answers a repeat of a recent weather request before the API's router.
    let desk: WeatherRepeatDesk

    /// `/api/v1/` and each compatible API's mount, as bytes (compared on every request).
    static let apiPrefixes: [[UInt8]] = [Array("/api/v1/".utf8)] + CompatibleSurfaces.all.map { Array(($0.mount + "/").utf8) }

    func respond(to request: Request, context: AppRequestContext) async throws -> Response {
        if RequestTarget.path(of: request, startsWithAnyOf: Self.apiPrefixes) {
            if let answer = await desk.answer(request, context: context) { return answer }
            return try await api.respond(to: request, context: context)
        }
        return try await site.respond(to: request, context: context)
    }
}

/// A request's target read as bytes, for the checks every request passes through: its path is
/// compared without making a `String` of it (`URI.path` makes one on each call). An absolute-form
/// target (`http://host/path`, from a proxy) is left to Hummingbird's `URI`.
enum RequestTarget {
    /// Whether the request's path starts with one of `prefixes` (each without a `?`).
    static func path(of request: Request, startsWithAnyOf prefixes: [[UInt8]]) -> Bool {
        guard var target = request.head.path, target.utf8.first == UInt8(ascii: "/") else {
            let path = request.uri.path.utf8
            return prefixes.contains { path.starts(with: $0) }
        }
        return target.withUTF8 { bytes in prefixes.contains { bytes.starts(with: $0) } }
    }

    /// Whether the request's path is `path` exactly (whatever its query), as `URI.path == path`.
    static func path(of request: Request, is path: [UInt8]) -> Bool {
        guard var target = request.head.path, target.utf8.first == UInt8(ascii: "/") else {
            return request.uri.path.utf8.elementsEqual(path)
        }
        return target.withUTF8 { bytes in
            bytes.starts(with: path) && (bytes.count == path.count || bytes[path.count] == UInt8(ascii: "?"))
        }
    }
}

/// Builds the application on `settings.host:settings.port` over `useCases`, with the background
/// services that run beside it (the batched history writes, the disk cache's eviction, and — for
/// `brolly serve`, `exitsByShutdownDeadline` — the shutdown deadline and the heap trimmer).
/// `services` run too and stop last (the database, the HTTP client). Tests build the server this
/// way over their own use cases; `buildApplication(configuration:…)` builds everything.
public func buildApplication(
    useCases: UseCases, settings: ServerSettings, logger: Logger, metrics: ServerMetrics = ServerMetrics(),
    exitsByShutdownDeadline: Bool = false, pushTransport: (any HTTPTransport)? = nil, services lastToStop: [any Service] = []
) -> some ApplicationProtocol {
    var services: [any Service] =
        lastToStop + [
            CacheJanitor(cache: useCases.services.cache, maxBytes: useCases.services.configuration.cacheMaxBytes, logger: logger)
        ]
    if exitsByShutdownDeadline {
        services.append(ShutdownDeadline(seconds: 9, history: useCases.historyWriter, logger: logger))
        services.append(HeapTrimmer())
    }
    if let writer = useCases.historyWriter { services.append(HistoryFlusher(writer: writer)) }
    if let vapid = settings.vapid, let transport = pushTransport {
        if settings.pushAllowInsecure {
            logger.warning("BROLLY_PUSH_ALLOW_INSECURE is set: http push endpoints on loopback are allowed (for tests only)")
        }
        let sender = PushSender(
            useCases: useCases, vapid: vapid, transport: transport, allowInsecure: settings.pushAllowInsecure, logger: logger)
        let scheduler = PushScheduler(
            useCases: useCases,
            watcher: PushWatcher(
                useCases: useCases, interval: settings.watchSeconds, budget: settings.watchBudget, grid: settings.watchGrid),
            interval: settings.alertPollSeconds, sender: sender,
            lease: ClusterLease(
                name: "alert-poller", holder: "\(ProcessInfo.processInfo.hostName):\(settings.port):\(getpid())",
                store: useCases.services.store, clock: useCases.services.clock),
            logger: logger)
        if let watcher = scheduler.watcher { metrics.watch(watcher, delivered: sender.watchPushes) }
        services.append(scheduler)
    }
    let parts = ServerParts(useCases: useCases, settings: settings, metrics: metrics)
    let api = makeRouter(parts, api: true, site: false)
    let site = makeRouter(parts, api: false, site: true)
    parts.routes.load((api.routes + site.routes).map { ($0.path.description, $0.method) })
    // Slow and greedy clients: a request head within the idle time-out, a cap per address, and all
    // connections below the open-files limit (raised first).
    ConnectionGuard.raiseOpenFilesLimit()
    let connections = ConnectionGuard(
        perAddress: settings.maxConnectionsPerAddress, exempt: settings.trustedProxies, writeTimeout: settings.writeTimeout)
    return Application(
        responder: TwoLaneResponder(api: api.buildResponder(), site: site.buildResponder(), desk: parts.repeatDesk),
        server: connections.serverBuilder(idleTimeout: settings.idleTimeout, tls: settings.tls),
        configuration: .init(
            address: .hostname(settings.host, port: settings.port), backlog: 1_024,
            availableConnectionsDelegate: MaximumAvailableConnections(ConnectionGuard.maxConnections())),
        services: services,
        logger: logger)
}

/// Writes the batched history every second, and what is left when the server stops.
struct HistoryFlusher: Service {
    let writer: HistoryWriter

    func run() async throws {
        await cancelWhenGracefulShutdown { await writer.run() }
        await writer.flush()
    }
}

/// Keeps the disk cache within `BROLLY_CACHE_MAX_MB` (and drops entries older than 30 days):
/// at start and every five minutes.
struct CacheJanitor: Service {
    let cache: FileCache
    let maxBytes: Int
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let (removed, bytes) = cache.evict(maxBytes: maxBytes, now: cache.clock.now)
                if removed > 0 { logger.info("cache: removed \(removed) old entries, \(bytes >> 20) MB left") }
                // The cluster's shared tier has the same bounds (each instance sweeps; it is idempotent).
                if let shared = cache.shared,
                    let swept = try? await shared.sweep(olderThan: cache.clock.now.addingTimeInterval(-30 * 86_400), maxBytes: maxBytes),
                    swept > 0
                {
                    logger.info("shared cache: removed \(swept) old entries")
                }
                try? await cache.clock.sleep(300)
            }
        }
    }
}

/// Bounds shutdown: once SIGTERM (or SIGINT) arrives, the server has `seconds` to finish its
/// in-flight requests; then the buffered history is written and the process exits, whatever is
/// still queued.
struct ShutdownDeadline: Service {
    let seconds: Double
    let history: HistoryWriter?
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        let (seconds, history, logger) = (seconds, history, logger)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            logger.warning("shutdown took more than \(seconds) s: writing the history and exiting")
            // The cooperative pool may be stuck with the requests: the flush gets 5 s more.
            let done = DispatchSemaphore(value: 0)
            Task {
                await history?.flush()
                done.signal()
            }
            _ = done.wait(timeout: .now() + 5)
            exit(0)
        }
    }
}
