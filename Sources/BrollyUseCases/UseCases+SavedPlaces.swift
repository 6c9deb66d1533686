import BrollyCore
import BrollyStore
import Foundation

/// A place to save: found by name, or at coordinates (named by the caller, or looked up).
public enum NewPlace: Sendable, Hashable {
    /// The best match for a name.
    case query(String)
    /// A point; `named` gives its name (as a page that already shows it knows), else it is looked up.
    case coordinate(Coordinate, named: Place? = nil)
}

extension UseCases {
    /// The device's saved places in order; the first is the default place. A place saved by its
    /// coordinates without a zone is listed in the zone its cached forecast gives (no call).
    public func savedPlaces(device: String) async throws -> [SavedPlaceDocument] {
        try await services.store.places(device: device).map { saved in
            var document = SavedPlaceDocument(saved)
            document.timezone = zoned(saved.place).timezone
            return document
        }
    }

    /// `place` in its own time zone: one without a zone (`UTC` or `GMT` when its names came from a
    /// geocoder that gives none) takes the zone of the forecast the cache holds for it, when it has
    /// one. (The forecast is asked with `timezone=auto`: it knows.)
    func zoned(_ place: Place) -> Place {
        guard ["UTC", "GMT", "Etc/UTC", ""].contains(place.timezone),
            let zone = services.weather.cached(for: place.coordinate)?.value.place.timezone, !["UTC", "GMT", ""].contains(zone)
        else { return place }
        var zoned = place
        zoned.timezone = zone
        return zoned
    }

    /// The saved places, each with the weather the cache already has for it (`now`; the condition
    /// in `language`): read from this server's cache only, so the list costs no upstream call.
    public func savedPlacesAtAGlance(device: String, language: String) async throws -> [SavedPlaceDocument] {
        let weather = services.weather
        let pack = Localization.pack(for: language)
        return try await savedPlaces(device: device).map {
            named($0, in: language).glancing(
                at: weather.cached(for: Coordinate(latitude: $0.latitude, longitude: $0.longitude)),
                freshFor: weather.policy.freshFor, language: pack, now: now())
        }
    }

    /// A saved place named in `language` (issue 50: a place kept the language it was saved in —
    /// "Дом — New York, New York, United States", Paris saved in English stayed "Paris,
    /// Île-de-France" in Russian): its name, region and country from the name the cache has for
    /// its coordinates in that language; a custom name stays as the user wrote it. Without one
    /// cached the stored name stands, and the name is looked up in the background (one lookup per
    /// place and language, within the namers' budget) for the next time the list is read.
    func named(_ saved: SavedPlaceDocument, in language: String) -> SavedPlaceDocument {
        // English is the language names are stored in when nothing else was asked: kept as saved
        // (a name found by search, "Berlin", is not replaced by the reverse geocoder's).
        guard Localization.baseCode(language) != "en" else { return saved }
        let c = Coordinate(latitude: saved.latitude, longitude: saved.longitude)
        guard let local = services.namer.cachedPlace(at: c, language: language) else {
            Task { [self] in _ = await name(c, language: language) }
            return saved
        }
        var copy = saved
        copy.main.name = local.name
        copy.main.region = local.region
        copy.main.country = local.country
        if copy.customName == nil { copy.displayName = local.name }
        return copy
    }

    /// Saves a place at the end of the device's list, with an optional custom name ("Home").
    public func savePlace(
        _ new: NewPlace, customName: String? = nil, device: String, offline: Bool = false
    ) async throws -> SavedPlaceDocument {
        try await saveOrFindPlace(new, customName: customName, device: device, offline: offline).place
    }

    /// Saves a place, or answers with the device's saved place at the same point (within about
    /// 100 m) so that saving twice never makes a copy; `created` says which (a custom name given
    /// again renames the existing one).
    public func saveOrFindPlace(
        _ new: NewPlace, customName: String? = nil, device: String, offline: Bool = false, language: String = "en"
    ) async throws -> (place: SavedPlaceDocument, created: Bool) {
        let customName = try TextField.validated(customName, field: "customName")
        let existing = try await services.store.places(device: device)
        func same(_ c: Coordinate) -> SavedPlace? {
            existing.first { abs($0.latitude - c.latitude) < 0.001 && abs($0.longitude - c.longitude) < 0.001 }
        }
        if case .coordinate(let c, _) = new, let found = same(c) {
            return (try await renamedIfAsked(found, customName, device: device), false)
        }
        let place: Place
        switch new {
        case .query(let query):
            place = try await resolve(.name(query), device: device, offline: offline, language: language).place
        case .coordinate(let c, let named?):
            place = Place(
                name: try TextField.validated(named.name, field: "name") ?? Place.unnamed(c).name,
                country: try TextField.validated(named.country, field: "country") ?? "",
                countryCode: try TextField.validated(named.countryCode, field: "countryCode", max: 3),
                region: try TextField.validated(named.region, field: "region"), latitude: c.latitude, longitude: c.longitude,
                timezone: try TextField.validated(named.timezone, field: "timezone", max: 64) ?? "UTC")
        case .coordinate(let c, nil):
            place = await name(c, offline: offline, language: language)
        }
        let placed = zoned(place)
        if let found = same(placed.coordinate) { return (try await renamedIfAsked(found, customName, device: device), false) }
        guard existing.count < Self.maxSavedPlaces else {
            throw BrollyError.invalidInput("at most \(Self.maxSavedPlaces) places can be saved")
        }
        let added = try await services.store.addPlace(placed, customName: customName, device: device, now: now())
        await watchedChanged()
        return (SavedPlaceDocument(added), true)
    }

    private func renamedIfAsked(_ saved: SavedPlace, _ customName: String?, device: String) async throws -> SavedPlaceDocument {
        guard let customName, customName != saved.customName, let id = saved.id,
            let renamed = try await services.store.renamePlace(id: id, customName: customName, device: device)
        else { return SavedPlaceDocument(saved) }
        await watchedChanged()
        return SavedPlaceDocument(renamed)
    }

    /// Renames (`customName`: a name, or `.some(nil)` to clear it) and/or moves (`position`, 0 is
    /// the top: the default place) a saved place, atomically; the whole new list.
    public func updatePlace(id: Int64, customName: String?? = nil, position: Int? = nil, device: String) async throws
        -> [SavedPlaceDocument]
    {
        guard customName != nil || position != nil else {
            throw BrollyError.invalidInput("give 'customName' (a string or null) or 'position'")
        }
        if let position, position < 0 { throw BrollyError.invalidInput("the position must be 0 or more") }
        let name: String?? = try customName.map { try TextField.validated($0, field: "customName") }
        guard let list = try await services.store.updatePlace(id: id, PlaceChange(customName: name, position: position), device: device)
        else { throw Self.noSuchPlace(id) }
        await watchedChanged()
        return list.map(SavedPlaceDocument.init)
    }

    /// Gives a saved place a custom name, or clears it with nil.
    public func renamePlace(id: Int64, customName: String?, device: String) async throws -> SavedPlaceDocument {
        let list = try await updatePlace(id: id, customName: .some(customName), device: device)
        guard let place = list.first(where: { $0.id == id }) else { throw Self.noSuchPlace(id) }
        return place
    }

    /// Moves a saved place to `position` (0 is the top: the default place); the whole new list.
    public func movePlace(id: Int64, to position: Int, device: String) async throws -> [SavedPlaceDocument] {
        try await updatePlace(id: id, position: position, device: device)
    }

    /// Puts the device's places in the order of `ids` (each exactly once).
    public func reorderPlaces(_ ids: [Int64], device: String) async throws -> [SavedPlaceDocument] {
        try await services.store.reorderPlaces(ids, device: device).map(SavedPlaceDocument.init)
    }

    /// Removes a saved place.
    public func removePlace(id: Int64, device: String) async throws {
        guard try await services.store.removePlace(id: id, device: device) else { throw Self.noSuchPlace(id) }
        await watchedChanged()
    }

    static func noSuchPlace(_ id: Int64) -> BrollyError { .noSuchItem("there is no saved place #\(id)") }
}
