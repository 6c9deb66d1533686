import BrollyCore
import Foundation
import GRDB

/// A place the user saved, with its position in their list and an optional custom name ("Home"):
/// one row of the place's own fields, as the documents write them, and what saving it added.
@dynamicMemberLookup
public struct SavedPlace: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "place"

    public var row: SideBySide<PlaceDocument, Saving>

    /// What saving a place added to it.
    public struct Saving: Codable, Sendable, Hashable {
        public var id: Int64?
        public var deviceId: String
        public var customName: String?
        /// Position in the user's list, ascending; 0 is the default place.
        public var orderIndex: Int
        public var createdAt: Date
    }

    public enum Columns {
        public static let id = Column("id")
        public static let deviceId = Column("deviceId")
        public static let orderIndex = Column("orderIndex")
    }

    public init(place: Place, customName: String?, deviceId: String, orderIndex: Int, createdAt: Date) {
        row = SideBySide(
            PlaceDocument(place), Saving(deviceId: deviceId, customName: customName, orderIndex: orderIndex, createdAt: createdAt))
    }

    public init(from decoder: any Decoder) throws { row = try SideBySide(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try row.encode(to: encoder) }

    public subscript<T>(dynamicMember path: WritableKeyPath<SideBySide<PlaceDocument, Saving>, T>) -> T {
        get { row[keyPath: path] }
        set { row[keyPath: path] = newValue }
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { row.id = inserted.rowID }

    /// The custom name when there is one, else the place's own.
    public var displayName: String { row.customName ?? row.name }

    /// The saved place as a place to look weather and alerts up for.
    public var place: Place { row.main.place }
}
