import Foundation

extension OpenMeteoProvider {
    /// How far back Open-Meteo's forecast API answers a date (its `past_days` limit).
    public static let pastDaysKept = 92

    /// The query for a past local day at `c` (`start_date` = `end_date` = `day`, in the place's
    /// zone): the hours and the day as the forecast call asks them, from Open-Meteo's archive of
    /// its past runs — the Dark Sky time machine for the days before yesterday.
    public static func pastDayQuery(_ c: Coordinate, day: String) -> [(String, String)] {
        [
            ("latitude", String(format: "%.4f", c.latitude)), ("longitude", String(format: "%.4f", c.longitude)),
            ("hourly", hourlyFields.joined(separator: ",")), ("daily", dailyFields.joined(separator: ",")), ("timezone", "auto"),
            ("start_date", day), ("end_date", day), ("temperature_unit", "celsius"), ("wind_speed_unit", "ms"),
            ("precipitation_unit", "mm"),
        ]
    }

    /// The past day in `data` (the answer to `pastDayQuery`) as a report for `place`: its hours and
    /// the day, the day's noon hour standing for its "current" reading.
    public static func pastDayReport(from data: Data, place: Place, fetchedAt: Date) throws -> WeatherReport {
        let decoded = try decode(data, receivedAt: fetchedAt)
        let noon =
            decoded.hours.first {
                LocalTime.dateString($0.time, in: decoded.timeZone) == decoded.days.first?.date && hour($0.time, decoded.timeZone) == 12
            }
            ?? decoded.hours.first
        guard let noon else { throw BrollyError.unreadableResponse("Open-Meteo's answer for a past day has no hours") }
        let day = decoded.days.first
        let temperatures = decoded.hours.map(\.temperature)
        var place = place
        place.timezone = decoded.timezoneName == "GMT" ? Place.offsetLabel(decoded.utcOffsetSeconds) : decoded.timezoneName
        place.utcOffsetSeconds = decoded.timeZone.secondsFromGMT(for: noon.time)
        let current = CurrentConditions(
            time: noon.time, temperature: noon.temperature, feelsLike: noon.feelsLike,
            temperatureMin: day?.temperatureMin ?? temperatures.min() ?? noon.temperature,
            temperatureMax: day?.temperatureMax ?? temperatures.max() ?? noon.temperature, humidity: noon.humidity,
            pressure: noon.pressure, windSpeed: noon.windSpeed, windDirection: noon.windDirection, windGust: noon.windGust,
            clouds: noon.clouds, rain: noon.precipitation, condition: noon.condition, sunrise: day?.sunrise, sunset: day?.sunset)
        var report = WeatherReport(
            place: place, current: current, days: decoded.days, hours: decoded.hours, provider: .openMeteo, fetchedAt: fetchedAt)
        report.elevation = decoded.elevation
        return report
    }

    static func hour(_ t: Date, _ zone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.component(.hour, from: t)
    }
}
