import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/weather`: the weather contract for coordinates or a place name; `/weather/now`: the
/// widget's small document. Parses, calls `WeatherAnswerMemo` (which keeps the recent answers, under
/// the cache's freshness rules) and renders.
struct WeatherController: Sendable {
    let documents: WeatherAnswerMemo<EncodedJSON>
    let metrics: ServerMetrics

    /// The server's weather documents: encoded once, with their ETag (shared with the Dark Sky API,
    /// which looks the weather up through them).
    static func documents(useCases: UseCases) -> WeatherAnswerMemo<EncodedJSON> {
        WeatherAnswerMemo(useCases: useCases) { document in
            let body = try AppRequestContext.encoder.encode(document)
            return EncodedJSON(body: body, etag: "\"\(Checksum.hex(body))\"")
        }
    }

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("weather", use: weather).get("weather/now", use: now)
    }

    /// What a weather request asks for.
    struct Asked {
        var place: PlaceQuery
        var units: UnitChoice
        var language: String
        /// `?model=`: a forecast model by name, or `auto`; nil: the server's setting.
        var model: String?
        /// `?hours=`: how many hours from now (1–384; 48 by default).
        var hours = 48

        init(_ request: Request) throws {
            let query = Query(request)
            units = try query.unitChoice()
            if let raw = try query.string("model") {
                do { model = try BrollyConfiguration.checkedModel(raw) } catch let error as BrollyError {
                    throw Problem.badRequest(error.message)
                }
            }
            language = try Language.of(request)
            hours = try query.integer("hours", in: 1...384) ?? 48
            if let near = try query.string("near") {
                guard near == "ip" else { throw Problem.badRequest("'near' can only be 'ip' (where the request comes from)") }
                if try query.string("place") != nil || query.string("lat") != nil || query.string("lon") != nil {
                    throw Problem.badRequest("give 'near=ip', or 'place', or 'lat' and 'lon', not more than one")
                }
                place = .approximate(ip: "")
            } else {
                place = try query.placeOrCoordinate()
            }
        }
    }

    /// `GET /api/v1/weather/now?lat=&lon=` (or `place=`): the small document a widget needs.
    @Sendable func now(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<NowDocument> {
        let asked = try Asked(request)
        let (result, pack) = try await documents.weather(
            for: asked.place, language: asked.language, device: context.deviceID, history: history(context), full: false,
            model: asked.model)
        metrics.weatherAnswer(result)
        return EditedResponse(
            headers: CacheControl.revalidate,
            response: NowDocument(result, units: asked.units, language: pack, now: documents.useCases.services.clock.now))
    }

    /// `GET /api/v1/weather?lat=&lon=[&units=]` or `?place=NAME[&units=]`: the weather contract.
    @Sendable func weather(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A repeat of a recent request is answered before parsing it (its query and languages are
        // what the answer was made from).
        let requestKey = Self.requestKey(request)
        if let json = documents.recent(requestKey: requestKey, history: history(context)) {
            metrics.weatherAnswerFromCache()
            return json.response(cacheControl: "public, no-cache")
        }
        var asked = try Asked(request)
        // Where the request comes from: this client's own answer, never shared or replayed.
        let approximate = asked.place == .approximate(ip: "")
        if approximate { asked.place = .approximate(ip: context.clientIP) }
        let (json, result) = try await documents.document(
            for: asked.place, units: asked.units, language: asked.language, device: context.deviceID, history: history(context),
            requestKey: approximate ? nil : requestKey, model: asked.model, hours: asked.hours)
        metrics.weatherAnswer(result)
        return json.response(cacheControl: approximate ? "private, no-cache" : "public, no-cache")
    }

    /// What the memo keeps an answer under: the raw query and the languages asked (the controller
    /// and `WeatherRepeatDesk` both look answers up by it).
    static func requestKey(_ request: Request) -> String {
        guard let languages = request.headers[.acceptLanguage] else { return request.uri.query ?? "" }
        return (request.uri.query ?? "") + "#" + languages
    }

    /// The device whose history a lookup goes to: a returning device's (one that keeps cookies).
    func history(_ context: AppRequestContext) -> String? {
        context.isReturningDevice ? context.deviceID : nil
    }
}
