import BrollyCore
import Foundation

/// Open-Meteo's answer written from a Brolly report.
public enum OpenMeteoFormat {
    /// What Brolly keeps, by every name Open-Meteo accepts for it (the current and the legacy ones).
    enum Variable: Sendable {
        case temperature, humidity, apparent, isDay, precipitation, rain, snowfall, weatherCode, cloudCover, pressure, windSpeed
        case windDirection, windGusts, visibility, probability, maxTemperature, minTemperature, precipitationSum, probabilityMax
        case sunrise, sunset, uvIndex, windSpeedMax, windGustsMax, windDirectionDominant, uvIndexMax, apparentMax, apparentMin
    }

    static let currentNames: [String: Variable] = [
        "temperature_2m": .temperature, "relative_humidity_2m": .humidity, "relativehumidity_2m": .humidity,
        "apparent_temperature": .apparent, "is_day": .isDay, "precipitation": .precipitation, "rain": .rain, "snowfall": .snowfall,
        "weather_code": .weatherCode, "weathercode": .weatherCode, "cloud_cover": .cloudCover, "cloudcover": .cloudCover,
        "pressure_msl": .pressure, "wind_speed_10m": .windSpeed, "windspeed_10m": .windSpeed, "wind_direction_10m": .windDirection,
        "winddirection_10m": .windDirection, "wind_gusts_10m": .windGusts, "windgusts_10m": .windGusts, "visibility": .visibility,
    ]
    static let hourlyNames: [String: Variable] = [
        "temperature_2m": .temperature, "precipitation_probability": .probability, "precipitation": .precipitation,
        "weather_code": .weatherCode, "weathercode": .weatherCode, "is_day": .isDay, "wind_speed_10m": .windSpeed,
        "windspeed_10m": .windSpeed, "apparent_temperature": .apparent, "relative_humidity_2m": .humidity,
        "relativehumidity_2m": .humidity, "pressure_msl": .pressure, "cloud_cover": .cloudCover, "cloudcover": .cloudCover,
        "wind_direction_10m": .windDirection, "winddirection_10m": .windDirection, "wind_gusts_10m": .windGusts,
        "windgusts_10m": .windGusts, "uv_index": .uvIndex,
    ]
    static let dailyNames: [String: Variable] = [
        "weather_code": .weatherCode, "weathercode": .weatherCode, "temperature_2m_max": .maxTemperature,
        "temperature_2m_min": .minTemperature, "precipitation_sum": .precipitationSum,
        "precipitation_probability_max": .probabilityMax, "sunrise": .sunrise, "sunset": .sunset,
        "wind_speed_10m_max": .windSpeedMax, "windspeed_10m_max": .windSpeedMax, "wind_gusts_10m_max": .windGustsMax,
        "windgusts_10m_max": .windGustsMax, "wind_direction_10m_dominant": .windDirectionDominant,
        "winddirection_10m_dominant": .windDirectionDominant, "uv_index_max": .uvIndexMax, "apparent_temperature_max": .apparentMax,
        "apparent_temperature_min": .apparentMin,
    ]

    /// The WMO code for a condition: its own when Open-Meteo answered, else the family's.
    static func wmo(_ c: Condition, provider: ProviderID) -> Int {
        if provider == .openMeteo, c.code >= 0 { return c.code }
        switch c.kind {
        case .clear: return 0
        case .mostlyClear: return 1
        case .partlyCloudy: return 2
        case .overcast, .unknown: return 3
        case .fog: return 45
        case .drizzle: return 53
        case .rain: return 63
        case .freezingRain: return 66
        case .sleet: return 67
        case .snow: return 73
        case .showers: return 81
        case .snowShowers: return 85
        case .thunderstorm: return 95
        }
    }

    /// The answer to `q` from `result` (whose report holds everything `q` asks: see
    /// `OpenMeteoQuery.isAnsweredFromCache`). Times are in the zone asked; an hour Brolly does not
    /// have (before today's midnight at the place) is null, as Open-Meteo writes a missing value.
    public static func document(_ q: OpenMeteoQuery, result: WeatherResult, now: Date = Date()) -> JSONValue {
        let report = result.report
        let place = report.place
        let zone = q.timezone == "auto" ? place.timeZone : TimeZone(identifier: q.timezone) ?? TimeZone(identifier: "GMT")!
        let zoneName = q.timezone == "auto" ? place.timezone : q.timezone
        let unix = q.timeformat == "unixtime"
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        func formatter(_ format: String) -> DateFormatter {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = zone
            f.dateFormat = format
            return f
        }
        let minuteStamp = formatter("yyyy-MM-dd'T'HH:mm"), dayStamp = formatter("yyyy-MM-dd")
        func time(_ d: Date, day: Bool = false) -> JSONValue {
            if unix { return .number(d.timeIntervalSince1970) }
            return .string((day ? dayStamp : minuteStamp).string(from: d))
        }
        func num(_ v: Double?, _ decimals: Int = 1) -> JSONValue { v.map { .number(Rounding.round($0, decimals)) } ?? .null }
        let f = q.temperatureUnit == "fahrenheit"
        let degrees: TemperatureUnit = f ? .fahrenheit : .celsius
        // Open-Meteo's wind tokens are Brolly's (kmh, ms, mph, kn); its `inch` is Brolly's `in`.
        let wind = WindUnit(rawValue: q.windSpeedUnit) ?? .kmh
        let inch = q.precipitationUnit == "inch"
        let rain: PrecipitationUnit = inch ? .inch : .mm
        // Open-Meteo's snowfall is in cm where rain is in mm, else inches: the snow unit that goes with it.
        let snowUnit = rain.snow
        // Written from the one view of the weather in the units asked: nothing is derived here but
        // the days of another zone than the place's.
        let view = WeatherView(
            result, units: UnitChoice(temperature: degrees, wind: wind, pressure: .hpa, precipitation: rain, distance: .m), now: now)
        func temp(_ m: Measure<TemperatureUnit>?) -> JSONValue { num(m?.value) }
        func speed(_ m: Measure<WindUnit>?) -> JSONValue { num(m?.value, wind == .ms ? 2 : 1) }
        func depth(_ m: Measure<PrecipitationUnit>?) -> JSONValue { num(m?.value, inch ? 3 : 2) }
        func depth(mm: Double?) -> JSONValue { depth(mm.map { Measure($0, in: rain) }) }
        func snow(_ m: Measure<SnowUnit>?) -> JSONValue { num(m?.value, inch ? 3 : 2) }
        let timeline = view.timeline()
        // Open-Meteo's label of the wind unit asked.
        let speedLabel = ["ms": "m/s", "mph": "mp/h", "kn": "kn"][q.windSpeedUnit] ?? "km/h"
        let units: [Variable: String] = [
            .temperature: degrees.symbol, .apparent: degrees.symbol, .maxTemperature: degrees.symbol, .minTemperature: degrees.symbol,
            .apparentMax: degrees.symbol, .apparentMin: degrees.symbol, .uvIndex: "", .uvIndexMax: "", .windDirectionDominant: "°",
            .humidity: "%", .cloudCover: "%", .probability: "%", .probabilityMax: "%", .isDay: "", .weatherCode: "wmo code",
            .pressure: "hPa", .windDirection: "°", .visibility: "m", .sunrise: unix ? "unixtime" : "iso8601",
            .sunset: unix ? "unixtime" : "iso8601", .precipitation: inch ? "inch" : "mm", .rain: inch ? "inch" : "mm",
            .precipitationSum: inch ? "inch" : "mm", .snowfall: inch ? "inch" : "cm",
            .windSpeed: speedLabel, .windGusts: speedLabel, .windSpeedMax: speedLabel, .windGustsMax: speedLabel,
        ]

        var out: [String: JSONValue] = [
            "latitude": .number(place.latitude), "longitude": .number(place.longitude), "generationtime_ms": .number(0.1),
            "utc_offset_seconds": .number(Double(zone.secondsFromGMT(for: now))), "timezone": .string(zoneName),
            "timezone_abbreviation": .string(zone.abbreviation(for: now) ?? "GMT"),
        ]
        if let elevation = report.elevation { out["elevation"] = .number(elevation) }

        let c = view.current
        if !q.current.isEmpty {
            var block: [String: JSONValue] = ["time": time(c.time), "interval": .number(900)]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601"), "interval": .string("seconds")]
            // Open-Meteo's precipitation is the rain and the snow's water together.
            let water = (c.rain?.base ?? 0) + SnowUnit.water(ofDepth: c.snow?.base ?? 0)
            for name in q.current {
                guard let v = currentNames[name] else { continue }
                u[name] = .string(units[v] ?? "")
                block[name] =
                    switch v {
                    case .temperature: temp(c.temperature)
                    case .apparent: temp(c.feelsLike)
                    case .humidity: num(c.humidity, 0)
                    case .isDay: .number(c.isDay ? 1 : 0)
                    case .precipitation: depth(mm: c.rain == nil && c.snow == nil ? nil : water)
                    case .rain: depth(c.rain)
                    case .snowfall: snow(c.snow)
                    case .weatherCode: .number(Double(wmo(c.condition.condition, provider: report.provider)))
                    case .cloudCover: num(c.clouds, 0)
                    case .pressure: num(c.pressure?.base)
                    case .windSpeed: speed(c.wind)
                    case .windDirection: num(c.windDirection, 0)
                    case .windGusts: speed(c.gust)
                    case .visibility: num(c.visibility?.value, 0)
                    default: .null
                    }
            }
            out["current"] = .object(block)
            out["current_units"] = .object(u)
        }
        if q.currentWeather {
            out["current_weather"] = .object([
                "time": time(c.time), "interval": .number(900), "temperature": temp(c.temperature), "windspeed": speed(c.wind),
                "winddirection": num(c.windDirection, 0), "is_day": .number(c.isDay ? 1 : 0),
                "weathercode": .number(Double(wmo(c.condition.condition, provider: report.provider))),
            ])
            out["current_weather_units"] = .object([
                "time": .string(unix ? "unixtime" : "iso8601"), "interval": .string("seconds"),
                "temperature": .string(units[.temperature]!),
                "windspeed": .string(units[.windSpeed]!), "winddirection": .string("°"), "is_day": .string(""),
                "weathercode": .string("wmo code"),
            ])
        }

        // The days asked, from today's midnight in the zone asked.
        let today = cal.startOfDay(for: now)
        let dayStarts = (0..<q.forecastDays).compactMap { cal.date(byAdding: .day, value: $0, to: today) }
        if !q.hourly.isEmpty, let end = cal.date(byAdding: .day, value: q.forecastDays, to: today) {
            let byTime = Dictionary(timeline.map { ($0.time, $0) }, uniquingKeysWith: { a, _ in a })
            var times: [Date] = []
            var t = today
            while t < end {
                times.append(t)
                t = t.addingTimeInterval(3600)
            }
            var block: [String: JSONValue] = ["time": .array(times.map { time($0) })]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601")]
            for name in q.hourly {
                guard let v = hourlyNames[name] else { continue }
                u[name] = .string(units[v] ?? "")
                block[name] = .array(
                    times.map { t in
                        guard let h = byTime[t] else { return .null }
                        return switch v {
                        case .temperature: temp(h.temperature)
                        case .probability: num(h.chance, 0)
                        case .precipitation: depth(h.precipitation)
                        case .weatherCode: .number(Double(wmo(h.condition.condition, provider: report.provider)))
                        case .isDay: .number(h.isDay ? 1 : 0)
                        case .windSpeed: speed(h.wind)
                        case .apparent: temp(h.feelsLike)
                        case .humidity: num(h.humidity, 0)
                        case .pressure: num(h.pressure?.base)
                        case .cloudCover: num(h.clouds, 0)
                        case .windDirection: num(h.windDirection, 0)
                        case .windGusts: speed(h.gust)
                        case .uvIndex: num(h.uvIndex, 2)
                        default: .null
                        }
                    })
            }
            out["hourly"] = .object(block)
            out["hourly_units"] = .object(u)
        }

        if !q.daily.isEmpty {
            // The place's own days when the zone asked is the place's; else each day of the zone
            // asked from the hours in it (sunrise and sunset computed).
            let sameZone = zone.secondsFromGMT(for: now) == place.timeZone.secondsFromGMT(for: now)
            let byDate = Dictionary(view.days.map { ($0.date, $0) }, uniquingKeysWith: { a, _ in a })
            var block: [String: JSONValue] = ["time": .array(dayStarts.map { time($0, day: true) })]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601")]
            // What each day is made of, worked out once for every variable asked.
            let facts = dayStarts.map { start in
                let end = cal.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
                let hours = timeline.filter { $0.time >= start && $0.time < end }
                // The day's hours to its end; those before the report's first hour (before
                // midnight at the place: past) may be missing, at most half of them.
                let upToEnd = hours.last.map { $0.time.addingTimeInterval(3600) >= end } ?? false
                let day = sameZone ? byDate[LocalTime.dateString(start, in: zone)] : nil
                return (
                    hours: hours, day: day, summary: day?.hourly ?? WeatherView.HourlySummary(hours, units: view.units),
                    sun: SkyCalculator.sunTimes(on: start.addingTimeInterval(12 * 3600), in: zone, at: place.coordinate),
                    whole: upToEnd && hours.count >= 12
                )
            }
            for name in q.daily {
                guard let v = dailyNames[name] else { continue }
                u[name] = .string(units[v] ?? "")
                block[name] = .array(
                    facts.map { (hours, day, summary, sun, whole) in
                        if !sameZone && !whole && v != .sunrise && v != .sunset { return .null }
                        if sameZone && day == nil && v != .sunrise && v != .sunset { return .null }
                        switch v {
                        case .weatherCode:
                            let worst = day?.condition.condition ?? Condition.worst(hours.map(\.condition.condition))
                            return worst.map { .number(Double(wmo($0, provider: report.provider))) } ?? .null
                        case .maxTemperature: return temp(day?.high ?? hours.map(\.temperature).max { $0.value < $1.value })
                        case .minTemperature: return temp(day?.low ?? hours.map(\.temperature).min { $0.value < $1.value })
                        case .precipitationSum:
                            let amounts = hours.compactMap { $0.precipitation?.base }
                            return day.map { depth($0.precipitation) } ?? depth(mm: amounts.isEmpty ? nil : amounts.reduce(0, +))
                        case .probabilityMax:
                            return num(day.map { $0.chance } ?? hours.compactMap(\.chance).max(), 0)
                        case .sunrise: return (day?.sunrise ?? sun.sunrise).map { time($0) } ?? .null
                        case .sunset: return (day?.sunset ?? sun.sunset).map { time($0) } ?? .null
                        case .windSpeedMax: return speed(summary?.windMax)
                        case .windGustsMax: return speed(summary?.gustMax)
                        case .windDirectionDominant: return num(summary?.windDirection, 0)
                        case .uvIndexMax: return num(summary?.uvMax, 2)
                        case .apparentMax: return temp(summary?.feelsLikeHigh)
                        case .apparentMin: return temp(summary?.feelsLikeLow)
                        default: return .null
                        }
                    })
            }
            out["daily"] = .object(block)
            out["daily_units"] = .object(u)
        }

        if !q.minutely15.isEmpty, let slots = report.nowcast {
            let count = q.forecastMinutely15 ?? slots.count
            // Open-Meteo labels a slot by its end… as Brolly keeps it; from the slot under way.
            let shown = Array(slots.prefix(count))
            var block: [String: JSONValue] = ["time": .array(shown.map { time($0.end) })]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601")]
            for name in q.minutely15 {
                u[name] = .string(name == "snowfall" ? (inch ? "inch" : "cm") : (inch ? "inch" : "mm"))
                block[name] = .array(
                    shown.map {
                        name == "snowfall"
                            ? snow($0.snowfall.map { Measure(SnowUnit.cm.base(of: $0), in: snowUnit) }) : depth(mm: $0.precipitation)
                    })
            }
            out["minutely_15"] = .object(block)
            out["minutely_15_units"] = .object(u)
        }
        return .object(out)
    }
}
