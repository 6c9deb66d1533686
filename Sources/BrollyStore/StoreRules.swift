import BrollyCore
import Foundation

/// One lookup to be saved in the history.
public struct LookupRecord: Sendable {
    public var device: String
    public var coordinate: Coordinate
    public var report: WeatherReport
    public var address: Address?
    public var createdAt: Date

    public init(device: String, coordinate: Coordinate, report: WeatherReport, address: Address?, createdAt: Date) {
        self.device = device
        self.coordinate = coordinate
        self.report = report
        self.address = address
        self.createdAt = createdAt
    }
}

/// A street address that arrived after its lookup was saved.
public struct AddressPatch: Sendable {
    public var device: String
    public var coordinate: Coordinate
    /// The lookup was made at or after this time.
    public var since: Date
    public var address: Address

    public init(device: String, coordinate: Coordinate, since: Date, address: Address) {
        self.device = device
        self.coordinate = coordinate
        self.since = since
        self.address = address
    }
}

/// The storage rules, written once for every engine. The engines (`AppDatabase` on SQLite,
/// `PostgresDatabase`) read what a rule needs and write what it decides, in one transaction; the
/// decisions themselves — when a lookup repeats the latest one, how many entries are kept, where a
/// moved place goes, which entries an address belongs to — are made here and nowhere else (the
/// server's `HistoryWriter` coalesces its buffer with the same `repeats`).
public enum StoreRules {
    /// The CLI's own profile (and the owner of rows written before devices existed).
    public static let localDevice = "local"
    /// The most history entries kept per device; older ones are dropped.
    public static let historyLimit = 500
    /// A lookup of the same place within this many seconds of the device's latest one updates
    /// that entry instead of adding another.
    public static let repeatWindow: TimeInterval = 600

    // MARK: History

    /// Whether `lookup` repeats a lookup of `coordinate` at `createdAt`: the same place (the
    /// cache's ~1 km key) within `repeatWindow`.
    public static func repeats(_ lookup: LookupRecord, coordinate: Coordinate, createdAt: Date) -> Bool {
        lookup.coordinate.cacheKey == coordinate.cacheKey && isWithinRepeatWindow(lookup.createdAt, since: createdAt)
    }

    /// Whether a lookup at `time` is within `repeatWindow` of one at `since` (the place being
    /// known to be the same: the server's buffer keys its entries by the place's cache key).
    public static func isWithinRepeatWindow(_ time: Date, since: Date) -> Bool {
        time.timeIntervalSince(since) < repeatWindow
    }

    /// What the repeat rule needs to know of the device's latest entry (an engine reads these
    /// columns only, not the entry's weather).
    public struct LatestLookup: Sendable {
        public var id: Int64
        public var coordinate: Coordinate
        public var createdAt: Date
        /// Which answer its snapshot holds, when the engine read it (`AnswerStamp`).
        public var answer: AnswerStamp?
    }

    /// What tells one weather answer from another without reading the whole snapshot: when it
    /// arrived (milliseconds, as the snapshot's JSON keeps it), the model and why, the place's
    /// name, the language and the current temperature. A status bar re-reading the same cached answer every minute repeats
    /// the latest entry with the same answer, and its 75 KB snapshot need not be written again.
    public struct AnswerStamp: Equatable, Sendable {
        public var fetchedAt: Double
        public var model: String?
        public var modelSelection: String?
        public var placeName: String?
        public var language: String?
        public var temperature: Double?

        /// The same answer: the times within a millisecond's rounding, the rest equal.
        public func isSameAnswer(as other: AnswerStamp) -> Bool {
            abs(fetchedAt - other.fetchedAt) < 0.5 && model == other.model && modelSelection == other.modelSelection
                && placeName == other.placeName && language == other.language && temperature == other.temperature
        }
    }

    /// Whether a repeat of `latest` may keep its snapshot: it holds the answer `report` is.
    public static func keepsSnapshot(_ report: WeatherReport, latest: LatestLookup) -> Bool {
        guard let stored = latest.answer, let new = AnswerStamp(report) else { return false }
        return new.isSameAnswer(as: stored)
    }

    /// What saving a lookup does to the history: the entry's values either update the device's
    /// latest entry `id` (its time, weather and name; its address only when the lookup brings one,
    /// else the one it has is kept) or make a new entry.
    public enum HistoryWrite: Sendable {
        case update(id: Int64, HistoryEntry)
        case insert(HistoryEntry)

        public var entry: HistoryEntry {
            switch self {
            case .update(_, let e), .insert(let e): e
            }
        }
    }

    /// Saving `lookup` when the device's latest entry is `latest`: a repeat updates it, anything
    /// else is a new entry.
    public static func write(_ lookup: LookupRecord, latest: LatestLookup?) -> HistoryWrite {
        let name = lookup.report.place.name.isEmpty ? Place.unnamed(lookup.coordinate).name : lookup.report.place.name
        var entry = HistoryEntry(
            deviceId: lookup.device, createdAt: lookup.createdAt, latitude: lookup.coordinate.latitude,
            longitude: lookup.coordinate.longitude, placeName: name, address: lookup.address, weather: lookup.report)
        if let latest, repeats(lookup, coordinate: latest.coordinate, createdAt: latest.createdAt) {
            entry.id = latest.id
            entry.latitude = latest.coordinate.latitude
            entry.longitude = latest.coordinate.longitude
            return .update(id: latest.id, entry)
        }
        return .insert(entry)
    }

    /// The entries (made since a moment before the patch's time, for its place, still without an
    /// address) that `patch` completes, with the address set.
    public static func patched(_ candidates: [HistoryEntry], by patch: AddressPatch) -> [HistoryEntry] {
        candidates.compactMap { entry in
            guard entry.deviceId == patch.device, entry.address == nil, entry.coordinate.cacheKey == patch.coordinate.cacheKey,
                entry.createdAt >= patchedSince(patch)
            else { return nil }
            var entry = entry
            entry.address = patch.address
            return entry
        }
    }

    /// The earliest time an entry `patch` completes can have (a second's slack for clocks).
    public static func patchedSince(_ patch: AddressPatch) -> Date { patch.since.addingTimeInterval(-1) }

    // MARK: Saved places

    /// A place added at the end of a list whose highest position is `last` (nil: an empty list).
    public static func appended(_ place: Place, customName: String?, device: String, after last: Int?, now: Date) -> SavedPlace {
        SavedPlace(place: place, customName: customName, deviceId: device, orderIndex: (last ?? -1) + 1, createdAt: now)
    }

    /// The list with place `id` moved to a 0-based `position` (clamped to the list); nil when the
    /// list has no such place.
    public static func moving(_ list: [SavedPlace], id: Int64, to position: Int) -> [SavedPlace]? {
        var list = list
        guard let from = list.firstIndex(where: { $0.id == id }) else { return nil }
        let item = list.remove(at: from)
        list.insert(item, at: max(0, min(position, list.count)))
        return list
    }

    /// The list in the order of `ids`, which must name each of its places exactly once.
    public static func ordering(_ list: [SavedPlace], as ids: [Int64]) throws -> [SavedPlace] {
        guard ids.count == list.count, Set(ids) == Set(list.compactMap(\.id)) else {
            throw BrollyError.invalidInput("the order must list each saved place exactly once")
        }
        let byID = Dictionary(uniqueKeysWithValues: list.compactMap { p in p.id.map { ($0, p) } })
        return ids.compactMap { byID[$0] }
    }

    /// The list numbered 0, 1, 2… in its order, and the places whose position changed (the rows
    /// an engine must write).
    public static func renumbered(_ list: [SavedPlace]) -> (list: [SavedPlace], changed: [SavedPlace]) {
        var result: [SavedPlace] = []
        var changed: [SavedPlace] = []
        for (index, var place) in list.enumerated() {
            if place.orderIndex != index {
                place.orderIndex = index
                changed.append(place)
            }
            result.append(place)
        }
        return (result, changed)
    }
}

extension StoreRules.AnswerStamp {
    /// The stamp of `report`; nil for a corrected forecast (re-derived from scores that change
    /// while the answer stays the same, so its snapshot is always written).
    public init?(_ report: WeatherReport) {
        guard report.correction == nil else { return nil }
        self.init(
            fetchedAt: report.fetchedAt.timeIntervalSince1970 * 1000, model: report.model, modelSelection: report.modelSelection,
            placeName: report.place.name, language: report.language, temperature: report.current.temperature)
    }
}
