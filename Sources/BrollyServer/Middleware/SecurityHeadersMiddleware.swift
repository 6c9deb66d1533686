import Hummingbird

/// Headers every response carries: no sniffing, no framing, and a content security policy that
/// allows our own scripts and OpenStreetMap tiles only.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.init("X-Content-Type-Options")!] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        if response.headers[.contentType]?.hasPrefix("text/html") == true, response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' data: https://*.tile.openstreetmap.org; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        }
        return response
    }
}
