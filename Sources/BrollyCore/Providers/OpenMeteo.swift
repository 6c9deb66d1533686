import Foundation

/// Open-Meteo: the keyless default provider (forecast API v1 and geocoding API v1).
public struct OpenMeteoProvider: WeatherProvider {
    public let id = ProviderID.openMeteo
    public var network: NetworkService
    public var baseURL: URL
    public var geocodingURL: URL
    public var now: @Sendable () -> Date
    /// `BROLLY_MODEL=auto`: the model to ask for at a place when none is named (the most accurate
    /// there lately, from scores already computed; never a call); nil, or nil answered: Open-Meteo's
    /// own choice (`best_match`).
    public var chooseModel: (@Sendable (Coordinate) async -> String?)?

    public init(
        network: NetworkService, baseURL: URL, geocodingURL: URL, chooseModel: (@Sendable (Coordinate) async -> String?)? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.network = network
        self.baseURL = baseURL
        self.geocodingURL = geocodingURL
        self.chooseModel = chooseModel
        self.now = now
    }

    /// The default: Open-Meteo picks the best model for each place and time (`best_match`).
    public static let defaultModel = "best_match"

    /// Forecast models Open-Meteo names in `models=` that Brolly accepts from users (a name not
    /// here is refused with a clear message rather than sent upstream).
    public static let knownModels: Set<String> = [
        "best_match", "ecmwf_ifs025", "ecmwf_ifs", "ecmwf_aifs025_single", "icon_seamless", "icon_global", "icon_eu", "icon_d2",
        "gfs_seamless", "gfs_global", "ncep_hrrr_conus", "ncep_nbm_conus", "meteofrance_seamless", "meteofrance_arpege_world",
        "meteofrance_arpege_europe", "meteofrance_arome_france", "meteofrance_arome_france_hd", "ukmo_seamless",
        "ukmo_global_deterministic_10km", "ukmo_uk_deterministic_2km", "jma_seamless", "jma_msm", "jma_gsm", "gem_seamless",
        "gem_global", "gem_regional", "gem_hrdps_continental", "metno_seamless", "metno_nordic", "knmi_seamless", "dmi_seamless",
        "cma_grapes_global", "bom_access_global", "meteoswiss_icon_seamless", "kma_seamless", "italia_meteo_arpae_icon_2i",
    ]

    static let currentFields = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day", "precipitation", "rain",
        "showers", "snowfall", "weather_code", "cloud_cover", "pressure_msl", "wind_speed_10m",
        "wind_direction_10m", "wind_gusts_10m", "visibility",
    ]
    static let hourlyFields = [
        "temperature_2m", "precipitation_probability", "precipitation", "weather_code", "is_day", "wind_speed_10m",
        "apparent_temperature", "relative_humidity_2m", "pressure_msl", "cloud_cover", "wind_direction_10m", "wind_gusts_10m",
        "uv_index",
    ]
    static let dailyFields = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "sunrise", "sunset",
    ]

    static let minutelyFields = ["precipitation", "snowfall"]

    /// The forecast URL: metric units, local time zone, 16 days (the hours of the first eight are
    /// kept: Dark Sky's `extend=hourly` 168), yesterday (`past_days=1`) for
    /// "warmer than yesterday", and the next two hours in 15-minute slots (`minutely_15`, from the
    /// slot under way) for the next hour's rain — all in the same call.
    public func forecastURL(for c: Coordinate, model: String? = nil) -> URL {
        let models = model.flatMap { $0 == Self.defaultModel ? nil : [("models", $0)] } ?? []
        return baseURL.appending(
            providerPath: "/v1/forecast",
            query: models + [
                ("latitude", String(format: "%.4f", c.latitude)), ("longitude", String(format: "%.4f", c.longitude)),
                ("current", Self.currentFields.joined(separator: ",")),
                ("hourly", Self.hourlyFields.joined(separator: ",")),
                ("daily", Self.dailyFields.joined(separator: ",")),
                ("minutely_15", Self.minutelyFields.joined(separator: ",")),
                ("past_minutely_15", "1"), ("forecast_minutely_15", "9"),
                ("timezone", "auto"), ("forecast_days", "16"), ("past_days", "1"), ("temperature_unit", "celsius"),
                ("wind_speed_unit", "ms"), ("precipitation_unit", "mm"),
            ])
    }

    public func weather(for place: Place) async throws -> WeatherReport {
        try await weather(for: place, language: "en", model: nil)
    }

    /// The weather from `model` when named, else the chosen model (`chooseModel`), else Open-Meteo's own.
    public func weather(for place: Place, language: String, model: String?) async throws -> WeatherReport {
        let chosen = model == nil ? await chooseModel?(place.coordinate) : nil
        let asked = model ?? chosen
        let response = try await network.get(
            forecastURL(for: place.coordinate, model: asked), provider: "Open-Meteo", classify: Self.classifyError)
        var report = try Self.report(from: response.body, place: place, fetchedAt: now())
        report.model = asked ?? Self.defaultModel
        report.modelSelection = model != nil ? "named" : chosen != nil ? "auto" : "default"
        return report
    }

    public func search(_ query: String, limit: Int = 10) async throws -> [Place] {
        try await search(query, limit: limit, language: "en")
    }

    /// Places named in `language` (Open-Meteo's geocoding takes a two-letter `language=`).
    public func search(_ query: String, limit: Int, language: String) async throws -> [Place] {
        let url = geocodingURL.appending(
            providerPath: "/v1/search",
            query: [("name", query), ("count", String(limit)), ("language", Localization.baseCode(language)), ("format", "json")])
        let response = try await network.get(url, provider: "Open-Meteo geocoding", classify: Self.classifyError)
        let places = try Self.places(from: response.body)
        if places.isEmpty { throw BrollyError.placeNotFound("\"\(query)\"") }
        return places
    }

    /// Open-Meteo has no reverse geocoding.
    public func reverse(_ coordinate: Coordinate) async throws -> Place? { nil }

    /// Open-Meteo's error body: `{"error": true, "reason": "..."}`.
    @Sendable public static func classifyError(_ response: HTTPResponse) -> BrollyError? {
        guard let json = try? JSONValue.parse(response.body, provider: "Open-Meteo"),
            json["error"]?.bool == true
        else { return nil }
        let reason = json["reason"].nonEmptyString ?? "HTTP \(response.status)"
        if response.status == 429 { return .rateLimited(retryAfter: nil) }
        if (500..<600).contains(response.status) { return .providerUnavailable(reason) }
        return BrollyError(.providerUnavailable, "Open-Meteo refused the request: \(reason)")
    }

    // MARK: - Decoding

    /// The wire document's current, hourly and daily blocks read into metric values.
    public struct Decoded: Sendable {
        public var current: CurrentConditions?
        public var hours: [HourForecast]
        public var days: [DayForecast]
        /// The `minutely_15` precipitation slots, when asked for.
        public var minutely: [NowcastSlot]
        public var timeZone: TimeZone
        public var timezoneName: String
        public var utcOffsetSeconds: Int
        public var latitude: Double?
        public var longitude: Double?
        public var elevation: Double?
    }

    /// Decodes a `/v1/forecast` answer. Every block is optional; values are converted to metric
    /// using the `*_units` blocks when present. Current conditions without a time of their own are
    /// taken as of `receivedAt`, when the answer arrived.
    public static func decode(_ data: Data, receivedAt: Date) throws -> Decoded {
        let (json, zone, tzName, offset) = try body(data, provider: "Open-Meteo")
        func time(_ v: JSONValue?) -> Date? { Self.time(v, in: zone) }

        // Hourly
        var hours: [HourForecast] = []
        if let hourly = json["hourly"], let times = hourly["time"]?.array {
            let units = json["hourly_units"]
            let temps = hourly["temperature_2m"]?.array ?? []
            for (i, t) in times.enumerated() {
                guard let date = time(t), let temp = temps[safe: i]?.double else { continue }
                let code = hourly["weather_code"]?[i]?.int ?? hourly["weathercode"]?[i]?.int
                let isDay = hourly["is_day"]?[i]?.bool ?? true
                hours.append(
                    HourForecast(
                        time: date, temperature: Metric.celsius(temp, unit: units?["temperature_2m"]?.string),
                        precipitationProbability: hourly["precipitation_probability"]?[i]?.double,
                        precipitation: hourly["precipitation"]?[i]?.double.map {
                            Metric.millimetres($0, unit: units?["precipitation"]?.string)
                        },
                        windSpeed: hourly["wind_speed_10m"]?[i]?.double.map {
                            Metric.metresPerSecond($0, unit: units?["wind_speed_10m"]?.string)
                        },
                        condition: code.map { Conditions.wmo($0, isDay: isDay) } ?? Conditions.wmo(-1),
                        feelsLike: hourly["apparent_temperature"]?[i]?.double.map {
                            Metric.celsius($0, unit: units?["apparent_temperature"]?.string)
                        },
                        humidity: hourly["relative_humidity_2m"]?[i]?.double, pressure: hourly["pressure_msl"]?[i]?.double,
                        clouds: hourly["cloud_cover"]?[i]?.double, windDirection: hourly["wind_direction_10m"]?[i]?.double,
                        windGust: hourly["wind_gusts_10m"]?[i]?.double.map {
                            Metric.metresPerSecond($0, unit: units?["wind_gusts_10m"]?.string)
                        },
                        uvIndex: hourly["uv_index"]?[i]?.double))
            }
        }

        // Daily
        var days: [DayForecast] = []
        if let daily = json["daily"], let dates = daily["time"]?.array {
            let units = json["daily_units"]
            for (i, d) in dates.enumerated() {
                guard let max = daily["temperature_2m_max"]?[i]?.double,
                    let min = daily["temperature_2m_min"]?[i]?.double
                else { continue }
                let date: String
                if case .number = d, let day = d.epoch {
                    date = LocalTime.dateString(day, in: zone)
                } else if let s = d.string, s.count >= 10 {
                    date = String(s.prefix(10))
                } else {
                    continue
                }
                let code = daily["weather_code"]?[i]?.int ?? daily["weathercode"]?[i]?.int
                let tu = units?["temperature_2m_max"]?.string
                days.append(
                    DayForecast(
                        date: date, temperatureMin: Metric.celsius(min, unit: tu),
                        temperatureMax: Metric.celsius(max, unit: tu),
                        precipitation: daily["precipitation_sum"]?[i]?.double.map {
                            Metric.millimetres($0, unit: units?["precipitation_sum"]?.string)
                        },
                        precipitationProbability: daily["precipitation_probability_max"]?[i]?.double,
                        condition: code.map { Conditions.wmo($0) } ?? Conditions.wmo(-1),
                        sunrise: time(daily["sunrise"]?[i]), sunset: time(daily["sunset"]?[i])))
            }
        }
        if days.isEmpty && !hours.isEmpty { days = DayGrouping.days(from: hours, in: zone) }

        // 15-minute slots (a value is what fell in the 15 minutes before its time)
        var minutely: [NowcastSlot] = []
        if let m = json["minutely_15"], let times = m["time"]?.array {
            let units = json["minutely_15_units"]
            for (i, t) in times.enumerated() {
                guard let end = time(t), let p = m["precipitation"]?[i]?.double, p >= 0 else { continue }
                minutely.append(
                    NowcastSlot(
                        end: end, precipitation: Metric.millimetres(p, unit: units?["precipitation"]?.string),
                        snowfall: m["snowfall"]?[i]?.double.map { Metric.millimetres($0, unit: units?["snowfall"]?.string ?? "cm") / 10 }))
            }
        }

        // Current
        var current: CurrentConditions?
        if let cur = json["current"] ?? json["current_weather"], let temp = cur["temperature_2m"]?.double ?? cur["temperature"]?.double {
            let units = json["current_units"] ?? json["current_weather_units"]
            let tu = units?["temperature_2m"]?.string ?? units?["temperature"]?.string
            let wu = units?["wind_speed_10m"]?.string ?? units?["windspeed"]?.string
            let pu = units?["precipitation"]?.string
            let date = time(cur["time"]) ?? receivedAt
            let celsius = Metric.celsius(temp, unit: tu)
            let today = LocalTime.dateString(date, in: zone)
            let todayDay = days.first(where: { $0.date == today })
            let todayHours = hours.filter { LocalTime.dateString($0.time, in: zone) == today }.map(\.temperature)
            let isDay = cur["is_day"]?.bool ?? true
            let code = cur["weather_code"]?.int ?? cur["weathercode"]?.int ?? -1
            let rain = [cur["rain"]?.double, cur["showers"]?.double].compactMap { $0 }
            current = CurrentConditions(
                time: date, temperature: celsius,
                feelsLike: cur["apparent_temperature"]?.double.map { Metric.celsius($0, unit: tu) },
                temperatureMin: Swift.min(todayDay?.temperatureMin ?? todayHours.min() ?? celsius, celsius),
                temperatureMax: Swift.max(todayDay?.temperatureMax ?? todayHours.max() ?? celsius, celsius),
                humidity: cur["relative_humidity_2m"]?.double,
                pressure: cur["pressure_msl"]?.double ?? cur["surface_pressure"]?.double,
                windSpeed: (cur["wind_speed_10m"]?.double ?? cur["windspeed"]?.double).map {
                    Metric.metresPerSecond($0, unit: wu)
                },
                windDirection: cur["wind_direction_10m"]?.double ?? cur["winddirection"]?.double,
                windGust: cur["wind_gusts_10m"]?.double.map {
                    Metric.metresPerSecond($0, unit: units?["wind_gusts_10m"]?.string ?? wu)
                },
                clouds: cur["cloud_cover"]?.double, visibility: cur["visibility"]?.double,
                rain: rain.isEmpty ? nil : Metric.millimetres(rain.reduce(0, +), unit: pu),
                snow: cur["snowfall"]?.double.map { Metric.millimetres($0, unit: units?["snowfall"]?.string ?? "cm") },
                condition: Conditions.wmo(code, isDay: isDay),
                sunrise: todayDay?.sunrise, sunset: todayDay?.sunset,
                precipitation: cur["precipitation"]?.double.map { Metric.millimetres($0, unit: pu) })
        }
        return Decoded(
            current: current, hours: hours, days: days, minutely: minutely, timeZone: zone,
            timezoneName: tzName, utcOffsetSeconds: offset,
            latitude: json["latitude"]?.double, longitude: json["longitude"]?.double, elevation: json["elevation"]?.double)
    }

    /// An Open-Meteo answer (forecast or air quality) parsed, checked for its error body, with the
    /// time zone its local times are in: the IANA zone when given, else the fixed offset.
    static func body(_ data: Data, provider: String) throws -> (JSONValue, TimeZone, String, Int) {
        let json = try JSONValue.parse(data, provider: provider)
        guard json.object != nil else { throw BrollyError.unreadableResponse("\(provider): not an object") }
        if json["error"]?.bool == true {
            throw BrollyError.unreadableResponse(json["reason"].nonEmptyString ?? "\(provider) error")
        }
        let offset = json["utc_offset_seconds"]?.int ?? 0
        let tzName = json["timezone"].nonEmptyString ?? "GMT"
        let zone =
            (tzName != "GMT" && tzName != "UTC" ? TimeZone(identifier: tzName) : nil)
            ?? TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0)!
        return (json, zone, tzName, offset)
    }

    /// A time as Open-Meteo writes it: Unix seconds, or local wall-clock time in `zone`.
    static func time(_ v: JSONValue?, in zone: TimeZone) -> Date? {
        guard let v else { return nil }
        if case .number = v { return v.epoch }
        return v.string.flatMap { LocalTime.parse($0, in: zone) }
    }

    /// Builds a report for `place` from a forecast answer. Throws `unreadableResponse` when the
    /// answer has no current conditions.
    public static func report(from data: Data, place: Place, fetchedAt: Date) throws -> WeatherReport {
        let decoded = try decode(data, receivedAt: fetchedAt)
        guard var current = decoded.current else {
            throw BrollyError.unreadableResponse("Open-Meteo answer has no current conditions")
        }
        var place = place
        place.timezone = decoded.timezoneName == "GMT" ? Place.offsetLabel(decoded.utcOffsetSeconds) : decoded.timezoneName
        place.utcOffsetSeconds = decoded.timeZone.secondsFromGMT(for: current.time)
        let today = LocalTime.dateString(current.time, in: decoded.timeZone)
        current.temperatureYesterday = temperature(atOrJustBefore: current.time.addingTimeInterval(-86_400), in: decoded.hours)
        let nowcast = decoded.minutely.filter { $0.end > current.time }.prefix(9)
        // Hours for eight days (40 bytes each for every place in memory); the days for all sixteen.
        let lastHourDay = LocalTime.dateString(current.time.addingTimeInterval(8 * 86_400), in: decoded.timeZone)
        let yesterday = LocalTime.dateString(current.time.addingTimeInterval(-86_400), in: decoded.timeZone)
        var report = WeatherReport(
            place: place, current: current,
            days: decoded.days.filter { $0.date >= today },
            // Every hour of the eight days from today's midnight, and yesterday's (the call asks
            // `past_days=1`): a client asking in another zone — UTC for a place west of Greenwich —
            // gets every hour of its day (the compatible APIs: Dark Sky's `extend=hourly` and time
            // machine, Open-Meteo's own `hourly`; the charts); 40 bytes each (see HourForecast).
            hours: decoded.hours.filter {
                let day = LocalTime.dateString($0.time, in: decoded.timeZone)
                return day >= yesterday && day < lastHourDay
            },
            provider: .openMeteo, fetchedAt: fetchedAt, nowcast: nowcast.isEmpty ? nil : Array(nowcast))
        report.elevation = decoded.elevation
        if let lat = decoded.latitude, let lon = decoded.longitude { report.gridPoint = Coordinate(latitude: lat, longitude: lon) }
        return report
    }

    /// The hourly temperature of the slot that holds `instant` (the latest slot starting at or
    /// within an hour before it); nil when the answer has no such slot.
    static func temperature(atOrJustBefore instant: Date, in hours: [HourForecast]) -> Double? {
        hours.last { $0.time <= instant && instant.timeIntervalSince($0.time) < 3600 }?.temperature
    }

    /// Decodes a `/v1/search` answer; a missing `results` key means no match.
    public static func places(from data: Data) throws -> [Place] {
        let json = try JSONValue.parse(data, provider: "Open-Meteo geocoding")
        guard json.object != nil else { throw BrollyError.unreadableResponse("Open-Meteo geocoding: not an object") }
        guard let results = json["results"]?.array else { return [] }
        return results.compactMap { r in
            guard let name = r["name"].nonEmptyString, let lat = r["latitude"]?.double,
                let lon = r["longitude"]?.double, Coordinate(latitude: lat, longitude: lon).isValid
            else { return nil }
            let code = r["country_code"].nonEmptyString?.uppercased()
            return Place(
                name: name, country: r["country"].nonEmptyString ?? Countries.name(forCode: code) ?? code ?? "",
                countryCode: code, region: r["admin1"].nonEmptyString, latitude: lat, longitude: lon,
                timezone: r["timezone"].nonEmptyString ?? "UTC")
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
