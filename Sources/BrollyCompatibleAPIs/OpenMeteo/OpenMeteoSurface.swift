import BrollyCore
import Foundation

/// `GET /v1/forecast`: Open-Meteo's forecast API. What Brolly's cached weather holds is answered
/// from it (one upstream call per place whichever API asks); any other query is passed to the
/// upstream Open-Meteo once per normalized query. Errors in Open-Meteo's shape:
/// `{"error": true, "reason": …}`.
public struct OpenMeteoSurface: CompatibleSurface {
    public init() {}
    public var name: String { "open-meteo" }
    public var mount: String { "/v1" }
    public var routes: [String] { ["forecast"] }
    public var unknownKeyMessage: String { "Invalid API key" }

    /// Open-Meteo's commercial API takes its key as `apikey=`.
    public func key(of request: CompatibleRequest) -> String? { request.all("apikey").first }

    public func errorBody(status: Int, message: String) -> [String: Any] { ["error": true, "reason": message] }

    public func read(_ request: CompatibleRequest, route: String) throws(CompatibleRefusal) -> CompatibleAsk {
        let query: OpenMeteoQuery
        do { query = try OpenMeteoQuery(request.query.map { ($0.name, $0.value) }) } catch { throw .badRequest(error.reason) }
        let model = query.model
        guard query.isAnsweredFromCache, model.map(OpenMeteoProvider.knownModels.contains) ?? true else {
            return .openMeteoPassthrough(normalized: query.normalized)
        }
        func ask(_ one: OpenMeteoQuery) -> CompatibleAsk {
            .weather(
                place: .coordinate(Coordinate(latitude: one.latitude, longitude: one.longitude)), language: "en", full: false,
                model: model, details: one)
        }
        guard query.locations.count > 1 else { return ask(query) }
        return .several(query.locations.indices.map { ask(query.location($0)) })
    }

    /// Open-Meteo's SDKs may send the query as a form body (`method="POST"`), answered as `GET`.
    public var acceptsPost: Bool { true }

    /// Several locations: a JSON list, or the FlatBuffers messages one after another, as Open-Meteo
    /// answers them.
    public func combine(_ documents: [any Encodable & Sendable]) -> any Encodable & Sendable {
        let binary = documents.compactMap { $0 as? EncodedDocument }
        guard binary.count == documents.count, let first = binary.first else { return DocumentList(documents: documents) }
        return EncodedDocument(bytes: binary.flatMap(\.bytes), contentType: first.contentType)
    }

    public func units(for ask: CompatibleAsk, at place: Place) -> UnitChoice {
        guard case .weather(_, _, _, _, let details) = ask, let query = details as? OpenMeteoQuery else { return UnitChoice(.metric) }
        return query.units
    }

    public func document(for ask: CompatibleAsk, view: WeatherView) throws(CompatibleRefusal) -> any Encodable & Sendable {
        guard case .weather(_, _, _, _, let details) = ask, let query = details as? OpenMeteoQuery else {
            throw .badRequest("not a forecast")
        }
        guard query.format == "flatbuffers" else { return OpenMeteoFormat.document(query, view: view) }
        // The official SDKs' format: the same answer, its times in Unix seconds, as FlatBuffers.
        var unix = query
        unix.timeformat = "unixtime"
        return EncodedDocument(
            bytes: OpenMeteoFlatBuffers.message(OpenMeteoFormat.document(unix, view: view), query: unix),
            contentType: "application/octet-stream")
    }
}
