import BrollyCore
import BrollyStore
import Foundation

/// A saved place as `brolly places list --json` prints it and `/api/v1/places` serves it. The
/// database record (`SavedPlace`) stays a storage type: its device id never leaves the store.
public struct SavedPlaceDocument: Codable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var customName: String?
    /// The custom name when there is one, else the place's own.
    public var displayName: String
    public var region: String?
    public var country: String
    public var countryCode: String?
    public var latitude: Double
    public var longitude: Double
    public var timezone: String?
    /// Position in the list, from 0; the first is the default place.
    public var position: Int

    public init(_ p: SavedPlace) {
        id = p.id ?? 0
        name = p.name
        customName = p.customName
        displayName = p.displayName
        region = p.region
        country = p.country
        countryCode = p.countryCode
        latitude = p.latitude
        longitude = p.longitude
        timezone = p.timezone
        position = p.orderIndex
    }

    /// The place for weather lookups.
    public var place: Place {
        Place(
            name: name, country: country, countryCode: countryCode, region: region, latitude: latitude, longitude: longitude,
            timezone: timezone ?? "UTC")
    }
}
