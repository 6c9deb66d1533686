import Foundation

/// How good the forecasts have been at one place: every model's scores by lead day over the last
/// 30 local days, against a station nearby or, without one, each model's own analysis. Kept in
/// °C; the reader's units are applied when it is shown.
public struct AccuracyReport: Codable, Sendable, Hashable {
    public struct ModelScores: Codable, Sendable, Hashable {
        public var model: String
        public var leads: [LeadScore]
    }

    /// When the scores were computed (the answers' arrival).
    public var computedAt: Date
    /// The place's time zone, whose days were scored.
    public var timezone: String
    /// `station` or `analysis`: what the forecasts were scored against.
    public var truth: String
    public var station: StationInfo?
    /// The days scored (the most any lead had).
    public var days: Int
    /// Models with at least one scored day, in `OpenMeteoPreviousRuns.models`' order.
    public var models: [ModelScores]

    /// The model `BROLLY_MODEL=auto` asks for here: the best at tomorrow's high over at least 20
    /// scored days (10 against a station, which keeps 15 days of reports); nil (Open-Meteo's own
    /// choice) when no model has that many, or when Open-Meteo's own choice is the best.
    public var autoModel: String? {
        guard let best = best(minimumDays: truth == "station" ? 10 : 20), best.model != OpenMeteoProvider.defaultModel else { return nil }
        return best.model
    }

    /// The model whose forecast of tomorrow's high (lead 1) was best, among models with at least
    /// `minimumDays` days scored; nil when none has that many.
    public func best(minimumDays: Int = 5) -> (model: String, score: LeadScore)? {
        models.compactMap { m in m.leads.first { $0.lead == 1 && $0.n >= minimumDays }.map { (m.model, $0) } }
            .min { ($0.1.highMAE, $0.0) < ($1.1.highMAE, $1.0) }
    }
}

/// What the nearest station measured lately: its latest observation and how far it is.
public struct MeasuredWeather: Codable, Sendable, Hashable {
    public var observation: Observation
    public var distanceKm: Double

    public init(observation: Observation, distanceKm: Double) {
        self.observation = observation
        self.distanceKm = distanceKm
    }
}

/// Scores forecasts per place: one Previous Runs call, one call for the stations nearby (shared
/// with the measured weather) and, when one reports within 25 km, one for its last 15 days, at most once per 0.1° cell per 6 hours, shared by every client
/// and (through the shared tier) every instance. It never hides the weather: what cannot be had
/// is absent.
public final class AccuracyService: Sendable {
    public let previousRuns: OpenMeteoPreviousRuns
    public let stations: AviationWeather
    let fetcher: CachedFetcher<AccuracyReport>
    /// The stations' latest reports around each 0.1° cell: one call per area per 10 minutes,
    /// shared by the measured weather of every place in it and by the accuracy's choice of station.
    let nearby: CachedFetcher<[Observation]>
    let now: @Sendable () -> Date
    /// Fewer whole days of a station than this: the analysis is the truth instead.
    public static let minimumStationDays = 5

    public init(
        previousRuns: OpenMeteoPreviousRuns, stations: AviationWeather, cache: FileCache, freshFor: TimeInterval = 6 * 3600,
        keepsEntriesInMemory: Bool = false, memoryEntries: Int = 2048, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.previousRuns = previousRuns
        self.stations = stations
        // A place that failed is not asked again for five minutes, doubled up to an hour.
        fetcher = CachedFetcher(
            cache: cache, freshFor: freshFor, usableFor: 48 * 3600, failures: FailureMemory(base: 300, max: 3600),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, shared: true, now: now)
        nearby = CachedFetcher(
            cache: cache, freshFor: 600, usableFor: 90 * 60, failures: FailureMemory(base: 60, max: 900),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, now: now)
        self.now = now
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
            let (observation, distance) = METAR.nearest(reports, to: c, now: now())
        else { return nil }
        return MeasuredWeather(observation: observation, distanceKm: (distance * 10).rounded() / 10)
    }

    /// The place's cell: 0.1° (about 11 km, the scale of the models' grids).
    public static func cell(_ c: Coordinate) -> Coordinate {
        Coordinate(latitude: (c.latitude * 10).rounded() / 10, longitude: (c.longitude * 10).rounded() / 10)
    }

    public func key(for c: Coordinate) -> String { Self.cellKey("accuracy-", c) }

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
    public func autoModel(at c: Coordinate) -> String? {
        guard let entry = fetcher.cache.read(AccuracyReport.self, key: key(for: c), memory: fetcher.memory),
            now().timeIntervalSince(entry.receivedAt) < fetcher.usableFor
        else { return nil }
        return entry.value.autoModel
    }

    /// The cached scores at `c`, without a call.
    public func cached(at c: Coordinate) async -> CachedFetcher<AccuracyReport>.Answer? {
        await fetcher.cached(key(for: c))
    }

    /// Computes the scores at `cell`. The station's observations are asked while the runs are.
    func compute(at cell: Coordinate) async throws -> AccuracyReport {
        let started = now()
        async let stationDays = self.stationDays(near: cell)
        let runs = try await previousRuns.runs(at: cell)
        let zone = runs.zone
        let today = LocalTime.dateString(started, in: zone)
        var truth = "analysis"
        var station: StationInfo?
        var scores: [String: [LeadScore]]
        if let found = await stationDays, case let days = ForecastScores.stationDays(found.observations, in: zone),
            days.keys.filter({ $0 < today }).count >= Self.minimumStationDays
        {
            truth = "station"
            station = found.station
            scores = ForecastScores.againstStation(runs, station: days, today: today)
        } else {
            scores = ForecastScores.againstAnalysis(runs, today: today)
        }
        let models = OpenMeteoPreviousRuns.models.compactMap { m in scores[m].map { AccuracyReport.ModelScores(model: m, leads: $0) } }
        return AccuracyReport(
            computedAt: started, timezone: runs.timezone, truth: truth, station: station,
            days: models.flatMap(\.leads).map(\.n).max() ?? 0, models: models)
    }

    /// The nearest station within 25 km that reported in the last 90 minutes, with its last 15
    /// days of reports; nil when there is none or the service fails (the analysis stands in).
    func stationDays(near c: Coordinate) async -> (station: StationInfo, observations: [Observation])? {
        guard let nearest = await measured(at: c),
            let history = try? await stations.observations(station: nearest.observation.stationID, hours: 15 * 24)
        else { return nil }
        let o = nearest.observation
        return (
            StationInfo(id: o.stationID, name: o.stationName, distanceKm: nearest.distanceKm),
            history.filter { $0.stationID == o.stationID }
        )
    }
}
