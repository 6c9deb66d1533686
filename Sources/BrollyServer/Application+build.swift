import BrollyCore
import BrollyStore
import Foundation
import Hummingbird
import Logging

/// What `brolly serve` needs beyond the provider configuration.
public struct ServerSettings: Sendable {
    public var host: String
    public var port: Int
    /// Where Leaflet's files are (Debian's libjs-leaflet by default).
    public var leafletDirectory: String
    /// Where the web app's files are; by default the ones built into the package.
    public var webDirectory: String

    public init(host: String = "127.0.0.1", port: Int = 8080, leafletDirectory: String? = nil, webDirectory: String? = nil) {
        self.host = host
        self.port = port
        self.leafletDirectory = leafletDirectory ?? "/usr/share/javascript/leaflet"
        self.webDirectory = webDirectory ?? Self.bundledWebDirectory
    }

    /// The web app shipped as a package resource.
    public static var bundledWebDirectory: String {
        Bundle.module.resourceURL!.appendingPathComponent("Public").path
    }
}

/// The services behind the API, built once and shared by every request.
public struct ServerServices: Sendable {
    public let weather: WeatherService
    public let search: PlaceSearch
    public let namer: PlaceNamer
    public let store: AppDatabase
    public let address: AddressService
    public let news: NewsService

    public init(
        weather: WeatherService, search: PlaceSearch, namer: PlaceNamer, store: AppDatabase, address: AddressService,
        news: NewsService
    ) {
        self.weather = weather
        self.search = search
        self.namer = namer
        self.store = store
        self.address = address
        self.news = news
    }

    /// The services for a configuration on a transport. Upstream requests are logged with keys
    /// redacted.
    public static func make(
        configuration: BrollyConfiguration, transport: any HTTPTransport, store: AppDatabase, logger: Logger
    ) -> ServerServices {
        let log: @Sendable (String) -> Void = { logger.info("upstream \($0)") }
        var network = configuration.makeNetwork(transport: transport)
        network.log = log
        var quick = configuration.makeNetwork(transport: transport, timeout: min(configuration.timeout, 3), retry: .none)
        quick.log = log
        let cache = FileCache(directory: configuration.directories.cache)
        let provider = configuration.makeProvider(network: network)
        let weather = WeatherService(
            provider: provider, quickProvider: configuration.makeProvider(network: quick), cache: cache,
            policy: configuration.cachePolicy, keepsEntriesInMemory: true)
        // One gate for every Nominatim call: at most one request per second.
        var address = configuration.makeAddressService(transport: transport, gate: RateGate(interval: 1))
        address.network.log = log
        address.nominatim.network.log = log
        var news = configuration.makeNewsService(transport: transport)
        news.network.log = log
        return ServerServices(
            weather: weather, search: PlaceSearch(provider: provider, cache: cache),
            namer: PlaceNamer(provider: configuration.makeProvider(network: quick), addresses: address, cache: cache),
            store: store, address: address, news: news)
    }
}

/// Builds the router: API, health, OpenAPI document, Leaflet and the web app.
public func buildRouter(services: ServerServices, settings: ServerSettings) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(
        middleware: FileMiddleware(
            settings.leafletDirectory, urlBasePath: "/vendor/leaflet",
            cacheControl: .init([(MediaType(type: .any), [.public, .maxAge(86_400)])])))
    router.add(
        middleware: FileMiddleware(
            settings.webDirectory, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true))
    router.get("/healthz") { _, _ -> Response in
        Response(
            status: .ok, headers: [.contentType: "text/plain", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }
    router.get("/api/openapi.json") { _, _ -> Response in
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
    }
    let api = router.group("/api/v1").add(middleware: SameOriginMiddleware()).add(middleware: DeviceMiddleware())
    APIController(services: services).add(to: api)
    DeviceDataController(services: services).add(to: api)
    return router
}

/// Builds the application on `settings.host:settings.port`.
public func buildApplication(services: ServerServices, settings: ServerSettings, logger: Logger) -> some ApplicationProtocol {
    Application(
        router: buildRouter(services: services, settings: settings),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Brolly"),
        logger: logger)
}

/// Headers every response carries: no sniffing, no framing, and a content security policy that
/// allows our own scripts and OpenStreetMap tiles only.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' data: https://*.tile.openstreetmap.org; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        }
        return response
    }
}
