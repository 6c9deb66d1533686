import BrollyCore
import Foundation
import Hummingbird

/// Turns every failure into a problem+json response here, inside the logging and security-header
/// middleware, so error responses carry the same headers as any other. `Problem` and
/// `BrollyError` answer for themselves (they are `HTTPResponseError`s); Hummingbird's own HTTP
/// errors (404, 405, 413, bad bodies) are given the problem shape; anything else — which should
/// never happen — becomes a logged 502, never a 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let title = error.status.reasonPhrase
            let code = error.status == .notFound ? "no-route" : error.status.code < 500 ? "invalid-input" : "internal"
            return try Problem(error.status, code: code, title: title, detail: error.body ?? title)
                .response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("unexpected error: \(String(describing: error))")
            return try Problem(.badGateway, code: "provider", title: "Upstream failure", detail: "the request could not be completed")
                .response(from: request, context: context)
        }
    }
}
