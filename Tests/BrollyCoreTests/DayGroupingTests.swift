import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct DayGroupingTests {
    func slots(from start: String, count: Int, every hours: Double = 3) -> [HourForecast] {
        (0..<count).map { i in
            HourForecast(
                time: utc(start).addingTimeInterval(Double(i) * hours * 3600), temperature: Double(i),
                precipitation: 1, condition: Conditions.wmo(i == 2 ? 61 : 0))
        }
    }

    @Test(arguments: [
        // offset seconds, first UTC slot, expected local dates and slots per date
        (36000, "2026-11-20T12:00:00Z", ["2026-11-20": 1, "2026-11-21": 8, "2026-11-22": 7]),  // +10:00, from 22:00 local
        (-10800, "2026-11-21T00:00:00Z", ["2026-11-20": 1, "2026-11-21": 8, "2026-11-22": 7]),  // −03:00
        (20700, "2026-11-21T00:00:00Z", ["2026-11-21": 7, "2026-11-22": 8, "2026-11-23": 1]),  // +05:45
    ])
    func groupsByLocalDate(offset: Int, start: String, expected: [String: Int]) {
        let zone = TimeZone(secondsFromGMT: offset)!
        let days = DayGrouping.days(from: slots(from: start, count: 16), in: zone)
        #expect(days.map(\.date) == expected.keys.sorted())
        for day in days {
            let count = slots(from: start, count: 16).filter { LocalTime.dateString($0.time, in: zone) == day.date }.count
            #expect(count == expected[day.date])
            #expect(day.precipitation == Double(count))
        }
    }

    @Test func minusThreeHoursPutsLateUTCSlotsOnThePreviousDay() {
        let zone = TimeZone(secondsFromGMT: -10800)!
        let days = DayGrouping.days(from: slots(from: "2026-11-21T00:00:00Z", count: 2), in: zone)
        // 00:00Z is 21:00 on the 20th in São Paulo; 03:00Z is midnight on the 21st.
        #expect(days.map(\.date) == ["2026-11-20", "2026-11-21"])
    }

    @Test func daylightSavingChangeKeepsDaysWhole() throws {
        // New York leaves DST at 02:00 on 1 November 2026: that day has 25 hours.
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let hourly = slots(from: "2026-11-01T04:00:00Z", count: 50, every: 1)  // 00:00 EDT on the 1st
        let days = DayGrouping.days(from: hourly, in: zone)
        #expect(days.map(\.date) == ["2026-11-01", "2026-11-02", "2026-11-03"])
        let first = hourly.filter { LocalTime.dateString($0.time, in: zone) == "2026-11-01" }
        #expect(first.count == 25)
        #expect(days[0].temperatureMax == 24)
        #expect(days[1].temperatureMin == 25)
        // And in spring (8 March 2026) the day has 23 hours.
        let spring = slots(from: "2026-03-08T05:00:00Z", count: 30, every: 1)
        #expect(spring.filter { LocalTime.dateString($0.time, in: zone) == "2026-03-08" }.count == 23)
    }

    @Test func representativeConditionIsTheMostSevereInDaytime() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let hours = [
            HourForecast(time: utc("2026-11-21T02:00:00Z"), temperature: 1, condition: Conditions.wmo(95)),  // night storm
            HourForecast(time: utc("2026-11-21T09:00:00Z"), temperature: 5, condition: Conditions.wmo(2)),
            HourForecast(time: utc("2026-11-21T15:00:00Z"), temperature: 7, condition: Conditions.wmo(61)),
        ]
        #expect(DayGrouping.days(from: hours, in: zone)[0].condition.kind == .rain)
    }

    @Test func localTimeParsingAndFormatting() throws {
        let zone = try #require(TimeZone(identifier: "Asia/Kathmandu"))
        let date = try #require(LocalTime.parse("2026-11-22T08:15", in: zone))
        #expect(date == utc("2026-11-22T02:30:00Z"))
        #expect(LocalTime.iso8601(date, in: zone) == "2026-11-22T08:15:00+05:45")
        #expect(LocalTime.iso8601(date, in: TimeZone(secondsFromGMT: -10800)!) == "2026-11-21T23:30:00-03:00")
        #expect(LocalTime.weekday(ofDate: "2026-11-21") == "Sat")
        #expect(LocalTime.parse("nonsense", in: zone) == nil)
    }
}

@Suite struct UnitTests {
    @Test func temperatures() {
        #expect(TemperatureUnit.celsius.convert(21.5) == 21.5)
        #expect(TemperatureUnit.fahrenheit.convert(100) == 212)
        #expect(TemperatureUnit.fahrenheit.convert(-40) == -40)
        #expect(abs(TemperatureUnit.kelvin.convert(0) - 273.15) < 1e-9)
        #expect(abs(Metric.celsius(fromFahrenheit: 32)) < 1e-9)
        #expect(abs(Metric.celsius(fromKelvin: 300) - 26.85) < 1e-9)
    }

    @Test func windAndPrecipitation() {
        #expect(abs(WindUnit.mph.convert(10) - 22.369) < 0.001)
        #expect(WindUnit.ms.convert(10) == 10)
        #expect(abs(PrecipitationUnit.inch.convert(25.4) - 1) < 1e-9)
        #expect(abs(Metric.metresPerSecond(36, unit: "km/h") - 10) < 1e-9)
        #expect(abs(Metric.metresPerSecond(10, unit: "kn") - 5.14444) < 1e-5)
        #expect(Metric.millimetres(2, unit: "cm") == 20)
    }

    @Test func symbolsAndParsing() {
        #expect(TemperatureUnit.celsius.symbol == "°C")
        #expect(TemperatureUnit.fahrenheit.symbol == "°F")
        #expect(TemperatureUnit.kelvin.symbol == "K")
        #expect(UnitSystem(userInput: "F") == .imperial)
        #expect(UnitSystem(userInput: "kelvin") == .standard)
        #expect(UnitSystem(userInput: "rankine") == nil)
    }

    @Test func documentConvertsEveryTemperatureWithoutAnotherFetch() {
        let report = sampleReport(temperature: 10)
        let c = WeatherDocument(report, units: .metric, stale: false, age: 0, now: Date())
        let f = WeatherDocument(report, units: .imperial, stale: false, age: 0, now: Date())
        let k = WeatherDocument(report, units: .standard, stale: true, age: 0, now: Date())
        #expect(c.current.temperature == 10 && f.current.temperature == 50 && k.current.temperature == 283.2)
        #expect(f.days[0].temperatureMax == 53.6 && f.units.windSpeed == "mph" && f.units.precipitation == "in")
        #expect(k.units.temperature == "K" && k.source.stale)
        #expect(c.current.time == "2026-11-21T13:00:00+01:00")
    }
}
