import Foundation

/// OpenWeatherMap: current weather 2.5, 5 day / 3 hour forecast 2.5, geocoding 1.0.
public struct OpenWeatherMapProvider: WeatherProvider {
    public let id = ProviderID.openWeatherMap
    public var network: NetworkService
    public var baseURL: URL
    var apiKey: String
    public var now: @Sendable () -> Date

    public init(network: NetworkService, baseURL: URL, apiKey: String, now: @escaping @Sendable () -> Date) {
        self.network = network
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.now = now
    }

    func url(_ path: String, _ query: [(String, String)]) -> URL {
        baseURL.appending(providerPath: path, query: query + [("appid", apiKey)])
    }

    func coordinateQuery(_ c: Coordinate) -> [(String, String)] {
        [("lat", String(format: "%.4f", c.latitude)), ("lon", String(format: "%.4f", c.longitude))]
    }

    public func weather(for place: Place) async throws -> WeatherReport {
        try await weather(for: place, language: "en")
    }

    /// Asks for OpenWeatherMap's own descriptions in `language` (`lang=`); the report says which.
    public func weather(for place: Place, language: String) async throws -> WeatherReport {
        let lang = language.lowercased().prefix { $0.isLetter }
        var q = coordinateQuery(place.coordinate) + [("units", "metric")]
        if !lang.isEmpty && lang != "en" { q.append(("lang", String(lang))) }
        var report = try await weatherReport(for: place, query: q)
        report.language = lang.isEmpty || lang == "en" ? nil : String(lang)
        return report
    }

    func weatherReport(for place: Place, query q: [(String, String)]) async throws -> WeatherReport {
        async let current = network.get(url("/data/2.5/weather", q), provider: "OpenWeatherMap", classify: Self.classifyError)
        async let forecast = network.get(url("/data/2.5/forecast", q), provider: "OpenWeatherMap", classify: Self.classifyError)
        return try await Self.report(current: current.body, forecast: forecast.body, place: place, fetchedAt: now())
    }

    public func search(_ query: String, limit: Int = 5) async throws -> [Place] {
        try await search(query, limit: limit, language: "en")
    }

    public func search(_ query: String, limit: Int, language: String) async throws -> [Place] {
        let response = try await network.get(
            url("/geo/1.0/direct", [("q", query), ("limit", String(min(limit, 5)))]),
            provider: "OpenWeatherMap geocoding", classify: Self.classifyError)
        let places = try Self.places(from: response.body, language: language)
        if places.isEmpty { throw BrollyError.placeNotFound("\"\(query)\"") }
        return places
    }

    /// The place of OpenWeatherMap's city `id` (its own list of cities: pyowm's `weather_at_id`,
    /// MagicMirror's `locationID`), from its current weather for that id.
    public func city(id: Int) async throws -> Place {
        let response = try await network.get(
            url("/data/2.5/weather", [("id", String(id))]), provider: "OpenWeatherMap", classify: Self.classifyError)
        let (_, place, _) = try Self.current(from: response.body)
        guard place.coordinate.isValid, place.latitude != 0 || place.longitude != 0 else {
            throw BrollyError.unreadableResponse("OpenWeatherMap's city \(id) has no coordinates")
        }
        return place
    }

    public func reverse(_ coordinate: Coordinate) async throws -> Place? {
        let response = try await network.get(
            url("/geo/1.0/reverse", coordinateQuery(coordinate) + [("limit", "1")]),
            provider: "OpenWeatherMap geocoding", classify: Self.classifyError)
        return try Self.places(from: response.body).first
    }

    /// Turns OpenWeatherMap's error bodies (`{"cod": 401 | "404", "message": ...}`) into typed errors.
    @Sendable public static func classifyError(_ response: HTTPResponse) -> BrollyError? {
        let json = try? JSONValue.parse(response.body, provider: "OpenWeatherMap")
        let cod = json?["cod"]?.int ?? response.status
        let message = json?["message"].nonEmptyString
        return error(cod: cod, message: message)
    }

    /// The typed error for an error code and message; nil for a success code.
    public static func error(cod: Int, message: String?) -> BrollyError? {
        switch cod {
        case 200..<300: return nil
        case 401: return .invalidAPIKey("OpenWeatherMap")
        case 404: return .placeNotFound(message.map { "the location (\($0))" } ?? "the location")
        case 429: return .rateLimited(retryAfter: nil)
        case 500..<600: return .providerUnavailable(message ?? "HTTP \(cod)")
        default: return BrollyError(.providerUnavailable, "OpenWeatherMap refused the request: \(message ?? "code \(cod)")")
        }
    }

    // MARK: - Decoding

    static func checkCod(_ json: JSONValue) throws {
        if let cod = json["cod"]?.int, let error = error(cod: cod, message: json["message"].nonEmptyString) {
            throw error
        }
    }

    static func condition(_ json: JSONValue, isDay: Bool?) -> Condition {
        let entries = json["weather"]?.array ?? []
        guard let first = entries.first, let id = first["id"]?.int else { return Conditions.wmo(-1) }
        let day = isDay ?? !(first["icon"]?.string?.hasSuffix("n") ?? false)
        var c = Conditions.openWeatherMap(
            id: id, main: first["main"].nonEmptyString, description: first["description"].nonEmptyString, isDay: day)
        // Several conditions at once ("light rain", "mist"): say them all, most important first.
        let descriptions = entries.compactMap { $0["description"].nonEmptyString }
        if descriptions.count > 1 { c.description = descriptions.joined(separator: ", ") }
        return c
    }

    /// Rain or snow volume: `{"1h": x}`, `{"3h": x}`, `{}` or absent.
    static func volume(_ json: JSONValue?) -> Double? {
        json?["1h"]?.double ?? json?["3h"]?.double
    }

    /// Decodes a `/data/2.5/weather` answer (metric) into current conditions and its place.
    public static func current(from data: Data) throws -> (CurrentConditions, Place, TimeZone) {
        let json = try JSONValue.parse(data, provider: "OpenWeatherMap")
        try checkCod(json)
        guard let main = json["main"], let temp = main["temp"]?.double, let time = json["dt"]?.epoch else {
            throw BrollyError.unreadableResponse("OpenWeatherMap current weather lacks main.temp or dt")
        }
        let offset = json["timezone"]?.int ?? 0
        let zone = TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0)!
        let sys = json["sys"]
        let code = sys?["country"].nonEmptyString?.uppercased()
        let place = Place(
            name: json["name"].nonEmptyString ?? "", country: Countries.name(forCode: code) ?? code ?? "",
            countryCode: code, latitude: json["coord"]?["lat"]?.double ?? 0,
            longitude: json["coord"]?["lon"]?.double ?? 0,
            timezone: json["timezone"] == nil ? "UTC" : Place.offsetLabel(offset), utcOffsetSeconds: offset)
        let rain = volume(json["rain"]), snow = volume(json["snow"])
        let current = CurrentConditions(
            time: time, temperature: temp, feelsLike: main["feels_like"]?.double,
            temperatureMin: main["temp_min"]?.double ?? temp, temperatureMax: main["temp_max"]?.double ?? temp,
            humidity: main["humidity"]?.double, pressure: main["pressure"]?.double,
            windSpeed: json["wind"]?["speed"]?.double, windDirection: json["wind"]?["deg"]?.double,
            windGust: json["wind"]?["gust"]?.double, clouds: json["clouds"]?["all"]?.double,
            // OpenWeatherMap's snow is the water it makes (mm); Brolly keeps fresh snow as a depth.
            visibility: json["visibility"]?.double, rain: rain, snow: snow.map(SnowUnit.depth(ofWater:)),
            condition: condition(json, isDay: nil),
            sunrise: sys?["sunrise"]?.epoch,
            sunset: sys?["sunset"]?.epoch,
            precipitation: rain == nil && snow == nil ? nil : (rain ?? 0) + (snow ?? 0))
        return (current, place, zone)
    }

    /// Decodes a `/data/2.5/forecast` answer (metric) into 3-hour slots and the city's offset.
    public static func forecast(from data: Data) throws -> (slots: [HourForecast], city: Place, zone: TimeZone) {
        let json = try JSONValue.parse(data, provider: "OpenWeatherMap")
        try checkCod(json)
        guard let list = json["list"]?.array else {
            throw BrollyError.unreadableResponse("OpenWeatherMap forecast lacks list")
        }
        let city = json["city"]
        let offset = city?["timezone"]?.int ?? 0
        let zone = TimeZone(secondsFromGMT: offset) ?? TimeZone(secondsFromGMT: 0)!
        let slots: [HourForecast] = list.compactMap { item in
            guard let time = item["dt"]?.epoch, let temp = item["main"]?["temp"]?.double else { return nil }
            let pod = item["sys"]?["pod"]?.string
            let rain = volume(item["rain"]), snow = volume(item["snow"])
            let amounts = [rain, snow].compactMap { $0 }
            return HourForecast(
                time: time, temperature: temp,
                precipitationProbability: item["pop"]?.double.map { ($0 * 100).rounded() },
                precipitation: amounts.isEmpty ? nil : amounts.reduce(0, +),
                windSpeed: item["wind"]?["speed"]?.double,
                condition: condition(item, isDay: pod.map { $0 == "d" }), feelsLike: item["main"]?["feels_like"]?.double,
                humidity: item["main"]?["humidity"]?.double, pressure: item["main"]?["pressure"]?.double,
                clouds: item["clouds"]?["all"]?.double, windDirection: item["wind"]?["deg"]?.double,
                windGust: item["wind"]?["gust"]?.double)
        }
        let code = city?["country"].nonEmptyString?.uppercased()
        let place = Place(
            name: city?["name"].nonEmptyString ?? "", country: Countries.name(forCode: code) ?? code ?? "",
            countryCode: code, latitude: city?["coord"]?["lat"]?.double ?? 0,
            longitude: city?["coord"]?["lon"]?.double ?? 0,
            timezone: city?["timezone"] == nil ? "UTC" : Place.offsetLabel(offset), utcOffsetSeconds: offset)
        return (slots, place, zone)
    }

    /// Combines current weather and the 3-hour forecast into a report, days grouped by local date.
    public static func report(current currentData: Data, forecast forecastData: Data, place: Place, fetchedAt: Date) throws -> WeatherReport
    {
        var (current, owmPlace, zone) = try current(from: currentData)
        let forecast = try forecast(from: forecastData)
        if forecast.city.utcOffsetSeconds != nil && owmPlace.utcOffsetSeconds == 0 { zone = forecast.zone }
        var days = DayGrouping.days(from: forecast.slots, in: zone)
        let today = LocalTime.dateString(current.time, in: zone)
        // Today's range: the current reading and what the forecast says for the rest of today.
        if let index = days.firstIndex(where: { $0.date == today }) {
            days[index].temperatureMin = min(days[index].temperatureMin, current.temperature)
            days[index].temperatureMax = max(days[index].temperatureMax, current.temperature)
            current.temperatureMin = days[index].temperatureMin
            current.temperatureMax = days[index].temperatureMax
            days[index].sunrise = current.sunrise
            days[index].sunset = current.sunset
        } else {
            current.temperatureMin = min(current.temperature, current.temperatureMin)
            current.temperatureMax = max(current.temperature, current.temperatureMax)
            days.insert(
                DayForecast(
                    date: today, temperatureMin: current.temperatureMin, temperatureMax: current.temperatureMax,
                    precipitation: current.rain, condition: current.condition,
                    sunrise: current.sunrise, sunset: current.sunset), at: 0)
        }
        var named = place
        if named.country.isEmpty && !owmPlace.name.isEmpty {
            named.name = owmPlace.name
            named.country = owmPlace.country
            named.countryCode = owmPlace.countryCode
        }
        named.timezone = owmPlace.timezone
        named.utcOffsetSeconds = zone.secondsFromGMT()
        return WeatherReport(
            place: named, current: current, days: days.filter { $0.date >= today },
            hours: Array(forecast.slots.filter { $0.time > current.time.addingTimeInterval(-3 * 3600) }.prefix(40)),
            provider: .openWeatherMap, fetchedAt: fetchedAt)
    }

    /// Decodes a geocoding 1.0 answer (`direct` or `reverse`): an array of places, named in
    /// `language` where the answer's `local_names` has it, else in English.
    public static func places(from data: Data, language: String = "en") throws -> [Place] {
        let json = try JSONValue.parse(data, provider: "OpenWeatherMap geocoding")
        if json.object != nil { try checkCod(json) }
        guard let list = json.array else { throw BrollyError.unreadableResponse("OpenWeatherMap geocoding: not a list") }
        return list.compactMap { r in
            guard let lat = r["lat"]?.double, let lon = r["lon"]?.double,
                Coordinate(latitude: lat, longitude: lon).isValid
            else { return nil }
            let local = r["local_names"]
            let name = local?[Localization.baseCode(language)].nonEmptyString ?? local?["en"].nonEmptyString ?? r["name"].nonEmptyString
            guard let name else { return nil }
            let code = r["country"].nonEmptyString?.uppercased()
            return Place(
                name: name, country: Countries.name(forCode: code) ?? code ?? "", countryCode: code,
                region: r["state"].nonEmptyString, latitude: lat, longitude: lon)
        }
    }
}
