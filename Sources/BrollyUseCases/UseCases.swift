import BrollyCore
import BrollyStore
import Foundation

/// What people do with Brolly, each written once: resolve a place, get its weather (recorded in
/// the history when asked), search, keep saved places, read the history, look up a street
/// address and today's news. The CLI commands and the HTTP controllers only parse input, call one
/// of these, and render the result. A class, so that the many services it holds are shared by
/// reference rather than copied (and retained one by one) into every request's async frames.
public final class UseCases: Sendable {
    public let services: Services
    let now: @Sendable () -> Date
    /// How long a weather answer waits for coordinates to be named before it uses the
    /// coordinates themselves (the naming goes on and is cached for the next request).
    public let namingDeadline: TimeInterval = 1.5
    /// How long a weather answer waits, after the weather is in, for air quality that is not cached.
    public let airQualityGrace: TimeInterval = 1.0
    /// Told when a lookup could not be added to the history. The lookup itself still answers:
    /// the server logs this, the CLI prints a note.
    let historyFailed: @Sendable (any Error) -> Void
    /// The server's batched history writes (`HistoryRecording.inBackground`); nil: each lookup is
    /// written by a task of its own.
    public let historyWriter: HistoryWriter?
    /// Counts the changes to subscriptions and saved places made through this instance: the rain
    /// watcher reads its list of places again when it (or the store's count of the changes made
    /// through every instance) moves.
    public let watchVersion = Locked(0)

    /// Tells the rain watcher that what it watches changed: this instance's (at once) and, through
    /// the store, the one on whichever instance holds the lease (at its next round). The change
    /// itself is already written; when the mark cannot be, the watcher sees the change within
    /// `PushWatcher.indexAge`.
    public func watchedChanged() async {
        watchVersion.withLock { $0 += 1 }
        try? await services.store.markWatchedChange()
    }

    public init(
        services: Services, historyWriter: HistoryWriter? = nil,
        historyFailed: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.services = services
        // The services' clock: what a request reads and waits on.
        self.now = { [clock = services.clock] in clock.now }
        self.historyWriter = historyWriter
        self.historyFailed = historyFailed
    }

    /// The most saved places one device may keep.
    public static let maxSavedPlaces = 100
}

// MARK: - Resolving a place

/// How a user names the place they want.
public enum PlaceQuery: Sendable, Hashable {
    /// A name to search for; the best match is taken.
    case name(String)
    /// Coordinates, named by reverse geocoding when that is quick.
    case coordinate(Coordinate)
    /// One of the device's saved places, by id.
    case saved(id: Int64)
    /// The device's first saved place, else `remembered`, else an IP location lookup.
    case defaultPlace(remembered: Place?)
    /// Where the address a request came from is (the page when the browser's location is denied,
    /// slow or unavailable): approximate.
    case approximate(ip: String)
}

/// A place name qualified by its country, as OpenWeatherMap's `q=` takes it: `London,GB`, or
/// `Springfield,MO,US` / `Springfield,Missouri,US` (name, region, ISO 3166 country code).
struct QualifiedName: Sendable, Hashable {
    var name: String
    var region: String?
    var countryCode: String

    /// Nil unless the last comma-separated part is a two-letter country code.
    init?(_ text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 || parts.count == 3, let code = parts.last, code.count == 2, code.allSatisfy(\.isLetter),
            !parts[0].isEmpty
        else { return nil }
        name = parts[0]
        countryCode = code.uppercased()
        region = parts.count == 3 && !parts[1].isEmpty ? parts[1] : nil
    }

    func matches(_ place: Place) -> Bool {
        guard place.countryCode?.uppercased() == countryCode else { return false }
        guard let region else { return true }
        let wanted = region.lowercased()
        let have = (place.region ?? "").lowercased()
        // A US state's two letters are its name's initials only sometimes: the full name, its
        // start, or (for two letters) the region's initials.
        return have == wanted || have.hasPrefix(wanted)
            || (wanted.count == 2 && Self.usStates[region.uppercased()]?.lowercased() == have)
    }

    /// The US states' postal codes (OpenWeatherMap's `q=City,ST,US`).
    static let usStates: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
        "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
        "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
        "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
        "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
        "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
        "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah",
        "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
        "DC": "District of Columbia",
    ]
}

/// The place a query resolved to, and what the user should be told about it.
public struct ResolvedPlace: Sendable {
    public var place: Place
    /// A note for the user: which of several matches was taken, or where the IP lookup put them.
    public var note: String?
    /// True when the place came from the IP lookup: the caller may remember it.
    public var isFromIPLocation = false
}

extension UseCases {
    /// Resolves what the user asked for to one place.
    public func resolve(_ query: PlaceQuery, device: String, offline: Bool = false, language: String = "en") async throws
        -> ResolvedPlace
    {
        switch query {
        case .approximate(let ip):
            var place = try await approximatePlace(ip: ip, offline: offline)
            // The IP location service names in English; another reader's name comes from the
            // namer in their language (when it can be had in time: else the English one stays).
            if Localization.baseCode(language) != "en" {
                let named = await name(place.coordinate, offline: offline, language: language)
                if named.name != Place.unnamed(place.coordinate).name {
                    (place.name, place.region, place.country) = (named.name, named.region, named.country)
                }
            }
            return ResolvedPlace(place: place, isFromIPLocation: true)
        case .name(let name):
            var matches: [Place]
            if let qualified = QualifiedName(name) {
                // "London,GB", "Springfield,MO,US" (OpenWeatherMap's q=): the name, then only the
                // matches in that country (and region, when one is given).
                matches = try await search(qualified.name, limit: 10, offline: offline, language: language).filter(qualified.matches)
                // "Washington, DC" is a name, not a country: as it was written, when no match is.
                if matches.isEmpty { matches = try await search(name, limit: 5, offline: offline, language: language) }
            } else {
                matches = try await search(name, limit: 5, offline: offline, language: language)
            }
            matches = Array(matches.prefix(5))
            guard let best = matches.first else { throw BrollyError.placeNotFound("\"\(name)\"") }
            let note = matches.count > 1 ? "\"\(name)\" matches \(matches.count) places; using \(best.displayName)" : nil
            return ResolvedPlace(place: best, note: note)
        case .coordinate(let c):
            return ResolvedPlace(place: await name(c, offline: offline, language: language))
        case .saved(let id):
            guard let saved = try await services.store.place(id: id, device: device) else { throw Self.noSuchPlace(id) }
            return ResolvedPlace(place: SavedPlaceDocument(saved).place)
        case .defaultPlace(let remembered):
            if let first = try await services.store.places(device: device).first {
                return ResolvedPlace(place: SavedPlaceDocument(first).place)
            }
            if let remembered { return ResolvedPlace(place: remembered) }
            if offline { throw BrollyError.notCached("your location (no remembered place; give --place or --lat/--lon)") }
            // A lookup that failed a moment ago is not tried again at once (without a network each
            // try costs seconds); the note is a file, so it spans separate CLI runs.
            let failedKey = "ip-location-failed"
            if let failed = services.cache.read(String.self, key: failedKey), now().timeIntervalSince(failed.receivedAt) < 600 {
                throw BrollyError(
                    .offline,
                    "could not find your location from your IP address a moment ago (\(failed.value)); give --place or --lat/--lon")
            }
            let found: Place
            do { found = try await services.ipLocator.locate() } catch let error as BrollyError {
                let reason =
                    switch error.kind {
                    case .offline: "the IP location service cannot be reached; check the network connection"
                    case .timedOut: "the IP location service did not answer in time"
                    default: error.message
                    }
                try? services.cache.write(reason, key: failedKey, receivedAt: now())
                throw BrollyError(error.kind, "could not find your location from your IP address (\(reason)); give --place or --lat/--lon")
            }
            return ResolvedPlace(
                place: found, note: "assuming you are in \(found.displayName) (from your IP address); remembered for next time",
                isFromIPLocation: true)
        }
    }

    /// Where `ip` is, from the IP location service: kept a day per address (an address moves
    /// rarely), within the service's budget; a lookup that failed is not tried again for a minute.
    func approximatePlace(ip: String, offline: Bool) async throws -> Place {
        let key = "ip-place-" + (IPLocator.isPublic(ip) ? ip : "here")
        if let known = services.cache.read(Place.self, key: key), now().timeIntervalSince(known.receivedAt) < 86_400 {
            return known.value
        }
        if offline { throw BrollyError.notCached("the place of this address") }
        if let failed = rememberedFailure(key, what: "finding where this address is") { throw failed }
        do {
            let place = try await services.ipLocator.locate(ip: ip)
            try? services.cache.write(place, key: key, receivedAt: now())
            return place
        } catch let error as BrollyError {
            rememberFailure(error, key: key)
            throw error
        }
    }

    /// A lookup of `key` that failed less than a minute ago, as the same kind of error (a city
    /// not found stays not found: 404; a failed service stays a failed service). Issue 52: the
    /// remembered failure was always a failed provider, so a client's own refusal (its allowance
    /// spent) came back as a 502 for a minute.
    func rememberedFailure(_ key: String, what: String) -> BrollyError? {
        guard let failed = services.cache.read(String.self, key: key + "-failed"), now().timeIntervalSince(failed.receivedAt) < 60
        else { return nil }
        let parts = failed.value.split(separator: "|", maxSplits: 1).map(String.init)
        let kind = parts.count == 2 ? BrollyError.Kind(rawValue: parts[0]) ?? .providerUnavailable : .providerUnavailable
        let wait = 60 - now().timeIntervalSince(failed.receivedAt)
        return BrollyError(kind, "\(what) failed a moment ago: \(parts.last ?? "")", retryAfter: kind == .placeNotFound ? nil : wait)
    }

    /// Remembers a failed lookup of `key` for a minute, with its kind; a refusal (a budget, a
    /// client's allowance) is not the lookup's answer and is not remembered.
    func rememberFailure(_ error: BrollyError, key: String) {
        guard error.kind != .rateLimited && error.kind != .clientLimited else { return }
        try? services.cache.write(error.kind.rawValue + "|" + error.message, key: key + "-failed", receivedAt: now())
    }

    /// Places matching `query`, best first, named in `language` (cached per language, so a place
    /// searched once is found offline).
    public func search(_ query: String, limit: Int = 10, offline: Bool = false, language: String = "en") async throws -> [Place] {
        try await services.search.search(query, limit: limit, offline: offline, language: language)
    }

    /// The nearest named place at `c` (the provider's reverse geocoding, else the street address
    /// service), or the coordinates themselves when no name can be had by the naming deadline;
    /// offline, only what is cached. One lookup per place at a time: every request for the place
    /// shares it and its deadline (counted from when it started), so a slow namer holds up only the
    /// first requests, and a namer that failed a moment ago holds up none. A slow lookup is not
    /// cancelled: its answer is cached for the next request. Named in `language` (cached per
    /// language), else with the English name already cached.
    public func name(_ c: Coordinate, offline: Bool = false, language: String = "en") async -> Place {
        let namer = services.namer
        // Where the name in the language cannot be had (yet), the English one the cache has is
        // better than coordinates.
        func cached() -> Place? { namer.cachedPlace(at: c, language: language) ?? namer.cachedPlace(at: c) }
        if offline { return cached() ?? Place.unnamed(c) }
        // The common case, answered without starting a task: a name this process already has.
        if let known = namer.freshCachedPlace(at: c, language: language) { return known }
        switch await namer.naming(at: c, language: language) {
        case .known(let place):
            return place
        case .unavailable:
            return cached() ?? Place.unnamed(c)
        case .underWay(let task, let startedAt):
            return await FirstOf.value(task, orNilBy: startedAt.addingTimeInterval(namingDeadline), on: services.clock) ?? cached()
                ?? Place.unnamed(c)
        }
    }

    /// The nearest named place at `c`; throws when no service can name it.
    public func reverse(_ c: Coordinate, language: String = "en") async throws -> Place {
        try await services.namer.place(at: c, language: language)
    }
}
