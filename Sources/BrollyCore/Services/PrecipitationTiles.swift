import Foundation

/// OpenWeatherMap's precipitation map tiles (`/map/precipitation_new/{z}/{x}/{y}.png`), offered as
/// a second radar layer when the server has an OpenWeatherMap key. The server fetches them (the
/// key never reaches a browser), keeps each for 10 minutes in memory (bounded), asks once for a
/// tile however many browsers want it at the same moment, and spends its own budget
/// (`BROLLY_OPENWEATHERMAP_TILES_BUDGET`), which also counts against OpenWeatherMap's: tiles never
/// take the weather's calls.
public struct PrecipitationTiles: Sendable {
    let network: NetworkService
    let baseURL: URL
    let key: String
    let tiles = MemoryCache<Data>(capacity: 512)
    let flights: SingleFlight<Data>
    let now: @Sendable () -> Date

    /// The highest zoom asked for (the layer is scaled above it, like the radar's).
    public static let maxZoom = 9
    /// How long a tile is kept: OpenWeatherMap renders its maps about every 10 minutes.
    public static let keptFor: TimeInterval = 600

    public init(network: NetworkService, baseURL: URL, key: String, now: @escaping @Sendable () -> Date) {
        self.network = network
        self.baseURL = baseURL
        self.key = key
        self.now = now
        flights = SingleFlight(now: now)
    }

    /// Whether `z`/`x`/`y` names a tile of the layer.
    static func isTile(z: Int, x: Int, y: Int) -> Bool {
        (0...maxZoom).contains(z) && (0..<(1 << z)).contains(x) && (0..<(1 << z)).contains(y)
    }

    /// The PNG of a tile (an invalid one is refused with `invalidInput`).
    public func tile(z: Int, x: Int, y: Int) async throws -> Data {
        guard Self.isTile(z: z, x: x, y: y) else {
            throw BrollyError.invalidInput("no such tile: zoom 0–\(Self.maxZoom), x and y below 2^zoom")
        }
        let name = "\(z)/\(x)/\(y)"
        if let kept = tiles.get(name), now().timeIntervalSince(kept.receivedAt) < Self.keptFor { return kept.value }
        let url = baseURL.appending(providerPath: "/map/precipitation_new/\(name).png", query: [("appid", key)])
        return try await flights.run(name) { [network, tiles, now] in
            let response = try await network.get(url, headers: ["Accept": "image/png"], provider: "OpenWeatherMap tiles")
            guard response.body.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
                throw BrollyError.unreadableResponse("OpenWeatherMap's tile is not a PNG")
            }
            tiles.set(name, CacheEntry(value: response.body, receivedAt: now()))
            return response.body
        }
    }
}
