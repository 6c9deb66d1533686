import BrollyCore
import BrollyStore
import Foundation

/// Whether and how a weather lookup is added to a device's history.
public enum HistoryRecording: Sendable, Hashable {
    /// Not recorded (a client that keeps no cookies, or a caller that does not want it).
    case none
    /// Recorded before the answer is returned (the CLI, whose process ends after printing).
    case beforeReturning(device: String)
    /// Recorded in the background, so the answer is not held up (the server).
    case inBackground(device: String)
}

extension UseCases {
    /// The weather at `place` under the cache policy `mode`, added to the history as asked, with
    /// the street address of the point when one can be had quickly. A history that cannot be
    /// written does not fail the lookup: it is reported to `historyFailed`.
    ///
    /// `withAirQualityAndStation`: air quality, UV and pollen, and the nearest station's latest report, are looked up at the same time (their own
    /// one-hour window); when they are not cached they are waited for at most
    /// ``airQualityGrace`` seconds after the weather (the lookup goes on and is cached for the next
    /// request). They never fail the lookup.
    public func weather(
        for place: Place, mode: FetchMode = .normal, recording: HistoryRecording = .none, withAirQualityAndStation: Bool = false,
        withAlerts: Bool = false, withRanges: Bool = false, language: String = "en", model: String? = nil
    ) async throws -> WeatherResult {
        // `auto` and `brolly` asked for explicitly leave the model to Brolly: the raw forecast is
        // `auto`'s (cached once for both); `brolly` corrects it for the place on the way out, from
        // scores already kept (no call of its own).
        let named = BrollyConfiguration.choosesModel(model) ? nil : model
        var result = try await services.weather.weather(for: place, mode: mode, language: language, model: named)
        if (model ?? services.configuration.model) == BrollyConfiguration.corrected {
            result.report = services.accuracy.correcting(result.report)
        }
        // Air quality and warnings come after the weather (a refused or failed weather lookup
        // causes no more calls), charged to the client's auxiliary allowance; each is one call per
        // place per window, shared by every client.
        let allowance = ClientAllowance.current?.auxiliary
        /// A helper's lookup, started now beside the others, under the client's auxiliary allowance.
        func aside<Part: Sendable>(_ wanted: Bool, _ lookup: @escaping @Sendable () async -> Part?) -> Task<Part?, Never>? {
            wanted ? Task { await ClientAllowance.$current.withValue(allowance) { await lookup() } } : nil
        }
        let offline = mode == .offline
        let air = aside(withAirQualityAndStation) { [airQuality = services.airQuality, grace = airQualityGrace] in
            await airQuality.airQuality(at: place.coordinate, offline: offline, grace: grace)
        }
        let measured = aside(withAirQualityAndStation) { [accuracy = services.accuracy, grace = airQualityGrace] in
            await accuracy.measured(at: place.coordinate, offline: offline, grace: grace)
        }
        let warnings = aside(withAlerts) { [self] in
            await alerts(for: place, language: language, offline: offline, grace: airQualityGrace)
        }
        let ensemble = aside(withRanges && services.ensemble != nil) { [ensemble = services.ensemble, grace = airQualityGrace] in
            await ensemble?.spread(at: place.coordinate, offline: offline, grace: grace)
        }
        if let ensemble {
            if let spread = await ensemble.value {
                result.report = services.accuracy.ranging(result.report, ensemble: spread)
            } else {
                // Said, so that an answer without them is kept seconds, not minutes (the memo).
                result.lacking.append(.ranges)
            }
        }
        // Each waits at most `airQualityGrace` from when its call started: only the first requests
        // for a place wait for a slow source, and none for one that failed a moment ago.
        if let air { result.airQuality = await air.value }
        if let warnings { result.alerts = await warnings.value }
        if let measured { result.measured = await measured.value }
        if place.name == Place.unnamed(place.coordinate).name { result.lacking.append(.name) }
        if withAirQualityAndStation, result.airQuality == nil || result.airQuality?.isStale == true { result.lacking.append(.airQuality) }
        if withAlerts, result.alerts.map({ !$0.failedSources.isEmpty }) ?? true { result.lacking.append(.alerts) }
        switch recording {
        case .none:
            break
        case .beforeReturning(let device):
            await record(result.report, at: place.coordinate, device: device, offline: mode == .offline)
        case .inBackground(let device):
            record(result.report, at: place.coordinate, device: device)
        }
        return result
    }

    /// The official warnings at `place`, in `language` where the source has it. MeteoAlarm's
    /// regions are matched through what the place is called: its name and region, and the city,
    /// county and state of its street address when it is known.
    public func alerts(for place: Place, language: String = "en", offline: Bool = false, grace: TimeInterval? = nil) async -> AlertSet {
        var place = place
        var names = [place.name, place.region].compactMap { $0 }
        // Only an address already known: warnings never queue for Nominatim's one request a second
        // (the naming of the place, and the history's address lookups, fetch it).
        if let address = services.addresses.cachedAddress(for: place.coordinate) {
            names += [address.city, address.county, address.region].compactMap { $0 }
            // A place named from coordinates may not know its country yet; its address does.
            if place.countryCode == nil, let code = address.countryCode {
                place.countryCode = code
                if place.country.isEmpty { place.country = address.country ?? "" }
            }
        }
        return await services.alerts.alerts(for: place, names: names, language: language, offline: offline, grace: grace)
    }

    /// The alerts contract for `place` (`GET /api/v1/alerts`, `brolly alerts --json`), its times
    /// in the place's zone.
    public func alertsDocument(for place: Place, language: String = "en", offline: Bool = false) async -> AlertsDocument {
        let (place, set) = await zonedAlerts(for: place, language: language, offline: offline)
        return AlertsDocument(place: place, set: set)
    }

    /// The alerts for `place`, and the place with its time zone (from the cached weather when
    /// the place was named from coordinates).
    public func zonedAlerts(for place: Place, language: String = "en", offline: Bool = false) async -> (Place, AlertSet) {
        var place = place
        // A place named from coordinates has no time zone yet; the cached weather knows it.
        if place.timezone.isEmpty || place.timezone == "UTC", let known = services.weather.cached(for: place.coordinate)?.value.place {
            place.timezone = known.timezone
            place.utcOffsetSeconds = known.utcOffsetSeconds
        }
        return (place, await alerts(for: place, language: language, offline: offline))
    }

    /// Records a lookup without holding the caller up: into the batched history writer at once,
    /// with the place's name; the street address follows (from the cache at once, else when it
    /// arrives). A repeat of the device's latest lookup keeps its address. Without a writer, a
    /// task of its own writes it.
    public func record(_ report: WeatherReport, at c: Coordinate, device: String) {
        guard let writer = historyWriter else {
            Task { [self] in await record(report, at: c, device: device, offline: false) }
            return
        }
        let at = now()
        let lookup = LookupRecord(device: device, coordinate: c, report: report, address: nil, createdAt: at)
        guard writer.record(lookup) else { return }
        if let known = services.addresses.cachedAddress(for: c) {
            writer.addAddress(known, device: device, coordinate: c, since: at)
        } else {
            Task { [addresses = services.addresses] in
                if let address = try? await addresses.address(for: c) {
                    writer.addAddress(address, device: device, coordinate: c, since: at)
                }
            }
        }
    }

    /// Adds one lookup to the device's history with the street address (best effort).
    func record(_ report: WeatherReport, at c: Coordinate, device: String, offline: Bool) async {
        let address = await quickAddress(c, offline: offline)
        do {
            try await services.store.recordLookup(report, address: address, coordinate: c, device: device, now: now())
        } catch {
            historyFailed(error)
        }
    }

    /// The street address at `c` if it can be had within the naming deadline (the lookup goes on
    /// and is cached); offline, only a cached one.
    func quickAddress(_ c: Coordinate, offline: Bool) async -> Address? {
        if offline { return services.addresses.cachedAddress(for: c) }
        let lookup = Task { [addresses = services.addresses] in try? await addresses.address(for: c) }
        return await FirstOf.value(lookup, orNilAfter: max(namingDeadline, 2), on: services.clock)
    }
}
