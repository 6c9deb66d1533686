import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore
@testable import BrollyTerminal

/// A Berlin answer with every value the one-line codes read.
func formatReport() -> WeatherReport {
    let now = utc("2026-11-23T16:53:00Z")
    let rain = Conditions.wmo(61)
    return WeatherReport(
        place: Place(
            name: "Berlin", country: "Germany", countryCode: "DE", region: "Land Berlin", latitude: 52.52, longitude: 13.41,
            timezone: "Europe/Berlin"),
        current: CurrentConditions(
            time: now, temperature: 2.5, feelsLike: -0.4, temperatureMin: -4.5, temperatureMax: 5.5, humidity: 71, pressure: 1012.4,
            windSpeed: 4.2, windDirection: 225, clouds: 88, rain: 0.25, condition: rain,
            sunrise: utc("2026-11-23T06:41:00Z"), sunset: utc("2026-11-23T15:02:00Z")),
        days: [DayForecast(date: "2026-11-23", temperatureMin: -4.5, temperatureMax: 5.5, condition: rain)],
        hours: [
            HourForecast(
                time: utc("2026-11-23T17:00:00Z"), temperature: 2, precipitationProbability: 60, precipitation: 0.4, condition: rain)
        ],
        provider: .openMeteo, fetchedAt: now)
}

@Suite struct OneLineFormatTests {
    let report = formatReport()
    let now = utc("2026-11-23T16:53:30Z")

    @Test func everyCodeAgreesWithTheJSONForTheSameAnswer() {
        let doc = WeatherDocument(report, units: .metric, stale: false, age: 0, now: Date())
        let f = OneLineFormat(units: .metric)
        func code(_ c: String) -> String { f.render(c, report, now: now) }
        #expect(code("%t") == "+\(Int(doc.current.temperature.rounded()))°C")  // 2.5 → +3°C
        #expect(code("%f") == "0°C")  // -0.4: no "-0"
        #expect(code("%h") == "\(Int(doc.current.humidity!))%")
        #expect(code("%P") == "\(Int(doc.current.pressure!))hPa")
        #expect(code("%w") == "↗\(String(format: "%.1f", doc.current.windSpeed!))m/s")  // from the SW, blowing NE
        #expect(code("%p") == "0.2mm" || code("%p") == "0.3mm")  // 0.25 mm, shown to one decimal
        #expect(code("%C") == "Slight rain" && doc.current.condition.description == "slight rain")
        #expect(code("%c") == "🌧" && code("%x") == "/")
        #expect(code("%l") == "Berlin, Land Berlin, Germany")
        #expect(code("%S") == "07:41:00" && doc.current.sunrise == "2026-11-23T07:41:00+01:00")
        #expect(code("%s") == "16:02:00" && doc.current.sunset == "2026-11-23T16:02:00+01:00")
        #expect(code("%T") == "17:53:30+0100" && code("%Z") == "Europe/Berlin")
        #expect(code("%r") == "0.4mm 60%")
        #expect(code("%u") == "" && code("%a") == "" && code("%y") == "" && code("%q") == "")
        #expect(code("100%%") == "100%")
    }

    @Test func otherUnitsFollowTheUnitSystem() {
        #expect(OneLineFormat(units: .imperial).render("%t %w %p", report, now: now) == "+37°F ↗9mph 0.01in")
        #expect(OneLineFormat(units: .standard).render("%t", report, now: now) == "276K")
        #expect(
            OneLineFormat(units: UnitChoice(temperature: .celsius, wind: .kmh, pressure: .hpa, precipitation: .mm, distance: .km)).render(
                "%w", report, now: now) == "↗15km/h")
    }

    @Test func presetsAreWttrInsFourLayouts() {
        let f = OneLineFormat(units: .metric)
        #expect(f.render("1", report, now: now) == "🌧 +3°C")
        #expect(f.render("2", report, now: now) == "🌧 🌡️+3°C 🌬️↗4.2m/s")
        #expect(f.render("3", report, now: now) == "Berlin, Land Berlin, Germany: 🌧 +3°C")
        #expect(f.render("4", report, now: now) == "Berlin, Land Berlin, Germany: 🌧 🌡️+3°C 🌬️↗4.2m/s")
    }

    @Test(arguments: ["%Q", "%", "%%%", "abc %", "%é", "", "%%t"])
    func unknownOrMalformedCodesArePrintedAsTheyAre(_ format: String) {
        let out = OneLineFormat(units: .metric).render(format, report, now: now)
        let expected = ["%Q": "%Q", "%": "%", "%%%": "%%", "abc %": "abc %", "%é": "%é", "": "", "%%t": "%t"][format]
        #expect(out == expected)
    }

    @Test func waybarJSONHasTextTooltipAndClass() throws {
        let result = WeatherResult(report: report, isStale: true, isFromCache: true, age: 1200, refreshError: nil)
        let data = try JSONEncoder().encode(WaybarDocument(result, units: UnitChoice(.metric), now: now))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["text"] as? String == "🌧 +3°C")
        #expect(json["class"] as? [String] == ["rain", "stale"] && json["alt"] as? String == "rain")
        #expect((json["tooltip"] as? String)?.contains("18:00  🌧 +2°C 60%") == true)
    }
}

@Suite struct SkyCalculatorTests {
    let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
    let zone = TimeZone(identifier: "Europe/Berlin")!

    @Test func berlinsSunTimesMatchPublishedTablesWithinTwoMinutes() throws {
        // timeanddate.com, Berlin, 21 June 2026: sunrise 04:43, solar noon 13:07, sunset 21:33 (CEST).
        let sun = SkyCalculator.sunTimes(on: utc("2026-06-21T10:00:00Z"), in: zone, at: berlin)
        func close(_ date: Date?, _ iso: String) -> Bool { date.map { abs($0.timeIntervalSince(utc(iso))) < 120 } ?? false }
        #expect(close(sun.sunrise, "2026-06-21T02:43:00Z"))
        #expect(close(sun.zenith, "2026-06-21T11:07:00Z"))
        #expect(close(sun.sunset, "2026-06-21T19:33:00Z"))
        #expect(sun.dawn! < sun.sunrise! && sun.dusk! > sun.sunset!)
    }

    @Test func polarNightHasNoSunrise() {
        let tromso = Coordinate(latitude: 69.65, longitude: 18.96)
        let sun = SkyCalculator.sunTimes(on: utc("2026-12-21T11:00:00Z"), in: TimeZone(identifier: "Europe/Oslo")!, at: tromso)
        #expect(sun.sunrise == nil && sun.sunset == nil)
    }

    @Test func moonPhasesAtKnownNewAndFullMoons() {
        #expect(SkyCalculator.moonSymbol(at: utc("2024-04-08T18:21:00Z")) == "🌑")  // new moon (total eclipse)
        #expect(SkyCalculator.moonSymbol(at: utc("2024-04-23T23:49:00Z")) == "🌕")  // full moon
        #expect(Int(SkyCalculator.moonAge(at: utc("2024-04-23T23:49:00Z"))) == 15)
    }

    @Test func moonIlluminationAndPhaseNamesAtPublishedDates() {
        // Published (USNO): new moon 2024-01-11 11:57 UTC, first quarter 2024-01-18 03:52,
        // full moon 2024-01-25 17:54, last quarter 2024-02-02 23:18.
        #expect(SkyCalculator.moonIllumination(at: utc("2024-01-11T11:57:00Z")) < 0.02)
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-01-11T11:57:00Z")) == "new moon")
        // The mean moon: the real one runs up to about 15 hours ahead or behind, so a quarter's
        // illumination is 0.5 within 0.1.
        #expect(abs(SkyCalculator.moonIllumination(at: utc("2024-01-18T03:52:00Z")) - 0.5) < 0.1)
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-01-18T03:52:00Z")) == "first quarter")
        #expect(SkyCalculator.moonIllumination(at: utc("2024-01-25T17:54:00Z")) > 0.98)
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-01-25T17:54:00Z")) == "full moon")
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-02-02T23:18:00Z")) == "last quarter")
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-01-21T12:00:00Z")) == "waxing gibbous")
        #expect(SkyCalculator.moonPhaseName(at: utc("2024-01-29T12:00:00Z")) == "waning gibbous")
    }
}
