import Foundation
import Hummingbird

/// `/widget`: the embeddable widget page (320×160, no map), which may be framed by other sites.
struct WidgetController: Sendable {
    let webDirectory: String

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        let router = RouteCollection(context: AppRequestContext.self)
        router.get("widget", use: widget)
        return router
    }

    @Sendable func widget(_ request: Request, context: AppRequestContext) async throws -> Response {
        let url = URL(fileURLWithPath: webDirectory).appendingPathComponent("widget.html")
        guard let page = try? Data(contentsOf: url) else { throw HTTPError(.notFound) }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                // Unlike the app, the widget is meant to be framed by dashboards.
                .contentSecurityPolicy:
                    "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors *",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: page)))
    }
}
