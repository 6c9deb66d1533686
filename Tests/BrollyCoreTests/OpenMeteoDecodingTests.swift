import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct OpenMeteoDecodingTests {
    let sydney = Place(name: "Sydney", country: "Australia", countryCode: "AU", latitude: -33.87, longitude: 151.21)

    @Test func currentConditionsAreConvertedToMetric() throws {
        let report = try OpenMeteoProvider.report(from: fixture("open-meteo/forecast-kmh.json"), place: sydney, fetchedAt: Date())
        let c = report.current
        #expect(c.temperature == 21)  // an integer on the wire
        #expect(c.feelsLike == 20.4)
        #expect(abs(c.windSpeed! - 5) < 0.001)  // 18 km/h
        #expect(abs(c.windGust! - 10) < 0.001)  // 36 km/h
        #expect(c.windDirection == 135)
        #expect(c.humidity == 64)
        #expect(c.pressure == 1015.2)
        #expect(c.clouds == 75)
        #expect(c.visibility == 24140)
        #expect(abs(c.rain! - 0.5) < 0.0001)  // rain + showers
        #expect(c.snow == 0)
        #expect(c.condition.kind == .showers)
        #expect(c.condition.icon == "rain")
        // 08:15 in Sydney (+11:00) is 21:15 UTC the day before.
        #expect(c.time == utc("2026-11-21T21:15:00Z"))
        #expect(report.place.timezone == "Australia/Sydney")
        #expect(report.place.utcOffsetSeconds == 39600)
    }

    @Test func daysStartAtTheLocalTodayAndTodaysRangeComesFromIt() throws {
        let report = try OpenMeteoProvider.report(from: fixture("open-meteo/forecast-kmh.json"), place: sydney, fetchedAt: Date())
        #expect(report.days.first?.date == "2026-11-22")
        #expect(report.days.count == 7)
        #expect(report.current.temperatureMin == 17.2)
        #expect(report.current.temperatureMax == 25.5)
        #expect(report.days[5].condition.kind == .thunderstorm)
        #expect(report.days[6].condition.kind == .snow)
        #expect(report.current.sunrise == utc("2026-11-21T18:41:00Z"))
    }

    @Test func hoursSkipNullTemperaturesAndStartAtTodaysMidnight() throws {
        let report = try OpenMeteoProvider.report(from: fixture("open-meteo/forecast-kmh.json"), place: sydney, fetchedAt: Date())
        // Today's hours are kept from midnight (07:00 here); 10:00 has a null temperature. From now
        // on means from the slot under way (08:00 at 08:15).
        #expect(report.hours.map(\.temperature) == [19.5, 20.8, 22])
        #expect(report.hoursFromNow.map(\.temperature) == [20.8, 22])
        #expect(report.hours[2].precipitationProbability == nil)
    }

    @Test func fahrenheitAndInchesAreConvertedAndDaysComeFromHours() throws {
        let decoded = try OpenMeteoProvider.decode(fixture("open-meteo/forecast-fahrenheit-hourly-only.json"), receivedAt: Date())
        let c = try #require(decoded.current)
        #expect(abs(c.temperature - 10) < 0.001)
        #expect(abs(c.windSpeed! - 4.4704) < 0.001)
        #expect(c.condition.kind == .fog)
        #expect(c.humidity == nil && c.pressure == nil)
        // Days grouped from hourly data by Kathmandu's calendar (+05:45).
        #expect(decoded.days.map(\.date) == ["2026-11-21", "2026-11-22"])
        #expect(abs(decoded.days[1].temperatureMin - 0) < 0.001)
        #expect(abs(decoded.days[1].precipitation! - 2.54) < 0.001)
        #expect(decoded.days[1].condition.kind == .snow)
    }

    @Test func geocodingWithoutResultsKeyIsEmpty() throws {
        #expect(try OpenMeteoProvider.places(from: fixture("open-meteo/geocoding-no-results.json")).isEmpty)
    }

    @Test func geocodingToleratesMissingCountryAndRegion() throws {
        let places = try OpenMeteoProvider.places(from: fixture("open-meteo/geocoding-partial.json"))
        #expect(places.count == 3)  // the one without a name is dropped
        #expect(places[0].region == "Île-de-France")
        #expect(places[1].country == "United States")  // from the code
        #expect(places[2].country == "" && places[2].region == nil && places[2].longitude == -30.25)
    }

    @Test func errorBodyBecomesATypedError() throws {
        let response = HTTPResponse(status: 400, body: try fixture("open-meteo/error-400.json"))
        let error = try #require(OpenMeteoProvider.classifyError(response))
        #expect(error.kind == .providerUnavailable)
        #expect(error.message.contains("Latitude must be in range"))
    }

    @Test func malformedJSONIsUnreadable() {
        #expect(throws: BrollyError.self) { try OpenMeteoProvider.decode(Data("{\"current\": {".utf8), receivedAt: Date()) }
        do { _ = try OpenMeteoProvider.report(from: Data("{}".utf8), place: sydney, fetchedAt: Date()) } catch let e as BrollyError {
            #expect(e.kind == .unreadableResponse)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func forecastURLAsksForMetricAndLocalTime() {
        let provider = OpenMeteoProvider(
            network: NetworkService(transport: ScriptedTransport([])), baseURL: URL(string: "http://127.0.0.1:1/proxy")!,
            geocodingURL: URL(string: "http://127.0.0.1:1")!, now: { Date() })
        let url = provider.forecastURL(for: Coordinate(latitude: 52.52, longitude: 13.41)).absoluteString
        #expect(url.hasPrefix("http://127.0.0.1:1/proxy/v1/forecast?latitude=52.5200&longitude=13.4100"))
        #expect(url.contains("timezone=auto") && url.contains("wind_speed_unit=ms") && url.contains("temperature_unit=celsius"))
        // Yesterday comes in the same call, for "warmer than yesterday".
        #expect(url.contains("past_days=1"))
    }

    @Test func yesterdaysTemperatureAtThisHourComesFromPastDays() throws {
        // An answer with past_days=1: hourly from yesterday 00:00 (UTC+1), now 2026-11-23 14:15.
        var times: [String] = [], temps: [Double] = []
        for h in 0..<48 {
            times.append(String(format: "2026-11-%02dT%02d:00", 22 + h / 24, h % 24))
            temps.append(Double(h % 24) + (h < 24 ? 0 : 3))
        }
        let json: [String: Any] = [
            "latitude": 52.52, "longitude": 13.41, "utc_offset_seconds": 3600, "timezone": "Europe/Berlin",
            "current": ["time": "2026-11-23T14:15", "temperature_2m": 17.0, "weather_code": 3, "is_day": 1],
            "hourly": ["time": times, "temperature_2m": temps],
            "daily": [
                "time": ["2026-11-22", "2026-11-23"], "temperature_2m_max": [23.0, 26.0], "temperature_2m_min": [0.0, 3.0],
                "weather_code": [3, 3],
            ],
        ]
        let data = try JSONSerialization.data(withJSONObject: json)
        let report = try OpenMeteoProvider.report(
            from: data, place: Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin"),
            fetchedAt: Date())
        #expect(report.current.temperatureYesterday == 14)  // yesterday's 14:00 slot
        // Yesterday's hours are kept too (a client asking in another zone gets every hour of its
        // day); the days and the hours from now start today.
        #expect(report.days.first?.date == "2026-11-23" && report.hours.count == 48)
        #expect(report.hoursFromNow.allSatisfy { $0.temperature >= 3 })
        #expect(report.hoursFromNow.first?.temperature == 17)  // today's 14:00
        #expect(WeatherDocument.comparedWithYesterday(now: 17, yesterday: 14) == "3° warmer than yesterday")
        #expect(WeatherDocument.comparedWithYesterday(now: 12.2, yesterday: 14) == "2° colder than yesterday")
        #expect(WeatherDocument.comparedWithYesterday(now: 14.6, yesterday: 14) == "about the same as yesterday")
        #expect(WeatherDocument.comparedWithYesterday(now: 14, yesterday: nil) == nil)
    }
}
