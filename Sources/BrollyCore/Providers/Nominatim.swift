import Foundation

/// A street address for a coordinate.
public struct Address: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var street: String?
    public var houseNumber: String?
    /// City, or town, village or hamlet where there is no city.
    public var city: String?
    public var region: String?
    public var country: String?
    public var countryCode: String?
    /// The provider's one-line address.
    public var display: String

    public init(
        latitude: Double, longitude: Double, street: String? = nil, houseNumber: String? = nil, city: String? = nil,
        region: String? = nil, country: String? = nil, countryCode: String? = nil, display: String
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.street = street
        self.houseNumber = houseNumber
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.display = display
    }

    /// The address as a place for weather lookups.
    public var place: Place {
        Place(
            name: city ?? region ?? String(format: "%.3f, %.3f", latitude, longitude), country: country ?? "",
            countryCode: countryCode, region: region, latitude: latitude, longitude: longitude)
    }
}

/// Spaces calls to a service that allows one request per second.
public actor RateGate {
    let interval: TimeInterval
    var next = Date.distantPast

    public init(interval: TimeInterval) { self.interval = interval }

    public func wait() async throws {
        let now = Date()
        let start = max(now, next)
        next = start.addingTimeInterval(interval)
        let delay = start.timeIntervalSince(now)
        if delay > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
    }
}

/// Nominatim (OpenStreetMap) reverse geocoding: keyless, with an identifying User-Agent and at
/// most one request per second.
public struct NominatimGeocoder: Sendable {
    public var network: NetworkService
    public var baseURL: URL
    let gate: RateGate

    public init(network: NetworkService, baseURL: URL, gate: RateGate = RateGate(interval: 1)) {
        self.network = network
        self.baseURL = baseURL
        self.gate = gate
    }

    public func address(for c: Coordinate, zoom: Int = 18) async throws -> Address {
        try await gate.wait()
        let url = baseURL.appending(
            providerPath: "/reverse",
            query: [
                ("format", "jsonv2"), ("lat", String(format: "%.6f", c.latitude)),
                ("lon", String(format: "%.6f", c.longitude)), ("zoom", String(zoom)), ("addressdetails", "1"),
                ("accept-language", "en"),
            ])
        let response = try await network.get(url, provider: "Nominatim")
        return try Self.address(from: response.body, requested: c)
    }

    /// Decodes a `format=json` or `format=jsonv2` reverse answer. Numbers may be strings.
    public static func address(from data: Data, requested: Coordinate? = nil) throws -> Address {
        let json = try JSONValue.parse(data, provider: "Nominatim")
        if let error = json["error"].nonEmptyString { throw BrollyError.placeNotFound("these coordinates (\(error))") }
        guard let a = json["address"] else { throw BrollyError.unreadableResponse("Nominatim answer has no address") }
        let lat = json["lat"]?.double ?? requested?.latitude
        let lon = json["lon"]?.double ?? requested?.longitude
        guard let lat, let lon, Coordinate(latitude: lat, longitude: lon).isValid else {
            throw BrollyError.unreadableResponse("Nominatim answer has no coordinates")
        }
        let city = ["city", "town", "village", "hamlet", "municipality", "suburb", "county"].lazy
            .compactMap { a[$0].nonEmptyString }.first
        let street = ["road", "pedestrian", "footway", "street", "path", "square"].lazy.compactMap { a[$0].nonEmptyString }.first
        return Address(
            latitude: lat, longitude: lon, street: street, houseNumber: a["house_number"].nonEmptyString, city: city,
            region: a["state"].nonEmptyString ?? a["region"].nonEmptyString ?? a["province"].nonEmptyString,
            country: a["country"].nonEmptyString, countryCode: a["country_code"].nonEmptyString?.uppercased(),
            display: json["display_name"].nonEmptyString
                ?? [street, city, a["country"].nonEmptyString].compactMap { $0 }.joined(separator: ", "))
    }
}

/// Names coordinates: the provider's own reverse geocoding when it has one, else the street
/// address service (so naming and addresses share one upstream call and one cache); answers are
/// cached by rounded coordinates.
public struct PlaceNamer: Sendable {
    public let provider: any WeatherProvider
    public let addresses: AddressService
    public let cache: FileCache
    let now: @Sendable () -> Date
    /// Names this process has already decoded.
    let memory = MemoryCache<Place>()

    public init(
        provider: any WeatherProvider, addresses: AddressService, cache: FileCache, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.provider = provider
        self.addresses = addresses
        self.cache = cache
        self.now = now
    }

    /// The nearest named place. Throws when no service could name it.
    public func place(at c: Coordinate) async throws -> Place {
        let key = "reverse-\(c.cacheKey)"
        if let entry = cache.read(Place.self, key: key, memory: memory), now().timeIntervalSince(entry.receivedAt) < 30 * 86_400 {
            var p = entry.value
            (p.latitude, p.longitude) = (c.latitude, c.longitude)
            return p
        }
        var found: Place?
        if let p = try? await provider.reverse(c) { found = p }
        if found == nil { found = try await addresses.address(for: c).place }
        guard var place = found else { throw BrollyError.placeNotFound("these coordinates") }
        try? cache.write(place, key: key, receivedAt: now(), memory: memory)
        (place.latitude, place.longitude) = (c.latitude, c.longitude)
        return place
    }
}
