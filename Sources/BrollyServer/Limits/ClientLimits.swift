import BrollyCore
import Foundation
import Hummingbird

/// Fairness between clients: each client may cause `callsPerMinute` upstream calls a minute
/// (cached answers are always served), and each IP address may be given `devicesPerMinute` new
/// devices a minute. A client is its device when it comes back with one (with its IP address as a
/// backstop, allowed four times as much, so that minting devices does not multiply the share),
/// else its IP address: a request without a cookie gets a new device, but the IP's share.
///
/// The windows live in an LRU of `capacity` (25,000: ~400 bytes each, ~10 MB), so a flood of
/// clients cannot grow memory without bound. With 100,000 a flood from 20,000 addresses held
/// ~40 MB of windows, a quarter of the server's memory (measured: 150 MB after the flood, 111 MB
/// with 500). A client pushed out starts a fresh window when it comes back; what all clients
/// together may cause is bounded by the upstream budgets whatever this holds.
final class ClientLimits: Sendable {
    let callsPerMinute: Int
    let devicesPerMinute: Int
    private let buckets: MemoryCache<TokenBuckets>
    /// The cluster's buckets (several servers on one PostgreSQL); nil: this process alone.
    let shared: (any SharedLimiter)?
    /// The injected clock the windows refill on.
    let clock: any WallClock

    init(
        callsPerMinute: Int = 30, devicesPerMinute: Int = 30, capacity: Int = 25_000, shared: (any SharedLimiter)? = nil,
        clock: any WallClock
    ) {
        self.clock = clock
        self.callsPerMinute = callsPerMinute
        self.devicesPerMinute = devicesPerMinute
        buckets = MemoryCache(capacity: capacity)
        self.shared = shared
    }

    /// The client's window for `key` at `count` a minute: the size is part of the name, so the same
    /// address asked with two sizes (a browser's backstop ×4, a cookie-less client's share) has two
    /// windows, each of the size its kind of request gets, never the size of whichever came first.
    private func bucket(_ key: String, count: Int) -> TokenBuckets {
        let key = key + "/" + String(count)
        if let hit = buckets.get(key) { return hit.value }
        let made = TokenBuckets(Budget([RateLimit(count, per: 60)]), clock: clock)
        buckets.set(key, CacheEntry(value: made, receivedAt: clock.now))
        return made
    }

    private static func take(_ bucket: TokenBuckets) -> TimeInterval? {
        switch bucket.reserve(maxWait: 0) {
        case .granted: nil
        case .refused(let retryAfter): retryAfter
        }
    }

    /// The allowance of upstream calls for a request with `device` (nil: none) from the address
    /// `ip` gives (worked out only when a call is about to be made).
    /// Air quality and warnings have an allowance of their own, as large, so they never use up the
    /// weather's.
    func allowance(device: String?, ip: @escaping @Sendable () -> String) -> ClientAllowance {
        @Sendable func take(_ prefix: String) -> TimeInterval? {
            if let device, !device.isEmpty {
                if let wait = Self.take(bucket(prefix + "d:" + device, count: callsPerMinute)) { return wait }
                return Self.take(bucket(prefix + "i:" + ip(), count: callsPerMinute * 4))
            }
            return Self.take(bucket(prefix + "i:" + ip(), count: callsPerMinute))
        }
        // In a cluster the same allowance also holds across the instances, by device (else address).
        let limit = RateLimit(callsPerMinute, per: 60)
        let sharedKey: @Sendable () -> String = { device.flatMap { $0.isEmpty ? nil : "d:" + $0 } ?? "i:" + ip() }
        var allowance = ClientAllowance(take: { take("") }, auxiliary: { take("x") }, sharedKey: sharedKey, sharedLimit: limit)
        allowance.lanes = { lane in
            let size = Self.laneSize(lane, callsPerMinute: self.callsPerMinute)
            let prefix = lane.rawValue + ":"
            // An address's backstop over its devices: four devices' worth, but for the tiles and the
            // city lookups one (issue 52: three cookies from one address took the server's whole
            // tile budget, and two addresses' id= lookups OpenWeatherMap's 60 a minute).
            let backstop = lane == .radarTiles || lane == .cityLookups ? size : size * 4
            @Sendable func take() -> TimeInterval? {
                if let device, !device.isEmpty {
                    if let wait = Self.take(self.bucket(prefix + "d:" + device, count: size)) { return wait }
                    return Self.take(self.bucket(prefix + "i:" + ip(), count: backstop))
                }
                return Self.take(self.bucket(prefix + "i:" + ip(), count: size))
            }
            return ClientAllowance(take: take, sharedKey: { prefix + sharedKey() }, sharedLimit: RateLimit(size, per: 60))
        }
        return allowance
    }

    /// A helper lane's calls a minute for one client: news and accuracy as many as the weather's,
    /// radar tiles a third (the server's tile budget is 20 a minute for everyone; tiles are kept
    /// 10 minutes for all, so a map mostly costs nothing), and OpenWeatherMap's city ids a third
    /// (kept 30 days for everyone).
    static func laneSize(_ lane: ClientAllowance.Lane, callsPerMinute: Int) -> Int {
        switch lane {
        case .news, .accuracy: callsPerMinute
        case .radarTiles, .cityLookups: max(1, callsPerMinute / 3)
        }
    }

    /// The allowance of a compatible API's key (`BROLLY_API_KEYS`): `callsPerMinute` upstream calls
    /// a minute for everyone using the key, here and across the cluster (by the key's digest).
    func allowance(apiKey: String, callsPerMinute perKey: Int?) -> ClientAllowance {
        let count = perKey ?? callsPerMinute
        let id = "k:" + Checksum.hex(Data(apiKey.utf8))
        @Sendable func take(_ prefix: String) -> TimeInterval? { Self.take(bucket(prefix + id, count: count)) }
        return ClientAllowance(
            take: { take("") }, auxiliary: { take("x") }, sharedKey: { id }, sharedLimit: RateLimit(count, per: 60))
    }

    /// Nil when `ip` may be given a new device now; else the seconds until it may.
    func mayMintDevice(ip: String) -> TimeInterval? {
        Self.take(bucket("n:" + ip, count: devicesPerMinute))
    }

    /// In a cluster, a device that is about to be written (its first write) also takes from the
    /// address's share for the whole cluster, so that several instances do not multiply it. Reads
    /// never ask the database: a device that only reads owns nothing stored.
    func mayStoreNewDevice(ip: String) async -> TimeInterval? {
        guard let shared else { return nil }
        return (try? await shared.take("mint:" + ip, limits: [RateLimit(devicesPerMinute, per: 60)])) ?? nil
    }
}

/// Tells the context how to find the client's IP address (the peer, or `X-Forwarded-For` when the
/// peer is one of `BROLLY_TRUSTED_PROXIES`) and, for the site's pages (`setsAllowance`), runs the
/// request with that address's allowance of upstream calls. In the API, `DeviceMiddleware` sets
/// the allowance of the device.
struct ClientMiddleware: RouterMiddleware {
    let limits: ClientLimits
    let trustedProxies: Set<String>
    var setsAllowance = true

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.trust(trustedProxies, forwardedFor: request)
        guard setsAllowance else { return try await next(request, context) }
        let client = context
        return try await ClientAllowance.$current.withValue(limits.allowance(device: nil, ip: { client.clientKey })) {
            try await next(request, context)
        }
    }

    /// The rightmost address of `X-Forwarded-For` that is not a trusted proxy, when the peer is one.
    static func clientIP(peer: String, forwardedFor: String?, trusted: Set<String>) -> String {
        guard trusted.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trusted.contains($0) } ?? peer
    }
}
