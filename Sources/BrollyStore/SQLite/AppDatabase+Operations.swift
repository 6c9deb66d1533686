import BrollyCore
import Foundation
import GRDB

// The store's operations on SQLite: each reads what a `StoreRules` rule needs and writes what it
// decides, in one transaction on GRDB's own writer queue (the async `read`/`write`).

// MARK: - Devices

extension AppDatabase {
    /// Whether a device with this id exists.
    public func deviceExists(_ id: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM device WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    /// Records that a device exists (and was seen now).
    public func touchDevice(_ id: String, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?1, ?2, ?2)
                    ON CONFLICT(id) DO UPDATE SET lastSeenAt = excluded.lastSeenAt
                    """, arguments: [id, Self.stored(now)])
        }
    }

    /// A time as GRDB stores one (`LocalTime.sqlTimestamp`), without its date formatter: the
    /// history write of a short command is the only date it writes.
    static func stored(_ date: Date) -> any DatabaseValueConvertible { LocalTime.sqlTimestamp(date) ?? date }

    static func ensureDevice(_ id: String, db: Database, now: Date) throws {
        try db.execute(
            sql: "INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?1, ?2, ?2) ON CONFLICT(id) DO NOTHING",
            arguments: [id, Self.stored(now)])
    }
}

// MARK: - Saved places

extension AppDatabase {
    static func places(device: String, db: Database) throws -> [SavedPlace] {
        try SavedPlace.filter(SavedPlace.Columns.deviceId == device).order(SavedPlace.Columns.orderIndex, SavedPlace.Columns.id)
            .fetchAll(db)
    }

    /// A device's saved places in the user's order; the first is the default place.
    public func places(device: String) async throws -> [SavedPlace] {
        try await writer.read { db in try Self.places(device: device, db: db) }
    }

    /// One saved place of the device, or nil (also for another device's id).
    public func place(id: Int64, device: String) async throws -> SavedPlace? {
        try await writer.read { db in
            try SavedPlace.filter(SavedPlace.Columns.deviceId == device && SavedPlace.Columns.id == id).fetchOne(db)
        }
    }

    /// Saves a place at the end of the device's list.
    @discardableResult
    public func addPlace(_ place: Place, customName: String?, device: String, now: Date) async throws -> SavedPlace {
        try await writer.write { db in
            try Self.ensureDevice(device, db: db, now: now)
            let last = try Int.fetchOne(db, sql: "SELECT MAX(orderIndex) FROM place WHERE deviceId = ?", arguments: [device])
            var saved = StoreRules.appended(place, customName: customName, device: device, after: last, now: now)
            try saved.insert(db)
            return saved
        }
    }

    /// Renames and/or moves a place in one transaction; the device's list after it, or nil when
    /// the device has no such place.
    public func updatePlace(id: Int64, _ change: PlaceChange, device: String) async throws -> [SavedPlace]? {
        try await writer.write { db in
            var list = try Self.places(device: device, db: db)
            guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
            if let customName = change.customName {
                list[index].customName = customName
                try list[index].update(db)
            }
            guard let position = change.position else { return list }
            return try Self.renumber(StoreRules.moving(list, id: id, to: position) ?? list, db: db)
        }
    }

    /// Puts the device's places in the given order; `ids` must name each of them exactly once.
    public func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlace] {
        try await writer.write { db in
            try Self.renumber(StoreRules.ordering(try Self.places(device: device, db: db), as: ids), db: db)
        }
    }

    /// Removes a place; false when the device has no such place.
    public func removePlace(id: Int64, device: String) async throws -> Bool {
        try await writer.write { db in
            let deleted = try SavedPlace.filter(SavedPlace.Columns.deviceId == device && SavedPlace.Columns.id == id).deleteAll(db)
            guard deleted > 0 else { return false }
            _ = try Self.renumber(try Self.places(device: device, db: db), db: db)
            return true
        }
    }

    static func renumber(_ list: [SavedPlace], db: Database) throws -> [SavedPlace] {
        let (list, changed) = StoreRules.renumbered(list)
        for place in changed { try place.update(db) }
        return list
    }
}

// MARK: - History

extension AppDatabase {
    /// Saves a lookup (`StoreRules.write`: a repeat of the latest updates it) and keeps the
    /// newest `StoreRules.historyLimit` entries.
    @discardableResult
    public func recordLookup(
        _ report: WeatherReport, address: Address?, coordinate: Coordinate, device: String, now: Date
    ) async throws -> HistoryEntry {
        try await writer.write { db in
            let lookup = LookupRecord(device: device, coordinate: coordinate, report: report, address: address, createdAt: now)
            let entry = try Self.save(lookup, db: db)
            try Self.trimHistory(device: device, db: db)
            return entry
        }
    }

    /// Saves many lookups, and adds addresses to lookups saved earlier, in one transaction (the
    /// server's batched history writes). Each lookup follows `recordLookup`'s rules.
    public func recordLookups(_ lookups: [LookupRecord], addresses: [AddressPatch] = []) async throws {
        try await writer.write { db in
            for lookup in lookups { try Self.save(lookup, db: db) }
            for device in Set(lookups.map(\.device)) { try Self.trimHistory(device: device, db: db) }
            for patch in addresses {
                let candidates = try HistoryEntry.filter(
                    HistoryEntry.Columns.deviceId == patch.device && HistoryEntry.Columns.createdAt >= StoreRules.patchedSince(patch)
                ).fetchAll(db)
                for entry in StoreRules.patched(candidates, by: patch) { try entry.update(db) }
            }
        }
    }

    /// Saves one lookup as `StoreRules.write` decides. The latest entry is read by its id, place
    /// and time only, and the row is written with plain SQL: a command's lookup never decodes an
    /// old weather snapshot, nor pays for record encoding's dynamic casts.
    @discardableResult
    static func save(_ lookup: LookupRecord, db: Database) throws -> HistoryEntry {
        try ensureDevice(lookup.device, db: db, now: lookup.createdAt)
        let latest = try Row.fetchOne(
            db,
            sql: """
                SELECT id, latitude, longitude, createdAt, json_extract(weather, '$.fetchedAt') AS fetchedAt,
                json_extract(weather, '$.model') AS model, json_extract(weather, '$.modelSelection') AS modelSelection,
                json_extract(weather, '$.place.name') AS placeName, json_extract(weather, '$.language') AS language,
                json_extract(weather, '$.current.temperature') AS temperature
                FROM history WHERE deviceId = ? ORDER BY createdAt DESC, id DESC LIMIT 1
                """,
            arguments: [lookup.device]
        ).map { row in
            StoreRules.LatestLookup(
                id: row["id"], coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]), createdAt: row["createdAt"],
                answer: (row["fetchedAt"] as Double?).map {
                    StoreRules.AnswerStamp(
                        fetchedAt: $0, model: row["model"], modelSelection: row["modelSelection"], placeName: row["placeName"],
                        language: row["language"], temperature: row["temperature"])
                })
        }
        let write = StoreRules.write(lookup, latest: latest)
        var entry = write.entry
        let address = try entry.address.map { try json($0, column: "address") }
        if case .update(let id, _) = write, let latest, StoreRules.keepsSnapshot(lookup.report, latest: latest) {
            // The same answer again: its snapshot is already there.
            try db.execute(
                sql: "UPDATE history SET createdAt = ?, placeName = ?, address = COALESCE(?, address) WHERE id = ?",
                arguments: [Self.stored(entry.createdAt), entry.placeName, address, id])
            return entry
        }
        let weather = try json(entry.weather, column: "weather")
        switch write {
        case .update(let id, _):
            try db.execute(
                sql: "UPDATE history SET createdAt = ?, weather = ?, placeName = ?, address = COALESCE(?, address) WHERE id = ?",
                arguments: [Self.stored(entry.createdAt), weather, entry.placeName, address, id])
        case .insert:
            try db.execute(
                sql: """
                    INSERT INTO history (deviceId, createdAt, latitude, longitude, placeName, address, weather)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    entry.deviceId, Self.stored(entry.createdAt), entry.latitude, entry.longitude, entry.placeName, address, weather,
                ])
            entry.id = db.lastInsertedRowID
        }
        return entry
    }

    /// A JSON column as the record types write and read it (GRDB's coders for that column).
    static func json<T: Encodable>(_ value: T, column: String) throws -> String {
        String(decoding: try HistoryEntry.databaseJSONEncoder(for: column).encode(value), as: UTF8.self)
    }

    static func trimHistory(device: String, db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM history WHERE deviceId = ? AND id NOT IN
                (SELECT id FROM history WHERE deviceId = ? ORDER BY createdAt DESC, id DESC LIMIT ?)
                """, arguments: [device, device, StoreRules.historyLimit])
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
