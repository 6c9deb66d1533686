import Foundation
import Testing

@testable import BrollyCore
@testable import BrollyUseCases

/// Issue 49, item 5: one story on the first screen — the line over the hours agrees with the
/// next-hour line (the nowcast's start), a day is labelled by what dominates its daylight hours
/// (its worst kept), and when rain starts is one rule for the page and the morning push.
@Suite struct OneStoryTests {
    let berlin = Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin")

    /// Hours from local midnight of 2026-11-26 with `condition(hour)`, `amount(hour)` and `chance(hour)`.
    func report(
        now: Date, condition: (Int) -> Int, amount: (Int) -> Double = { _ in 0 }, chance: (Int) -> Double? = { _ in 0 },
        day: Int = 3, nowcast: [NowcastSlot]? = nil
    ) -> WeatherReport {
        let midnight = LocalTime.parse("2026-11-26T00:00", in: berlin.timeZone)!
        let hours = (0..<48).map { i in
            HourForecast(
                time: midnight.addingTimeInterval(Double(i) * 3600), temperature: Double(i % 24) / 2 - 3,
                precipitationProbability: chance(i), precipitation: amount(i), windSpeed: 3, condition: Conditions.wmo(condition(i)))
        }
        let days = ["2026-11-26", "2026-11-27"].map {
            DayForecast(
                date: $0, temperatureMin: -3, temperatureMax: 8.5, precipitation: 1, precipitationProbability: 50,
                condition: Conditions.wmo(day))
        }
        let current = CurrentConditions(
            time: now, temperature: 0, feelsLike: -2, temperatureMin: -3, temperatureMax: 8.5, humidity: 80, pressure: 1010, windSpeed: 3,
            windDirection: 200, windGust: 5, clouds: 90, visibility: 9000, rain: 0, snow: nil, condition: Conditions.wmo(condition(3)))
        var r = WeatherReport(place: berlin, current: current, days: days, hours: hours, provider: .openMeteo, fetchedAt: now)
        r.nowcast = nowcast
        return r
    }

    @Test func theLineOverTheHoursTakesTheNextHourFromTheNowcast() throws {
        // 03:55: the hours say snow from 04:00 … well, from 05:00 (the 04:00 hour is dry); the nowcast says in 5 minutes.
        let now = LocalTime.parse("2026-11-26T03:55", in: berlin.timeZone)!
        let slots = (1...8).map { i in
            NowcastSlot(end: now.addingTimeInterval(Double(i) * 900 + 300), precipitation: i >= 1 ? 0.4 : 0, snowfall: i >= 1 ? 0.3 : nil)
        }
        let r = report(
            now: now, condition: { $0 >= 5 && $0 < 10 ? 73 : 3 }, amount: { $0 >= 5 && $0 < 10 ? 1 : 0 },
            chance: { $0 >= 5 && $0 < 10 ? 90 : 10 }, nowcast: slots)
        let view = WeatherView(r, units: UnitChoice(.metric), now: now)
        let story = try #require(view.story)
        // Starting with the nowcast's first wet slot (04:00), snow: not at the hours' 05:00.
        #expect(story.fall == .from(slots[0].start, snow: true))
        let sentence = try #require(NowcastSummary.sentence(slots, now: now))
        #expect(sentence.contains("5 min"))
        // The document says the same: from 04:00.
        let doc = WeatherDocument(view)
        #expect(doc.summary?.fall == "from" && doc.summary?.snow == true && doc.summary?.time?.dropFirst(11).prefix(5) == "04:00")
        #expect(doc.summary?.temperatureIs == "todayHigh")
        // Without the nowcast, the hours tell it: from 05:00.
        var hoursOnly = r
        hoursOnly.nowcast = nil
        let later = try #require(WeatherView(hoursOnly, units: UnitChoice(.metric), now: now).story)
        #expect(later.fall == .from(LocalTime.parse("2026-11-26T05:00", in: berlin.timeZone)!, snow: true))
        // After 15:00: tonight's low (until 09:00 tomorrow), not today's.
        let evening = LocalTime.parse("2026-11-26T18:30", in: berlin.timeZone)!
        let night = try #require(WeatherView(report(now: evening, condition: { _ in 0 }), units: UnitChoice(.metric), now: evening).story)
        #expect(night.isTonightsLow && night.temperature.base == -3 && night.fall == .dry)
    }

    @Test func aDayIsLabelledByItsDaylightHoursAndKeepsItsWorst() throws {
        // The provider calls the day overcast (its worst); its daylight hours are clear but one.
        let now = LocalTime.parse("2026-11-26T09:00", in: berlin.timeZone)!
        let r = report(now: now, condition: { $0 == 12 ? 3 : 0 }, day: 3)
        let view = WeatherView(r, units: UnitChoice(.metric), now: now)
        let today = try #require(view.days.first)
        #expect(today.condition.kind == .clear && today.worst.kind == .overcast)
        #expect(WeatherDocument(view).days.first?.condition.icon.hasPrefix("clear") == true)
    }

    @Test func rainStartsByOneRuleOnThePageAndInTheMorningPush() throws {
        // 06:00; the 08:00 hour has 0 mm at 55 % (the push's old rule: rain), the 11:00 hour 0.3 mm at 45 %.
        let now = LocalTime.parse("2026-11-26T06:00", in: berlin.timeZone)!
        let r = report(
            now: now, condition: { $0 == 11 ? 61 : 3 }, amount: { $0 == 11 ? 0.3 : 0 }, chance: { $0 == 8 ? 55 : $0 == 11 ? 45 : 10 })
        let view = WeatherView(r, units: UnitChoice(.metric), now: now)
        let wet = view.hours.filter(\.isWet).map { LocalTime.hour($0.time, in: berlin.timeZone) }
        #expect(wet == [11])
        let morning = PushTexts.morning(view, place: "Home", alerts: [])
        #expect(morning.body.contains("11:00"), "\(morning.body)")
        #expect(WeatherDocument(view).summary?.time?.dropFirst(11).prefix(5) == "11:00")
        #expect(WeatherDocument(view).hours.filter { $0.wet == true }.count == 1)
    }
}

/// Issue 49, item 3: the page converts to the reader's units from unrounded values — the base
/// units it asks (°C, m/s) keep two decimals in the document.
@Suite struct UnroundedForThePageTests {
    @Test func baseUnitsKeepTwoDecimalsSoThePagesConversionIsTheServers() throws {
        let place = Place(name: "X", country: "Y", latitude: 1, longitude: 2, timezone: "UTC")
        let now = utcDate("2026-11-26T12:00:00Z")
        let current = CurrentConditions(
            time: now, temperature: 21.36, feelsLike: 20, temperatureMin: 15, temperatureMax: 22, humidity: 50, pressure: 1010,
            windSpeed: 1.33, windDirection: 90, windGust: 2.24, clouds: 10, visibility: 10_000, rain: 0, snow: nil,
            condition: Conditions.wmo(0))
        let report = WeatherReport(place: place, current: current, days: [], hours: [], provider: .openMeteo, fetchedAt: now)
        let metric = WeatherDocument(WeatherView(report, units: UnitChoice(.metric), now: now))
        #expect(metric.current.windSpeed == 1.33 && metric.current.windGust == 2.24 && metric.current.temperature == 21.36)
        // The page's conversion (units.js: convert, then round to the unit's decimals) now gives the server's.
        // (From 21.4, the one-decimal value, the page showed 71 °F where the server says 70.)
        let imperial = WeatherDocument(WeatherView(report, units: UnitChoice(.imperial), now: now))
        let pageMph = Rounding.round(WindUnit.mph.convert(metric.current.windSpeed!), 1)
        #expect(pageMph == imperial.current.windSpeed && pageMph == 3.0)
        let pageF = Rounding.whole(TemperatureUnit.fahrenheit.convert(metric.current.temperature))
        #expect(pageF == Rounding.whole(imperial.current.temperature) && pageF == 70)
    }

    func utcDate(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }
}
