import BrollyCore
import Foundation
import Hummingbird

/// The APIs other weather apps speak, each answered from Brolly's cache.
enum CompatibleAPI: String, CaseIterable, Sendable {
    case darkSky = "darksky"
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"

    /// Its place in `allCases`.
    var index: Int {
        switch self {
        case .darkSky: 0
        case .openMeteo: 1
        case .openWeatherMap: 2
        }
    }

    /// Where the request carries its key: Dark Sky in the path (`/forecast/{key}/…`), Open-Meteo's
    /// commercial API in `apikey=`, OpenWeatherMap in `appid=`.
    func key(of request: Request) -> String? {
        switch self {
        case .darkSky:
            let parts = request.uri.path.split(separator: "/")
            return parts.count >= 2 ? String(parts[1]) : nil
        case .openMeteo: return request.uri.queryParameters.get("apikey")
        // pyowm and MagicMirror send `APPID`: the name in any letter case, as OpenWeatherMap takes it.
        case .openWeatherMap:
            return request.uri.queryParameters.first { $0.key.lowercased() == "appid" }.map { String($0.value) }
        }
    }

    /// An error in the API's own shape (what its clients read), never problem+json.
    func error(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) -> Response {
        let body: [String: Any] =
            switch self {
            case .darkSky: status == .badRequest ? ["detail": message] : ["message": message]
            case .openMeteo: ["error": true, "reason": message]
            case .openWeatherMap: ["cod": status.code, "message": message]
            }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A Brolly error in the API's shape: 400 for bad input, 404 for an unknown place, 429 for a
    /// spent allowance or budget (with `Retry-After`), 504 for a time-out, else 502.
    func error(_ error: BrollyError) -> Response {
        var headers: HTTPFields = [:]
        if let wait = error.retryAfter { headers[.retryAfter] = String(Int(wait.rounded(.up))) }
        let status: HTTPResponse.Status =
            switch error.kind {
            case .placeNotFound: .notFound
            case .invalidInput: .badRequest
            case .rateLimited, .clientLimited: .tooManyRequests
            case .timedOut: .gatewayTimeout
            default: .badGateway
            }
        return self.error(status, error.message, headers: headers)
    }

    var unknownKeyMessage: String {
        switch self {
        case .darkSky: "Invalid API key"
        case .openMeteo: "Invalid API key"
        case .openWeatherMap: "Invalid API key. Ask this server's operator for one."
        }
    }
}

/// Checks a compatible API's key when the server has `BROLLY_API_KEYS` (401 in the API's shape for any other key), and runs the
/// request with that key's allowance of upstream calls — without keys, the address's allowance.
/// Counts the request for its surface. A request whose answer is remembered (`answers`) is answered
/// here, before the router's parameters, the allowance and its task-local: it costs no upstream
/// call. (One layer for all of it: each middleware is an async hop on the memoized hot path.)
struct CompatibleAPIMiddleware: RouterMiddleware {
    let api: CompatibleAPI
    let keys: APIKeys?
    let limits: ClientLimits
    let metrics: ServerMetrics
    /// The surface's remembered answers.
    let answers: CompatibleAnswers

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        // A key first, when the server has keys: an unknown one is refused even for a remembered answer.
        var keyed: (key: String, perKey: Int?)?
        if let keys {
            guard let key = api.key(of: request), let perKey = keys.allowance(of: key) else {
                metrics.compatible(api, refusedKey: true)
                return api.error(.unauthorized, api.unknownKeyMessage)
            }
            keyed = (key, perKey)
        }
        metrics.compatible(api, refusedKey: false)
        // A remembered answer costs no upstream call: no allowance is made for it.
        if let remembered = answers.remembered(request) { return remembered }
        // The client's address (X-Forwarded-For from a trusted proxy) was read by the API router's
        // ClientMiddleware.
        let client = context
        let allowance =
            keyed.map { limits.allowance(apiKey: $0.key, callsPerMinute: $0.perKey) }
            ?? limits.allowance(device: nil, ip: { client.clientIP })
        return try await ClientAllowance.$current.withValue(allowance) { try await next(request, context) }
    }
}
