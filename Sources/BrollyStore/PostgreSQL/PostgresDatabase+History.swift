import BrollyCore
import Foundation
import PostgresNIO

extension PostgresDatabase {
    static let historyColumns = "id, device_id, created_at, latitude, longitude, place_name, address, weather"

    static func historyEntry(_ r: PostgresRandomAccessRow) throws -> HistoryEntry {
        var entry = HistoryEntry(
            deviceId: try r["device_id"].decode(String.self), createdAt: try r["created_at"].decode(Date.self),
            latitude: try r["latitude"].decode(Double.self), longitude: try r["longitude"].decode(Double.self),
            placeName: try r["place_name"].decode(String.self),
            address: try r["address"].decode(String?.self).map { try decode(Address.self, json: $0) },
            weather: try decode(WeatherReport.self, json: try r["weather"].decode(String.self)))
        entry.id = try r["id"].decode(Int64.self)
        return entry
    }

    public func recordLookup(_ report: WeatherReport, address: Address?, coordinate: Coordinate, device: String, now: Date) async throws
        -> HistoryEntry
    {
        let lookup = LookupRecord(device: device, coordinate: coordinate, report: report, address: address, createdAt: now)
        return try await transaction { c in
            try await Self.lockDevice(device, now: now, on: c)
            let entry = try await Self.save(lookup, on: c)
            try await Self.trimHistory(device: device, on: c)
            return entry
        }
    }

    public func recordLookups(_ lookups: [LookupRecord], addresses: [AddressPatch]) async throws {
        guard !lookups.isEmpty || !addresses.isEmpty else { return }
        try await transaction { c in
            // Devices locked in one order, so that two instances' batches never deadlock.
            for device in Set(lookups.map(\.device) + addresses.map(\.device)).sorted() {
                try await Self.lockDevice(device, now: self.clock.now, on: c)
            }
            for lookup in lookups { _ = try await Self.save(lookup, on: c) }
            for device in Set(lookups.map(\.device)) { try await Self.trimHistory(device: device, on: c) }
            for patch in addresses {
                let candidates = try await Self.rows(
                    c.query(
                        """
                        SELECT \(unescaped: Self.historyColumns) FROM history
                        WHERE device_id = \(patch.device) AND created_at >= \(StoreRules.patchedSince(patch)) AND address IS NULL
                        """, logger: Self.quiet), Self.historyEntry)
                let json = try Self.json(patch.address)
                for entry in StoreRules.patched(candidates, by: patch) {
                    guard let id = entry.id else { continue }
                    try await c.query("UPDATE history SET address = \(json) WHERE id = \(id)", logger: Self.quiet)
                }
            }
        }
    }

    /// Saves one lookup as `StoreRules.write` decides; the latest entry is read by its id, place
    /// and time only.
    static func save(_ lookup: LookupRecord, on c: PostgresConnection) async throws -> HistoryEntry {
        let latest = try await rows(
            c.query(
                """
                SELECT id, latitude, longitude, created_at FROM history WHERE device_id = \(lookup.device)
                ORDER BY created_at DESC, id DESC LIMIT 1
                """, logger: quiet)
        ) { r in
            StoreRules.LatestLookup(
                id: try r["id"].decode(Int64.self),
                coordinate: Coordinate(latitude: try r["latitude"].decode(Double.self), longitude: try r["longitude"].decode(Double.self)),
                createdAt: try r["created_at"].decode(Date.self))
        }.first
        let write = StoreRules.write(lookup, latest: latest)
        var entry = write.entry
        let weather = try json(entry.weather)
        let address = try entry.address.map { try json($0) }
        switch write {
        case .update(let id, _):
            try await c.query(
                """
                UPDATE history SET created_at = \(entry.createdAt), weather = \(weather), place_name = \(entry.placeName),
                    address = COALESCE(\(address), address) WHERE id = \(id)
                """, logger: quiet)
        case .insert:
            let inserted = try await c.query(
                """
                INSERT INTO history (device_id, created_at, latitude, longitude, place_name, address, weather)
                VALUES (\(entry.deviceId), \(entry.createdAt), \(entry.latitude), \(entry.longitude), \(entry.placeName),
                        \(address), \(weather)) RETURNING id
                """, logger: quiet)
            entry.id = try await column(inserted, "id", as: Int64.self).first
        }
        return entry
    }

    static func trimHistory(device: String, on c: PostgresConnection) async throws {
        try await c.query(
            """
            DELETE FROM history WHERE device_id = \(device) AND id NOT IN
            (SELECT id FROM history WHERE device_id = \(device) ORDER BY created_at DESC, id DESC LIMIT \(StoreRules.historyLimit))
            """, logger: quiet)
    }

    public func history(device: String, limit: Int) async throws -> [HistoryEntry] {
        try await run { client in
            try await Self.rows(
                client.query(
                    """
                    SELECT \(unescaped: Self.historyColumns) FROM history WHERE device_id = \(device)
                    ORDER BY created_at DESC, id DESC LIMIT \(Int64(limit))
                    """), Self.historyEntry)
        }
    }

    public func historyEntry(id: Int64, device: String) async throws -> HistoryEntry? {
        try await run { client in
            try await Self.rows(
                client.query("SELECT \(unescaped: Self.historyColumns) FROM history WHERE id = \(id) AND device_id = \(device)"),
                Self.historyEntry
            ).first
        }
    }

    public func deleteHistoryEntry(id: Int64, device: String) async throws -> Bool {
        try await run { client in
            try await !client.query("DELETE FROM history WHERE id = \(id) AND device_id = \(device) RETURNING id").collect().isEmpty
        }
    }

    public func deleteHistory(device: String) async throws -> Int {
        try await run { client in
            try await client.query("DELETE FROM history WHERE device_id = \(device) RETURNING id").collect().count
        }
    }
}
