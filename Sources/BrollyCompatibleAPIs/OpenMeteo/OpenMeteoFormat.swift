import BrollyCore
import Foundation

/// Open-Meteo's answer written from the one view of Brolly's weather.
public enum OpenMeteoFormat {
    /// What Brolly keeps, by every name Open-Meteo accepts for it (the current and the legacy ones).
    enum Variable: Sendable, Hashable {
        case temperature, humidity, apparent, isDay, precipitation, rain, snowfall, weatherCode, cloudCover, pressure, windSpeed
        case windDirection, windGusts, visibility, probability, maxTemperature, minTemperature, precipitationSum, probabilityMax
        case sunrise, sunset, uvIndex, windSpeedMax, windGustsMax, windDirectionDominant, uvIndexMax, apparentMax, apparentMin
        /// One of the view's fields (`ViewField`): its value each instant, or the day's hours
        /// summed up as the field says.
        case field(ViewField)
    }

    /// What a variable measures, which gives its unit label (in the units asked) and its decimals.
    enum Quantity: Sendable {
        case temperature, speed, water, snowDepth, percent, pressure, degrees, metres, wmo, flag, index, time
    }

    /// One variable of the answer: what Brolly writes for it, in which unit, and what it is in the
    /// `openmeteo_sdk` schema. The JSON writer and the FlatBuffers writer both walk this table, so
    /// neither can leave a variable out or shift the others.
    struct Entry: Sendable {
        let variable: Variable
        let quantity: Quantity
        /// The schema's `Variable`, altitude and `Aggregation`.
        let flat: OpenMeteoFlatBuffers.Meaning
    }

    /// The schema's `Variable` numbers Brolly writes (openmeteo_sdk's `Variable` enum).
    enum SDK {
        static let apparentTemperature: UInt8 = 1, cloudCover: UInt8 = 3, isDay: UInt8 = 19
        static let precipitation: UInt8 = 24, precipitationProbability: UInt8 = 26, pressureMSL: UInt8 = 27, rain: UInt8 = 28
        static let relativeHumidity: UInt8 = 29, snowfall: UInt8 = 37, sunrise: UInt8 = 40, sunset: UInt8 = 41
        static let temperature: UInt8 = 47, uvIndex: UInt8 = 52, visibility: UInt8 = 55, weatherCode: UInt8 = 56
        static let windDirection: UInt8 = 57, windGusts: UInt8 = 58, windSpeed: UInt8 = 59
        /// The schema's `Aggregation`.
        static let minimum: UInt8 = 1, maximum: UInt8 = 2, mean: UInt8 = 3, dominant: UInt8 = 9, sum: UInt8 = 10
    }

    /// `names` (the current one first, then the legacy ones) each meaning `entry`.
    private static func table(_ rows: [([String], Variable, Quantity, OpenMeteoFlatBuffers.Meaning)]) -> [String: Entry] {
        var out: [String: Entry] = [:]
        for (names, variable, quantity, flat) in rows {
            for name in names { out[name] = Entry(variable: variable, quantity: quantity, flat: flat) }
        }
        return out
    }

    private typealias M = OpenMeteoFlatBuffers.Meaning

    /// The view's fields Open-Meteo has names for.
    private static let fields = ViewField.all.compactMap { f in f.openMeteo.map { (field: f, name: $0) } }

    /// What a field of `kind` measures.
    static func quantity(_ kind: ViewField.Kind) -> Quantity {
        switch kind {
        case .temperature: .temperature
        }
    }

    /// The schema's `Aggregation` of a field's day.
    private static func aggregation(_ summary: ViewField.Summary) -> UInt8 {
        switch summary {
        case .mean: SDK.mean
        }
    }

    /// The variables of one instant (the `current` block) and of each hour, by name.
    private static let instant: [([String], Variable, Quantity, OpenMeteoFlatBuffers.Meaning)] =
        [
            (["temperature_2m"], .temperature, .temperature, M(variable: SDK.temperature, altitude: 2)),
            (["relative_humidity_2m", "relativehumidity_2m"], .humidity, .percent, M(variable: SDK.relativeHumidity, altitude: 2)),
            (["apparent_temperature"], .apparent, .temperature, M(variable: SDK.apparentTemperature)),
            (["is_day"], .isDay, .flag, M(variable: SDK.isDay)),
            (["precipitation"], .precipitation, .water, M(variable: SDK.precipitation)),
            (["weather_code", "weathercode"], .weatherCode, .wmo, M(variable: SDK.weatherCode)),
            (["cloud_cover", "cloudcover"], .cloudCover, .percent, M(variable: SDK.cloudCover)),
            (["pressure_msl"], .pressure, .pressure, M(variable: SDK.pressureMSL)),
            (["wind_speed_10m", "windspeed_10m"], .windSpeed, .speed, M(variable: SDK.windSpeed, altitude: 10)),
            (["wind_direction_10m", "winddirection_10m"], .windDirection, .degrees, M(variable: SDK.windDirection, altitude: 10)),
            (["wind_gusts_10m", "windgusts_10m"], .windGusts, .speed, M(variable: SDK.windGusts, altitude: 10)),
        ]
        + fields.map { f, om in (om.names, .field(f), quantity(f.kind), M(variable: om.variable, altitude: om.altitude)) }

    /// Open-Meteo's `current` variables Brolly answers.
    static let currentNames = table(
        instant + [
            (["rain"], .rain, .water, M(variable: SDK.rain)),
            (["snowfall"], .snowfall, .snowDepth, M(variable: SDK.snowfall)),
            (["visibility"], .visibility, .metres, M(variable: SDK.visibility)),
        ])
    /// Open-Meteo's `hourly` variables Brolly answers.
    static let hourlyNames = table(
        instant + [
            (["precipitation_probability"], .probability, .percent, M(variable: SDK.precipitationProbability)),
            (["uv_index"], .uvIndex, .index, M(variable: SDK.uvIndex)),
        ])
    /// Open-Meteo's `daily` variables Brolly answers (some worked out from the day's hours).
    static let dailyNames = table(
        [
            (["weather_code", "weathercode"], .weatherCode, .wmo, M(variable: SDK.weatherCode)),
            (["temperature_2m_max"], .maxTemperature, .temperature, M(variable: SDK.temperature, altitude: 2, aggregation: SDK.maximum)),
            (["temperature_2m_min"], .minTemperature, .temperature, M(variable: SDK.temperature, altitude: 2, aggregation: SDK.minimum)),
            (["apparent_temperature_max"], .apparentMax, .temperature, M(variable: SDK.apparentTemperature, aggregation: SDK.maximum)),
            (["apparent_temperature_min"], .apparentMin, .temperature, M(variable: SDK.apparentTemperature, aggregation: SDK.minimum)),
            (["precipitation_sum"], .precipitationSum, .water, M(variable: SDK.precipitation, aggregation: SDK.sum)),
            (
                ["precipitation_probability_max"], .probabilityMax, .percent,
                M(variable: SDK.precipitationProbability, aggregation: SDK.maximum)
            ),
            (["sunrise"], .sunrise, .time, M(variable: SDK.sunrise)),
            (["sunset"], .sunset, .time, M(variable: SDK.sunset)),
            (
                ["wind_speed_10m_max", "windspeed_10m_max"], .windSpeedMax, .speed,
                M(variable: SDK.windSpeed, altitude: 10, aggregation: SDK.maximum)
            ),
            (
                ["wind_gusts_10m_max", "windgusts_10m_max"], .windGustsMax, .speed,
                M(variable: SDK.windGusts, altitude: 10, aggregation: SDK.maximum)
            ),
            (
                ["wind_direction_10m_dominant", "winddirection_10m_dominant"], .windDirectionDominant, .degrees,
                M(variable: SDK.windDirection, altitude: 10, aggregation: SDK.dominant)
            ),
            (["uv_index_max"], .uvIndexMax, .index, M(variable: SDK.uvIndex, aggregation: SDK.maximum)),
        ]
            + fields.compactMap { f, om in
                om.daily.map {
                    (
                        [$0], .field(f), quantity(f.kind),
                        M(variable: om.variable, altitude: om.altitude, aggregation: aggregation(f.summary))
                    )
                }
            })

    /// The table of a block (`current`, `hourly`, `daily`, `minutely_15`).
    static func names(of block: String) -> [String: Entry] {
        switch block {
        case "current": currentNames
        case "hourly": hourlyNames
        case "daily": dailyNames
        case "minutely_15": minutelyNames
        default: [:]
        }
    }

    /// The 15-minute slots' variables Brolly answers (the next two hours of the nowcast).
    static let minutelyNames = table([
        (["precipitation"], .precipitation, .water, M(variable: SDK.precipitation)),
        (["snowfall"], .snowfall, .snowDepth, M(variable: SDK.snowfall)),
    ])

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

    /// The answer to `q` written from `view`, in the units `q` asks (`q.units`), whose weather
    /// holds everything `q` asks (see `OpenMeteoQuery.isAnsweredFromCache`). Times are in the zone
    /// asked; an hour Brolly does not have (before today's midnight at the place) is null, as
    /// Open-Meteo writes a missing value.
    public static func document(_ q: OpenMeteoQuery, view: WeatherView) -> JSONValue {
        let place = view.place, now = view.now
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
        let degrees = q.units.temperature, wind = q.units.wind, rain = q.units.precipitation
        let inch = rain == .inch
        // Open-Meteo's snowfall is in cm where rain is in mm, else inches: the snow unit that goes with it.
        let snowUnit = rain.snow
        // Written from the one view of the weather in the units asked: nothing is derived here but
        // the days of another zone than the place's.
        func temp(_ m: Measure<TemperatureUnit>?) -> JSONValue { num(m?.value) }
        func speed(_ m: Measure<WindUnit>?) -> JSONValue { num(m?.value, wind == .ms ? 2 : 1) }
        func depth(_ m: Measure<PrecipitationUnit>?) -> JSONValue { num(m?.value, inch ? 3 : 2) }
        func depth(mm: Double?) -> JSONValue { depth(mm.map { Measure($0, in: rain) }) }
        func snow(_ m: Measure<SnowUnit>?) -> JSONValue { num(m?.value, inch ? 3 : 2) }
        // One of the view's fields, written as its kind.
        func field(_ m: FieldMeasure?) -> JSONValue {
            switch m {
            case .temperature(let t): temp(t)
            case nil: .null
            }
        }
        let timeline = view.timeline()
        // Open-Meteo's label of the wind unit asked.
        let speedLabel = ["ms": "m/s", "mph": "mp/h", "kn": "kn"][q.windSpeedUnit] ?? "km/h"
        // Each variable's unit label, in the units asked.
        func label(_ quantity: Quantity) -> String {
            switch quantity {
            case .temperature: degrees.symbol
            case .speed: speedLabel
            case .water: inch ? "inch" : "mm"
            case .snowDepth: inch ? "inch" : "cm"
            case .percent: "%"
            case .pressure: "hPa"
            case .degrees: "°"
            case .metres: "m"
            case .wmo: "wmo code"
            case .flag, .index: ""
            case .time: unix ? "unixtime" : "iso8601"
            }
        }

        var out: [String: JSONValue] = [
            "latitude": .number(place.latitude), "longitude": .number(place.longitude), "generationtime_ms": .number(0.1),
            "utc_offset_seconds": .number(Double(zone.secondsFromGMT(for: now))), "timezone": .string(zoneName),
            "timezone_abbreviation": .string(zone.abbreviation(for: now) ?? "GMT"),
        ]
        if let elevation = view.elevation { out["elevation"] = .number(elevation) }

        let c = view.current
        if !q.current.isEmpty {
            var block: [String: JSONValue] = ["time": time(c.time), "interval": .number(900)]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601"), "interval": .string("seconds")]
            for name in q.current {
                guard let entry = currentNames[name] else { continue }
                let v = entry.variable
                u[name] = .string(label(entry.quantity))
                block[name] =
                    switch v {
                    case .temperature: temp(c.temperature)
                    case .apparent: temp(c.feelsLike)
                    case .humidity: num(c.humidity, 0)
                    case .isDay: .number(c.isDay ? 1 : 0)
                    // Open-Meteo's precipitation is the rain and the snow's water together.
                    case .precipitation: depth(c.precipitation)
                    case .field(let f): field(c.fields[f])
                    case .rain: depth(c.rain)
                    case .snowfall: snow(c.snow)
                    case .weatherCode: .number(Double(wmo(c.condition.condition, provider: view.provider)))
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
                "weathercode": .number(Double(wmo(c.condition.condition, provider: view.provider))),
            ])
            out["current_weather_units"] = .object([
                "time": .string(unix ? "unixtime" : "iso8601"), "interval": .string("seconds"),
                "temperature": .string(label(.temperature)),
                "windspeed": .string(label(.speed)), "winddirection": .string("°"), "is_day": .string(""),
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
                guard let entry = hourlyNames[name] else { continue }
                let v = entry.variable
                u[name] = .string(label(entry.quantity))
                block[name] = .array(
                    times.map { t in
                        guard let h = byTime[t] else { return .null }
                        return switch v {
                        case .temperature: temp(h.temperature)
                        case .probability: num(h.chance, 0)
                        case .precipitation: depth(h.precipitation)
                        case .weatherCode: .number(Double(wmo(h.condition.condition, provider: view.provider)))
                        case .isDay: .number(h.isDay ? 1 : 0)
                        case .windSpeed: speed(h.wind)
                        case .apparent: temp(h.feelsLike)
                        case .humidity: num(h.humidity, 0)
                        case .field(let f): field(h.fields[f])
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
                guard let entry = dailyNames[name] else { continue }
                let v = entry.variable
                u[name] = .string(label(entry.quantity))
                block[name] = .array(
                    facts.map { (hours, day, summary, sun, whole) in
                        if !sameZone && !whole && v != .sunrise && v != .sunset { return .null }
                        if sameZone && day == nil && v != .sunrise && v != .sunset { return .null }
                        switch v {
                        case .weatherCode:
                            let worst = day?.worst.condition ?? Condition.worst(hours.map(\.condition.condition))
                            return worst.map { .number(Double(wmo($0, provider: view.provider))) } ?? .null
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
                        case .field(let f): return field(summary?.fields[f])
                        default: return .null
                        }
                    })
            }
            out["daily"] = .object(block)
            out["daily_units"] = .object(u)
        }

        if !q.minutely15.isEmpty, let slots = view.nowcast {
            let count = q.forecastMinutely15 ?? slots.count
            // Open-Meteo labels a slot by its end… as Brolly keeps it; from the slot under way.
            let shown = Array(slots.prefix(count))
            var block: [String: JSONValue] = ["time": .array(shown.map { time($0.end) })]
            var u: [String: JSONValue] = ["time": .string(unix ? "unixtime" : "iso8601")]
            for name in q.minutely15 {
                guard let entry = minutelyNames[name] else { continue }
                u[name] = .string(label(entry.quantity))
                block[name] = .array(
                    shown.map {
                        entry.variable == .snowfall
                            ? snow($0.snowfall.map { Measure(SnowUnit.cm.base(of: $0), in: snowUnit) }) : depth(mm: $0.precipitation)
                    })
            }
            out["minutely_15"] = .object(block)
            out["minutely_15_units"] = .object(u)
        }
        return .object(out)
    }
}
