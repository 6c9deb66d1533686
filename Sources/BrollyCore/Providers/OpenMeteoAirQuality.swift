import Foundation

/// Open-Meteo's keyless air-quality API (`/v1/air-quality`): European and US AQI, particulates,
/// ozone, nitrogen dioxide, UV and pollen.
public struct OpenMeteoAirQuality: Sendable {
    public var network: NetworkService
    public var baseURL: URL
    public var now: @Sendable () -> Date

    public init(network: NetworkService, baseURL: URL, now: @escaping @Sendable () -> Date) {
        self.network = network
        self.baseURL = baseURL
        self.now = now
    }

    static let currentFields =
        ["european_aqi", "us_aqi", "pm2_5", "pm10", "ozone", "nitrogen_dioxide", "uv_index"]
        + AirQuality.plants.map { "\($0)_pollen" }

    /// The request: current values and today's hourly UV (for the day's maximum), in local time.
    public func url(for c: Coordinate) -> URL {
        baseURL.appending(
            providerPath: "/v1/air-quality",
            query: [
                ("latitude", String(format: "%.4f", c.latitude)), ("longitude", String(format: "%.4f", c.longitude)),
                ("current", Self.currentFields.joined(separator: ",")), ("hourly", "uv_index"),
                ("forecast_days", "1"), ("timezone", "auto"),
            ])
    }

    public func airQuality(at c: Coordinate) async throws -> AirQuality {
        let response = try await network.get(url(for: c), provider: "Open-Meteo air quality", classify: OpenMeteoProvider.classifyError)
        return try Self.decode(response.body, fetchedAt: now())
    }

    /// Decodes an answer. Values that are null or missing stay absent (a pollen model that does not
    /// cover the place answers null, which is not zero).
    public static func decode(_ data: Data, fetchedAt: Date) throws -> AirQuality {
        let (json, zone, _, _) = try OpenMeteoProvider.body(data, provider: "Open-Meteo air quality")
        func time(_ v: JSONValue?) -> Date? { OpenMeteoProvider.time(v, in: zone) }
        func value(_ v: JSONValue?) -> Double? {
            guard let d = v?.double, d.isFinite, d >= 0 else { return nil }
            return d
        }

        var quality: AirQuality
        if let cur = json["current"], let t = time(cur["time"]) {
            var pollen: [String: Double] = [:]
            for plant in AirQuality.plants { pollen[plant] = value(cur["\(plant)_pollen"]) }
            quality = AirQuality(
                time: t, europeanAQI: value(cur["european_aqi"]), usAQI: value(cur["us_aqi"]), pm2_5: value(cur["pm2_5"]),
                pm10: value(cur["pm10"]), ozone: value(cur["ozone"]), nitrogenDioxide: value(cur["nitrogen_dioxide"]),
                uvIndex: value(cur["uv_index"]), pollen: pollen, fetchedAt: fetchedAt)
        } else if let hourly = json["hourly"], let times = hourly["time"]?.array, !times.isEmpty {
            // No current block: the hour at or just before now, else the first.
            let dates = times.map { time($0) }
            let i = dates.lastIndex { ($0 ?? .distantFuture) <= fetchedAt } ?? 0
            guard let t = dates[i] else { throw BrollyError.unreadableResponse("Open-Meteo air quality: no time") }
            var pollen: [String: Double] = [:]
            for plant in AirQuality.plants { pollen[plant] = value(hourly["\(plant)_pollen"]?[i]) }
            quality = AirQuality(
                time: t, europeanAQI: value(hourly["european_aqi"]?[i]), usAQI: value(hourly["us_aqi"]?[i]),
                pm2_5: value(hourly["pm2_5"]?[i]), pm10: value(hourly["pm10"]?[i]), ozone: value(hourly["ozone"]?[i]),
                nitrogenDioxide: value(hourly["nitrogen_dioxide"]?[i]), uvIndex: value(hourly["uv_index"]?[i]),
                pollen: pollen, fetchedAt: fetchedAt)
        } else {
            throw BrollyError.unreadableResponse("Open-Meteo air quality answer has no current or hourly values")
        }
        // Today's highest UV, from the hourly values of the local day of `time`.
        if let hourly = json["hourly"], let times = hourly["time"]?.array {
            let day = LocalTime.dateString(quality.time, in: zone)
            var uv: [Double] = []
            var lastHour = -1
            for i in times.indices {
                guard let t = time(times[i]), LocalTime.dateString(t, in: zone) == day else { continue }
                if let v = value(hourly["uv_index"]?[i]) {
                    uv.append(v)
                    lastHour = max(lastHour, LocalTime.hour(t, in: zone))
                }
            }
            // Only a day whose hours reach the evening (the sun down) has a known highest, and it is
            // never below the value now: an answer lacking today's later hours has none ("—").
            if let highest = uv.max(), lastHour >= 20, highest >= (quality.uvIndex ?? 0) { quality.uvIndexMax = highest }
        }
        return quality
    }
}
