import BrollyCore
import BrollyStore
import BrollyUseCases
import CoreMetrics
import Foundation
import Hummingbird
import Prometheus

/// Counts every request by route (the matched pattern, never the raw path), method and status,
/// with its latency; and adds the security headers every response carries.
struct MetricsAndSecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    /// The content security policy of HTML answers.
    let policy: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        var response = try await next(request, context)
        SecurityHeaders.add(to: &response, policy: policy)
        let elapsed = Int64(DispatchTime.now().uptimeNanoseconds - start)
        metrics.request(
            route: context.endpointPath ?? (response.status == .notFound ? "unmatched" : "static"), method: request.method.rawValue,
            status: Int(response.status.code), nanoseconds: elapsed)
        return response
    }
}
