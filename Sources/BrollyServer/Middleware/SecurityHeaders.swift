import Foundation
import HTTPTypes
import Hummingbird

/// Headers every response carries: no sniffing, no framing, and a content security policy that
/// allows our own scripts, OpenStreetMap's tiles and the rain radar's tile host only. Added by
/// `MetricsAndSecurityHeadersMiddleware`, the outermost layer, so error responses carry them too.
enum SecurityHeaders {
    static let nosniff = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// The policy, with the radar's tile origins (`radarTileOrigins`) among the images allowed and
    /// the page's own inline scripts (`scriptHashes`, `'sha256-…'`: its first lines) among the scripts.
    static func policy(radarTileOrigins: [String], scriptHashes: [String] = []) -> String {
        let images = (["'self'", "data:", "https://*.tile.openstreetmap.org"] + radarTileOrigins).joined(separator: " ")
        let scripts = (["'self'"] + scriptHashes).joined(separator: " ")
        return
            "default-src 'self'; img-src \(images); style-src 'self' 'unsafe-inline'; script-src \(scripts); connect-src 'self'; frame-ancestors 'none'"
    }

    /// Where the radar's tiles come from for a weather-maps server: RainViewer's API names its tile
    /// cache; another server (a self-hosted LibreWXR) serves its own tiles.
    static func radarTileOrigins(radarURL: URL) -> [String] {
        guard let scheme = radarURL.scheme, let host = radarURL.host else { return [] }
        if host == "api.rainviewer.com" { return ["https://tilecache.rainviewer.com"] }
        return ["\(scheme)://\(host)" + (radarURL.port.map { ":\($0)" } ?? "")]
    }

    static func add(to response: inout Response, policy: String) {
        add(to: &response.headers, policy: policy)
    }

    static func add(to headers: inout HTTPFields, policy: String) {
        headers[nosniff] = "nosniff"
        headers[referrerPolicy] = "same-origin"
        if headers[.contentType]?.hasPrefix("text/html") == true, headers[.contentSecurityPolicy] == nil {
            headers[.contentSecurityPolicy] = policy
        }
    }
}
