import BrollyCore
import BrollyStore
import Foundation
import Hummingbird
import Logging
import NIOCore

/// Turns every failure into a problem+json response here, inside the logging and security-header
/// middleware, so error responses carry the same headers as any other. `Problem` and
/// `BrollyError` answer for themselves (they are `HTTPResponseError`s); Hummingbird's own HTTP
/// errors (404, 405, 413, bad bodies) are given the problem shape; anything else — which should
/// never happen — becomes a logged 502, never a 500.
///
/// It also refuses paths with control bytes (`%00` and the like: `400`), and answers a known path
/// asked with the wrong method with `405` and `Allow` instead of `404`.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            if Self.hasControlBytes(request.uri.path) {
                throw Problem.badRequest("the path contains a control character")
            }
            // A literal path asked with a method only a parameter route has (PATCH
            // /api/v1/places/order would otherwise reach PATCH /api/v1/places/{id}): 405.
            if let allowed = routes.literalMethods(request.uri.path), !allowed.contains(request.method),
                !(request.method == .head && allowed.contains(.get))
            {
                return try methodNotAllowed(request, context: context, allowed: allowed)
            }
            return try await next(request, context)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else {
                return try Problem.answering(error, logger: context.logger).response(from: request, context: context)
            }
            return try methodNotAllowed(request, context: context, allowed: allowed)
        } catch {
            return try Problem.answering(error, logger: context.logger).response(from: request, context: context)
        }
    }

    /// `405` problem+json with `Allow`.
    func methodNotAllowed(_ request: Request, context: Context, allowed: Set<HTTPRequest.Method>) throws -> Response {
        var names = allowed.map(\.rawValue)
        if allowed.contains(.get) { names.append("HEAD") }
        let allow = Set(names).sorted().joined(separator: ", ")
        var response = try Problem(
            .methodNotAllowed, code: .methodNotAllowed, title: "Method not allowed",
            detail: "\(request.uri.path.prefix(100)) answers \(allow)"
        ).response(from: request, context: context)
        response.headers[.allow] = allow
        return response
    }

    /// True when the path, raw or percent-decoded, holds a C0 control byte or DEL.
    static func hasControlBytes(_ path: String) -> Bool {
        var escaped = false
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7f { return true }
            if byte == 0x25 { escaped = true }
        }
        guard escaped else { return false }
        guard let decoded = path.removingPercentEncoding else { return true }
        return decoded.utf8.contains { $0 < 0x20 || $0 == 0x7f }
    }
}

/// The routes of the router, by path pattern, for `405 Method Not Allowed`.
final class RouteTable: Sendable {
    private let box = Locked<[(segments: [Substring], method: HTTPRequest.Method)]>([])

    /// The methods of each path written without parameters (`/api/v1/places/order`).
    private let literal = Locked<[String: Set<HTTPRequest.Method>]>([:])

    /// Remembers the router's routes (called once the routes are added).
    func load(_ routes: [(path: String, method: HTTPRequest.Method)]) {
        box.withLock { $0 = routes.map { (Self.segments($0.path), $0.method) } }
        var literal: [String: Set<HTTPRequest.Method>] = [:]
        for route in routes where !route.path.contains(":") && !route.path.contains("*") && !route.path.contains("{") {
            literal["/" + Self.segments(route.path).joined(separator: "/"), default: []].insert(route.method)
        }
        self.literal.withLock { $0 = literal }
    }

    /// The methods of the route written exactly as `path` (no parameters), if there is one.
    func literalMethods(_ path: String) -> Set<HTTPRequest.Method>? {
        let key = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return literal.withLock { $0[key] }
    }

    static func segments(_ path: String) -> [Substring] { path.split(separator: "/") }

    /// The methods some route answers for `path` (parameters and wildcards match any segment).
    func methods(for path: String) -> Set<HTTPRequest.Method> {
        let parts = Self.segments(path)
        var found: Set<HTTPRequest.Method> = []
        for route in box.current where Self.matches(route.segments, parts) { found.insert(route.method) }
        return found
    }

    static func matches(_ pattern: [Substring], _ parts: [Substring]) -> Bool {
        if pattern.last == "**" { return parts.count >= pattern.count - 1 && zip(pattern.dropLast(), parts).allSatisfy(segmentMatches) }
        return pattern.count == parts.count && zip(pattern, parts).allSatisfy(segmentMatches)
    }

    static func segmentMatches(_ pair: (Substring, Substring)) -> Bool {
        pair.0 == "*" || pair.0.hasPrefix(":") || pair.0.hasPrefix("{") || pair.0 == pair.1
    }
}

extension Problem {
    /// What answers `error`: `Problem`s and `BrollyError`s as they are, Hummingbird's `HTTPError`s
    /// as problems of their status, anything else as a logged 502.
    static func answering(_ error: any Error, logger: Logger) -> any HTTPResponseError {
        switch error {
        case let error as HTTPError:
            let title = error.status.reasonPhrase
            let code: ProblemCode = error.status == .notFound ? .noRoute : error.status.code < 500 ? .invalidInput : .internal
            return Problem(error.status, code: code, title: title, detail: error.body ?? title)
        case let error as Problem:
            return error
        case let error as BrollyError:
            return error
        case let error as StoreUnavailable:
            // The database is away (several servers, PostgreSQL restarting): nothing was written.
            logger.warning("\(error)")
            return Problem(
                .serviceUnavailable, code: .storeUnavailable, title: "The database is unavailable",
                detail: "the change was not saved; try again in a few seconds", retryAfter: 5)
        case is NIOTooManyBytesError:
            return Problem(
                .contentTooLarge, code: .tooLarge, title: "Request body too large",
                detail: "the request body is larger than the server accepts (64 KiB)")
        default:
            logger.error("unexpected error: \(String(describing: error))")
            return Problem(.badGateway, code: .provider, title: "Upstream failure", detail: "the request could not be completed")
        }
    }
}
