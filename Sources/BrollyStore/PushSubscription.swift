import BrollyCore
import Foundation
import GRDB

/// A browser's Web Push subscription (RFC 8030 endpoint, RFC 8291 keys), owned by a device.
public struct PushSubscription: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "pushSubscription"
    public var id: String
    public var deviceId: String
    public var endpoint: String
    /// The browser's P-256 public key, base64url (65 bytes uncompressed).
    public var p256dh: String
    /// The browser's 16-byte authentication secret, base64url.
    public var auth: String
    public var minimumSeverity: AlertSeverity
    public var createdAt: Date
    /// Rain alerts, the morning summary, places, language and units (stored as JSON).
    public var settings: PushSettings

    public init(
        id: String, deviceId: String, endpoint: String, p256dh: String, auth: String, minimumSeverity: AlertSeverity, createdAt: Date,
        settings: PushSettings = PushSettings()
    ) {
        self.settings = settings
        self.id = id
        self.deviceId = deviceId
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.minimumSeverity = minimumSeverity
        self.createdAt = createdAt
    }
}

// The push store's calls run on GRDB's own queue (its async accessors), never blocking one of Swift
// concurrency's cooperative threads while SQLite works (issue 53).
extension AppDatabase {
    /// Adds a subscription for the device, or updates the one it has for the same endpoint (new
    /// keys, new severity); returns it.
    public func subscribe(_ s: PushSubscription, now: Date) async throws -> PushSubscription {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                arguments: [s.deviceId, now, now])
            if var existing = try PushSubscription.filter(Column("deviceId") == s.deviceId && Column("endpoint") == s.endpoint).fetchOne(db)
            {
                existing.p256dh = s.p256dh
                existing.auth = s.auth
                existing.minimumSeverity = s.minimumSeverity
                existing.settings = s.settings
                try existing.update(db)
                return existing
            }
            try s.insert(db)
            return s
        }
    }

    public func subscriptions(device: String) async throws -> [PushSubscription] {
        try await writer.read { db in
            try PushSubscription.filter(Column("deviceId") == device).order(Column("createdAt")).fetchAll(db)
        }
    }

    /// Every subscription, for the alert poller.
    public func allSubscriptions() async throws -> [PushSubscription] {
        try await writer.read { db in try PushSubscription.order(Column("createdAt")).fetchAll(db) }
    }

    /// Removes one of the device's subscriptions; false when it has none with this id.
    public func unsubscribe(id: String, device: String) async throws -> Bool {
        try await writer.write { db in
            try PushSubscription.filter(Column("id") == id && Column("deviceId") == device).deleteAll(db) > 0
        }
    }

    /// Replaces the settings of one of the device's subscriptions; nil when it has none with this id.
    public func updateSubscription(id: String, device: String, settings: PushSettings, minimumSeverity: AlertSeverity?) async throws
        -> PushSubscription?
    {
        try await writer.write { db in
            guard var s = try PushSubscription.filter(Column("id") == id && Column("deviceId") == device).fetchOne(db) else { return nil }
            s.settings = settings
            if let minimumSeverity { s.minimumSeverity = minimumSeverity }
            try s.update(db)
            return s
        }
    }

    /// What the watcher remembers for a subscription (key → value), e.g. the rain event last pushed.
    public func pushStates(subscription: String) async throws -> [String: String] {
        try await writer.read { db in
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM pushState WHERE subscriptionId = ?", arguments: [subscription]) {
                out[row["key"]] = row["value"]
            }
            return out
        }
    }

    /// Sets (or, with nil, removes) one remembered value of a subscription.
    public func setPushState(subscription: String, key: String, value: String?, now: Date) async throws {
        try await writer.write { db in
            if let value {
                try db.execute(
                    sql: """
                        INSERT INTO pushState (subscriptionId, key, value, updatedAt) VALUES (?, ?, ?, ?)
                        ON CONFLICT(subscriptionId, key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt
                        """, arguments: [subscription, key, value, now])
            } else {
                try db.execute(sql: "DELETE FROM pushState WHERE subscriptionId = ? AND key = ?", arguments: [subscription, key])
            }
        }
    }

    /// Removes a subscription the push service said is gone (404, 410).
    public func removeSubscription(id: String) async throws {
        try await writer.write { db in _ = try PushSubscription.deleteOne(db, key: id) }
    }

    /// The alert keys already pushed (or given up on) for a subscription.
    public func deliveredAlertKeys(subscription: String) async throws -> Set<String> {
        try await writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT alertKey FROM pushDelivery WHERE subscriptionId = ?", arguments: [subscription]))
        }
    }

    /// Records that an alert was pushed (`status` the push service's answer) so it is never sent again.
    public func recordDelivery(subscription: String, alertKey: String, status: Int, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO pushDelivery (subscriptionId, alertKey, sentAt, status) VALUES (?, ?, ?, ?)
                    ON CONFLICT(subscriptionId, alertKey) DO NOTHING
                    """, arguments: [subscription, alertKey, now, status])
        }
    }
}

/// Stored as its raw value (`severe`).
extension AlertSeverity: DatabaseValueConvertible {}
