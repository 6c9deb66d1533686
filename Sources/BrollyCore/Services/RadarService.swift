import Foundation

/// The rain radar's frames, from any server that speaks RainViewer's public weather-maps API
/// (`/public/weather-maps.json`: `{version, generated, host, radar: {past: [{time, path}],
/// nowcast?: […]}}`; RainViewer itself, or a self-hosted LibreWXR). The list is fetched once every
/// 5 minutes for every client (single flight, cached, within the `radar` upstream's budget and
/// breaker); the tiles are fetched by each browser from the tile host, so each user's own per-IP
/// limit applies. It never throws: no radar is absent, never the weather's problem.
public final class RadarService: Sendable {
    /// A frame: its time and its tile URL template (`{z}/{x}/{y}` left for the map).
    public struct Frame: Codable, Sendable, Hashable {
        public var time: Date
        public var tiles: String
        /// A nowcast frame (the radar's own extrapolation), not an observation.
        public var forecast: Bool
    }

    public struct Frames: Codable, Sendable, Hashable {
        public var frames: [Frame]
        /// The highest zoom the tile host serves (RainViewer's free terms: 7); the map scales above it.
        public var maxZoom: Int
        public var attribution: String
        public var attributionURL: String
        public var fetchedAt: Date
    }

    let network: NetworkService
    let baseURL: URL
    let fetcher: CachedFetcher<Frames>

    /// RainViewer's free terms since 2026: past two hours, zoom ≤ 7, one colour scheme.
    public static let maxZoom = 7
    /// 256-pixel tiles, colour scheme 2 (RainViewer's "universal blue"), smoothed, snow shown.
    static let tileOptions = "256/{z}/{x}/{y}/2/1_1.png"

    public init(network: NetworkService, baseURL: URL, cache: FileCache, clock: any WallClock) {
        self.network = network
        self.baseURL = baseURL
        fetcher = CachedFetcher(
            cache: cache, freshFor: 300, usableFor: 1800, failures: FailureMemory(base: 30, max: 600), keepsEntriesInMemory: true,
            memoryEntries: 4, shared: true, clock: clock)
    }

    /// The frames: cached for 5 minutes; nil when the radar cannot be had (none cached younger
    /// than half an hour). `grace`: how long a caller waits for a call under way.
    public func frames(grace: TimeInterval? = 3) async -> Frames? {
        let url = baseURL.appending(providerPath: "/public/weather-maps.json", query: [])
        let answer = await fetcher.answer("radar-frames", grace: grace, stamp: { $0.fetchedAt }) { [network, clock = fetcher.clock] in
            // One list every 5 minutes for everybody, within the radar's own budget: charged to no
            // client. (It ran with whichever client's allowance started the call: one client whose
            // weather allowance was spent had the radar answer 503 to everyone for as long.)
            let response = try await ClientAllowance.$current.withValue(nil) { try await network.get(url, provider: "Radar") }
            return try Self.decode(response.body, fetchedAt: clock.now)
        }
        guard var frames = answer?.value else { return nil }
        // Another weather-maps server (a self-hosted LibreWXR) is named as itself.
        if let host = baseURL.host, host != "api.rainviewer.com" {
            frames.attribution = "Radar: \(host) (RainViewer's API)"
            frames.attributionURL = baseURL.absoluteString
        }
        return frames
    }

    /// Reads a weather-maps answer: the past frames and the nowcast ones, oldest first.
    public static func decode(_ data: Data, fetchedAt: Date) throws -> Frames {
        let json = try JSONValue.parse(data, provider: "Radar")
        guard let host = json["host"].nonEmptyString, host.hasPrefix("https://") || host.hasPrefix("http://"),
            let radar = json["radar"]
        else { throw BrollyError.unreadableResponse("the radar's frame list has no host or radar") }
        func frames(_ list: JSONValue?, forecast: Bool) -> [Frame] {
            (list?.array ?? []).compactMap { item in
                guard let time = item["time"]?.double, let path = item["path"].nonEmptyString, path.hasPrefix("/"),
                    !path.contains(".."), path.count < 200
                else { return nil }
                return Frame(time: Date(timeIntervalSince1970: time), tiles: host + path + "/" + tileOptions, forecast: forecast)
            }
        }
        let all = (frames(radar["past"], forecast: false) + frames(radar["nowcast"], forecast: true)).sorted { $0.time < $1.time }
        guard !all.isEmpty else { throw BrollyError.unreadableResponse("the radar's frame list is empty") }
        return Frames(
            frames: all, maxZoom: maxZoom, attribution: "RainViewer", attributionURL: "https://www.rainviewer.com/", fetchedAt: fetchedAt)
    }
}
