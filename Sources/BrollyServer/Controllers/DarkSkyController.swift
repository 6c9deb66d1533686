import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /forecast/{key}/{lat},{lon}`: the Pirate Weather / Dark Sky API, from the same cached
/// forecast, failover and budgets as everything else. Errors come in that API's own shape
/// (`{"detail": …}` for a bad request, `{"message": …}` otherwise), not as problem+json, because
/// that is what its clients read. Any key is accepted (a household's own server).
struct DarkSkyController: Sendable {
    let documents: WeatherDocuments<EncodedJSON>
    let metrics: ServerMetrics
    let useCases: UseCases
    /// The hot path: each request's answer (by its path and query) while the weather it was made
    /// from is fresh, for a minute at most (the minutes and `currently` move on), when it was
    /// complete — a repeat is answered without resolving, looking up or encoding again.
    let answers = MemoryCache<Answer>(capacity: 2048)

    struct Answer: Sendable {
        let body: EncodedJSON
        let fetchedAt: Date
    }

    /// Under `/forecast` (the API's router, with the client allowance and ETags set by the group).
    func add(to group: RouterGroup<AppRequestContext>) {
        group.get(":key/:location", use: forecast)
    }

    /// A request the API refuses, in its shape.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var body: [String: String]
    }

    static func bad(_ detail: String) -> Refusal { Refusal(status: .badRequest, body: ["detail": detail]) }

    /// What a request asks for.
    struct Asked {
        var coordinate: Coordinate
        var units: DarkSkyDocument.Units?
        var exclude: Set<String>
        var hours: Int
        var version2: Bool
        var language: String

        init(_ request: Request, location: String) throws {
            let parts = location.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3, let lat = Double(parts[0]), let lon = Double(parts[1]),
                lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
            else {
                throw DarkSkyController.bad("Invalid Location Specification: expected latitude,longitude, got '\(location.prefix(60))'")
            }
            if parts.count == 3 {
                throw DarkSkyController.bad("Brolly keeps no past forecasts to answer a time machine request ('\(parts[2].prefix(30))')")
            }
            coordinate = Coordinate(latitude: lat, longitude: lon)
            let query = request.uri.queryParameters
            func one(_ name: String) throws -> String? {
                let values = query.getAll(name)
                guard values.count <= 1 else { throw DarkSkyController.bad("'\(name)' is given more than once") }
                return values.first.map { String($0) }
            }
            switch try one("units")?.lowercased() {
            case nil, "auto": units = nil
            case let raw?:
                guard let u = DarkSkyDocument.Units(rawValue: raw == "uk2" ? "uk" : raw) else {
                    throw DarkSkyController.bad("units must be si, us, uk, ca or auto, got '\(raw.prefix(20))'")
                }
                units = u
            }
            exclude = []
            for item in (try one("exclude") ?? "").split(separator: ",") {
                let name = item.trimmingCharacters(in: .whitespaces).lowercased()
                // Pirate Weather's model names and "summary" are accepted and change nothing here.
                if DarkSkyDocument.blocks.contains(name) { exclude.insert(name) }
            }
            switch try one("extend")?.lowercased() {
            case nil: hours = 48
            case "hourly": hours = 168
            case let other?: throw DarkSkyController.bad("extend can only be hourly, got '\(other.prefix(20))'")
            }
            switch try one("version") {
            case nil, "1": version2 = false
            case "2": version2 = true
            case let other?: throw DarkSkyController.bad("version must be 1 or 2, got '\(other.prefix(20))'")
            }
            let lang = (try one("lang") ?? "en").lowercased()
            guard lang.count <= 12, lang.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw DarkSkyController.bad("lang must be a language code such as en or ru")
            }
            language = lang
        }
    }

    @Sendable func forecast(_ request: Request, context: AppRequestContext) async throws -> Response {
        let key = request.uri.path + "?" + (request.uri.query ?? "")
        let now = Date()
        if let entry = answers.get(key), now.timeIntervalSince(entry.receivedAt) < 60,
            now.timeIntervalSince(entry.value.fetchedAt) < useCases.services.weather.policy.freshFor
        {
            metrics.weatherAnswerFromCache()
            return entry.value.body.response(cacheControl: "public, no-cache")
        }
        do {
            let asked = try Asked(request, location: context.parameters.get("location") ?? "")
            let (result, pack) = try await documents.weather(
                for: .coordinate(asked.coordinate), language: asked.language, device: "", history: nil, full: true)
            metrics.weatherAnswer(result)
            let units = asked.units ?? .auto(countryCode: result.report.place.countryCode)
            let document = DarkSkyDocument(
                result, units: units, language: pack, exclude: asked.exclude, hourlyCount: asked.hours, version2: asked.version2)
            let data = try AppRequestContext.encoder.encode(document)
            let body = EncodedJSON(body: data, etag: "\"\(Checksum.hex(data))\"")
            if !result.isStale, result.refreshError == nil, result.lacking.isEmpty {
                answers.set(key, CacheEntry(value: Answer(body: body, fetchedAt: result.report.fetchedAt), receivedAt: now))
            }
            return body.response(cacheControl: "public, no-cache")
        } catch let refusal as Refusal {
            return Self.json(refusal.status, refusal.body)
        } catch let error as BrollyError {
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
            return Self.json(status, status == .badRequest ? ["detail": error.message] : ["message": error.message], headers: headers)
        }
    }

    static func json(_ status: HTTPResponse.Status, _ body: [String: String], headers: HTTPFields = [:]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
