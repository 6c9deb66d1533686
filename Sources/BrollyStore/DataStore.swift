import BrollyCore
import Foundation

/// The database operations of Brolly — devices, saved places, history, push subscriptions and
/// deliveries, and the lease for work that must run once per cluster — behind one interface with
/// two engines: `AppDatabase` (GRDB on one SQLite file, the embedded default) and
/// `PostgresDatabase` (PostgresNIO, for several servers sharing one database). Both follow the
/// same rules (the device owns its rows; history coalesces repeats and keeps the newest 500), and
/// the store's test suite runs against each. The rules live once, in `StoreRules`; the engines
/// read what a rule needs and write what it decides.
///
/// A write either is acknowledged (committed) or throws; when the database cannot be reached the
/// error is `StoreUnavailable`, which the server answers with `503`.
public protocol DataStore: Sendable {
    /// A short name of the engine, for logs: `sqlite` or `postgresql`.
    var engine: String { get }
    /// False while the database is known to be unreachable (for metrics).
    var isAvailable: Bool { get }

    // Devices
    func deviceExists(_ id: String) async throws -> Bool

    // Saved places
    func places(device: String) async throws -> [SavedPlace]
    func place(id: Int64, device: String) async throws -> SavedPlace?
    @discardableResult
    func addPlace(_ place: Place, customName: String?, device: String, now: Date) async throws -> SavedPlace
    /// Renames and/or moves a place atomically; the device's list after it, nil when the device
    /// has no such place.
    func updatePlace(id: Int64, _ change: PlaceChange, device: String) async throws -> [SavedPlace]?
    func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlace]
    func removePlace(id: Int64, device: String) async throws -> Bool

    // History
    @discardableResult
    func recordLookup(_ report: WeatherReport, address: Address?, coordinate: Coordinate, device: String, now: Date) async throws
        -> HistoryEntry
    func recordLookups(_ lookups: [LookupRecord], addresses: [AddressPatch]) async throws
    func history(device: String, limit: Int) async throws -> [HistoryEntry]
    func historyEntry(id: Int64, device: String) async throws -> HistoryEntry?
    func deleteHistoryEntry(id: Int64, device: String) async throws -> Bool
    func deleteHistory(device: String) async throws -> Int

    // Push
    func subscribe(_ s: PushSubscription, now: Date) async throws -> PushSubscription
    func subscriptions(device: String) async throws -> [PushSubscription]
    func allSubscriptions() async throws -> [PushSubscription]
    func unsubscribe(id: String, device: String) async throws -> Bool
    func removeSubscription(id: String) async throws
    /// Replaces a subscription's settings (and, when given, its severity); nil when the device has no such subscription.
    func updateSubscription(id: String, device: String, settings: PushSettings, minimumSeverity: AlertSeverity?) async throws
        -> PushSubscription?
    /// What the rain watcher remembers for a subscription, by key.
    func pushStates(subscription: String) async throws -> [String: String]
    /// Sets (nil: removes) one remembered value.
    func setPushState(subscription: String, key: String, value: String?, now: Date) async throws
    func deliveredAlertKeys(subscription: String) async throws -> Set<String>
    func recordDelivery(subscription: String, alertKey: String, status: Int, now: Date) async throws

    /// Takes or renews the lease `name` for `holder` for `duration` seconds; true when `holder`
    /// has it (it was free, expired, or already its own). Work that must run once per cluster
    /// (the alert poller) runs only while its instance holds the lease; when that instance dies,
    /// the lease expires and another takes it over. One process alone always has it.
    func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Bool
    /// Marks, for every instance, that the watched places changed (a subscription or a saved place
    /// was added, changed or removed): the rain watcher, on whichever instance holds the lease,
    /// reads its list again. Nothing for SQLite: one process, which counts its own changes.
    func markWatchedChange() async throws
    /// How many changes were marked so far (0 for SQLite).
    func watchedChanges() async throws -> Int64

    /// Closes connections (PostgreSQL); nothing for SQLite.
    func close() async
}

/// The database could not be reached (or did not answer in time): nothing was written. The server
/// answers `503` with `Retry-After`; the caller may simply try again.
public struct StoreUnavailable: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "the database is unavailable (\(reason)); try again in a few seconds" }
}

/// A change to a saved place: a new custom name (`.some(nil)` clears it; nil leaves it) and/or a
/// new 0-based position.
public struct PlaceChange: Sendable, Equatable {
    public var customName: String??
    public var position: Int?

    public init(customName: String?? = nil, position: Int? = nil) {
        self.customName = customName
        self.position = position
    }
}

extension DataStore {
    /// Sets (or, with nil, clears) a place's custom name. Nil when the device has no such place.
    public func renamePlace(id: Int64, customName: String?, device: String) async throws -> SavedPlace? {
        try await updatePlace(id: id, PlaceChange(customName: .some(customName)), device: device)?.first { $0.id == id }
    }

    /// Moves a place to a 0-based position; the new list. Nil when the device has no such place.
    public func movePlace(id: Int64, to position: Int, device: String) async throws -> [SavedPlace]? {
        try await updatePlace(id: id, PlaceChange(position: position), device: device)
    }

    public func history(device: String) async throws -> [HistoryEntry] { try await history(device: device, limit: 100) }
    public func recordLookups(_ lookups: [LookupRecord]) async throws { try await recordLookups(lookups, addresses: []) }
}

extension AppDatabase: DataStore {
    public var engine: String { "sqlite" }
    public var isAvailable: Bool { true }

    /// One process: the lease is always its own.
    public func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Bool { true }
    /// One process: its own changes are counted in memory (`UseCases.watchVersion`).
    public func markWatchedChange() async throws {}
    public func watchedChanges() async throws -> Int64 { 0 }

    public func close() async {}
}
