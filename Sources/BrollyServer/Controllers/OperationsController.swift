import BrollyCore
import Foundation
import Hummingbird

/// What operators and API clients ask of the server itself: `/healthz`, `/metrics` (Prometheus's
/// text format) and `/api/openapi.json`.
struct OperationsController: Sendable {
    let metrics: ServerMetrics
    /// `BROLLY_METRICS_TOKEN`: nil serves the metrics to loopback only.
    let metricsToken: String?

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("healthz", use: health).get("metrics", use: render)
            .get("api/openapi.json", use: openAPI)
    }

    @Sendable func health(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
    }

    @Sendable func render(_ request: Request, context: AppRequestContext) async throws -> Response {
        try MetricsAccess.check(request, context: context, token: metricsToken)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: metrics.render())))
    }

    @Sendable func openAPI(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json)))
    }
}

/// `/metrics` is for operators: loopback clients only, unless `BROLLY_METRICS_TOKEN` is set,
/// then anyone presenting it as a bearer token.
enum MetricsAccess {
    static func check(_ request: Request, context: AppRequestContext, token: String?) throws {
        if let token {
            guard let auth = request.headers[.authorization], constantTimeEqual(Array(auth.utf8), Array(("Bearer " + token).utf8)) else {
                throw Problem(.unauthorized, code: .unauthorized, title: "Unauthorized", detail: "the metrics need the bearer token")
            }
            return
        }
        let peer = context.peerIP
        guard peer.isEmpty || peer == "::1" || peer.hasPrefix("127.") || peer == "::ffff:127.0.0.1" else {
            throw Problem(
                .forbidden, code: .forbidden, title: "Forbidden",
                detail: "the metrics are served to loopback only (or set BROLLY_METRICS_TOKEN)")
        }
    }
}
