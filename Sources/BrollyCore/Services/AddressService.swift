import Foundation

/// A street address for coordinates: Google Geocoding when a key is set, else Nominatim, and
/// OpenWeatherMap's city-level reverse geocoding as the fallback. Answers are cached by
/// coordinates rounded to 0.001° (about 100 m).
public struct AddressService: Sendable {
    public var nominatim: NominatimGeocoder
    public var network: NetworkService
    public var googleURL: URL
    var googleAPIKey: String?
    public var fallback: OpenWeatherMapProvider?
    public var cache: FileCache
    let now: @Sendable () -> Date
    /// Addresses this process has read or fetched (an LRU in front of the file cache).
    let memory = MemoryCache<Address>(capacity: 2048)

    public init(
        nominatim: NominatimGeocoder, network: NetworkService, googleURL: URL, googleAPIKey: String?,
        fallback: OpenWeatherMapProvider?, cache: FileCache, now: @escaping @Sendable () -> Date
    ) {
        self.nominatim = nominatim
        self.network = network
        self.googleURL = googleURL
        self.googleAPIKey = googleAPIKey
        self.fallback = fallback
        self.cache = cache
        self.now = now
        flights = SingleFlight(now: now)
    }

    /// English addresses keep the key they always had; another language has its own entry.
    func cacheKey(_ c: Coordinate, language: String = "en") -> String {
        let key = "address-" + Coordinate.fixed(c.latitude, places: 3) + "_" + Coordinate.fixed(c.longitude, places: 3)
        return language == "en" ? key : key + "-" + language
    }

    /// The cached address at `c`, whatever its age, without any network call.
    public func cachedAddress(for c: Coordinate, language: String = "en") -> Address? {
        cache.read(Address.self, key: cacheKey(c, language: Localization.baseCode(language)), memory: memory).map { entry in
            var address = entry.value
            (address.latitude, address.longitude) = (c.latitude, c.longitude)
            return address
        }
    }

    /// How long an unreachable geocoder is left alone before it is tried again.
    public var unreachableBackoff: TimeInterval = 60

    var unreachableKey: String { googleAPIKey == nil ? "geocoder-unreachable-nominatim" : "geocoder-unreachable-google" }

    /// One lookup per point at a time.
    let flights: SingleFlight<Address>
    /// Points the geocoders failed for a moment ago: not asked again for a few minutes.
    let failures = FailureMemory(base: 180, max: 900)

    /// The street address at `c`: cached, else one lookup per point however many ask (charged once
    /// to the client's auxiliary allowance, never the weather's); a point that failed a moment ago
    /// fails at once.
    public func address(for c: Coordinate, language: String = "en") async throws -> Address {
        let language = Localization.baseCode(language)
        let key = cacheKey(c, language: language)
        if let refusal = failures.refusal(key, now: now(), what: "the address service") { throw refusal }
        if let cached = cache.read(Address.self, key: key, memory: memory), now().timeIntervalSince(cached.receivedAt) < 30 * 86_400 {
            var address = cached.value
            (address.latitude, address.longitude) = (c.latitude, c.longitude)
            return address
        }
        // A geocoder that could not be reached a moment ago is not waited for again (a missing
        // network can take seconds per attempt to fail); the marker is a file, so it also spans
        // separate CLI runs.
        if let mark = cache.read(Bool.self, key: unreachableKey), now().timeIntervalSince(mark.receivedAt) < unreachableBackoff {
            throw BrollyError.offline("the address service could not be reached a moment ago")
        }
        return try await flights.run(key) { [self] in
            try await ClientAllowance.auxiliaryOnce {
                try await failures.tracking(key, now: now) { try await lookUp(c, key: key, language: language) }
            }
        }
    }

    func lookUp(_ c: Coordinate, key: String, language: String) async throws -> Address {
        let now = self.now
        if let entry = await cache.current(
            Address.self, key: key, memory: memory, now: now(), isCurrent: { now().timeIntervalSince($0.receivedAt) < 30 * 86_400 })
        {
            var address = entry.value
            (address.latitude, address.longitude) = (c.latitude, c.longitude)
            return address
        }
        var address: Address
        do {
            if let googleAPIKey {
                let url = googleURL.appending(
                    providerPath: "/maps/api/geocode/json",
                    query: [
                        ("latlng", String(format: "%.6f,%.6f", c.latitude, c.longitude)), ("key", googleAPIKey), ("language", language),
                    ])
                address = try GoogleGeocoding.address(from: try await network.get(url, provider: "Google Geocoding").body)
            } else {
                address = try await nominatim.address(for: c, language: language)
            }
        } catch let error as BrollyError {
            if error.kind == .offline || error.kind == .timedOut {
                try? cache.write(true, key: unreachableKey, receivedAt: now())
            }
            guard let fallback, error.kind != .placeNotFound, let place = try? await fallback.reverse(c) else { throw error }
            address = Address(
                latitude: c.latitude, longitude: c.longitude, city: place.name, region: place.region, country: place.country,
                countryCode: place.countryCode, display: place.displayName)
        }
        // The address is for the point asked about, whatever point the geocoder snapped to.
        (address.latitude, address.longitude) = (c.latitude, c.longitude)
        await cache.writeThrough(address, key: key, receivedAt: now(), memory: memory)
        return address
    }
}
