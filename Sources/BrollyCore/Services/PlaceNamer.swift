import Foundation

/// Names coordinates: the provider's own reverse geocoding when it has one, else the street
/// address service (so naming and addresses share one upstream call and one cache); answers are
/// cached by rounded coordinates.
public struct PlaceNamer: Sendable {
    public let provider: any WeatherProvider
    public let addresses: AddressService
    public let cache: FileCache
    let now: @Sendable () -> Date
    /// Names this process has already decoded.
    let memory: MemoryCache<Place>

    public init(
        provider: any WeatherProvider, addresses: AddressService, cache: FileCache, memoryEntries: Int = 2048,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.memory = MemoryCache(capacity: memoryEntries)
        self.provider = provider
        self.addresses = addresses
        self.cache = cache
        self.now = now
    }

    /// The name at `c` from the cache alone (this service's or the address service's), whatever
    /// its age; nil when nothing is cached.
    public func cachedPlace(at c: Coordinate) -> Place? {
        if let entry = cache.read(Place.self, key: "reverse-\(c.cacheKey)", memory: memory) {
            var p = entry.value
            (p.latitude, p.longitude) = (c.latitude, c.longitude)
            return p
        }
        return addresses.cachedAddress(for: c)?.place
    }

    /// The name at `c` when a fresh one (under 30 days) is cached; nil otherwise. No network.
    public func freshCachedPlace(at c: Coordinate) -> Place? {
        guard let entry = cache.read(Place.self, key: "reverse-\(c.cacheKey)", memory: memory),
            now().timeIntervalSince(entry.receivedAt) < 30 * 86_400
        else { return nil }
        var p = entry.value
        (p.latitude, p.longitude) = (c.latitude, c.longitude)
        return p
    }

    /// The nearest named place. Throws when no service could name it.
    public func place(at c: Coordinate) async throws -> Place {
        let key = "reverse-\(c.cacheKey)"
        if let known = freshCachedPlace(at: c) { return known }
        // Another server sharing the cache may have named it.
        let now = self.now
        if cache.shared != nil,
            let entry = await cache.current(
                Place.self, key: key, memory: memory, now: now(), isCurrent: { now().timeIntervalSince($0.receivedAt) < 30 * 86_400 })
        {
            var p = entry.value
            (p.latitude, p.longitude) = (c.latitude, c.longitude)
            return p
        }
        var found: Place?
        if let p = try? await provider.reverse(c) { found = p }
        if found == nil { found = try await addresses.address(for: c).place }
        guard var place = found else { throw BrollyError.placeNotFound("these coordinates") }
        await cache.writeThrough(place, key: key, receivedAt: now(), memory: memory)
        (place.latitude, place.longitude) = (c.latitude, c.longitude)
        return place
    }
}
