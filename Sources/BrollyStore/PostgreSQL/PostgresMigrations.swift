import Foundation
import PostgresNIO

extension PostgresDatabase {
    /// The schema's history; migrations never change once shipped. Applied in order, each once,
    /// recorded in `brolly_migration`, under an advisory lock so that instances starting together
    /// do not run them twice.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1-devices-places-history-push",
            [
                """
                CREATE TABLE device (
                    id text PRIMARY KEY, created_at timestamptz NOT NULL, last_seen_at timestamptz NOT NULL)
                """,
                "INSERT INTO device (id, created_at, last_seen_at) VALUES ('local', now(), now())",
                """
                CREATE TABLE place (
                    id bigserial PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    name text NOT NULL, custom_name text, region text, country text NOT NULL DEFAULT '', country_code text,
                    latitude double precision NOT NULL, longitude double precision NOT NULL, timezone text,
                    order_index bigint NOT NULL, created_at timestamptz NOT NULL)
                """,
                "CREATE INDEX place_on_device_order ON place (device_id, order_index)",
                """
                CREATE TABLE history (
                    id bigserial PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL, latitude double precision NOT NULL, longitude double precision NOT NULL,
                    place_name text NOT NULL, address text, weather text NOT NULL)
                """,
                "CREATE INDEX history_on_device_time ON history (device_id, created_at)",
                """
                CREATE TABLE push_subscription (
                    id text PRIMARY KEY,
                    device_id text NOT NULL REFERENCES device (id) ON DELETE CASCADE,
                    endpoint text NOT NULL, p256dh text NOT NULL, auth text NOT NULL, minimum_severity text NOT NULL,
                    created_at timestamptz NOT NULL, UNIQUE (device_id, endpoint))
                """,
                """
                CREATE TABLE push_delivery (
                    subscription_id text NOT NULL REFERENCES push_subscription (id) ON DELETE CASCADE,
                    alert_key text NOT NULL, sent_at timestamptz NOT NULL, status bigint NOT NULL,
                    PRIMARY KEY (subscription_id, alert_key))
                """,
            ]
        ),
        (
            "v2-cluster",
            [
                // The shared cache tier: each answer's JSON and when it arrived (seconds since 1970).
                "CREATE TABLE cache_entry (key text PRIMARY KEY, payload bytea NOT NULL, received_at double precision NOT NULL)",
                // Token buckets shared by the instances: budgets and clients' allowances.
                "CREATE TABLE rate_bucket (key text PRIMARY KEY, tokens double precision NOT NULL, updated_at double precision NOT NULL)",
                // Leases for work that runs on one instance at a time.
                "CREATE TABLE lease (name text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)",
                // Secrets every instance must agree on: the device-token key, the VAPID key.
                "CREATE TABLE shared_secret (name text PRIMARY KEY, value bytea NOT NULL)",
            ]
        ),
        (
            "v3-push-watch",
            [
                // Rain alerts, the morning summary, places, language and units, as JSON.
                "ALTER TABLE push_subscription ADD COLUMN settings text NOT NULL DEFAULT '{}'",
                // What the watcher remembers per subscription: the rain event pushed, the last summary's day.
                """
                CREATE TABLE push_state (
                    subscription_id text NOT NULL REFERENCES push_subscription (id) ON DELETE CASCADE,
                    key text NOT NULL, value text NOT NULL, updated_at timestamptz NOT NULL,
                    PRIMARY KEY (subscription_id, key))
                """,
            ]
        ),
        (
            "v4-watched-change",
            [
                // Counts the changes to what the rain watcher watches, for the instance that watches.
                "CREATE SEQUENCE watched_change"
            ]
        ),
    ]

    /// Applies the migrations not yet applied, on one connection, in one transaction.
    static func migrate(on connection: PostgresConnection) async throws {
        try await unwrapped {
            try await connection.withTransaction(logger: quiet) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7301730)", logger: quiet)
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS brolly_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                    logger: quiet)
                let done = Set(
                    try await column(connection.query("SELECT name FROM brolly_migration", logger: quiet), "name", as: String.self))
                for migration in migrations where !done.contains(migration.name) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: quiet)
                    }
                    try await connection.query("INSERT INTO brolly_migration (name) VALUES (\(migration.name))", logger: quiet)
                }
            }
        }
    }

    /// The migrations applied, in order (for tests).
    public func appliedMigrations() async throws -> [String] {
        try await run { client in
            try await Self.column(client.query("SELECT name FROM brolly_migration ORDER BY applied_at, name"), "name")
        }
    }
}
