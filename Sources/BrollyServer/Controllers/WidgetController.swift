import Foundation
import Hummingbird

/// `/widget`: the embeddable widget page (320×160, no map), which may be framed by other sites.
struct WidgetController: Sendable {
    let webDirectory: String
    /// The first paint's data (texts, conversion table) the widget's modules read, as the page's.
    let page: WebPage?

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("widget", use: widget)
    }

    @Sendable func widget(_ request: Request, context: AppRequestContext) async throws -> Response {
        let url = URL(fileURLWithPath: webDirectory).appendingPathComponent("widget.html")
        guard var html = (try? Data(contentsOf: url)).map({ String(decoding: $0, as: UTF8.self) }) else { throw HTTPError(.notFound) }
        let code = PageController.language(request, cookies: PageController.cookies(request))
        if let boot = page?.boot(code) ?? page?.boot("en") { html = html.replacingOccurrences(of: "</body>", with: "  \(boot)\n</body>") }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                // Unlike the app, the widget is meant to be framed by dashboards.
                .contentSecurityPolicy:
                    "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors *",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
