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

    /// The place for weather lookups.
    public var place: Place {
        Place(
            name: name, country: country, countryCode: countryCode, region: region, latitude: latitude,
            longitude: longitude, timezone: timezone ?? "UTC")
    }
}

/// One lookup: when, where (coordinates and address), which place, and the weather then.
public struct HistoryEntry: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "history"

    public var id: Int64?
    public var deviceId: String
    public var createdAt: Date
    public var latitude: Double
    public var longitude: Double
    public var placeName: String
    /// Stored as JSON.
    public var address: Address?
    /// The weather snapshot, stored as JSON.
    public var weather: WeatherReport

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let deviceId = Column(CodingKeys.deviceId)
        public static let createdAt = Column(CodingKeys.createdAt)
    }

    public init(
        deviceId: String, createdAt: Date, latitude: Double, longitude: Double, placeName: String, address: Address?,
        weather: WeatherReport
    ) {
        self.deviceId = deviceId
        self.createdAt = createdAt
        self.latitude = latitude
        self.longitude = longitude
        self.placeName = placeName
        self.address = address
        self.weather = weather
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A history entry as the API and `brolly history --json` show it: a summary, and the weather
/// snapshot when one entry is asked for.
public struct HistoryDocument: Codable, Sendable {
    public var id: Int64
    public var createdAt: String
    public var latitude: Double
    public var longitude: Double
    public var placeName: String
    public var address: Address?
    /// °C.
    public var temperature: Double
    public var condition: WeatherDocument.ConditionInfo
    public var weather: WeatherDocument?

    public init(_ e: HistoryEntry, weather: WeatherDocument? = nil) {
        id = e.id ?? 0
        createdAt = LocalTime.iso8601(e.createdAt, in: TimeZone(secondsFromGMT: 0)!)
        latitude = e.latitude
        longitude = e.longitude
        placeName = e.placeName
        address = e.address
        let metric = WeatherDocument(e.weather, units: .metric, stale: true, age: 0)
        temperature = metric.current.temperature
        condition = metric.current.condition
        self.weather = weather
    }
}
