import Foundation

/// Open-Meteo's Ensemble API (`/v1/ensemble` on `BROLLY_OPEN_METEO_ENSEMBLE_URL`): every member's
/// hourly temperature (`temperature_2m`, the control, and `temperature_2m_member01` …) for today
/// and the next 7 days, in the place's time zone, from Open-Meteo's default ensemble. What the
/// members spread over is how unsure the forecast is; `ForecastRanges` calibrates it for the place.
public struct OpenMeteoEnsemble: Sendable {
    public var network: NetworkService
    public var baseURL: URL
    public var now: @Sendable () -> Date
    /// Today and the 7 days after it.
    public static let forecastDays = 8

    public init(network: NetworkService, baseURL: URL, now: @escaping @Sendable () -> Date) {
        self.network = network
        self.baseURL = baseURL
        self.now = now
    }

    public func url(for c: Coordinate) -> URL {
        baseURL.appending(
            providerPath: "/v1/ensemble",
            query: [
                ("latitude", Coordinate.fixed(c.latitude, places: 2)), ("longitude", Coordinate.fixed(c.longitude, places: 2)),
                ("hourly", "temperature_2m"), ("forecast_days", String(Self.forecastDays)), ("timezone", "auto"),
            ])
    }

    public func members(at c: Coordinate) async throws -> EnsembleDays {
        let response = try await network.get(url(for: c), provider: "Open-Meteo ensemble", classify: OpenMeteoProvider.classifyError)
        return try EnsembleDays.decode(response.body, fetchedAt: now())
    }
}

/// The ensemble's whole local days: for each, the members' highs and lows as percentiles (°C).
public struct EnsembleDays: Codable, Sendable, Hashable {
    /// The 10th, 50th and 90th percentile of the members' values.
    public struct Spread: Codable, Sendable, Hashable {
        public var p10: Double
        public var median: Double
        public var p90: Double
        public var width: Double { p90 - p10 }

        public init(_ values: [Double]) {
            p10 = ForecastRanges.quantile(values, 0.1)
            median = ForecastRanges.quantile(values, 0.5)
            p90 = ForecastRanges.quantile(values, 0.9)
        }
    }
    public struct Day: Codable, Sendable, Hashable {
        public var high: Spread
        public var low: Spread

        public init(high: Spread, low: Spread) {
            self.high = high
            self.low = low
        }
    }
    public var fetchedAt: Date
    /// The members (the control among them).
    public var members: Int
    /// Local `YYYY-MM-DD` → the day's spread; only days every member covers whole.
    public var days: [String: Day]

    public init(fetchedAt: Date, members: Int, days: [String: Day]) {
        self.fetchedAt = fetchedAt
        self.members = members
        self.days = days
    }

    /// Reads an answer: every `temperature_2m…` column is a member; a day counts when each member
    /// has all its hours (a member with a gap leaves the day out rather than narrowing it).
    public static func decode(_ data: Data, fetchedAt: Date) throws -> EnsembleDays {
        let (json, _, _, _) = try OpenMeteoProvider.body(data, provider: "Open-Meteo ensemble")
        guard let hourly = json["hourly"], let times = hourly["time"]?.array?.compactMap(\.string), !times.isEmpty,
            case .object(let columns) = hourly
        else { throw BrollyError.unreadableResponse("Open-Meteo ensemble sent no hourly temperatures") }
        let members = columns.filter { $0.key == "temperature_2m" || $0.key.hasPrefix("temperature_2m_member") }
            .compactMap { $0.value.array?.map(\.double) }.filter { $0.count == times.count }
        guard members.count >= 2 else { throw BrollyError.unreadableResponse("Open-Meteo ensemble sent fewer than two members") }
        let perMember = members.map { ForecastScores.days(hours: times, temperature: $0, precipitation: nil) }
        var days: [String: Day] = [:]
        for day in Set(perMember.flatMap(\.keys)) {
            let values = perMember.compactMap { $0[day] }
            guard values.count == members.count else { continue }
            days[day] = Day(high: Spread(values.map(\.high)), low: Spread(values.map(\.low)))
        }
        return EnsembleDays(fetchedAt: fetchedAt, members: members.count, days: days)
    }
}
