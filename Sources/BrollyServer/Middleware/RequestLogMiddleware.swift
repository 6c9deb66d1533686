import BrollyCore
import Hummingbird
import Logging

/// One log line per request (method and target) with every API key redacted: the Dark Sky / Pirate
/// Weather key in the path and `appid`, `APPID`, `apikey`, `key`, `token` in the query
/// (`URLRedaction.redactTarget`). Hummingbird's `LogRequestsMiddleware` logs the target as it came.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        Self.log(request, to: context.logger, level: level)
        return try await next(request, context)
    }

    /// The request's line (also written by the weather's repeat desk, which answers before the chain).
    static func log(_ request: Request, to logger: Logger, level: Logger.Level) {
        logger.log(
            level: level, "Request",
            metadata: [
                "hb.request.path": .string(URLRedaction.redactTarget(request.uri.description)),
                "hb.request.method": .string(request.method.rawValue),
            ])
    }
}
