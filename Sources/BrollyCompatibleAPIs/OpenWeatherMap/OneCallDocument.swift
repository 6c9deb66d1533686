import BrollyCore
import Foundation

/// OpenWeatherMap's One Call API 3.0 (`/data/3.0/onecall`: what MagicMirror's weather module asks
/// by default, and Home Assistant's and Breezy's OpenWeatherMap sources): current weather, the next
/// hour's minutes, 48 hours, 8 days and the warnings, written from the one view of the weather in
/// OpenWeatherMap's units and field names. A value Brolly has none for is left out, as
/// OpenWeatherMap leaves out rain and snow when none falls.
public enum OneCallFormat {
    /// One Call's names for the view's fields (`ViewField.oneCall`).
    public enum FieldNames: BrollyCore.FieldNames {
        public static func name(of field: ViewField) -> String? { field.oneCall }
    }

    /// The conditions now or of an hour, with the view's fields (`ViewField`) in the same object.
    public typealias Current = SideBySide<Reading, FieldsDocument<FieldNames>>
    /// A day, with the view's fields summed up over its hours in the same object.
    public typealias Day = SideBySide<DayReading, FieldsDocument<FieldNames>>

    public struct Reading: Codable, Sendable {
        public var dt: Int
        public var sunrise: Int?
        public var sunset: Int?
        public var temp: Double
        public var feelsLike: Double?
        public var pressure: Double?
        public var humidity: Double?
        public var uvi: Double?
        public var clouds: Int?
        public var visibility: Int?
        public var windSpeed: Double?
        public var windDeg: Int?
        public var windGust: Double?
        public var weather: [OpenWeatherMapFormat.WeatherItem]
        public var rain: [String: Double]?
        public var snow: [String: Double]?
        /// Hours only: the probability of precipitation, 0–1.
        public var pop: Double?

        enum CodingKeys: String, CodingKey {
            case dt, sunrise, sunset, temp, pressure, humidity, uvi, clouds, visibility, weather, rain, snow, pop
            case feelsLike = "feels_like", windSpeed = "wind_speed", windDeg = "wind_deg", windGust = "wind_gust"
        }
    }

    public struct Minute: Codable, Sendable {
        public var dt: Int
        /// mm/h.
        public var precipitation: Double
    }

    public struct Temperatures: Codable, Sendable {
        public var day: Double?
        public var min: Double?
        public var max: Double?
        public var night: Double?
        public var eve: Double?
        public var morn: Double?
    }

    public struct DayReading: Codable, Sendable {
        public var dt: Int
        public var sunrise: Int?
        public var sunset: Int?
        public var moonPhase: Double
        public var summary: String
        public var temp: Temperatures
        public var feelsLike: Temperatures
        public var pressure: Double?
        public var humidity: Double?
        public var windSpeed: Double?
        public var windDeg: Int?
        public var windGust: Double?
        public var weather: [OpenWeatherMapFormat.WeatherItem]
        public var clouds: Int?
        public var pop: Double?
        /// mm, the day's total (OpenWeatherMap writes a number here, not an object).
        public var rain: Double?
        public var snow: Double?
        public var uvi: Double?

        enum CodingKeys: String, CodingKey {
            case dt, sunrise, sunset, summary, temp, pressure, humidity, weather, clouds, pop, rain, snow, uvi
            case moonPhase = "moon_phase", feelsLike = "feels_like", windSpeed = "wind_speed", windDeg = "wind_deg"
            case windGust = "wind_gust"
        }
    }

    public struct Alert: Codable, Sendable {
        public var senderName: String
        public var event: String
        public var start: Int
        public var end: Int
        public var description: String
        public var tags: [String]

        enum CodingKeys: String, CodingKey {
            case event, start, end, description, tags
            case senderName = "sender_name"
        }
    }

    public struct Document: Codable, Sendable {
        public var lat: Double
        public var lon: Double
        public var timezone: String
        public var timezoneOffset: Int
        public var current: Current?
        public var minutely: [Minute]?
        public var hourly: [Current]?
        public var daily: [Day]?
        public var alerts: [Alert]?

        enum CodingKeys: String, CodingKey {
            case lat, lon, timezone, current, minutely, hourly, daily, alerts
            case timezoneOffset = "timezone_offset"
        }
    }

    static func r(_ v: Double) -> Double { OpenWeatherMapFormat.r(v) }
    static func seconds(_ d: Date?) -> Int? { d.map { Int($0.timeIntervalSince1970) } }

    /// The document written from `v` (in OpenWeatherMap's units), without the blocks in `exclude`.
    public static func document(_ v: WeatherView, exclude: Set<String> = []) -> Document {
        let place = v.place, zone = v.zone, c = v.current, now = v.now
        func t(_ m: Measure<TemperatureUnit>?) -> Double? { m.map { r($0.value) } }
        func speed(_ m: Measure<WindUnit>?) -> Double? { m.map { r($0.value) } }
        // The view's fields, each rounded as One Call writes its kind.
        func fields(_ f: FieldValues?) -> FieldsDocument<FieldNames> {
            FieldsDocument(f) {
                switch $0 {
                case .temperature(let m): r(m.value)
                }
            }
        }
        var d = Document(lat: place.latitude, lon: place.longitude, timezone: place.timezone, timezoneOffset: zone.secondsFromGMT(for: now))
        if !exclude.contains("current") {
            d.current = Current(
                Reading(
                    dt: Int(now.timeIntervalSince1970), sunrise: seconds(v.sky.sunrise), sunset: seconds(v.sky.sunset),
                    temp: r(c.temperature.value), feelsLike: t(c.feelsLike), pressure: c.pressure.map { r($0.base) }, humidity: c.humidity,
                    uvi: v.uvNow,
                    clouds: c.clouds.map { Int($0.rounded()) }, visibility: c.visibility.map { Int(min($0.base, 10_000).rounded()) },
                    windSpeed: speed(c.wind), windDeg: OpenWeatherMapFormat.degrees(c.windDirection), windGust: speed(c.gust),
                    weather: [OpenWeatherMapFormat.WeatherItem(c.condition, of: v, isDay: c.isDay)],
                    rain: c.rain.flatMap { $0.base > 0 ? ["1h": r($0.base)] : nil },
                    snow: c.snowWater.flatMap { $0.base > 0 ? ["1h": r($0.base)] : nil }), fields(c.fields))
        }
        if !exclude.contains("minutely"), let slots = v.nowcast, !slots.isEmpty {
            let start = Int(now.timeIntervalSince1970 / 60) * 60
            d.minutely = (0...60).compactMap { i in
                let at = Date(timeIntervalSince1970: TimeInterval(start + i * 60))
                guard let slot = slots.first(where: { $0.end > at && $0.end.addingTimeInterval(-900) <= at }) else { return nil }
                return Minute(dt: start + i * 60, precipitation: r(slot.precipitation * 4))
            }
        }
        if !exclude.contains("hourly") {
            d.hourly = v.hours.prefix(48).map { h in
                let fallen = h.precipitation.flatMap { $0.base > 0 ? ["1h": r($0.base)] : nil }
                return Current(
                    Reading(
                        dt: Int(h.time.timeIntervalSince1970), temp: r(h.temperature.value), feelsLike: t(h.feelsLike),
                        pressure: h.pressure.map { r($0.base) }, humidity: h.humidity,
                        uvi: h.uvIndex, clouds: h.clouds.map { Int($0.rounded()) }, windSpeed: speed(h.wind),
                        windDeg: OpenWeatherMapFormat.degrees(h.windDirection), windGust: speed(h.gust),
                        weather: [OpenWeatherMapFormat.WeatherItem(h.condition, of: v, isDay: h.isDay)],
                        rain: h.condition.isSnow ? nil : fallen,
                        snow: h.condition.isSnow ? fallen : nil, pop: h.chance.map { r($0 / 100) }), fields(h.fields))
            }
        }
        if !exclude.contains("daily") {
            let timeline = v.timeline()
            d.daily = v.days.prefix(8).compactMap { day in
                guard let noon = LocalTime.parse(day.date + "T12:00", in: zone) else { return nil }
                // The day's morning, day, evening and night temperatures: its hours at 06, 12, 18 and 00 (the next midnight).
                func at(_ hour: Int) -> WeatherView.Hour? {
                    let instant = noon.addingTimeInterval(TimeInterval((hour - 12) * 3600))
                    return timeline.last { $0.time <= instant && instant.timeIntervalSince($0.time) < 3 * 3600 }
                }
                let (morn, mid, eve, night) = (at(6), at(12), at(18), at(24))
                let fallen = day.precipitation.flatMap { $0.base > 0 ? r($0.base) : nil }
                let h = day.hourly
                return Day(
                    DayReading(
                        dt: Int(noon.timeIntervalSince1970), sunrise: seconds(day.sunrise), sunset: seconds(day.sunset),
                        moonPhase: r(day.moonAge / 29.530_588), summary: day.condition.description,
                        temp: Temperatures(
                            day: t(mid?.temperature), min: t(day.low), max: t(day.high), night: t(night?.temperature),
                            eve: t(eve?.temperature), morn: t(morn?.temperature)),
                        feelsLike: Temperatures(
                            day: t(mid?.feelsLike), night: t(night?.feelsLike), eve: t(eve?.feelsLike), morn: t(morn?.feelsLike)),
                        pressure: h?.pressure.map { r($0.base) }, humidity: h?.humidity.map { $0.rounded() },
                        windSpeed: speed(h?.windMax),
                        windDeg: OpenWeatherMapFormat.degrees(h?.windDirection), windGust: speed(h?.gustMax),
                        weather: [OpenWeatherMapFormat.WeatherItem(day.condition, of: v, isDay: true)],
                        clouds: h?.clouds.map { Int($0.rounded()) },
                        pop: day.chance.map { r($0 / 100) }, rain: day.condition.isSnow ? nil : fallen,
                        snow: day.condition.isSnow ? fallen : nil,
                        uvi: h?.uvMax), fields(h?.fields))
            }
        }
        if !exclude.contains("alerts"), let here = v.alerts, !here.isEmpty {
            d.alerts = here.map { a in
                Alert(
                    senderName: a.sender, event: a.event, start: Int((a.onset ?? a.sent ?? now).timeIntervalSince1970),
                    end: Int((a.expires ?? now.addingTimeInterval(86_400)).timeIntervalSince1970), description: a.description,
                    tags: [a.severity.rawValue.prefix(1).uppercased() + a.severity.rawValue.dropFirst()])
            }
        }
        return d
    }
}
