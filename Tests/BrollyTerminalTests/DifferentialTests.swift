import BrollyTestSupport
import Foundation
import PropertyBased
import Testing

@testable import BrollyCompatibleAPIs
@testable import BrollyCore
@testable import BrollyTerminal

/// Issue 49, item 6: a differential test over generated reports. Each report is written by every
/// surface — Brolly's own document, Open-Meteo's JSON and FlatBuffers, OpenWeatherMap 2.5, One
/// Call, Pirate Weather, the one-line format — each answer is decoded as its clients decode it,
/// and every value is compared with the one view's within that surface's rounding.
@Suite struct DifferentialTests {
    static let place = Place(
        name: "Somewhere", country: "Norway", countryCode: "NO", latitude: 59.91, longitude: 10.75, timezone: "Europe/Oslo")
    static let now = Date(timeIntervalSince1970: 1_795_694_400)

    /// A week of hours around `base` °C, with the conditions now drawn from the inputs (snow
    /// falling when `snowDepth` > 0, with the provider's own precipitation beside it or not).
    static func result(base: Double, humidity: Double, wind: Double, pressure: Double, snowDepth: Double, water: Double?) -> WeatherResult {
        let zone = place.timeZone
        let midnight = localMidnight(of: now, in: zone)
        let hours = (0..<(8 * 24)).map { i -> HourForecast in
            let h = Double(i % 24)
            return HourForecast(
                time: midnight.addingTimeInterval(Double(i) * 3600), temperature: base + 4 * sin(h / 24 * 2 * .pi),
                precipitationProbability: Double((i * 37) % 101), precipitation: i % 4 == 0 ? water ?? 0.4 : 0,
                windSpeed: wind * (1 + h / 48), condition: Conditions.wmo(snowDepth > 0 ? 73 : [0, 2, 3, 61][i % 4]),
                feelsLike: base - 2 + 4 * sin(h / 24 * 2 * .pi), humidity: min(100, humidity + h), pressure: pressure + h / 10,
                clouds: Double((i * 13) % 101), windDirection: Double((i * 29) % 360), windGust: wind * 1.6,
                uvIndex: max(0, 3 * sin((h - 6) / 12 * .pi)))
        }
        let days = (0..<8).map { d in
            DayForecast(
                date: LocalTime.dateString(midnight.addingTimeInterval(Double(d) * 86_400 + 7200), in: zone),
                temperatureMin: base - 4, temperatureMax: base + 4, precipitation: 1.6, precipitationProbability: 70,
                condition: Conditions.wmo(snowDepth > 0 ? 73 : 61))
        }
        let current = CurrentConditions(
            time: now, temperature: base, feelsLike: base - 2.3, temperatureMin: base - 4, temperatureMax: base + 4, humidity: humidity,
            pressure: pressure, windSpeed: wind, windDirection: 200, windGust: wind * 1.6, clouds: 75, visibility: 9000,
            rain: snowDepth > 0 ? 0 : 0.3, snow: snowDepth > 0 ? snowDepth : nil,
            condition: Conditions.wmo(snowDepth > 0 ? 73 : 61), precipitation: snowDepth > 0 ? water : 0.3)
        let report = WeatherReport(place: place, current: current, days: days, hours: hours, provider: .openMeteo, fetchedAt: now)
        return WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
    }

    /// An answer decoded as a JSON object.
    static func object(_ value: some Encodable) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    /// Compares `written` with `expected` within `decimals` decimals of rounding.
    static func same(_ written: Any?, _ expected: Double?, _ decimals: Int, _ what: String) {
        guard let expected else {
            #expect(written == nil || written is NSNull, "\(what): \(String(describing: written)) where the view has none")
            return
        }
        let value = (written as? NSNumber)?.doubleValue
        #expect(value != nil, "\(what): missing, the view has \(expected)")
        if let value {
            #expect(abs(value - expected) <= 0.5 * pow(10, -Double(decimals)) + 1e-9, "\(what): \(value) vs the view's \(expected)")
        }
    }

    static let cases = 120

    @Test func everySurfaceWritesTheViewsValues() async throws {
        await propertyCheck(
            count: Self.cases, input: Gen.double(in: -35...38), Gen.double(in: 5...100), Gen.double(in: 0...30),
            Gen.double(in: 960...1045), Gen.double(in: 0...40), Gen.bool
        ) { base, humidity, wind, pressure, snow, metricUnits in
            let depth = snow < 8 ? 0 : snow  // about a fifth of the cases without snow
            let water: Double? = depth > 0 && snow > 20 ? (depth / 10) * 0.8 : nil  // the provider's own water, or none
            let r = Self.result(base: base, humidity: humidity, wind: wind, pressure: pressure, snowDepth: depth, water: water)
            let system: UnitSystem = metricUnits ? .metric : .imperial
            let units = UnitChoice(system)
            let view = WeatherView(r, units: units, now: Self.now)
            let c = view.current
            do {
                try Self.check(r, view: view, units: units, system: system, current: c)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    static func check(_ r: WeatherResult, view: WeatherView, units: UnitChoice, system: UnitSystem, current c: WeatherView.Reading) throws {
        // Brolly's own document (what the page and `--json` read).
        let doc = try object(WeatherDocument(view))
        let cur = try #require(doc["current"] as? [String: Any])
        same(cur["temperature"], c.temperature.value, 1, "document temperature")
        // The table's fields (`ViewField`), each by every surface's name for it.
        for f in ViewField.all { same(cur[f.key], c.fields[f]?.value, 1, "document \(f.key)") }
        same(cur["humidity"], c.humidity, 0, "document humidity")
        same(cur["precipitation"], c.precipitation?.value, units.precipitation == .inch ? 4 : 2, "document precipitation")

        // Open-Meteo, JSON, in the same units, and its FlatBuffers equal to it.
        let metric = system == .metric
        let fieldNames = ViewField.all.compactMap { $0.openMeteo?.names.first }
        let dailyFieldNames = ViewField.all.compactMap { $0.openMeteo?.daily }
        var q = try OpenMeteoQuery([
            ("latitude", "59.91"), ("longitude", "10.75"),
            (
                "current",
                (["temperature_2m", "relative_humidity_2m", "precipitation", "snowfall", "wind_speed_10m", "pressure_msl"] + fieldNames)
                    .joined(separator: ",")
            ),
            ("hourly", (["temperature_2m"] + fieldNames).joined(separator: ",")),
            ("daily", (["temperature_2m_max", "apparent_temperature_max"] + dailyFieldNames).joined(separator: ",")),
            ("timezone", "auto"), ("temperature_unit", metric ? "celsius" : "fahrenheit"), ("wind_speed_unit", metric ? "ms" : "mph"),
            ("precipitation_unit", metric ? "mm" : "inch"), ("timeformat", "unixtime"),
        ])
        q.timeformat = "unixtime"
        let om = OpenMeteoFormat.document(q, view: WeatherView(r, units: q.units, now: now))
        let omCurrent = om["current"]
        same(omCurrent?["temperature_2m"]?.double, c.temperature.value, 1, "open-meteo temperature_2m")
        for f in ViewField.all {
            guard let name = f.openMeteo?.names.first else { continue }
            same(omCurrent?[name]?.double, c.fields[f]?.value, 1, "open-meteo \(name)")
        }
        same(omCurrent?["wind_speed_10m"]?.double, c.wind?.value, metric ? 2 : 1, "open-meteo wind_speed_10m")
        same(omCurrent?["pressure_msl"]?.double, c.pressure?.base, 1, "open-meteo pressure_msl")
        same(omCurrent?["precipitation"]?.double, c.precipitation?.value, metric ? 2 : 3, "open-meteo precipitation")
        same(omCurrent?["snowfall"]?.double, c.snow?.value, metric ? 2 : 3, "open-meteo snowfall")
        let day0 = try #require(view.days.first)
        same(om["daily"]?["temperature_2m_max"]?[0]?.double, day0.high.value, 1, "open-meteo temperature_2m_max")
        same(om["daily"]?["apparent_temperature_max"]?[0]?.double, day0.hourly?.feelsLikeHigh?.value, 1, "open-meteo apparent max")
        for f in ViewField.all {
            guard let name = f.openMeteo?.daily else { continue }
            same(om["daily"]?[name]?[0]?.double, day0.hourly?.fields[f]?.value, 1, "open-meteo \(name)")
        }
        let flat = OpenMeteoFlatBuffers.message(om, query: q)
        let reader = FlatBufferReader(bytes: flat)
        let currentBlock = reader.target(try reader.must(reader.target(4), 9))
        let variables = reader.target(try reader.must(currentBlock, 3))
        #expect(reader.u32(variables) == q.current.count)
        for (i, name) in q.current.enumerated() {
            let v = reader.target(variables + 4 + 4 * i)
            let written = Double(reader.f32(try reader.must(v, 2)))
            let json = try #require(omCurrent?[name]?.double ?? .some(.nan))
            #expect(json.isNaN ? written.isNaN : abs(written - Double(Float(json))) < 1e-9, "flatbuffers \(name)")
        }

        // OpenWeatherMap 2.5 and One Call: snow as mm of water, whatever the units.
        let owmUnits: OpenWeatherMapFormat.Units = metric ? .metric : .imperial
        let owm = try object(OpenWeatherMapFormat.current(WeatherView(r, units: owmUnits.choice, now: now)))
        let main = try #require(owm["main"] as? [String: Any])
        same(main["temp"], c.temperature.value, 2, "openweathermap main.temp")
        same((owm["snow"] as? [String: Any])?["1h"], (c.snowWater?.base).flatMap { $0 > 0 ? $0 : nil }, 2, "openweathermap snow.1h")
        let oneCall = try object(OneCallFormat.document(WeatherView(r, units: owmUnits.choice, now: now)))
        let oc = try #require(oneCall["current"] as? [String: Any])
        for f in ViewField.all {
            guard let name = f.oneCall else { continue }
            same(oc[name], c.fields[f]?.value, 2, "one call \(name)")
        }
        same((oc["snow"] as? [String: Any])?["1h"], (c.snowWater?.base).flatMap { $0 > 0 ? $0 : nil }, 2, "one call snow.1h")
        let ocDays = try #require(oneCall["daily"] as? [[String: Any]])
        for (d, day) in zip(ocDays, view.days) {
            for f in ViewField.all {
                guard let name = f.oneCall else { continue }
                same(d[name], day.hourly?.fields[f]?.value, 2, "one call daily \(name)")
            }
        }

        // Pirate Weather.
        let darkUnits: DarkSkyDocument.Units = metric ? .si : .us
        let dark = try object(DarkSkyDocument(WeatherView(r, units: darkUnits.choice, now: now), units: darkUnits))
        let currently = try #require(dark["currently"] as? [String: Any])
        same(currently["temperature"], c.temperature.value, 2, "pirate weather temperature")
        for f in ViewField.all {
            guard let name = f.darkSky else { continue }
            same(currently[name], c.fields[f]?.value, 2, "pirate weather \(name)")
        }
        same(currently["humidity"], c.humidity.map { $0 / 100 }, 2, "pirate weather humidity")
        let daily = try #require((dark["daily"] as? [String: Any])?["data"] as? [[String: Any]])
        for (d, day) in zip(daily, view.days) {
            same(d["temperatureHigh"], day.high.value, 2, "pirate weather temperatureHigh")
            for f in ViewField.all {
                guard let name = f.darkSky else { continue }
                same(d[name], day.hourly?.fields[f]?.value, 2, "pirate weather daily \(name)")
            }
        }

        // The one-line format: whole degrees, rounded half away from zero, as the page shows them.
        let format = OneLineFormat(units: units)
        let line = format.render("%t|%h", format.view(r, now: now))
        let parts = line.split(separator: "|")
        let shown = Double(parts[0].filter { $0 == "-" || $0 == "+" || $0.isNumber }) ?? .nan
        #expect(shown == Rounding.round(c.temperature.value, 0) || shown == -0.0, "one-line %t: \(line) vs \(c.temperature.value)")
        #expect(parts[1] == "\(Int(c.humidity!.rounded()))%", "one-line %h: \(line)")
    }
}
