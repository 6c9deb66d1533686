import BrollyCore
import CBrollySQLite
import Foundation
import GRDB

/// Brolly's database: saved places, lookup history and the devices they belong to. One SQLite
/// file in WAL mode, shared safely by the CLI and the server. A write is acknowledged once its
/// transaction is in the write-ahead log; with `synchronous = NORMAL` in WAL mode that survives the
/// process being killed (only a power loss or an OS crash could roll back the latest commits),
/// without an fsync on every write.
public struct AppDatabase: Sendable {
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
            // The last connection to close (a short command's) leaves the log for the next one: no
            // checkpoint, no deleted and re-created log, so no four fsyncs (~1 ms) per command. The
            // log is copied into the database when it reaches SQLite's 1,000 pages, as ever.
            _ = brolly_sqlite_keep_log_on_close(db.sqliteConnection)
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
                arguments: [StoreRules.localDevice])
            // Rows written before devices existed belong to the local profile.
            try db.alter(table: "place") { t in
                t.add(column: "deviceId", .text).notNull().defaults(to: StoreRules.localDevice).references("device", onDelete: .cascade)
            }
            try db.alter(table: "history") { t in
                t.add(column: "deviceId", .text).notNull().defaults(to: StoreRules.localDevice).references("device", onDelete: .cascade)
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
        migrator.registerMigration("v4-push-watch") { db in
            // Rain alerts, the morning summary, places, language and units, as JSON.
            try db.alter(table: "pushSubscription") { t in t.add(column: "settings", .text).notNull().defaults(to: "{}") }
            // What the watcher remembers per subscription: the rain event pushed, the last summary's day.
            try db.create(table: "pushState") { t in
                t.column("subscriptionId", .text).notNull().references("pushSubscription", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("value", .text).notNull()
                t.column("updatedAt", .datetime).notNull()
                t.primaryKey(["subscriptionId", "key"])
            }
        }
        return migrator
    }
}
