import BrollyCore
import Foundation
import PostgresNIO

extension PostgresDatabase {
    static let subscriptionColumns = "id, device_id, endpoint, p256dh, auth, minimum_severity, created_at, settings"

    static func subscription(_ r: PostgresRandomAccessRow) throws -> PushSubscription {
        PushSubscription(
            id: try r["id"].decode(String.self), deviceId: try r["device_id"].decode(String.self),
            endpoint: try r["endpoint"].decode(String.self), p256dh: try r["p256dh"].decode(String.self),
            auth: try r["auth"].decode(String.self),
            minimumSeverity: AlertSeverity(rawValue: try r["minimum_severity"].decode(String.self)) ?? .severe,
            createdAt: try r["created_at"].decode(Date.self), settings: PushSettings.stored(try r["settings"].decode(String.self)))
    }

    public func subscribe(_ s: PushSubscription, now: Date) async throws -> PushSubscription {
        try await transaction { c in
            try await Self.lockDevice(s.deviceId, now: now, on: c)
            let rows = try await c.query(
                """
                INSERT INTO push_subscription (id, device_id, endpoint, p256dh, auth, minimum_severity, created_at, settings)
                VALUES (\(s.id), \(s.deviceId), \(s.endpoint), \(s.p256dh), \(s.auth), \(s.minimumSeverity.rawValue), \(s.createdAt), \(s.settings.json))
                ON CONFLICT (device_id, endpoint) DO UPDATE SET
                    p256dh = excluded.p256dh, auth = excluded.auth, minimum_severity = excluded.minimum_severity,
                    settings = excluded.settings
                RETURNING \(unescaped: Self.subscriptionColumns)
                """, logger: Self.quiet)
            return try await Self.rows(rows, Self.subscription).first ?? s
        }
    }

    /// The subscriptions of `device`, or of every device.
    func subscriptions(of device: String?) async throws -> [PushSubscription] {
        try await run { client in
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.subscriptionColumns) FROM push_subscription
                WHERE \(device)::text IS NULL OR device_id = \(device) ORDER BY created_at
                """)
            return try await Self.rows(rows, Self.subscription)
        }
    }

    public func subscriptions(device: String) async throws -> [PushSubscription] {
        try await subscriptions(of: device)
    }

    public func allSubscriptions() async throws -> [PushSubscription] {
        try await subscriptions(of: nil)
    }

    public func unsubscribe(id: String, device: String) async throws -> Bool {
        try await run { client in
            try await !client.query("DELETE FROM push_subscription WHERE id = \(id) AND device_id = \(device) RETURNING id").collect()
                .isEmpty
        }
    }

    public func updateSubscription(id: String, device: String, settings: PushSettings, minimumSeverity: AlertSeverity?) async throws
        -> PushSubscription?
    {
        try await run { client in
            let rows = try await client.query(
                """
                UPDATE push_subscription
                SET settings = \(settings.json), minimum_severity = coalesce(\(minimumSeverity?.rawValue)::text, minimum_severity) WHERE id = \(id) AND device_id = \(device)
                RETURNING \(unescaped: Self.subscriptionColumns)
                """)
            return try await Self.rows(rows, Self.subscription).first
        }
    }

    public func pushStates(subscription: String) async throws -> [String: String] {
        try await run { client in
            let rows = try await client.query("SELECT key, value FROM push_state WHERE subscription_id = \(subscription)")
            let pairs = try await Self.rows(rows) { (try $0["key"].decode(String.self), try $0["value"].decode(String.self)) }
            return Dictionary(pairs, uniquingKeysWith: { _, last in last })
        }
    }

    public func setPushState(subscription: String, key: String, value: String?, now: Date) async throws {
        try await run { client in
            if let value {
                try await client.query(
                    """
                    INSERT INTO push_state (subscription_id, key, value, updated_at) VALUES (\(subscription), \(key), \(value), \(now))
                    ON CONFLICT (subscription_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """)
            } else {
                try await client.query("DELETE FROM push_state WHERE subscription_id = \(subscription) AND key = \(key)")
            }
        }
    }

    public func removeSubscription(id: String) async throws {
        try await run { client in try await client.query("DELETE FROM push_subscription WHERE id = \(id)") }
    }

    public func deliveredAlertKeys(subscription: String) async throws -> Set<String> {
        try await run { client in
            Set(
                try await Self.column(
                    client.query("SELECT alert_key FROM push_delivery WHERE subscription_id = \(subscription)"), "alert_key",
                    as: String.self))
        }
    }

    public func recordDelivery(subscription: String, alertKey: String, status: Int, now: Date) async throws {
        try await run { client in
            try await client.query(
                """
                INSERT INTO push_delivery (subscription_id, alert_key, sent_at, status) VALUES (\(subscription), \(alertKey), \(now), \(Int64(status)))
                ON CONFLICT (subscription_id, alert_key) DO NOTHING
                """)
        }
    }
}
