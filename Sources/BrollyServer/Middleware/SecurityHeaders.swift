import HTTPTypes
import Hummingbird

/// Headers every response carries: no sniffing, no framing, and a content security policy that
/// allows our own scripts and OpenStreetMap tiles only. Added by `MetricsMiddleware`, the
/// outermost layer, so error responses carry them too.
enum SecurityHeaders {
    static let nosniff = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let policy =
        "default-src 'self'; img-src 'self' data: https://*.tile.openstreetmap.org; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"

    static func add(to response: inout Response) {
        response.headers[nosniff] = "nosniff"
        response.headers[referrerPolicy] = "same-origin"
        if response.headers[.contentType]?.hasPrefix("text/html") == true, response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = policy
        }
    }
}
