import Foundation

extension OpenWeatherMapProvider {
    /// What a One Call (2.5 / 3.0) answer holds, in the units it was requested in.
    public struct OneCall: Sendable {
        public var current: CurrentConditions?
        public var hours: [HourForecast]
        public var days: [DayForecast]
        public var zone: TimeZone
        public var latitude: Double?
        public var longitude: Double?
    }

    /// Decodes a One Call answer; every block (current, hourly, daily, minutely) is optional.
    public static func oneCall(from data: Data) throws -> OneCall {
        let json = try JSONValue.parse(data, provider: "OpenWeatherMap")
        try checkCod(json)
        guard json.object != nil else { throw BrollyError.unreadableResponse("One Call: not an object") }
        let zone =
            json["timezone"]?.string.flatMap(TimeZone.init(identifier:))
            ?? TimeZone(secondsFromGMT: json["timezone_offset"]?.int ?? 0) ?? TimeZone(secondsFromGMT: 0)!
        func date(_ v: JSONValue?) -> Date? { v?.epoch }
        var current: CurrentConditions?
        if let c = json["current"], let temp = c["temp"]?.double, let dt = date(c["dt"]) {
            current = CurrentConditions(
                time: dt, temperature: temp, feelsLike: c["feels_like"]?.double, temperatureMin: temp, temperatureMax: temp,
                humidity: c["humidity"]?.double, pressure: c["pressure"]?.double, windSpeed: c["wind_speed"]?.double,
                windDirection: c["wind_deg"]?.double, windGust: c["wind_gust"]?.double, clouds: c["clouds"]?.double,
                visibility: c["visibility"]?.double, rain: volume(c["rain"]), snow: volume(c["snow"]),
                condition: condition(c, isDay: nil), sunrise: date(c["sunrise"]), sunset: date(c["sunset"]))
        }
        let hours: [HourForecast] = (json["hourly"]?.array ?? []).compactMap { h in
            guard let dt = date(h["dt"]), let temp = h["temp"]?.double else { return nil }
            return HourForecast(
                time: dt, temperature: temp, precipitationProbability: h["pop"]?.double.map { $0 * 100 },
                precipitation: volume(h["rain"]), windSpeed: h["wind_speed"]?.double, condition: condition(h, isDay: nil),
                feelsLike: h["feels_like"]?.double, humidity: h["humidity"]?.double, pressure: h["pressure"]?.double,
                clouds: h["clouds"]?.double, windDirection: h["wind_deg"]?.double, windGust: h["wind_gust"]?.double,
                uvIndex: h["uvi"]?.double)
        }
        let days: [DayForecast] = (json["daily"]?.array ?? []).compactMap { d in
            guard let dt = date(d["dt"]), let min = d["temp"]?["min"]?.double, let max = d["temp"]?["max"]?.double else { return nil }
            let amounts = [d["rain"]?.double, d["snow"]?.double].compactMap { $0 }
            return DayForecast(
                date: LocalTime.dateString(dt, in: zone), temperatureMin: min, temperatureMax: max,
                precipitation: amounts.isEmpty ? nil : amounts.reduce(0, +),
                precipitationProbability: d["pop"]?.double.map { $0 * 100 }, condition: condition(d, isDay: true),
                sunrise: date(d["sunrise"]), sunset: date(d["sunset"]))
        }
        return OneCall(
            current: current, hours: hours, days: days, zone: zone, latitude: json["lat"]?.double, longitude: json["lon"]?.double)
    }
}
