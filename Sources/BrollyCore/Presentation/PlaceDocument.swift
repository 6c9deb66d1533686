import Foundation

/// A place as the documents write it: `brolly search --json` and `/api/v1/places/search` (a list
/// of them), the weather's, accuracy's and alerts' `place`, and a saved place's own fields.
public struct PlaceDocument: Codable, Sendable, Hashable {
    public var name: String
    public var region: String?
    public var country: String
    public var countryCode: String?
    public var latitude: Double
    public var longitude: Double
    /// Absent only for a place saved before time zones were kept.
    public var timezone: String?
    /// True when the place is where the request's address is (the browser's location denied,
    /// slow or unavailable): approximate. Absent otherwise (no column in the saved places' table).
    @LeftOutWhenNil public var approximate: Bool? = nil

    public init(_ p: Place) {
        name = p.name
        region = p.region
        country = p.country
        countryCode = p.countryCode
        latitude = p.latitude
        longitude = p.longitude
        timezone = p.timezone
    }

    /// The place for weather lookups (UTC when its time zone is not known).
    public var place: Place {
        Place(
            name: name, country: country, countryCode: countryCode, region: region, latitude: latitude, longitude: longitude,
            timezone: timezone ?? "UTC")
    }
}
