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

    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("radar", use: radar)
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
            fetchedAt: LocalTime.iso8601(frames.fetchedAt, in: utc))
        return EditedResponse(headers: [.cacheControl: "public, max-age=60"], response: document)
    }
}
