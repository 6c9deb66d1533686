import Foundation
import Hummingbird

/// Refuses state-changing requests that do not come from Brolly's own page: `Origin`, when sent
/// (browsers always send it with writes), must be one of the allowed origins — scheme, host and
/// port — and `Sec-Fetch-Site`, when sent, must say same-origin; the `Host` must be one of the
/// allowed hosts, so a page on another name that resolves to this server (DNS rebinding) cannot
/// write. The allowed origins are `BROLLY_PUBLIC_ORIGIN`, else the listen address and `localhost`.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Normalized `scheme://host:port`.
    let origins: Set<String>
    /// `host:port`, and `host` alone where the port is the scheme's default.
    let hosts: Set<String>

    init(allowedOrigins: Set<String>) {
        origins = allowedOrigins
        var hosts: Set<String> = []
        for origin in allowedOrigins {
            guard let o = Origin(origin) else { continue }
            hosts.insert("\(o.host):\(o.port)")
            if o.port == (o.scheme == "https" ? 443 : 80) { hosts.insert(o.host) }
        }
        self.hosts = hosts
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        switch request.method {
        case .get, .head, .options: return try await next(request, context)
        default: break
        }
        do {
            if let site = request.headers[.init("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
                throw Self.refused("this request must come from Brolly's own page")
            }
            let host = (request.head.authority ?? "").lowercased()
            // No Host at all (HTTP/1.0 tools, router tests) comes from no browser: only a browser
            // can be made to write by another page.
            guard hosts.contains(host) || (host.isEmpty && request.headers[.origin] == nil) else {
                throw Self.refused("this server does not accept changes addressed to \(host.prefix(100)); set BROLLY_PUBLIC_ORIGIN")
            }
            if let origin = request.headers[.origin] {
                guard let normalized = Origin(origin)?.normalized, origins.contains(normalized) else {
                    throw Self.refused("origin \(origin.prefix(100)) may not change this data")
                }
            }
        }
        return try await next(request, context)
    }

    static func refused(_ detail: String) -> Problem {
        Problem(.forbidden, code: .crossOrigin, title: "Cross-origin request refused", detail: detail)
    }
}

/// An origin's scheme, host (lower-case, IPv6 in brackets) and port (the scheme's default when
/// absent): `Origin("https://Weather.example.org")?.normalized` is `https://weather.example.org:443`.
struct Origin {
    let scheme: String
    let host: String
    let port: Int

    init?(_ text: String) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        self.scheme = scheme
        self.host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    var normalized: String { "\(scheme)://\(host):\(port)" }
}
