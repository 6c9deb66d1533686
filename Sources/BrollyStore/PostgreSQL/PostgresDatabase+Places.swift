import BrollyCore
import Foundation
import PostgresNIO

// MARK: - Devices

extension PostgresDatabase {
    public func deviceExists(_ id: String) async throws -> Bool {
        try await run { client in
            try await Self.column(client.query("SELECT EXISTS (SELECT 1 FROM device WHERE id = \(id)) AS known"), "known", as: Bool.self)
                .first ?? false
        }
    }

    /// Makes sure the device exists and locks its row until the transaction ends, so that one
    /// device's writes on several instances take turns (list order, history coalescing).
    static func lockDevice(_ id: String, now: Date, on connection: PostgresConnection) async throws {
        try await connection.query(
            "INSERT INTO device (id, created_at, last_seen_at) VALUES (\(id), \(now), \(now)) ON CONFLICT (id) DO NOTHING", logger: quiet)
        try await connection.query("SELECT 1 FROM device WHERE id = \(id) FOR UPDATE", logger: quiet)
    }
}

// MARK: - Saved places

extension PostgresDatabase {
    static let placeColumns =
        "id, device_id, name, custom_name, region, country, country_code, latitude, longitude, timezone, order_index, created_at"

    static func savedPlace(_ r: PostgresRandomAccessRow) throws -> SavedPlace {
        let timezone = try r["timezone"].decode(String?.self)
        let place = Place(
            name: try r["name"].decode(String.self), country: try r["country"].decode(String.self),
            countryCode: try r["country_code"].decode(String?.self), region: try r["region"].decode(String?.self),
            latitude: try r["latitude"].decode(Double.self), longitude: try r["longitude"].decode(Double.self),
            timezone: timezone ?? "UTC")
        var saved = SavedPlace(
            place: place, customName: try r["custom_name"].decode(String?.self), deviceId: try r["device_id"].decode(String.self),
            orderIndex: Int(try r["order_index"].decode(Int64.self)), createdAt: try r["created_at"].decode(Date.self))
        saved.id = try r["id"].decode(Int64.self)
        saved.timezone = timezone
        return saved
    }

    static func places(device: String, on connection: PostgresConnection) async throws -> [SavedPlace] {
        let result = try await connection.query(
            "SELECT \(unescaped: placeColumns) FROM place WHERE device_id = \(device) ORDER BY order_index, id", logger: quiet)
        return try await rows(result, savedPlace)
    }

    public func places(device: String) async throws -> [SavedPlace] {
        try await run { client in try await client.withConnection { try await Self.places(device: device, on: $0) } }
    }

    public func place(id: Int64, device: String) async throws -> SavedPlace? {
        try await places(device: device).first { $0.id == id }
    }

    public func addPlace(_ place: Place, customName: String?, device: String, now: Date) async throws -> SavedPlace {
        try await transaction { c in
            try await Self.lockDevice(device, now: now, on: c)
            let last =
                try await Self.column(
                    c.query("SELECT MAX(order_index) AS last FROM place WHERE device_id = \(device)", logger: Self.quiet), "last",
                    as: Int64?.self
                ).first ?? nil
            var saved = StoreRules.appended(place, customName: customName, device: device, after: last.map { Int($0) }, now: now)
            let result = try await c.query(
                """
                INSERT INTO place (device_id, name, custom_name, region, country, country_code, latitude, longitude, timezone, order_index, created_at)
                VALUES (\(device), \(saved.name), \(saved.customName), \(saved.region), \(saved.country), \(saved.countryCode),
                        \(saved.latitude), \(saved.longitude), \(saved.timezone), \(Int64(saved.orderIndex)), \(now))
                RETURNING id
                """, logger: Self.quiet)
            saved.id = try await Self.column(result, "id", as: Int64.self).first
            return saved
        }
    }

    public func updatePlace(id: Int64, _ change: PlaceChange, device: String) async throws -> [SavedPlace]? {
        try await transaction { c in
            try await Self.lockDevice(device, now: self.clock.now, on: c)
            var list = try await Self.places(device: device, on: c)
            guard let index = list.firstIndex(where: { $0.id == id }) else { return nil }
            if let customName = change.customName {
                list[index].customName = customName
                try await c.query("UPDATE place SET custom_name = \(customName) WHERE id = \(id)", logger: Self.quiet)
            }
            guard let position = change.position else { return list }
            return try await Self.renumber(StoreRules.moving(list, id: id, to: position) ?? list, on: c)
        }
    }

    public func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlace] {
        try await transaction { c in
            try await Self.lockDevice(device, now: self.clock.now, on: c)
            return try await Self.renumber(StoreRules.ordering(try await Self.places(device: device, on: c), as: ids), on: c)
        }
    }

    public func removePlace(id: Int64, device: String) async throws -> Bool {
        try await transaction { c in
            try await Self.lockDevice(device, now: self.clock.now, on: c)
            let deleted = try await c.query("DELETE FROM place WHERE id = \(id) AND device_id = \(device) RETURNING id", logger: Self.quiet)
            guard try await !deleted.collect().isEmpty else { return false }
            _ = try await Self.renumber(try await Self.places(device: device, on: c), on: c)
            return true
        }
    }

    static func renumber(_ list: [SavedPlace], on c: PostgresConnection) async throws -> [SavedPlace] {
        let (list, changed) = StoreRules.renumbered(list)
        for place in changed {
            guard let id = place.id else { continue }
            try await c.query("UPDATE place SET order_index = \(Int64(place.orderIndex)) WHERE id = \(id)", logger: quiet)
        }
        return list
    }
}
