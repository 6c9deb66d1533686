import BrollyCore
import Crypto
import Foundation
import Hummingbird

/// Gives every browser a device of its own: an unguessable token in an `HttpOnly`,
/// `SameSite=Strict` cookie. The server keeps only the token's SHA-256 (`DeviceToken.id`), so
/// places and history are found by a hash nobody can turn back into a cookie.
struct DeviceMiddleware: RouterMiddleware {
    static let cookieName = "brolly_device"

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        var context = context
        var newToken: String?
        if let id = DeviceToken.deviceID(of: request) {
            context.deviceID = id
            context.isReturningDevice = true
        } else {
            let token = DeviceToken.make()
            newToken = token
            context.deviceID = DeviceToken.id(forToken: token)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Answered here so that a first request that fails still gets its cookie.
            response = try Problem.answering(error, logger: context.logger).response(from: request, context: context)
        }
        if let newToken {
            let secure = request.headers[.init("X-Forwarded-Proto")!] == "https" ? "; Secure" : ""
            response.headers[values: .setCookie].append(
                "\(Self.cookieName)=\(newToken); Path=/; Max-Age=63072000; HttpOnly; SameSite=Strict\(secure)")
        }
        return response
    }
}

/// The device cookie's token and the id stored for it.
enum DeviceToken {
    /// 32 random bytes, base64url: 43 characters.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The stored id of the device whose well-formed cookie `request` carries; nil without one.
    static func deviceID(of request: Request) -> String? {
        guard let token = request.cookies[DeviceMiddleware.cookieName]?.value, isWellFormed(token) else { return nil }
        return id(forToken: token)
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.count == 43 && token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// The stored id of a device: the SHA-256 of its secret token, so the database never holds a
    /// token that could be replayed.
    static func id(forToken token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
