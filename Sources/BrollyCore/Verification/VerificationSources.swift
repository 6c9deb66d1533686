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

    /// The request: temperature and precipitation at every lead, the last `pastDays` days and
    /// today, in the place's time zone (so days are the place's local days).
    public func url(for c: Coordinate, models: [String] = Self.models, pastDays: Int = 31) -> URL {
        baseURL.appending(
            providerPath: "/v1/forecast",
            query: [
                ("latitude", Coordinate.fixed(c.latitude, places: 2)), ("longitude", Coordinate.fixed(c.longitude, places: 2)),
                ("hourly", PreviousRuns.hourlyParameter), ("models", models.joined(separator: ",")),
                ("past_days", String(pastDays)), ("forecast_days", "1"), ("timezone", "auto"),
            ])
    }

    public func runs(at c: Coordinate, models: [String] = Self.models) async throws -> PreviousRuns {
        let response = try await network.get(
            url(for: c, models: models), provider: "Open-Meteo previous runs", classify: OpenMeteoProvider.classifyError)
        return try PreviousRuns.decode(response.body, models: models)
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
