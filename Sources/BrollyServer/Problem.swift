import BrollyCompatibleAPIs
import BrollyCore
import Foundation
import Hummingbird

/// An RFC 9457 problem: what the API answers for every failure, as `application/problem+json`.
public struct Problem: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    /// A short code from the one list, `ProblemCode`.
    public var code: ProblemCode
    public var title: String
    public var detail: String
    /// Seconds to wait before trying again (`rate-limited`); also sent as `Retry-After`.
    public var retryAfter: Int?

    public init(_ status: HTTPResponse.Status, code: ProblemCode, title: String, detail: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.retryAfter = retryAfter
    }

    public static func badRequest(_ detail: String) -> Problem {
        Problem(.badRequest, code: .invalidInput, title: "Invalid request", detail: detail)
    }

    /// Seconds to suggest before asking again after an upstream failure that gave no time of its
    /// own (the circuit breaker's first cool-down is 2 s; a blip is usually over by then).
    public static let defaultRetryAfter: TimeInterval = 5

    /// The problem for a `BrollyError`; provider failures are 502, 503 or 504 with `Retry-After`,
    /// never 500.
    public init(_ error: BrollyError) {
        /// When to ask again: the error's own time (a breaker's cool-down, a provider's
        /// `Retry-After`, a budget's refill), else `fallback`.
        func wait(_ fallback: TimeInterval) -> Int { max(1, Int((error.retryAfter ?? fallback).rounded(.up))) }
        // The status is every API's (`RequestRules`); the code and title are this API's.
        let status = HTTPResponse.Status(code: RequestRules.status(of: error))
        switch error.kind {
        case .invalidInput: self.init(status, code: .invalidInput, title: "Invalid request", detail: error.message)
        case .placeNotFound: self.init(status, code: .notFound, title: "Place not found", detail: error.message)
        case .noSuchItem: self.init(status, code: .notFound, title: "Not found", detail: error.message)
        case .timedOut:
            self.init(
                status, code: .timeout, title: "The weather service timed out", detail: error.message,
                retryAfter: wait(Self.defaultRetryAfter))
        case .offline:
            self.init(
                status, code: .offline, title: "The weather service is unreachable", detail: error.message,
                retryAfter: wait(Self.defaultRetryAfter))
        case .rateLimited:
            self.init(
                status, code: .rateLimited, title: "The weather service is busy", detail: error.message,
                retryAfter: wait(60))
        case .clientLimited:
            self.init(status, code: .tooManyRequests, title: "Too many requests", detail: error.message, retryAfter: wait(60))
        case .unreadableResponse:
            self.init(
                status, code: .unreadable, title: "The weather service sent unreadable data", detail: error.message,
                retryAfter: wait(Self.defaultRetryAfter))
        case .invalidAPIKey:
            self.init(status, code: .provider, title: "The weather service rejected the server's key", detail: error.message)
        case .providerUnavailable:
            self.init(
                status, code: .provider, title: "The weather service is unavailable", detail: error.message,
                retryAfter: wait(Self.defaultRetryAfter))
        case .notCached:
            self.init(status, code: .offline, title: "No data available", detail: error.message)
        }
    }

    /// The JSON body (RFC 9457's members, and two of Brolly's own).
    struct Body: Encodable {
        /// The problem's kind, a path under `/api/problems/`.
        var type: String
        /// The kind in a few words, the same for every occurrence.
        var title: String
        /// The HTTP status, repeated for clients that only keep the body.
        var status: Int
        /// This occurrence explained.
        var detail: String
        /// Brolly's own: the kind as a stable word clients switch on (`offline`, `timeout`, …).
        var code: String
        /// Brolly's own: the seconds the `Retry-After` header also says.
        var retryAfter: Int?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(
            type: "/api/problems/\(code.rawValue)", title: title, status: Int(status.code), detail: detail, code: code.rawValue,
            retryAfter: retryAfter)
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try AppRequestContext.encoder.encode(body))))
    }
}

/// Every `BrollyError` answers as its problem.
extension BrollyError: HTTPResponseError {
    public var status: HTTPResponse.Status { Problem(self).status }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Problem(self).response(from: request, context: context)
    }
}
