import Foundation

/// Open-Meteo's Previous Runs API (`/v1/forecast` on `BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL`): what
/// each model forecast 1…7 days before every hour of the last month, in one call for every model.
public struct OpenMeteoPreviousRuns: Sendable {
    public var network: NetworkService
    public var baseURL: URL

    /// The default model (Open-Meteo's choice for the place) and the main global and regional
    /// models; a model that does not cover the place answers nulls and is left out.
    public static let models = [
        "best_match", "ecmwf_ifs025", "icon_seamless", "gfs_seamless", "meteofrance_seamless", "ukmo_seamless", "jma_seamless",
        "gem_seamless",
    ]

    public init(network: NetworkService, baseURL: URL) {
        self.network = network
        self.baseURL = baseURL
    }

    /// The request: temperature and precipitation at every lead, the last `pastDays` days, today
    /// and the week ahead (lead 0 of days to come: each model's latest run, what a corrected
    /// forecast blends), in the place's time zone (so days are the place's local days).
    public func url(for c: Coordinate, models: [String] = Self.models, pastDays: Int = 31) -> URL {
        baseURL.appending(
            providerPath: "/v1/forecast",
            query: [
                ("latitude", Coordinate.fixed(c.latitude, places: 2)), ("longitude", Coordinate.fixed(c.longitude, places: 2)),
                ("hourly", PreviousRuns.hourlyParameter), ("models", models.joined(separator: ",")),
                ("past_days", String(pastDays)), ("forecast_days", "8"), ("timezone", "auto"),
            ])
    }

    public func runs(at c: Coordinate, models: [String] = Self.models) async throws -> PreviousRuns {
        let response = try await network.get(
            url(for: c, models: models), provider: "Open-Meteo previous runs", classify: OpenMeteoProvider.classifyError)
        return try PreviousRuns.decode(response.body, models: models)
    }
}

/// Open-Meteo's Historical Weather API (`/v1/archive` on `BROLLY_OPEN_METEO_ARCHIVE_URL`), asked
/// for the ERA5 / ERA5-Land reanalysis only (`models=era5_seamless`: Open-Meteo's own choice fills
/// the latest days from a forecast model, which would score a model against itself). The
/// reanalysis lags about five days: those hours are null and their days are not scored.
public struct OpenMeteoArchive: Sendable {
    public var network: NetworkService
    public var baseURL: URL
    public static let model = "era5_seamless"

    public init(network: NetworkService, baseURL: URL) {
        self.network = network
        self.baseURL = baseURL
    }

    /// Hourly temperature and precipitation from `start` to `end` (local `YYYY-MM-DD`, inclusive),
    /// in the place's time zone.
    public func url(for c: Coordinate, start: String, end: String) -> URL {
        baseURL.appending(
            providerPath: "/v1/archive",
            query: [
                ("latitude", Coordinate.fixed(c.latitude, places: 2)), ("longitude", Coordinate.fixed(c.longitude, places: 2)),
                ("start_date", start), ("end_date", end), ("hourly", "temperature_2m,precipitation"),
                ("models", Self.model), ("timezone", "auto"),
            ])
    }

    public func days(at c: Coordinate, start: String, end: String) async throws -> Reanalysis {
        let response = try await network.get(
            url(for: c, start: start, end: end), provider: "Open-Meteo archive", classify: OpenMeteoProvider.classifyError)
        return try Reanalysis.decode(response.body)
    }
}

/// The reanalysis' whole local days at a place, and the grid point it answered from.
public struct Reanalysis: Codable, Sendable, Hashable {
    public var days: [String: DayValues]
    public var gridPoint: Coordinate?

    public static func decode(_ data: Data) throws -> Reanalysis {
        let json = try JSONValue.parse(data, provider: "Open-Meteo archive")
        if json["error"]?.bool == true {
            throw BrollyError.invalidInput("Open-Meteo archive: \(json["reason"]?.string ?? "refused the request")")
        }
        guard let hourly = json["hourly"], let times = hourly["time"]?.array?.compactMap(\.string),
            let t = hourly["temperature_2m"]?.array, t.count == times.count
        else { throw BrollyError.unreadableResponse("Open-Meteo archive sent no hourly temperatures") }
        let p = hourly["precipitation"]?.array.map { $0.map(\.double) }
        let grid = json["latitude"]?.double.flatMap { lat in json["longitude"]?.double.map { Coordinate(latitude: lat, longitude: $0) } }
        return Reanalysis(
            days: ForecastScores.days(hours: times, temperature: t.map(\.double), precipitation: p), gridPoint: grid)
    }
}

/// The Aviation Weather Center's keyless data API (`/api/data/metar?format=json` on
/// `BROLLY_AVIATIONWEATHER_URL`): airport observations worldwide, kept for 15 days.
public struct AviationWeather: Sendable {
    public var network: NetworkService
    public var baseURL: URL

    public init(network: NetworkService, baseURL: URL) {
        self.network = network
        self.baseURL = baseURL
    }

    /// Every report from the stations within `radius` km of `c` over the last `hours`.
    public func observations(around c: Coordinate, radius: Double = 25, hours: Int = 2) async throws -> [Observation] {
        try await get([("bbox", METAR.bbox(around: c, radius: radius)), ("format", "json"), ("hours", String(hours))])
    }

    /// Every report of one station over the last `hours` (the service keeps 15 days).
    public func observations(station id: String, hours: Int) async throws -> [Observation] {
        try await get([("ids", id), ("format", "json"), ("hours", String(hours))])
    }

    func get(_ query: [(String, String)]) async throws -> [Observation] {
        let response = try await network.get(
            baseURL.appending(providerPath: "/api/data/metar", query: query), provider: "Aviation Weather Center")
        return try METAR.decode(response.body)
    }
}
