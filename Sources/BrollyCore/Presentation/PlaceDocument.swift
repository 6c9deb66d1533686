import Foundation

/// A place as `brolly search --json` prints it and `/api/v1/places/search` serves it.
public struct PlaceDocument: Codable, Sendable, Hashable {
    public var name: String
    public var region: String?
    public var country: String
    public var countryCode: String?
    public var latitude: Double
    public var longitude: Double
    public var timezone: String?

    public init(_ p: Place) {
        name = p.name
        region = p.region
        country = p.country
        countryCode = p.countryCode
        latitude = p.latitude
        longitude = p.longitude
        timezone = p.timezone
    }
}
