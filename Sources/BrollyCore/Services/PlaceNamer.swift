import Foundation

/// Names coordinates: the provider's own reverse geocoding when it has one, else the street
/// address service (so naming and addresses share one upstream call and one cache); answers are
/// cached by rounded coordinates and language. English keeps the key it always had; another
/// language (issue 50: the name at the top of the page was English in 13 of 14 languages) is
/// asked of the address service in that language (Nominatim's `accept-language`, Google's
/// `language`) and kept under its own key.
public struct PlaceNamer: Sendable {
    public let provider: any WeatherProvider
    public let addresses: AddressService
    public let cache: FileCache
    let now: @Sendable () -> Date
    /// Names this process has already decoded.
    let memory: MemoryCache<Place>
    /// One lookup per place at a time.
    let flights: SingleFlight<Place>
    /// Places the namers failed for a moment ago.
    let failures = FailureMemory(base: PlaceNamer.failureBackOff, max: 900)

    public init(
        provider: any WeatherProvider, addresses: AddressService, cache: FileCache, memoryEntries: Int = 2048,
        now: @escaping @Sendable () -> Date
    ) {
        self.memory = MemoryCache(capacity: memoryEntries)
        self.provider = provider
        self.addresses = addresses
        self.cache = cache
        self.now = now
        flights = SingleFlight(now: now)
    }

    /// The name at `c` from the cache alone (this service's or the address service's), whatever
    /// its age; nil when nothing is cached.
    public func cachedPlace(at c: Coordinate, language: String = "en") -> Place? {
        if let entry = cache.read(Place.self, key: Self.key(c, language: language), memory: memory) {
            var p = entry.value
            (p.latitude, p.longitude) = (c.latitude, c.longitude)
            return p
        }
        return addresses.cachedAddress(for: c, language: language)?.place
    }

    /// The cache key of the name at `c` in `language` (its base code: `pt-BR` is `pt`).
    static func key(_ c: Coordinate, language: String) -> String {
        let code = Localization.baseCode(language)
        return code == "en" ? "reverse-\(c.cacheKey)" : "reverse-\(c.cacheKey)-\(code)"
    }

    /// The name at `c` when a fresh one (under 30 days) is cached; nil otherwise. No network.
    public func freshCachedPlace(at c: Coordinate, language: String = "en") -> Place? {
        guard let entry = cache.read(Place.self, key: Self.key(c, language: language), memory: memory),
            now().timeIntervalSince(entry.receivedAt) < 30 * 86_400
        else { return nil }
        var p = entry.value
        (p.latitude, p.longitude) = (c.latitude, c.longitude)
        return p
    }

    /// Where naming `c` stands: known (cached), unavailable (the namers failed for it a moment
    /// ago: not asked again for a few minutes), or a lookup under way — one per place however many
    /// requests ask (each joins it), with the time it started so that they share one deadline.
    public enum Naming: Sendable {
        case known(Place)
        case unavailable(BrollyError)
        case underWay(Task<Place, any Error>, startedAt: Date)
    }

    /// How long a place the namers could not name is left alone (doubled while it keeps failing).
    public static let failureBackOff: TimeInterval = 180

    /// Starts naming `c`, or joins the lookup under way. The lookup is charged once to the
    /// client's auxiliary allowance (never the weather's), whatever it calls.
    public func naming(at c: Coordinate, language: String = "en") async -> Naming {
        if let known = freshCachedPlace(at: c, language: language) { return .known(known) }
        let key = Self.key(c, language: language)
        if let refusal = failures.refusal(key, now: now(), what: "naming the place") { return .unavailable(refusal) }
        let (task, startedAt) = await flights.start(key) { [self] in
            try await ClientAllowance.auxiliaryOnce {
                try await failures.tracking(key, now: now) { try await lookUp(c, key: key, language: language) }
            }
        }
        return .underWay(task, startedAt: startedAt)
    }

    /// The nearest named place. Throws when no service could name it (at once, while a failure
    /// for it is remembered).
    public func place(at c: Coordinate, language: String = "en") async throws -> Place {
        switch await naming(at: c, language: language) {
        case .known(let place): return place
        case .unavailable(let refusal): throw refusal
        case .underWay(let task, _): return try await task.value
        }
    }

    func lookUp(_ c: Coordinate, key: String, language: String = "en") async throws -> Place {
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
        // The provider's own reverse geocoding names in English; another language asks the
        // address service in it.
        let english = Localization.baseCode(language) == "en"
        if english, let p = try? await provider.reverse(c) { found = p }
        if found == nil { found = try await addresses.address(for: c, language: language).place }
        guard var place = found else { throw BrollyError.placeNotFound("these coordinates") }
        await cache.writeThrough(place, key: key, receivedAt: now(), memory: memory)
        (place.latitude, place.longitude) = (c.latitude, c.longitude)
        return place
    }
}
