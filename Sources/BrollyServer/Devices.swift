import BrollyCore
import BrollyStore
import Foundation
import Hummingbird

/// The request context: Hummingbird's core storage plus the device the request comes from.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The stored (hashed) id of the browser's device; set by `DeviceMiddleware`.
    public var deviceID: String = ""
    /// Whether the request came with the device's cookie: a client that keeps no cookies gets a
    /// new device each time, and no history is recorded for it.
    public var isReturningDevice = false

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Request bodies are small JSON documents.
    public var maxUploadSize: Int { 64 * 1024 }
}

/// Gives every browser a device of its own: an unguessable token in an `HttpOnly`,
/// `SameSite=Strict` cookie. The server keeps only the token's SHA-256, so places and history
/// are found by a hash nobody can turn back into a cookie.
struct DeviceMiddleware: RouterMiddleware {
    static let cookieName = "brolly_device"

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        var context = context
        var newToken: String?
        if let token = request.cookies[Self.cookieName]?.value, Self.isWellFormed(token) {
            context.deviceID = AppDatabase.deviceID(forToken: token)
            context.isReturningDevice = true
        } else {
            let token = Self.makeToken()
            newToken = token
            context.deviceID = AppDatabase.deviceID(forToken: token)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let problem as Problem {
            response = problem.response()
        } catch let error as BrollyError {
            response = Problem(error).response()
        }
        if let newToken {
            let secure = request.headers[.init("X-Forwarded-Proto")!] == "https" ? "; Secure" : ""
            response.headers[values: .setCookie].append(
                "\(Self.cookieName)=\(newToken); Path=/; Max-Age=63072000; HttpOnly; SameSite=Strict\(secure)")
        }
        return response
    }

    /// 32 random bytes, base64url: 43 characters.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.count == 43 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

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
