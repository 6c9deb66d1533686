import BrollyCompatibleAPIs
import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// The one controller of every compatible API (`CompatibleSurfaces.all`): mounts a surface's
/// routes under its path, checks its key when the server has `BROLLY_API_KEYS` (401, or 403 for Pirate Weather, in the API's
/// shape for any other key), runs the request with that key's allowance of upstream calls — else
/// the address's —, answers from the same weather as Brolly's own API (counted in the metrics),
/// and has the answer memo below it remember each answer (by its path and query: see
/// `WeatherAnswerMemo.recentAnswer(to:)`), when it was complete: a repeat is answered before
/// parsing, resolving, looking up or encoding again, and costs no allowance. Errors in the API's
/// own shape, never problem+json.
struct CompatibleController: Sendable {
    let surface: any CompatibleSurface
    /// Its place in `CompatibleSurfaces.all` (the metrics' counters are picked by it).
    let index: Int
    /// The answer memo below every adapter: it looks the weather up and keeps the answers, by the
    /// caching policy's rules (no controller reads the policy).
    let documents: WeatherAnswerMemo<EncodedJSON>
    let metrics: ServerMetrics
    let useCases: UseCases
    let keys: APIKeys?
    let limits: ClientLimits

    init(
        surface: any CompatibleSurface, index: Int, documents: WeatherAnswerMemo<EncodedJSON>, metrics: ServerMetrics, useCases: UseCases,
        keys: APIKeys?, limits: ClientLimits
    ) {
        self.surface = surface
        self.index = index
        self.documents = documents
        self.metrics = metrics
        self.useCases = useCases
        self.keys = keys
        self.limits = limits
    }

    /// The surface's routes, with ETags, behind its front (`Front`): mounted once, at its mount.
    var routes: RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self).add(middleware: ETagMiddleware()).add(
            middleware: Front(controller: self))
        for route in surface.routes {
            routes.get(RouterPath(route)) { request, context in try await handle(request, context: context, route: route) }
            if surface.acceptsPost {
                routes.post(RouterPath(route)) { request, context in try await handle(request, context: context, route: route) }
            }
        }
        return routes
    }

    /// Before the router's parameters: the key, the count, a remembered answer, and the allowance
    /// the rest runs with. (One layer for all of it: each middleware is an async hop on the
    /// memoized hot path.)
    struct Front: RouterMiddleware {
        let controller: CompatibleController

        func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response)
            async throws -> Response
        {
            let c = controller
            // A key first, when the server has keys: an unknown one is refused even for a remembered answer.
            var keyed: (key: String, perKey: Int?)?
            if let keys = c.keys {
                let asked = CompatibleRequest(
                    path: request.uri.path, parameters: [:], query: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
                guard let key = c.surface.key(of: asked), let perKey = keys.allowance(of: key) else {
                    c.metrics.compatible(c.index, refusedKey: true)
                    return c.error(c.surface.unknownKeyStatus, c.surface.unknownKeyMessage)
                }
                keyed = (key, perKey)
            }
            c.metrics.compatible(c.index, refusedKey: false)
            // A remembered answer costs no upstream call: no allowance is made for it. (A POST's
            // query is in its body: never remembered.)
            if request.method == .get, let remembered = c.answer(request) {
                c.metrics.weatherAnswerFromCache()
                return remembered
            }
            // The client's address (X-Forwarded-For from a trusted proxy) was read by ClientMiddleware.
            let allowance =
                keyed.map { c.limits.allowance(apiKey: $0.key, callsPerMinute: $0.perKey) }
                ?? c.limits.allowance(device: nil, ip: { context.clientKey })
            return try await ClientAllowance.$current.withValue(allowance) { try await next(request, context) }
        }
    }

    /// The largest form body a POST may carry (Open-Meteo's SDKs send the query there).
    static let maxFormBody = 64 * 1024

    func handle(_ request: Request, context: AppRequestContext, route: String) async throws -> Response {
        var query = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
        if request.method == .post {
            // The form body's parameters beside the URL's, as Open-Meteo reads a POST.
            guard let body = try? await request.body.collect(upTo: Self.maxFormBody) else {
                return error(413, "The form body is larger than \(Self.maxFormBody / 1024) KB")
            }
            query += Self.formItems(String(buffer: body))
        }
        let asked = CompatibleRequest(
            path: request.uri.path, parameters: Dictionary(context.parameters.map { (String($0.key), String($0.value)) }) { a, _ in a },
            query: query)
        do {
            let ask = try surface.read(asked, route: route)
            switch ask {
            case .weather:
                let (document, result) = try await weather(ask)
                return try answer(
                    request, document: document, remember: result.mayBeReplayed && result.isComplete, from: result.report.fetchedAt)
            case .several(let asks):
                // Each place in turn (each its own forecast, cached and counted as one asked alone).
                var documents: [any Encodable & Sendable] = []
                var remember = true
                var oldest = Date.distantFuture
                for one in asks {
                    let (document, result) = try await weather(one)
                    documents.append(document)
                    remember = remember && result.mayBeReplayed && result.isComplete
                    oldest = min(oldest, result.report.fetchedAt)
                }
                return try answer(request, document: surface.combine(documents), remember: remember, from: oldest)
            case .openMeteoPassthrough(let normalized):
                guard let passthrough = useCases.services.openMeteoPassthrough else {
                    return error(400, "This server answers only the variables it keeps")
                }
                let (body, _) = try await passthrough.answer(normalized: normalized)
                let format = normalized.first { $0.0 == "format" }?.1 ?? "json"
                guard let type = Self.formats[format], format != "json" else {
                    return EncodedJSON(body: body, etag: "\"\(Checksum.hex(body))\"").response(cacheControl: "public, no-cache")
                }
                var headers = HTTPFields()
                headers[.contentType] = type
                headers[.cacheControl] = "public, no-cache"
                headers[.eTag] = "\"\(Checksum.hex(body))\""
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
        } catch let refusal as CompatibleRefusal {
            return error(refusal.status, refusal.message)
        } catch let failure as BrollyError {
            var headers: HTTPFields = [:]
            if let wait = failure.retryAfter { headers[.retryAfter] = String(Int(wait.rounded(.up))) }
            return error(RequestRules.status(of: failure), surface.message(for: failure), headers: headers)
        }
    }

    /// The document for one `.weather` ask and the weather it was written from.
    func weather(_ ask: CompatibleAsk) async throws -> (any Encodable & Sendable, WeatherResult) {
        guard case .weather(let place, let language, let full, let model, _) = ask else {
            throw CompatibleRefusal.badRequest("not a forecast")
        }
        let query: PlaceQuery
        switch place {
        case .coordinate(let c): query = .coordinate(c)
        case .name(let name): query = .name(name)
        case .openWeatherMapCity(let id):
            // Named with the server's OpenWeatherMap key, in a lane of its own: one address cannot
            // spend OpenWeatherMap's 60 a minute for everyone.
            guard let city = try await ClientAllowance.inLane(.cityLookups, { try await useCases.openWeatherMapCity(id: id) }) else {
                throw CompatibleRefusal.badRequest(
                    "city id is OpenWeatherMap's own list, and this server has no OpenWeatherMap key to look it up: "
                        + "give lat and lon, q=City,CC or zip=CODE,CC")
            }
            query = .coordinate(city.coordinate)
        }
        let (result, pack) = try await documents.weather(for: query, language: language, device: "", history: nil, full: full, model: model)
        metrics.weatherAnswer(result)
        // The one view of the weather the surface writes, in its units and the reader's language.
        func view(_ result: WeatherResult) -> WeatherView {
            WeatherView(result, units: surface.units(for: ask, at: result.report.place), language: pack, now: useCases.services.clock.now)
        }
        do {
            return (try surface.document(for: ask, view: view(result)), result)
        } catch let refusal {
            // A past day the answer needs (Dark Sky's time machine): asked once, written from it.
            guard let day = refusal.pastDay, let past = try await useCases.pastDay(day, at: result.report.place) else {
                throw refusal
            }
            return (try surface.document(for: ask, view: view(past)), past)
        }
    }

    /// A form body's parameters (`a=1&b=x+y`), decoded.
    static func formItems(_ body: String) -> [(name: String, value: String)] {
        body.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = parts.first.flatMap(decode), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) ?? "" : "")
        }
    }

    /// The content type of each format Open-Meteo answers in.
    static let formats = [
        "json": "application/json; charset=utf-8", "flatbuffers": "application/octet-stream", "csv": "text/csv; charset=utf-8",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]

    /// An error in the API's own shape.
    func error(_ status: Int, _ message: String, headers: HTTPFields = [:]) -> Response {
        let data =
            (try? JSONSerialization.data(withJSONObject: surface.errorBody(status: status, message: message), options: [.sortedKeys]))
            ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The key of a request: its target as it came (path and query), not parsed again.
    static func key(_ request: Request) -> String { request.head.path ?? "" }

    /// The remembered answer to `request`, while it holds (the memo's rules).
    func answer(_ request: Request) -> Response? {
        documents.recentAnswer(to: Self.key(request))?.response(cacheControl: "public, no-cache")
    }

    /// Encodes `document`, remembers it (a GET's, when the weather it was written from may be
    /// replayed and was complete: `remember`, fetched at `fetchedAt`), and answers it.
    func answer(_ request: Request, document: any Encodable, remember: Bool, from fetchedAt: Date) throws -> Response {
        let body: EncodedJSON
        if let binary = document as? EncodedDocument {
            body = EncodedJSON(bytes: binary.bytes, contentType: binary.contentType)
        } else {
            let data = try AppRequestContext.encoder.encode(document)
            body = EncodedJSON(body: data, etag: "\"\(Checksum.hex(data))\"")
        }
        if remember && request.method == .get { documents.remember(body, answering: Self.key(request), madeFrom: fetchedAt) }
        return body.response(cacheControl: "public, no-cache")
    }
}
