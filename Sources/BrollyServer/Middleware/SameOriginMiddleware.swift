import Foundation
import Hummingbird

/// Refuses state-changing requests from other origins: `Origin` must name this server and
/// `Sec-Fetch-Site`, when a browser sends it, must say same-origin.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let unsafe: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]
        if unsafe.contains(request.method) {
            if let site = request.headers[.init("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
                throw Problem(
                    .forbidden, code: "cross-origin", title: "Cross-origin request refused",
                    detail: "this request must come from Brolly's own page")
            }
            if let origin = request.headers[.origin] {
                let host = request.head.authority ?? ""
                guard let url = URL(string: origin), let originHost = url.host,
                    originHost + (url.port.map { ":\($0)" } ?? "") == host || (url.port == nil && originHost == host)
                else {
                    throw Problem(
                        .forbidden, code: "cross-origin", title: "Cross-origin request refused",
                        detail: "origin \(origin.prefix(100)) may not change this data")
                }
            }
        }
        return try await next(request, context)
    }
}
