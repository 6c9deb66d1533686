import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCompatibleAPIs
@testable import BrollyCore

/// Issue 49: the compatible APIs write the view's values — Open-Meteo's FlatBuffers from the same
/// variable table as its JSON (no variable left out, none shifted), several locations in one call,
/// the snow's water where an API documents mm of water, the view's fields everywhere, and Pirate
/// Weather's days and half-days without -999 where the hours give the value.
@Suite struct ViewWritersTests {
    typealias Reader = FlatBufferTests.Reader

    let newYork = Place(
        name: "New York", country: "United States", countryCode: "US", latitude: 40.71, longitude: -74.01, timezone: "America/New_York")

    /// A week of hours with every value Brolly keeps, snow falling now (1.4 cm in the hour, 1.0 mm
    /// of water), and days from the provider.
    func result(now: Date) -> WeatherResult {
        let zone = newYork.timeZone
        let midnight = localMidnight(of: now, in: zone)
        let hours = (0..<(8 * 24)).map { i -> HourForecast in
            let hour = Double(i % 24)
            return HourForecast(
                time: midnight.addingTimeInterval(Double(i) * 3600), temperature: -3 + hour / 3, precipitationProbability: Double(i % 100),
                precipitation: i % 5 == 0 ? 0.7 : 0, windSpeed: 1.33 + hour / 10, condition: Conditions.wmo(i % 7 == 0 ? 73 : 2),
                feelsLike: -6 + hour / 3, humidity: 60 + hour, pressure: 1010 + hour / 4, clouds: 10 * Double(i % 10),
                windDirection: Double(i * 17 % 360), windGust: 3 + hour / 5, uvIndex: hour < 6 || hour > 18 ? 0 : 3 - abs(12 - hour) / 3)
        }
        let days = (0..<8).map { d in
            DayForecast(
                date: LocalTime.dateString(midnight.addingTimeInterval(Double(d) * 86_400 + 7200), in: zone), temperatureMin: -3,
                temperatureMax: 4.7, precipitation: 3.5, precipitationProbability: 90, condition: Conditions.wmo(73))
        }
        let current = CurrentConditions(
            time: now, temperature: -1.2, feelsLike: -5.4, temperatureMin: -3, temperatureMax: 4.7, humidity: 86, pressure: 1013.2,
            windSpeed: 1.33, windDirection: 300, windGust: 6.1, clouds: 100, visibility: 1200, rain: 0, snow: 14,
            condition: Conditions.wmo(73), precipitation: 1.0)
        var report = WeatherReport(place: newYork, current: current, days: days, hours: hours, provider: .openMeteo, fetchedAt: now)
        report.elevation = 10
        return WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
    }

    /// Every variable of a block's table, once each (its current name).
    static func every(_ table: [String: OpenMeteoFormat.Entry]) -> [String] {
        let names = table.keys.sorted()
        var seen = Set<String>()
        return names.filter { name in
            // One name per meaning: the legacy names (no underscore before the level) are the same variable.
            let key = "\(table[name]!.variable)"
            return seen.insert(key).inserted && !["relativehumidity_2m", "weathercode", "cloudcover"].contains(name)
        }
    }

    /// A block of a FlatBuffers message as (variable, unit, altitude, aggregation, values) in order.
    struct FlatVariable: Equatable {
        var variable: Int, unit: Int, altitude: Int, aggregation: Int
        var values: [Double]
    }

    static func read(_ r: Reader, root: Int, field: Int) throws -> (start: Int64, variables: [FlatVariable])? {
        guard let at = r.field(root, field) else { return nil }
        let block = r.target(at)
        let start = try r.i64(r.must(block, 0))
        let list = try r.target(r.must(block, 3))
        return (
            start,
            try (0..<r.u32(list)).map { i in
                let v = r.target(list + 4 + 4 * i)
                var out = FlatVariable(
                    variable: Int(try r.bytes[r.must(v, 0)]), unit: r.field(v, 1).map { Int(r.bytes[$0]) } ?? 0,
                    altitude: r.field(v, 5).map { Int(Int16(truncatingIfNeeded: r.u16($0))) } ?? 0,
                    aggregation: r.field(v, 6).map { Int(r.bytes[$0]) } ?? 0, values: [])
                if let single = r.field(v, 2) {
                    out.values = [Double(r.f32(single))]
                } else if let floats = r.field(v, 3) {
                    let vector = r.target(floats)
                    out.values = (0..<r.u32(vector)).map { Double(r.f32(vector + 4 + 4 * $0)) }
                } else if let longs = r.field(v, 4) {
                    let vector = r.target(longs)
                    out.values = (0..<r.u32(vector)).map { Double(r.i64(vector + 4 + 8 * $0)) }
                }
                return out
            }
        )
    }

    @Test(arguments: [
        [("temperature_unit", "celsius")],
        [("temperature_unit", "fahrenheit"), ("wind_speed_unit", "mph"), ("precipitation_unit", "inch")],
    ])
    func flatBuffersEqualTheJSONVariableByVariable(units: [(String, String)]) throws {
        let now = Date(timeIntervalSince1970: 1_795_694_400)  // 2026-11-26 09:20 UTC
        let current = Self.every(OpenMeteoFormat.currentNames), hourly = Self.every(OpenMeteoFormat.hourlyNames)
        let daily = Self.every(OpenMeteoFormat.dailyNames)
        #expect(
            daily.contains("apparent_temperature_max") && daily.contains("wind_direction_10m_dominant")
                && daily.count == 13 + ViewField.all.compactMap { $0.openMeteo?.daily }.count)
        var q = try OpenMeteoQuery(
            [
                ("latitude", "40.71"), ("longitude", "-74.01"), ("current", current.joined(separator: ",")),
                ("hourly", hourly.joined(separator: ",")), ("daily", daily.joined(separator: ",")), ("timezone", "auto"),
                ("timeformat", "unixtime"),
            ] + units)
        #expect(q.isAnsweredFromCache)
        q.timeformat = "unixtime"
        let json = OpenMeteoFormat.document(q, view: WeatherView(result(now: now), units: q.units, now: now))
        let r = Reader(bytes: OpenMeteoFlatBuffers.message(json, query: q))
        let root = r.target(4)
        for (field, block, names) in [(9, "current", current), (11, "hourly", hourly), (10, "daily", daily)] {
            let (start, variables) = try #require(try Self.read(r, root: root, field: field))
            let table = OpenMeteoFormat.names(of: block)
            // Every variable asked, in the order asked, with its own meaning: none left out or shifted.
            #expect(variables.count == names.count, "\(block)")
            let times = json[block]?["time"]?.array?.compactMap(\.double) ?? [json[block]?["time"]?.double ?? 0]
            #expect(Double(start) == times.first)
            for (name, flat) in zip(names, variables) {
                let entry = try #require(table[name])
                #expect(flat.variable == Int(entry.flat.variable) && flat.altitude == Int(entry.flat.altitude), "\(block).\(name)")
                #expect(flat.aggregation == Int(entry.flat.aggregation), "\(block).\(name)")
                let label = json[block + "_units"]?[name]?.string ?? ""
                #expect(
                    flat.unit == Int(OpenMeteoFlatBuffers.unit(entry.quantity, label: label)) && flat.unit != 0, "\(block).\(name) \(label)"
                )
                let values = json[block]?[name]?.array ?? [json[block]?[name] ?? .null]
                #expect(values.count == flat.values.count, "\(block).\(name)")
                for (j, f) in zip(values, flat.values) {
                    if let v = j.double {
                        // FlatBuffers carries 32-bit floats; Unix times as 64-bit integers.
                        let written = entry.quantity == .time ? v.rounded(.towardZero) : Double(Float(v))
                        #expect(abs(written - f) < 1e-9, "\(block).\(name): \(v) vs \(f)")
                    } else {
                        #expect(f.isNaN || entry.quantity == .time, "\(block).\(name): null vs \(f)")
                    }
                }
            }
        }
        // The day's own aggregates are there, not nulls: the hours give them.
        let feels = try #require(json["daily"]?["apparent_temperature_max"]?.array)
        #expect(feels.prefix(7).allSatisfy { $0.double != nil })
    }

    @Test func severalLocationsAreOneDocumentEachAndPostReadsAsGet() throws {
        let q = try OpenMeteoQuery([
            ("latitude", "40.71,52.52"), ("longitude", "-74.01,13.41"), ("hourly", "temperature_2m"), ("format", "flatbuffers"),
        ])
        #expect(q.locations.count == 2 && q.location(1).latitude == 52.52 && q.location(1).locationID == 1)
        #expect(q.normalized.first { $0.0 == "latitude" }?.1 == "40.7100,52.5200")
        let surface = OpenMeteoSurface()
        let ask = try surface.read(
            CompatibleRequest(path: "/v1/forecast", parameters: [:], query: q.normalized.map { ($0.0, $0.1) }), route: "forecast")
        guard case .several(let asks) = ask else {
            Issue.record("not several: \(ask)")
            return
        }
        #expect(asks.count == 2)
        let now = Date(timeIntervalSince1970: 1_795_694_400)
        let documents = try asks.map {
            try surface.document(for: $0, view: WeatherView(result(now: now), units: surface.units(for: $0, at: newYork), now: now))
        }
        let combined = try #require(surface.combine(documents) as? EncodedDocument)
        // Two size-prefixed messages, one after the other, with their location ids.
        let first = Reader(bytes: combined.bytes)
        let size = first.u32(0)
        let second = Reader(bytes: Array(combined.bytes[(4 + size)...]))
        #expect(try first.i64(first.must(first.target(4), 4)) == 0 || first.field(first.target(4), 4) == nil)
        #expect(try second.i64(second.must(second.target(4), 4)) == 1)
        #expect(4 + size + 4 + second.u32(0) == combined.bytes.count)
        // In JSON, a list.
        #expect(throws: OpenMeteoQuery.Refusal.self) { try OpenMeteoQuery([("latitude", "40.71,52.52"), ("longitude", "-74.01")]) }
        let json = try JSONEncoder().encode(DocumentList(documents: [JSONValue.number(1), JSONValue.number(2)]))
        #expect(String(decoding: json, as: UTF8.self) == "[1,2]")
    }

    @Test func snowIsTheSameWaterInEveryAPIThatCountsWater() throws {
        let now = Date(timeIntervalSince1970: 1_795_694_400)
        let r = result(now: now)
        let view = WeatherView(r, units: UnitChoice(.metric), now: now)
        #expect(view.current.snow?.value == 1.4 && view.current.snowWater?.base == 1.0 && view.current.precipitation?.base == 1.0)
        let owm = OpenWeatherMapFormat.current(WeatherView(r, units: OpenWeatherMapFormat.Units.metric.choice, now: now))
        let oneCall = OneCallFormat.document(WeatherView(r, units: OpenWeatherMapFormat.Units.metric.choice, now: now))
        #expect(owm.snow?["1h"] == 1.0 && oneCall.current?.snow?["1h"] == 1.0)
        var q = try OpenMeteoQuery([("latitude", "40.71"), ("longitude", "-74.01"), ("current", "precipitation,snowfall,rain")])
        q.timeformat = "unixtime"
        let om = OpenMeteoFormat.document(q, view: WeatherView(r, units: q.units, now: now))
        #expect(om["current"]?["precipitation"]?.double == 1.0 && om["current"]?["snowfall"]?.double == 1.4)
        // Without the provider's precipitation, the water is worked out from the depth (7 cm: 10 mm).
        var depthOnly = r
        depthOnly.report.current.precipitation = nil
        depthOnly.report.current.snow = 70
        #expect(abs((WeatherView(depthOnly, units: UnitChoice(.metric), now: now).current.snowWater?.base ?? 0) - 10) < 1e-9)
        // OpenWeatherMap's own snow (mm of water) is kept as a depth, so it comes back out as the same water.
        #expect(abs(SnowUnit.water(ofDepth: SnowUnit.depth(ofWater: 1.0)) - 1.0) < 1e-12)
    }

    @Test func theDewPointIsTheViewsOnEverySurface() throws {
        let now = Date(timeIntervalSince1970: 1_795_694_400)
        let r = result(now: now)
        let magnus = try #require(Dew.point(celsius: -1.2, humidity: 86))
        let view = WeatherView(r, units: UnitChoice(.metric), now: now)
        #expect(abs((view.current.fields[.dewPoint]?.base ?? 99) - magnus) < 1e-9)
        let document = WeatherDocument(view)
        let oneCall = OneCallFormat.document(WeatherView(r, units: OpenWeatherMapFormat.Units.metric.choice, now: now))
        let darkSky = DarkSkyDocument(WeatherView(r, units: DarkSkyDocument.Units.si.choice, now: now), units: .si)
        var q = try OpenMeteoQuery([("latitude", "40.71"), ("longitude", "-74.01"), ("current", "dew_point_2m")])
        q.timeformat = "unixtime"
        let om = OpenMeteoFormat.document(q, view: WeatherView(r, units: q.units, now: now))
        for (name, value) in [
            ("document", document.current.fields[.dewPoint]), ("One Call", oneCall.current?.added[.dewPoint]),
            ("Dark Sky", darkSky.currently?["dewPoint"]),
            ("Open-Meteo", om["current"]?["dew_point_2m"]?.double),
        ] {
            let v = try #require(value, "\(name)")
            #expect(abs(v - magnus) <= 0.15, "\(name): \(v) vs \(magnus)")
        }
        // Every One Call day has one (Home Assistant's client reads daily[i].dew_point unchecked).
        let days = try #require(oneCall.daily)
        #expect(days.count == 8 && days.allSatisfy { $0.added[.dewPoint] != nil })
    }

    @Test func pirateWeatherHasNoUnknownWhereTheHoursGiveTheValue() throws {
        let now = Date(timeIntervalSince1970: 1_795_694_400)
        let d = DarkSkyDocument(
            WeatherView(result(now: now), units: DarkSkyDocument.Units.si.choice, now: now), units: .si, version2: true, dayNight: true)
        let fromHours = [
            "humidity", "cloudCover", "uvIndex", "pressure", "windBearing", "windGust", "dewPoint", "apparentTemperature",
        ]
        let dayNight = try #require(d.dayNight?.data)
        #expect(dayNight.count >= 10)
        for p in dayNight {
            for field in fromHours {
                let v = try #require(p[field], "day_night \(field)")
                #expect(v != DarkSkyDocument.unknown, "day_night \(field)")
            }
            #expect((0...1).contains(p.humidity ?? -1) && (0...1).contains(p["cloudCover"] ?? -1))
        }
        let daily = try #require(d.daily?.data)
        let dailyFromHours =
            fromHours.filter { $0 != "apparentTemperature" } + [
                "temperatureHighTime", "temperatureLowTime", "apparentTemperatureHighTime", "apparentTemperatureLowTime", "windGustTime",
                "uvIndexTime", "precipIntensityMax", "precipIntensityMaxTime", "dawnTime", "duskTime", "temperatureMinTime",
                "temperatureMaxTime",
            ]
        for p in daily.prefix(7) {
            for field in dailyFromHours {
                let v = try #require(p[field], "daily \(field)")
                #expect(v != DarkSkyDocument.unknown, "daily \(field)")
            }
        }
    }
}
