import BrollyCore
import Foundation
import GRDB

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

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}
