import Foundation

/// What the nearest station measured lately: its latest observation and how far it is.
public struct MeasuredWeather: Codable, Sendable, Hashable {
    public var observation: Observation
    public var distanceKm: Double
}

/// Scores forecasts per place: one Previous Runs call (each model's forecasts 1…7 days before
/// every hour of the last month, and its latest run for the week ahead), one call for the stations
/// nearby (shared with the measured weather) and, when one reports within 25 km, one for its last
/// 15 days; and one call a day for the ERA5 reanalysis, the reference where no station has enough
/// whole days. At most once per 0.1° cell per 6 hours, shared by every client and (through the
/// shared tier) every instance. It never hides the weather: what cannot be had is absent.
public final class AccuracyService: Sendable {
    public let previousRuns: OpenMeteoPreviousRuns
    public let stations: AviationWeather
    public let archive: OpenMeteoArchive?
    let fetcher: CachedFetcher<AccuracyReport>
    /// The stations' latest reports around each 0.1° cell: one call per area per 10 minutes,
    /// shared by the measured weather of every place in it and by the accuracy's choice of station.
    let nearby: CachedFetcher<[Observation]>
    /// The reanalysis' days around each 0.1° cell: one call a day (it grows by a day a day).
    let reanalysis: CachedFetcher<Reanalysis>
    /// The injected clock (its fetchers wait on it too).
    let clock: any WallClock
    /// Fewer whole days of a station than this: the reanalysis is the reference instead.
    public static let minimumStationDays = ForecastScores.minimumDays
    /// The days the ERA5 reanalysis arrives after the day (about 5): in the replay of the forecast
    /// shown, a day scored against it was not known until then.
    public static let reanalysisLag = 5

    public init(
        previousRuns: OpenMeteoPreviousRuns, stations: AviationWeather, archive: OpenMeteoArchive? = nil, cache: FileCache,
        freshFor: TimeInterval = 6 * 3600,
        keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, clock: any WallClock
    ) {
        self.previousRuns = previousRuns
        self.stations = stations
        self.archive = archive
        // A place that failed is not asked again for five minutes, doubled up to an hour.
        fetcher = CachedFetcher(
            cache: cache, freshFor: freshFor, usableFor: 48 * 3600, failures: FailureMemory(base: 300, max: 3600),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, shared: true, clock: clock)
        nearby = CachedFetcher(
            cache: cache, freshFor: 600, usableFor: 90 * 60, failures: FailureMemory(base: 60, max: 900),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, clock: clock)
        reanalysis = CachedFetcher(
            cache: cache, freshFor: 24 * 3600, usableFor: 72 * 3600, failures: FailureMemory(base: 300, max: 3600),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, shared: true, clock: clock)
        self.clock = clock
    }

    /// The latest observation of the nearest station within 25 km of `c` that reported in the
    /// last 90 minutes; nil when there is none, or it cannot be had within `grace`.
    /// The stations' reports come from one call per cell per 10 minutes (the last two hours, in a
    /// box reaching 33 km from the cell's centre: every station within 25 km of any point of it),
    /// `grace` and `offline` as for air quality.
    public func measured(at c: Coordinate, offline: Bool = false, grace: TimeInterval? = nil) async -> MeasuredWeather? {
        let cell = Self.cell(c)
        guard
            let reports = await nearby.answer(
                Self.cellKey("metar-", c), offline: offline, grace: grace,
                call: { [stations] in
                    try await stations.observations(around: cell, radius: 33, hours: 2)
                })?.value,
            let (observation, distance) = METAR.nearest(reports, to: c, now: clock.now)
        else { return nil }
        return MeasuredWeather(observation: observation, distanceKm: Rounding.round(distance, 1))
    }

    /// The place's cell: 0.1° (about 11 km, the scale of the models' grids).
    public static func cell(_ c: Coordinate) -> Coordinate {
        Coordinate(latitude: Rounding.round(c.latitude, 1), longitude: Rounding.round(c.longitude, 1))
    }

    public func key(for c: Coordinate) -> String { Self.cellKey("accuracy4-", c) }

    /// `prefix` and `c`'s cell, as a cache key (`accuracy-52.5_13.4`).
    static func cellKey(_ prefix: String, _ c: Coordinate) -> String {
        let cell = cell(c)
        return prefix + Coordinate.fixed(cell.latitude, places: 1) + "_" + Coordinate.fixed(cell.longitude, places: 1)
    }

    /// The scores at `c`: cached for 6 hours; else computed once (concurrent callers share it); a
    /// failure stands in the last scores (marked stale) or throws when there are none.
    public func accuracy(at c: Coordinate) async throws -> CachedFetcher<AccuracyReport>.Answer {
        try await fetcher.value(key(for: c), stamp: { $0.computedAt }) { [self] in try await compute(at: Self.cell(c)) }
    }

    /// The model `auto` asks for at `c`, from the scores this process already holds (memory or
    /// file; never a call, never the shared database: it runs before a forecast call).
    public func autoModel(at c: Coordinate) -> String? { kept(at: c)?.autoModel }

    /// The scores at `c` this process already holds and may still use (memory or file; never a
    /// call, never the shared database): what `auto` and `brolly` read before a forecast.
    func kept(at c: Coordinate) -> AccuracyReport? {
        guard let entry = fetcher.cache.read(AccuracyReport.self, key: key(for: c), memory: fetcher.memory),
            clock.now.timeIntervalSince(entry.receivedAt) < fetcher.usableFor
        else { return nil }
        return entry.value
    }

    /// `report` corrected for its place (`model=brolly`), from the scores this process already
    /// holds (memory or file; never a call): unchanged where none are kept or too few days are, and
    /// for a provider other than Open-Meteo (a fallback's answer).
    /// Never silently: a report left uncorrected says why (`notCorrected`).
    public func correcting(_ report: WeatherReport) -> WeatherReport {
        var report = report
        // The scores are Open-Meteo's models': another provider's forecast is not theirs to correct.
        guard report.provider == .openMeteo else {
            report.notCorrected = NotCorrected(reason: .otherProvider)
            return report
        }
        guard let scores = kept(at: report.place.coordinate) else {
            report.notCorrected = NotCorrected(reason: .notScored)
            return report
        }
        guard scores.isEnough else {
            report.notCorrected = NotCorrected(reason: .fewDays, days: scores.days)
            return report
        }
        let today = LocalTime.dateString(clock.now, in: report.place.timeZone)
        let days = scores.corrected(
            fresh: report.dayValues, freshModel: report.model ?? OpenMeteoProvider.defaultModel, freshToday: today)
        guard !days.isEmpty else {
            report.notCorrected = NotCorrected(reason: .notScored)
            return report
        }
        return report.correcting(days)
    }

    /// `report` with each day's 80 % range of its high and low from `ensemble` (today and the 7
    /// days after it that the ensemble covers), calibrated with the forecast shown's past errors
    /// here where the scores this process holds have them at the day's lead (the corrected
    /// forecast's when it is corrected, else `auto`'s; a named model's are not scored), else the
    /// ensemble's own spread, said to be uncalibrated. Never a call.
    public func ranging(_ report: WeatherReport, ensemble: EnsembleDays) -> WeatherReport {
        var report = report
        let shown =
            report.modelSelection == "corrected"
            ? BrollyConfiguration.corrected : report.modelSelection == "named" || report.provider != .openMeteo ? nil : "auto"
        let errors = shown.flatMap { kept(at: report.place.coordinate)?.ranges[$0] } ?? [:]
        let today = LocalTime.dateString(clock.now, in: report.place.timeZone)
        let ranges = ForecastRanges.ranges(days: report.dayValues, today: today, ensemble: ensemble, errors: errors)
        guard !ranges.isEmpty else { return report }
        for i in report.days.indices {
            guard let r = ranges[report.days[i].date] else { continue }
            report.days[i].temperatureMaxRange = r.high
            report.days[i].temperatureMinRange = r.low
        }
        report.ranges = RangeNote(
            calibrated: ranges.values.contains { $0.calibrated }, members: ensemble.members, days: ranges.count)
        return report
    }

    /// The cached scores at `c`, without a call.
    public func cached(at c: Coordinate) async -> CachedFetcher<AccuracyReport>.Answer? {
        await fetcher.cached(key(for: c))
    }

    /// Computes the scores at `cell`. The station's days and the reanalysis are asked while the
    /// runs are; the station is the reference when it has `minimumStationDays` whole days, else the
    /// reanalysis; with neither, there are no scores (and the error says why).
    func compute(at cell: Coordinate) async throws -> AccuracyReport {
        let started = clock.now
        async let stationDays = self.stationDays(near: cell)
        async let era5 = self.reanalysis(at: cell, now: started)
        let runs = try await previousRuns.runs(at: cell)
        let zone = runs.zone
        let today = LocalTime.dateString(started, in: zone)
        let reanalysis = await era5
        var passedOver: AccuracyReport.PassedOver?
        var reference: AccuracyReport.Reference
        var days: [String: DayValues]
        let stationFound = await stationDays
        let measuredDays = stationFound.map { ForecastScores.stationDays($0.observations, in: zone) } ?? [:]
        let wholeStationDays = measuredDays.keys.filter { $0 < today }.count
        if let found = stationFound, wholeStationDays >= Self.minimumStationDays {
            days = measuredDays
            // A station reports no reliable amounts: wet days come from the reanalysis.
            if case .success(let r) = reanalysis {
                for (day, v) in days { days[day]?.precipitation = r.days[day]?.precipitation ?? v.precipitation }
            }
            let s = found.station
            reference = .init(
                kind: "station", id: s.id, name: s.name, distanceKm: s.distanceKm, latitude: s.latitude, longitude: s.longitude,
                days: wholeStationDays,
                precipitation: (try? reanalysis.get()) != nil ? OpenMeteoArchive.model : nil)
        } else {
            if let found = stationFound { passedOver = .init(station: found.station, days: wholeStationDays) }
            let r: Reanalysis
            do { r = try reanalysis.get() } catch {
                // A refusal (the client's allowance or the budget spent part-way) is said as one:
                // 429 or 503 with its wait, not a failed provider (issue 52: schemathesis met a 502).
                if let refusal = error as? BrollyError, refusal.kind == .clientLimited || refusal.kind == .rateLimited { throw refusal }
                let station = passedOver.map { " and \($0.station.id), \($0.station.distanceKm) km away, has \($0.days) whole days" } ?? ""
                throw BrollyError(
                    .providerUnavailable,
                    "no independent reference to score against: the ERA5 reanalysis could not be had (\((error as? BrollyError)?.message ?? String(describing: error)))\(station)"
                )
            }
            days = r.days
            reference = .init(
                kind: "reanalysis", id: OpenMeteoArchive.model, name: "ERA5 / ERA5-Land",
                distanceKm: r.gridPoint.map { Rounding.round(cell.distanceKm(to: $0), 1) }, latitude: r.gridPoint?.latitude,
                longitude: r.gridPoint?.longitude,
                days: days.keys.filter { $0 < today }.count)
        }
        let errors = ForecastScores.errors(runs, reference: days, today: today)
        // The days shown are the days scored (those a model's forecast and the reference both
        // have), not the reference's.
        let scored = Set(errors.values.flatMap { $0.values.flatMap { $0.map(\.day) } }).sorted()
        reference.firstDay = scored.first
        reference.lastDay = scored.last
        let scores = ForecastScores.scores(errors)
        let models = OpenMeteoPreviousRuns.models.compactMap { m in scores[m].map { AccuracyReport.ModelScores(model: m, leads: $0) } }
        // The forecast shown, replayed: a station's day is known the next day, the reanalysis'
        // about `reanalysisLag` days later.
        let lag = reference.kind == "station" ? 0 : Self.reanalysisLag
        let replays = [
            (BrollyConfiguration.corrected, ForecastCorrection.replay(errors, lag: lag)),
            ("auto", AutoChoice.replay(errors, baseline: OpenMeteoProvider.defaultModel, lag: lag)),
        ]
        let shown = replays.compactMap { name, replayed in
            let leads = ForecastScores.scores([name: replayed])[name] ?? []
            return leads.isEmpty ? nil : AccuracyReport.ModelScores(model: name, leads: leads)
        }
        var ranges: [String: [Int: ErrorRange]] = [:]
        for (name, replayed) in replays {
            for (lead, days) in replayed {
                if let r = ForecastRanges.errorRange(lead: lead, errors: days) { ranges[name, default: [:]][lead] = r }
            }
        }
        var latest: [String: [String: DayValues]] = [:]
        for (model, leads) in runs.temperature {
            guard let t = leads[0] else { continue }
            let own = ForecastScores.days(hours: runs.hours, temperature: t, precipitation: runs.precipitation[model]?[0])
                .filter { $0.key >= today }
            if !own.isEmpty { latest[model] = own }
        }
        return AccuracyReport(
            computedAt: started, timezone: runs.timezone, reference: reference, passedOver: passedOver,
            days: models.flatMap(\.leads).map(\.n).max() ?? 0, models: models, shown: shown, ranges: ranges,
            fits: ForecastCorrection.fits(errors),
            choices: ForecastCorrection.choices(errors),
            auto: AutoChoice.choose(errors, baseline: OpenMeteoProvider.defaultModel), today: today, latest: latest)
    }

    /// The reanalysis' whole days at `cell` over the last 32 days (cached a day); its error when
    /// it cannot be had.
    func reanalysis(at cell: Coordinate, now: Date) async -> Result<Reanalysis, any Error> {
        guard let archive else { return .failure(BrollyError(.providerUnavailable, "no reanalysis is configured")) }
        let utc = TimeZone(secondsFromGMT: 0)!
        let end = LocalTime.dateString(now.addingTimeInterval(-86_400), in: utc)
        let start = LocalTime.adding(-31, to: end)
        do {
            return .success(
                try await reanalysis.value(Self.cellKey("era5-", cell)) { try await archive.days(at: cell, start: start, end: end) }.value)
        } catch {
            return .failure(error)
        }
    }

    /// The nearest station within 25 km that reported in the last 90 minutes, with its last 15
    /// days of reports; nil when there is none or the service fails (the reanalysis stands in).
    func stationDays(near c: Coordinate) async -> (station: StationInfo, observations: [Observation])? {
        guard let nearest = await measured(at: c),
            let history = try? await stations.observations(station: nearest.observation.stationID, hours: 15 * 24)
        else { return nil }
        let o = nearest.observation
        return (
            StationInfo(id: o.stationID, name: o.stationName, distanceKm: nearest.distanceKm, latitude: o.latitude, longitude: o.longitude),
            history.filter { $0.stationID == o.stationID }
        )
    }
}
