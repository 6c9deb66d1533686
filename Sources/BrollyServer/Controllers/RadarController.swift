import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/radar`: the rain radar's frames (times and tile URL templates), the attribution and
/// the highest zoom the tile host serves. The browser fetches the tiles from the tile host itself.
/// No radar (the server down, nothing cached) is a 503 the page shows as "Radar unavailable"; it
/// never touches the weather.
struct RadarController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get("radar", use: radar).get("radar/precipitation/:z/:x/:y", use: precipitationTile)
    }

    struct Document: ResponseEncodable, Sendable {
        struct Frame: Codable, Sendable {
            /// ISO 8601, UTC.
            var time: String
            var unixTime: Int
            /// `https://…/{z}/{x}/{y}/2/1_1.png`
            var tiles: String
            var forecast: Bool
        }
        var frames: [Frame]
        var maxZoom: Int
        var attribution: String
        var attributionURL: String
        var fetchedAt: String
        /// OpenWeatherMap's precipitation layer, when the server has its key: tiles served by this
        /// server (`/api/v1/radar/precipitation/{z}/{x}/{y}.png`).
        var precipitation: Layer?
    }

    struct Layer: Codable, Sendable {
        var tiles: String
        var maxZoom: Int
        var attribution: String
        var attributionURL: String
    }

    @Sendable func radar(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Document> {
        guard let service = useCases.services.radar, let frames = await service.frames() else {
            throw Problem(
                .serviceUnavailable, code: .provider, title: "Radar unavailable", detail: "the rain radar cannot be had now",
                retryAfter: 60)
        }
        let utc = TimeZone(secondsFromGMT: 0)!
        let document = Document(
            frames: frames.frames.map {
                Document.Frame(
                    time: LocalTime.iso8601($0.time, in: utc), unixTime: Int($0.time.timeIntervalSince1970), tiles: $0.tiles,
                    forecast: $0.forecast)
            }, maxZoom: frames.maxZoom, attribution: frames.attribution, attributionURL: frames.attributionURL,
            fetchedAt: LocalTime.iso8601(frames.fetchedAt, in: utc),
            precipitation: useCases.services.precipitationTiles.map { _ in
                Layer(
                    tiles: "/api/v1/radar/precipitation/{z}/{x}/{y}.png", maxZoom: PrecipitationTiles.maxZoom,
                    attribution: "OpenWeatherMap", attributionURL: "https://openweathermap.org/")
            })
        return EditedResponse(headers: [.cacheControl: "public, max-age=60"], response: document)
    }

    /// `GET /api/v1/radar/precipitation/{z}/{x}/{y}.png`: one of OpenWeatherMap's precipitation tiles
    /// (404 without an OpenWeatherMap key; 400 for a tile that does not exist).
    @Sendable func precipitationTile(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let tiles = useCases.services.precipitationTiles else {
            throw Problem(.notFound, code: .notFound, title: "Not found", detail: "this server has no OpenWeatherMap key for its tiles")
        }
        let last = context.parameters.get("y") ?? ""
        guard let z = context.parameters.get("z").flatMap({ Int($0) }), let x = context.parameters.get("x").flatMap({ Int($0) }),
            last.hasSuffix(".png"), let y = Int(last.dropLast(4))
        else {
            throw Problem.badRequest("a tile is /api/v1/radar/precipitation/{z}/{x}/{y}.png with zoom 0–\(PrecipitationTiles.maxZoom)")
        }
        // Tiles spend the client's tile allowance (a third of the weather's), never the weather's.
        let png = try await ClientAllowance.inLane(.radarTiles) { try await tiles.tile(z: z, x: x, y: y) }
        return Response(
            status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=600"],
            body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }
}
