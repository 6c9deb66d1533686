import BrollyCore
import Foundation
import GRDB

/// A place the user saved, with its position in their list and an optional custom name ("Home").
public struct SavedPlace: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "place"

    public var id: Int64?
    public var deviceId: String
    public var name: String
    public var customName: String?
    public var region: String?
    public var country: String
    public var countryCode: String?
    public var latitude: Double
    public var longitude: Double
    public var timezone: String?
    /// Position in the user's list, ascending; 0 is the default place.
    public var orderIndex: Int
    public var createdAt: Date

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let deviceId = Column(CodingKeys.deviceId)
        public static let orderIndex = Column(CodingKeys.orderIndex)
    }

    public init(place: Place, customName: String?, deviceId: String, orderIndex: Int, createdAt: Date) {
        self.deviceId = deviceId
        name = place.name
        self.customName = customName
        region = place.region
        country = place.country
        countryCode = place.countryCode
        latitude = place.latitude
        longitude = place.longitude
        timezone = place.timezone
        self.orderIndex = orderIndex
        self.createdAt = createdAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// The custom name when there is one, else the place's own.
    public var displayName: String { customName ?? name }
}

extension SavedPlace {
    /// The saved place as a place to look weather and alerts up for.
    public var place: Place {
        Place(
            name: name, country: country, countryCode: countryCode, region: region, latitude: latitude, longitude: longitude,
            timezone: timezone ?? "UTC")
    }
}
