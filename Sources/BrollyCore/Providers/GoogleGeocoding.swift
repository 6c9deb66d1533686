import Foundation

/// Google Geocoding API reverse answers.
public enum GoogleGeocoding {
    /// Decodes the first result of a reverse geocoding answer into an address.
    public static func address(from data: Data) throws -> Address {
        let json = try JSONValue.parse(data, provider: "Google Geocoding")
        let status = json["status"]?.string ?? "OK"
        switch status {
        case "OK": break
        case "ZERO_RESULTS": throw BrollyError.placeNotFound("these coordinates")
        case "REQUEST_DENIED": throw BrollyError.invalidAPIKey("Google Geocoding")
        case "OVER_QUERY_LIMIT", "OVER_DAILY_LIMIT": throw BrollyError.rateLimited(retryAfter: nil)
        default: throw BrollyError.providerUnavailable("Google Geocoding: \(status)")
        }
        guard let first = json["results"]?[0], let location = first["geometry"]?["location"],
            let lat = location["lat"]?.double, let lon = location["lng"]?.double
        else { throw BrollyError.unreadableResponse("Google Geocoding answer has no result") }
        func component(_ type: String, short: Bool = false) -> String? {
            first["address_components"]?.array?.first(where: { c in
                c["types"]?.array?.contains(where: { $0.string == type }) ?? false
            })?[short ? "short_name" : "long_name"].nonEmptyString
        }
        return Address(
            latitude: lat, longitude: lon, street: component("route"), houseNumber: component("street_number"),
            city: component("locality") ?? component("postal_town") ?? component("sublocality") ?? component("administrative_area_level_2"),
            region: component("administrative_area_level_1"), country: component("country"),
            countryCode: component("country", short: true), display: first["formatted_address"].nonEmptyString ?? "")
    }
}
