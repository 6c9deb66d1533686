import BrollyCore
import Foundation
import GRDB

/// Brolly's database: saved places, lookup history and the devices they belong to. One SQLite
/// file in WAL mode, shared safely by the CLI and the server. A write is acknowledged once its
/// transaction is in the write-ahead log; with `synchronous = NORMAL` in WAL mode that survives the
/// process being killed (only a power loss or an OS crash could roll back the latest commits),
/// without an fsync on every write.
public struct AppDatabase: Sendable {
    /// The CLI's own profile.
    public static let localDevice = "local"
    /// The most history entries kept per device; older ones are dropped.
    public static let historyLimit = 500

    let writer: any DatabaseWriter

    /// Opens (creating if needed) a database on `writer` and migrates it to the current schema.
    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Opens `$BROLLY_DATA_DIR/brolly.sqlite` (or any path) in WAL mode.
    public static func open(at url: URL) throws -> AppDatabase {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try AppDatabase(DatabasePool(path: url.path, configuration: makeConfiguration()))
    }

    /// An in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
    }

    static func makeConfiguration() -> Configuration {
        var config = Configuration()
        // Writes run on GRDB's own writer queue (the async API), never on a cooperative thread; a
        // short busy time-out bounds how long another process's write (the CLI's) can hold one up.
        config.busyMode = .timeout(3)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return config
    }

    /// The schema's history. Migrations never change once shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-places-and-history") { db in
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("customName", .text)
                t.column("region", .text)
                t.column("country", .text).notNull().defaults(to: "")
                t.column("countryCode", .text)
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("timezone", .text)
                t.column("orderIndex", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "history") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("createdAt", .datetime).notNull()
                t.column("latitude", .double).notNull()
                t.column("longitude", .double).notNull()
                t.column("placeName", .text).notNull()
                t.column("address", .text)
                t.column("weather", .text).notNull()
            }
        }
        migrator.registerMigration("v2-devices") { db in
            try db.create(table: "device") { t in
                t.primaryKey("id", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("lastSeenAt", .datetime).notNull()
            }
            try db.execute(
                sql: "INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                arguments: [localDevice])
            // Rows written before devices existed belong to the local profile.
            try db.alter(table: "place") { t in
                t.add(column: "deviceId", .text).notNull().defaults(to: localDevice).references("device", onDelete: .cascade)
            }
            try db.alter(table: "history") { t in
                t.add(column: "deviceId", .text).notNull().defaults(to: localDevice).references("device", onDelete: .cascade)
            }
            try db.create(index: "place_on_device_order", on: "place", columns: ["deviceId", "orderIndex"])
            try db.create(index: "history_on_device_time", on: "history", columns: ["deviceId", "createdAt"])
        }
        migrator.registerMigration("v3-push") { db in
            try db.create(table: "pushSubscription") { t in
                t.primaryKey("id", .text)
                t.column("deviceId", .text).notNull().references("device", onDelete: .cascade)
                t.column("endpoint", .text).notNull()
                t.column("p256dh", .text).notNull()
                t.column("auth", .text).notNull()
                t.column("minimumSeverity", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.uniqueKey(["deviceId", "endpoint"])
            }
            // What was pushed to whom, so a restart never sends an alert twice.
            try db.create(table: "pushDelivery") { t in
                t.column("subscriptionId", .text).notNull().references("pushSubscription", onDelete: .cascade)
                t.column("alertKey", .text).notNull()
                t.column("sentAt", .datetime).notNull()
                t.column("status", .integer).notNull()
                t.primaryKey(["subscriptionId", "alertKey"])
            }
        }
        return migrator
    }
}

// MARK: - Devices

extension AppDatabase {
    /// Whether a device with this id exists.
    public func deviceExists(_ id: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM device WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    /// Records that a device exists (and was seen now).
    public func touchDevice(_ id: String, now: Date = Date()) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET lastSeenAt = excluded.lastSeenAt
                    """, arguments: [id, now, now])
        }
    }
}

// MARK: - Saved places

extension AppDatabase {
    /// A device's saved places in the user's order; the first is the default place.
    public func places(device: String) async throws -> [SavedPlace] {
        try await writer.read { db in
            try SavedPlace.filter(SavedPlace.Columns.deviceId == device).order(SavedPlace.Columns.orderIndex, SavedPlace.Columns.id)
                .fetchAll(db)
        }
    }

    /// One saved place of the device, or nil (also for another device's id).
    public func place(id: Int64, device: String) async throws -> SavedPlace? {
        try await writer.read { db in
            try SavedPlace.filter(SavedPlace.Columns.deviceId == device && SavedPlace.Columns.id == id).fetchOne(db)
        }
    }

    /// Saves a place at the end of the device's list.
    @discardableResult
    public func addPlace(_ place: Place, customName: String?, device: String, now: Date = Date()) async throws -> SavedPlace {
        try await writer.write { db in
            try ensureDevice(device, db: db, now: now)
            let last = try Int.fetchOne(db, sql: "SELECT MAX(orderIndex) FROM place WHERE deviceId = ?", arguments: [device]) ?? -1
            var saved = SavedPlace(place: place, customName: customName, deviceId: device, orderIndex: last + 1, createdAt: now)
            try saved.insert(db)
            return saved
        }
    }

    /// Sets (or, with nil, clears) a place's custom name. Nil when the device has no such place.
    public func renamePlace(id: Int64, customName: String?, device: String) async throws -> SavedPlace? {
        try await writer.write { db in
            guard var saved = try SavedPlace.filter(SavedPlace.Columns.deviceId == device && SavedPlace.Columns.id == id).fetchOne(db)
            else { return nil }
            saved.customName = customName
            try saved.update(db)
            return saved
        }
    }

    /// Moves a place to a 0-based position. Nil when the device has no such place.
    public func movePlace(id: Int64, to position: Int, device: String) async throws -> [SavedPlace]? {
        try await writer.write { db in
            var list = try SavedPlace.filter(SavedPlace.Columns.deviceId == device).order(
                SavedPlace.Columns.orderIndex, SavedPlace.Columns.id
            ).fetchAll(db)
            guard let from = list.firstIndex(where: { $0.id == id }) else { return nil }
            let item = list.remove(at: from)
            list.insert(item, at: max(0, min(position, list.count)))
            return try renumber(list, db: db)
        }
    }

    /// Puts the device's places in the given order; `ids` must name each of them exactly once.
    public func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlace] {
        try await writer.write { db in
            let list = try SavedPlace.filter(SavedPlace.Columns.deviceId == device).fetchAll(db)
            guard ids.count == list.count, Set(ids) == Set(list.compactMap(\.id)) else {
                throw BrollyError.invalidInput("the order must list each saved place exactly once")
            }
            let byID = Dictionary(uniqueKeysWithValues: list.map { ($0.id!, $0) })
            return try renumber(ids.map { byID[$0]! }, db: db)
        }
    }

    /// Removes a place; false when the device has no such place.
    public func removePlace(id: Int64, device: String) async throws -> Bool {
        try await writer.write { db in
            let deleted = try SavedPlace.filter(SavedPlace.Columns.deviceId == device && SavedPlace.Columns.id == id).deleteAll(db)
            guard deleted > 0 else { return false }
            let rest = try SavedPlace.filter(SavedPlace.Columns.deviceId == device).order(SavedPlace.Columns.orderIndex).fetchAll(db)
            _ = try renumber(rest, db: db)
            return true
        }
    }

    private func renumber(_ list: [SavedPlace], db: Database) throws -> [SavedPlace] {
        var result: [SavedPlace] = []
        for (index, var place) in list.enumerated() {
            if place.orderIndex != index {
                place.orderIndex = index
                try place.update(db)
            }
            result.append(place)
        }
        return result
    }

    private func ensureDevice(_ id: String, db: Database, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
            arguments: [id, now, now])
    }
}

// MARK: - History

extension AppDatabase {
    /// One lookup to be saved in the history.
    public struct Lookup: Sendable {
        public var device: String
        public var coordinate: Coordinate
        public var report: WeatherReport
        public var address: Address?
        public var createdAt: Date

        public init(device: String, coordinate: Coordinate, report: WeatherReport, address: Address?, createdAt: Date) {
            self.device = device
            self.coordinate = coordinate
            self.report = report
            self.address = address
            self.createdAt = createdAt
        }
    }

    /// A street address that arrived after its lookup was saved.
    public struct AddressPatch: Sendable {
        public var device: String
        public var coordinate: Coordinate
        /// The lookup was made at or after this time.
        public var since: Date
        public var address: Address

        public init(device: String, coordinate: Coordinate, since: Date, address: Address) {
            self.device = device
            self.coordinate = coordinate
            self.since = since
            self.address = address
        }
    }

    /// Saves a lookup. A repeat of the device's latest lookup for the same place (about 1 km)
    /// within 10 minutes updates that entry instead of adding another.
    @discardableResult
    public func recordLookup(
        _ report: WeatherReport, address: Address?, coordinate: Coordinate, device: String, now: Date = Date()
    ) async throws -> HistoryEntry {
        try await writer.write { db in
            let entry = try save(Lookup(device: device, coordinate: coordinate, report: report, address: address, createdAt: now), db: db)
            try trimHistory(device: device, db: db)
            return entry
        }
    }

    /// Saves many lookups, and adds addresses to lookups saved earlier, in one transaction (the
    /// server's batched history writes). Each lookup follows `recordLookup`'s rules.
    public func recordLookups(_ lookups: [Lookup], addresses: [AddressPatch] = []) async throws {
        try await writer.write { db in
            for lookup in lookups { try save(lookup, db: db) }
            for device in Set(lookups.map(\.device)) { try trimHistory(device: device, db: db) }
            for patch in addresses {
                let candidates = try HistoryEntry.filter(
                    HistoryEntry.Columns.deviceId == patch.device && HistoryEntry.Columns.createdAt >= patch.since.addingTimeInterval(-1)
                ).fetchAll(db)
                for var entry in candidates where entry.address == nil && entry.coordinate.cacheKey == patch.coordinate.cacheKey {
                    entry.address = patch.address
                    try entry.update(db)
                }
            }
        }
    }

    @discardableResult
    private func save(_ lookup: Lookup, db: Database) throws -> HistoryEntry {
        let (device, coordinate, now) = (lookup.device, lookup.coordinate, lookup.createdAt)
        try ensureDevice(device, db: db, now: now)
        let name = lookup.report.place.name.isEmpty ? Place.unnamed(coordinate).name : lookup.report.place.name
        if var latest = try HistoryEntry.filter(HistoryEntry.Columns.deviceId == device)
            .order(HistoryEntry.Columns.createdAt.desc, HistoryEntry.Columns.id.desc).fetchOne(db),
            latest.coordinate.cacheKey == coordinate.cacheKey, now.timeIntervalSince(latest.createdAt) < 600
        {
            latest.createdAt = now
            latest.weather = lookup.report
            latest.placeName = name
            if let address = lookup.address { latest.address = address }
            try latest.update(db)
            return latest
        }
        var entry = HistoryEntry(
            deviceId: device, createdAt: now, latitude: coordinate.latitude, longitude: coordinate.longitude,
            placeName: name, address: lookup.address, weather: lookup.report)
        try entry.insert(db)
        return entry
    }

    private func trimHistory(device: String, db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM history WHERE deviceId = ? AND id NOT IN
                (SELECT id FROM history WHERE deviceId = ? ORDER BY createdAt DESC, id DESC LIMIT ?)
                """, arguments: [device, device, Self.historyLimit])
    }

    /// A device's lookups, newest first.
    public func history(device: String, limit: Int = 100) async throws -> [HistoryEntry] {
        try await writer.read { db in
            try HistoryEntry.filter(HistoryEntry.Columns.deviceId == device)
                .order(HistoryEntry.Columns.createdAt.desc, HistoryEntry.Columns.id.desc).limit(limit).fetchAll(db)
        }
    }

    /// One lookup of the device, or nil (also for another device's id).
    public func historyEntry(id: Int64, device: String) async throws -> HistoryEntry? {
        try await writer.read { db in
            try HistoryEntry.filter(HistoryEntry.Columns.deviceId == device && HistoryEntry.Columns.id == id).fetchOne(db)
        }
    }

    /// Deletes one lookup; false when the device has no such entry.
    public func deleteHistoryEntry(id: Int64, device: String) async throws -> Bool {
        try await writer.write { db in
            try HistoryEntry.filter(HistoryEntry.Columns.deviceId == device && HistoryEntry.Columns.id == id).deleteAll(db) > 0
        }
    }

    /// Deletes all of a device's lookups; returns how many.
    @discardableResult
    public func deleteHistory(device: String) async throws -> Int {
        try await writer.write { db in
            try HistoryEntry.filter(HistoryEntry.Columns.deviceId == device).deleteAll(db)
        }
    }
}
