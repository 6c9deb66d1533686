import BrollyCore
import Foundation
import Hummingbird

/// An RFC 9457 problem: what the API answers for every failure.
public struct Problem: Error, Sendable {
    public var status: HTTPResponse.Status
    /// A short code: `invalid-input`, `not-found`, `timeout`, `offline`, `provider`, …
    public var code: String
    public var title: String
    public var detail: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: String, title: String, detail: String) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
    }

    public static func badRequest(_ detail: String) -> Problem {
        Problem(.badRequest, code: "invalid-input", title: "Invalid request", detail: detail)
    }

    /// The problem for a `BrollyError`; provider failures are 502, 503 or 504, never 500.
    public init(_ error: BrollyError) {
        switch error.kind {
        case .invalidInput: self = .badRequest(error.message)
        case .placeNotFound: self.init(.notFound, code: "not-found", title: "Place not found", detail: error.message)
        case .timedOut: self.init(.gatewayTimeout, code: "timeout", title: "The weather service timed out", detail: error.message)
        case .offline: self.init(.badGateway, code: "offline", title: "The weather service is unreachable", detail: error.message)
        case .rateLimited:
            self.init(.serviceUnavailable, code: "rate-limited", title: "The weather service is busy", detail: error.message)
            headers[.retryAfter] = String(Int((error.retryAfter ?? 60).rounded(.up)))
        case .unreadableResponse:
            self.init(.badGateway, code: "unreadable", title: "The weather service sent unreadable data", detail: error.message)
        case .invalidAPIKey:
            self.init(.badGateway, code: "provider", title: "The weather service rejected the server's key", detail: error.message)
        case .providerUnavailable:
            self.init(.badGateway, code: "provider", title: "The weather service is unavailable", detail: error.message)
        case .notCached:
            self.init(.serviceUnavailable, code: "offline", title: "No data available", detail: error.message)
        }
    }

    public func response() -> Response {
        var body: [String: JSONScalar] = [
            "type": .string("/api/problems/\(code)"), "title": .string(title), "status": .int(Int(status.code)),
            "detail": .string(detail), "code": .string(code),
        ]
        if let retry = headers[.retryAfter], let seconds = Int(retry) { body["retryAfter"] = .int(seconds) }
        let data = (try? WeatherDocument.makeEncoder(pretty: false).encode(body)) ?? Data()
        var fields = headers
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

enum JSONScalar: Encodable {
    case string(String), int(Int)
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .int(let i): try c.encode(i)
        }
    }
}

/// Turns every error into `application/problem+json`: our problems, `BrollyError`s, the router's
/// own HTTP errors (404, 405), and — as a last resort that should never happen — anything else.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response()
        } catch let error as BrollyError {
            return Problem(error).response()
        } catch let error as HTTPError {
            let title = error.status.reasonPhrase
            let code = error.status == .notFound ? "no-route" : error.status.code < 500 ? "invalid-input" : "internal"
            return Problem(error.status, code: code, title: title, detail: error.body ?? title).response()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("unexpected error: \(String(describing: error))")
            return Problem(.badGateway, code: "provider", title: "Upstream failure", detail: "the request could not be completed")
                .response()
        }
    }
}

/// Reads query parameters strictly: repeated parameters and bad numbers are 400s.
struct Query {
    let parameters: Parameters

    init(_ request: Request) { parameters = request.uri.queryParameters }

    func string(_ name: String) throws -> String? {
        let all = parameters.getAll(name)
        if all.count > 1 { throw Problem.badRequest("parameter '\(name)' is repeated") }
        return all.first
    }

    func double(_ name: String) throws -> Double? {
        guard let raw = try string(name) else { return nil }
        guard let v = Double(raw.trimmingCharacters(in: .whitespaces)), v.isFinite else {
            throw Problem.badRequest("parameter '\(name)' must be a number, got '\(raw.prefix(40))'")
        }
        return v
    }

    /// `lat` and `lon`, both required and in range.
    func coordinate() throws -> Coordinate {
        let lat = try double("lat"), lon = try double("lon")
        guard let lat else { throw Problem.badRequest("parameter 'lat' is required") }
        guard let lon else { throw Problem.badRequest("parameter 'lon' is required") }
        return try Coordinate.validated(latitude: lat, longitude: lon)
    }

    func units() throws -> UnitSystem {
        guard let raw = try string("units") else { return .metric }
        guard let u = UnitSystem(rawValue: raw.lowercased()) else {
            throw Problem.badRequest("parameter 'units' must be metric, imperial or standard, got '\(raw.prefix(40))'")
        }
        return u
    }

    /// A place query: present, trimmed, 1–200 characters.
    func placeQuery(_ name: String) throws -> String? {
        guard let raw = try string(name) else { return nil }
        return try PlaceSearch.validated(raw)
    }
}
