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
    /// The county or district, where the provider gives one (for matching regional warnings).
    public var county: String?
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
