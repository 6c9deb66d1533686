import Foundation
import Testing

@testable import BrollyCompatibleAPIs
@testable import BrollyCore

/// Issue 25: the compact hours, Open-Meteo's query and answer, and OpenWeatherMap's shapes.
@Suite struct CompatibleFormatsTests {
    let berlin = Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin")

    func result(now: Date) -> WeatherResult {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let midnight = cal.startOfDay(for: now)
        var hours: [HourForecast] = []
        for i in 0..<(8 * 24) {
            let hour = i % 24
            let chance: Double? = hour == 5 ? nil : 10
            let amount: Double = i % 6 == 0 ? 1.2 : 0
            let time = midnight.addingTimeInterval(Double(i) * 3600)
            hours.append(
                HourForecast(
                    time: time, temperature: Double(hour) / 2, precipitationProbability: chance, precipitation: amount, windSpeed: 5,
                    condition: Conditions.wmo(hour < 12 ? 61 : 3)))
        }
        let days = (0..<8).map { d in
            DayForecast(
                date: LocalTime.dateString(midnight.addingTimeInterval(Double(d) * 86_400 + 7200), in: zone), temperatureMin: -1,
                temperatureMax: 11.5, precipitation: 4.8, precipitationProbability: 40, condition: Conditions.wmo(61))
        }
        let current = CurrentConditions(
            time: now, temperature: 10, feelsLike: 8, temperatureMin: -1, temperatureMax: 11.5, humidity: 80, pressure: 1012.4,
            windSpeed: 5, windDirection: 225, windGust: 9, clouds: 88, visibility: 24_000, rain: 0.2, snow: nil,
            condition: Conditions.wmo(61))
        var report = WeatherReport(place: berlin, current: current, days: days, hours: hours, provider: .openMeteo, fetchedAt: now)
        report.elevation = 38
        return WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
    }

    @Test func hoursAreCompactAndRoundTripTheirMissingValues() throws {
        #expect(MemoryLayout<HourForecast>.stride == 40)
        #expect(MemoryLayout<Condition>.stride == 8)
        let hour = HourForecast(time: Date(timeIntervalSince1970: 0), temperature: 1.5, precipitation: 0, condition: Conditions.wmo(3))
        // Values come back as given (a thousandth), not as their 32-bit neighbours.
        let precise = HourForecast(
            time: Date(timeIntervalSince1970: 1_795_608_000), temperature: -12.3, precipitationProbability: 55, precipitation: 0.25,
            windSpeed: 4.17, condition: Conditions.wmo(61))
        #expect(precise.temperature == -12.3 && precise.precipitation == 0.25 && precise.windSpeed == 4.17)
        #expect(precise.time == Date(timeIntervalSince1970: 1_795_608_000) && precise.precipitationProbability == 55)
        // Stored in columns, a quantity no hour has is left out.
        let data = try JSONEncoder().encode(HourColumns(wrappedValue: [hour]))
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("precipitationProbability") && text.contains("\"precipitation\":[0]"))
        // The older stored form, one object per hour, is still read: a value left out is nil.
        let condition = String(decoding: try JSONEncoder().encode(hour.condition), as: UTF8.self)
        let old = Data(#"[{"time":-978307200,"temperature":1.5,"precipitation":0,"condition":\#(condition)}]"#.utf8)
        let back = try JSONDecoder().decode(HourColumns.self, from: old).wrappedValue[0]
        #expect(back == hour && back.precipitationProbability == nil && back.precipitation == 0)
        #expect(try JSONDecoder().decode(HourColumns.self, from: data).wrappedValue == [hour])
        // The detail an app reads from an hour, in tenths or whole numbers; out of range clamped, not lost.
        let detailed = HourForecast(
            time: Date(timeIntervalSince1970: 0), temperature: 3, condition: Conditions.wmo(3), feelsLike: -4.26, humidity: 104,
            pressure: 1013.25, clouds: 40, windDirection: -90, windGust: 12.34, uvIndex: 3.27)
        #expect(detailed.feelsLike == -4.3 && detailed.humidity == 100 && detailed.pressure == 1013.3 && detailed.clouds == 40)
        #expect(detailed.windDirection == 270 && detailed.windGust == 12.3 && detailed.uvIndex == 3.3)
        let columns = try JSONDecoder().decode(
            HourColumns.self, from: try JSONEncoder().encode(HourColumns(wrappedValue: [detailed, hour])))
        #expect(columns.wrappedValue == [detailed, hour] && back.feelsLike == nil && back.uvIndex == nil && back.windDirection == nil)
        var changed = back.condition
        changed.description = "grey"
        #expect(changed.description == "grey" && back.condition.description == "overcast" && changed != back.condition)
    }

    @Test func aQueryIsReadNormalizedAndRefusedAsOpenMeteoWould() throws {
        let q = try OpenMeteoQuery([
            ("longitude", "13.41"), ("latitude", "52.52"), ("hourly", "temperature_2m"), ("hourly", "weathercode"), ("apikey", "k"),
            ("windspeed_unit", "ms"), ("timezone", "auto"),
        ])
        #expect(q.hourly == ["temperature_2m", "weathercode"] && q.windSpeedUnit == "ms" && q.isAnsweredFromCache)
        let same = try OpenMeteoQuery([("latitude", "52.5200"), ("longitude", "13.41"), ("hourly", "temperature_2m,weathercode")])
        #expect(same.normalized.map(\.0) == q.normalized.map(\.0))
        #expect(try !OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("hourly", "soil_temperature_0cm")]).isAnsweredFromCache)
        #expect(try !OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("past_days", "2")]).isAnsweredFromCache)
        #expect(try !OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("forecast_hours", "5")]).isAnsweredFromCache)
        // A date or hour range goes upstream without forecast_days and past_days (Open-Meteo refuses both).
        let range = try OpenMeteoQuery([
            ("latitude", "1"), ("longitude", "1"), ("hourly", "temperature_2m"), ("start_date", "2026-11-20"), ("end_date", "2026-11-27"),
        ])
        #expect(!range.isAnsweredFromCache && !range.normalized.contains { $0.0 == "forecast_days" || $0.0 == "past_days" })
        #expect(range.normalized.contains { $0 == ("start_date", "2026-11-20") })
        #expect(try OpenMeteoQuery([("latitude", "1"), ("longitude", "1")]).normalized.contains { $0 == ("forecast_days", "7") })
        // An empty value is no value, as Open-Meteo reads it.
        #expect(try OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("timezone", ""), ("hourly", "")]).timezone == "GMT")
        #expect(throws: OpenMeteoQuery.Refusal.self) { try OpenMeteoQuery([("latitude", "91"), ("longitude", "0")]) }
        #expect(throws: OpenMeteoQuery.Refusal.self) {
            try OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("timezone", "Mars/Base")])
        }
        #expect(throws: OpenMeteoQuery.Refusal.self) { try OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("hourly", "a;b")]) }
        #expect(throws: OpenMeteoQuery.Refusal.self) {
            try OpenMeteoQuery([("latitude", "1"), ("longitude", "1"), ("wind_speed_unit", "bft")])
        }
    }

    @Test func theAnswerHasOpenMeteosShapeUnitsAndNulls() throws {
        let now = Date(timeIntervalSince1970: 1_795_608_000)  // 2026-11-25 12:00 UTC
        let q = try OpenMeteoQuery([
            ("latitude", "52.52"), ("longitude", "13.41"), ("current", "temperature_2m,wind_speed_10m,weather_code"),
            ("hourly", "temperature_2m,precipitation_probability"), ("daily", "temperature_2m_max,sunrise"), ("timezone", "UTC"),
            ("temperature_unit", "fahrenheit"), ("forecast_days", "2"),
        ])
        let doc = OpenMeteoFormat.document(q, view: WeatherView(result(now: now), units: q.units, now: now))
        #expect(doc["timezone"]?.string == "UTC" && doc["elevation"]?.double == 38 && doc["utc_offset_seconds"]?.double == 0)
        #expect(doc["current"]?["temperature_2m"]?.double == 50 && doc["current_units"]?["temperature_2m"]?.string == "°F")
        #expect(doc["current"]?["wind_speed_10m"]?.double == 18 && doc["current_units"]?["wind_speed_10m"]?.string == "km/h")
        let times = doc["hourly"]?["time"]?.array ?? []
        let temps = doc["hourly"]?["temperature_2m"]?.array ?? []
        #expect(times.count == 48 && times.first?.string == "2026-11-25T00:00")
        // UTC's 00:00 is Berlin's 01:00 (kept); Berlin's 05:00 hour has no chance of rain: null.
        #expect(temps.first?.double == 32.9 && doc["hourly"]?["precipitation_probability"]?[4] == .null)
        #expect(doc["daily"]?["temperature_2m_max"]?.array?.count == 2)
    }

    @Test func openWeatherMapShapesUseItsIdsUnitsAndSlots() throws {
        let now = Date(timeIntervalSince1970: 1_795_608_000)
        let r = result(now: now)
        let current = OpenWeatherMapFormat.current(WeatherView(r, units: OpenWeatherMapFormat.Units.standard.choice, now: now))
        #expect(current.main.temp == 283.15 && current.weather.first?.id == 500 && current.weather.first?.main == "Rain")
        #expect(current.rain == ["1h": 0.2] && current.visibility == 10_000 && current.sys.country == "DE")
        let imperial = OpenWeatherMapFormat.forecast(WeatherView(r, units: OpenWeatherMapFormat.Units.imperial.choice, now: now), count: 40)
        #expect(imperial.cnt == 40 && imperial.list.count == 40)
        #expect(imperial.list[1].dt - imperial.list[0].dt == 10_800 && imperial.list[0].dt > Int(now.timeIntervalSince1970))
        #expect(imperial.list.allSatisfy { $0.dtText.hasSuffix(":00:00") } && imperial.list[0].wind.speed == 11.18)
        #expect(OpenWeatherMapFormat.owmID(Conditions.wmo(95), provider: .openMeteo) == 211)
    }
}
