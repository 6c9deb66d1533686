import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird
import Logging

/// Builds the router: middleware, the API controllers over the use cases, health, the OpenAPI
/// document, Leaflet and the web app. Tests build the same router.
public func buildRouter(useCases: UseCases, settings: ServerSettings) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: LogRequestsMiddleware(.info))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: TerminalRootMiddleware())
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
    let api = router.group("/api/v1")
        .add(middleware: ETagMiddleware())
        .add(middleware: SameOriginMiddleware())
        .add(middleware: DeviceMiddleware())
    WeatherController(useCases: useCases).add(to: api)
    PlacesController(useCases: useCases).add(to: api)
    HistoryController(useCases: useCases).add(to: api)
    LookupsController(useCases: useCases).add(to: api)
    WidgetController(webDirectory: settings.webDirectory).add(to: router)
    ManifestController(useCases: useCases, webDirectory: settings.webDirectory).add(to: router)
    TerminalController(useCases: useCases, webDirectory: settings.webDirectory).add(to: router)
    return router
}

/// Builds the application on `settings.host:settings.port`.
public func buildApplication(useCases: UseCases, settings: ServerSettings, logger: Logger) -> some ApplicationProtocol {
    Application(
        router: buildRouter(useCases: useCases, settings: settings),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Brolly"),
        logger: logger)
}
