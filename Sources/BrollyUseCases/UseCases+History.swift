import BrollyCore
import BrollyStore
import Foundation

/// One lookup from the history, with its weather then (marked stale).
public struct HistoryLookup: Sendable {
    public var document: HistoryDocument
    /// The weather snapshot as a result, for renderers that take one.
    public var weather: WeatherResult
}

extension UseCases {
    /// The device's lookups, newest first (readable with no network: they are in the database).
    public func history(device: String, limit: Int = 100, language: String = "en") async throws -> HistoryListDocument {
        guard (1...500).contains(limit) else { throw BrollyError.invalidInput("the limit must be between 1 and 500") }
        await historyWriter?.flush()
        let pack = Localization.pack(for: language)
        return HistoryListDocument(
            items: try await services.store.history(device: device, limit: limit).map { [now] in
                HistoryDocument($0, language: pack, now: now())
            })
    }

    /// One lookup with its weather snapshot in `units`.
    public func historyEntry(id: Int64, device: String, units: UnitSystem = .metric, language: String = "en") async throws
        -> HistoryLookup
    {
        await historyWriter?.flush()
        guard let entry = try await services.store.historyEntry(id: id, device: device) else { throw Self.noSuchEntry(id) }
        let result = WeatherResult(
            report: entry.weather, isStale: true, isFromCache: true, age: max(0, now().timeIntervalSince(entry.weather.fetchedAt)),
            refreshError: nil)
        let pack = Localization.pack(for: language)
        return HistoryLookup(
            document: HistoryDocument(
                entry, weather: WeatherDocument(result, units: units, now: now(), language: pack), language: pack, now: now()),
            weather: result)
    }

    /// Deletes one lookup.
    public func deleteHistoryEntry(id: Int64, device: String) async throws {
        await historyWriter?.flush()
        guard try await services.store.deleteHistoryEntry(id: id, device: device) else { throw Self.noSuchEntry(id) }
    }

    /// Deletes every lookup of the device; how many there were.
    @discardableResult
    public func clearHistory(device: String) async throws -> Int {
        await historyWriter?.flush()
        return try await services.store.deleteHistory(device: device)
    }

    static func noSuchEntry(_ id: Int64) -> BrollyError { .noSuchItem("there is no history entry #\(id)") }
}
