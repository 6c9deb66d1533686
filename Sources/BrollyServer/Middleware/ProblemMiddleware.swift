import BrollyCore
import Foundation
import Hummingbird
import Logging

/// Turns every failure into a problem+json response here, inside the logging and security-header
/// middleware, so error responses carry the same headers as any other. `Problem` and
/// `BrollyError` answer for themselves (they are `HTTPResponseError`s); Hummingbird's own HTTP
/// errors (404, 405, 413, bad bodies) are given the problem shape; anything else — which should
/// never happen — becomes a logged 502, never a 500.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return try Problem.answering(error, logger: context.logger).response(from: request, context: context)
        }
    }
}

extension Problem {
    /// What answers `error`: `Problem`s and `BrollyError`s as they are, Hummingbird's `HTTPError`s
    /// as problems of their status, anything else as a logged 502.
    static func answering(_ error: any Error, logger: Logger) -> any HTTPResponseError {
        switch error {
        case let error as HTTPError:
            let title = error.status.reasonPhrase
            let code = error.status == .notFound ? "no-route" : error.status.code < 500 ? "invalid-input" : "internal"
            return Problem(error.status, code: code, title: title, detail: error.body ?? title)
        case let error as Problem:
            return error
        case let error as BrollyError:
            return error
        default:
            logger.error("unexpected error: \(String(describing: error))")
            return Problem(.badGateway, code: "provider", title: "Upstream failure", detail: "the request could not be completed")
        }
    }
}
