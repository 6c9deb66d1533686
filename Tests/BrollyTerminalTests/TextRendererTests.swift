import BrollyCore
import Foundation
import Testing

@testable import BrollyTerminal

/// A report at 12:00 UTC in Berlin with 48 hourly slots from midnight.
func hourlyReport(temperature: Double) -> WeatherReport {
    let condition = Conditions.wmo(3)
    let noon = Date(timeIntervalSince1970: 1_795_262_400)  // 2026-11-21T12:00:00Z
    let midnight = noon.addingTimeInterval(-12 * 3600)
    return WeatherReport(
        place: Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin"),
        current: CurrentConditions(
            time: noon, temperature: temperature, temperatureMin: temperature - 1, temperatureMax: temperature + 1, humidity: 80,
            pressure: 1010, windSpeed: 2, windDirection: 90, condition: condition),
        days: [DayForecast(date: "2026-11-21", temperatureMin: -0.4, temperatureMax: 1, condition: condition)],
        hours: (0..<48).map { HourForecast(time: midnight.addingTimeInterval(Double($0) * 3600), temperature: 1, condition: condition) },
        provider: .openMeteo, fetchedAt: noon)
}

@Suite struct TextRendererTests {
    @Test func windArrowPointsDownwind() {
        #expect(TextRenderer.wind(0) == "↓ N")
        #expect(TextRenderer.wind(225) == "↗ SW")
        #expect(TextRenderer.wind(359) == "↓ N")
        #expect(TextRenderer.wind(-90) == "→ W")
    }

    @Test(arguments: [-0.3, -0.49, 0.2]) func temperaturesThatRoundToZeroPrintWithoutASign(_ celsius: Double) {
        let text = TextRenderer(units: .metric, color: false).temp(celsius)
        #expect(text == "0°C")
    }

    @Test func nowNeverPrintsMinusZero() {
        let result = WeatherResult(report: hourlyReport(temperature: -0.2), isStale: false, isFromCache: false, age: 0, refreshError: nil)
        let text = TextRenderer(units: .metric, color: false).now(result)
        #expect(!text.contains("-0°"))
        #expect(text.contains("0°C"))
    }

    @Test func hourlyForecastShowsTheNext24HoursByDefault() {
        let report = hourlyReport(temperature: 1)
        #expect(report.upcomingHours(24).count == 24)
        #expect(report.upcomingHours(24).first?.time == report.current.time)
        #expect(report.upcomingHours(48).count == 36)  // the slots run out at midnight after next
        let result = WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
        let text = TextRenderer(units: .metric, color: false).forecast(result, days: 1, hours: 24)
        let slotLines = text.split(separator: "\n").filter { $0.hasPrefix("2026-11-2") }
        #expect(slotLines.count == 24)
        #expect(slotLines.first?.contains("13:00") == true)  // 12:00 UTC is 13:00 in Berlin
    }
}
