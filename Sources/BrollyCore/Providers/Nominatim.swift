import Foundation

/// Nominatim (OpenStreetMap) reverse geocoding: keyless, with an identifying User-Agent; at most
/// one request per second through the network's `UpstreamGuards` (a call that cannot have its
/// turn within two seconds is not made).
public struct NominatimGeocoder: Sendable {
    public var network: NetworkService
    public var baseURL: URL

    public init(network: NetworkService, baseURL: URL) {
        self.network = network
        self.baseURL = baseURL
    }

    /// The address at `c` in `language` (Nominatim's `accept-language`).
    public func address(for c: Coordinate, zoom: Int = 18, language: String = "en") async throws -> Address {
        let url = baseURL.appending(
            providerPath: "/reverse",
            query: [
                ("format", "jsonv2"), ("lat", String(format: "%.6f", c.latitude)),
                ("lon", String(format: "%.6f", c.longitude)), ("zoom", String(zoom)), ("addressdetails", "1"),
                ("accept-language", language),
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
        var address = Address(
            latitude: lat, longitude: lon, street: street, houseNumber: a["house_number"].nonEmptyString, city: city,
            region: a["state"].nonEmptyString ?? a["region"].nonEmptyString ?? a["province"].nonEmptyString,
            country: a["country"].nonEmptyString, countryCode: a["country_code"].nonEmptyString?.uppercased(),
            display: json["display_name"].nonEmptyString
                ?? [street, city, a["country"].nonEmptyString].compactMap { $0 }.joined(separator: ", "))
        address.county = a["county"].nonEmptyString ?? a["state_district"].nonEmptyString
        return address
    }
}
