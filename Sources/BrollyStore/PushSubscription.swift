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

    public init(
        id: String, deviceId: String, endpoint: String, p256dh: String, auth: String, minimumSeverity: AlertSeverity, createdAt: Date
    ) {
        self.id = id
        self.deviceId = deviceId
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.minimumSeverity = minimumSeverity
        self.createdAt = createdAt
    }
}

extension AppDatabase {
    /// Adds a subscription for the device, or updates the one it has for the same endpoint (new
    /// keys, new severity); returns it.
    public func subscribe(_ s: PushSubscription, now: Date = Date()) throws -> PushSubscription {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO device (id, createdAt, lastSeenAt) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING",
                arguments: [s.deviceId, now, now])
            if var existing = try PushSubscription.filter(Column("deviceId") == s.deviceId && Column("endpoint") == s.endpoint).fetchOne(db)
            {
                existing.p256dh = s.p256dh
                existing.auth = s.auth
                existing.minimumSeverity = s.minimumSeverity
                try existing.update(db)
                return existing
            }
            try s.insert(db)
            return s
        }
    }

    public func subscriptions(device: String) throws -> [PushSubscription] {
        try writer.read { db in
            try PushSubscription.filter(Column("deviceId") == device).order(Column("createdAt")).fetchAll(db)
        }
    }

    /// Every subscription, for the alert poller.
    public func allSubscriptions() throws -> [PushSubscription] {
        try writer.read { db in try PushSubscription.order(Column("createdAt")).fetchAll(db) }
    }

    /// Removes one of the device's subscriptions; false when it has none with this id.
    public func unsubscribe(id: String, device: String) throws -> Bool {
        try writer.write { db in
            try PushSubscription.filter(Column("id") == id && Column("deviceId") == device).deleteAll(db) > 0
        }
    }

    /// Removes a subscription the push service said is gone (404, 410).
    public func removeSubscription(id: String) throws {
        try writer.write { db in _ = try PushSubscription.deleteOne(db, key: id) }
    }

    /// The alert keys already pushed (or given up on) for a subscription.
    public func deliveredAlertKeys(subscription: String) throws -> Set<String> {
        try writer.read { db in
            Set(try String.fetchAll(db, sql: "SELECT alertKey FROM pushDelivery WHERE subscriptionId = ?", arguments: [subscription]))
        }
    }

    /// Records that an alert was pushed (`status` the push service's answer) so it is never sent again.
    public func recordDelivery(subscription: String, alertKey: String, status: Int, now: Date = Date()) throws {
        try writer.write { db in
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
