import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `/manifest.webmanifest`: the web app's manifest with `shortcuts` to the device's first saved
/// places (a long press on the home-screen icon opens one). The page links it with
/// `crossorigin="use-credentials"` so the browser sends the device cookie.
struct ManifestController: Sendable {
    let useCases: UseCases
    let webDirectory: String
    let tokens: DeviceTokens

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("manifest.webmanifest", use: manifest)
    }

    @Sendable func manifest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let url = URL(fileURLWithPath: webDirectory).appendingPathComponent("manifest.webmanifest")
        guard let data = try? Data(contentsOf: url), var manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HTTPError(.notFound)
        }
        var places: [SavedPlaceDocument] = []
        if let device = await tokens.deviceID(of: request) { places = (try? await useCases.savedPlaces(device: device)) ?? [] }
        manifest["shortcuts"] = places.prefix(4).map { p -> [String: Any] in
            var link = URLComponents()
            link.path = "/"
            link.queryItems = [
                URLQueryItem(name: "lat", value: String(format: "%.4f", p.latitude)),
                URLQueryItem(name: "lon", value: String(format: "%.4f", p.longitude)), URLQueryItem(name: "name", value: p.displayName),
            ]
            return [
                "name": "Weather in \(p.displayName)", "short_name": String(p.displayName.prefix(12)), "url": link.string ?? "/",
                "icons": [["src": "/icon-192.png", "sizes": "192x192", "type": "image/png"]],
            ]
        }
        let body = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: .ok, headers: [.contentType: "application/manifest+json", .cacheControl: "private, no-cache", .vary: "Cookie"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
