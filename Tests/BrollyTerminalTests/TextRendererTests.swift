import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore
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

    @Test func linesAreFittedToTheTerminalWidth() {
        #expect(TextRenderer.fit("Berlin, Land Berlin, Germany", width: 12) == "Berlin, Lan…")
        #expect(TextRenderer.fit("short", width: 12) == "short")
        #expect(TextRenderer.fit("exactly twelve", width: 14) == "exactly twelve")
        let coloured = "\u{1B}[1mBerlin, Land Berlin\u{1B}[0m"
        #expect(TextRenderer.visibleCount(TextRenderer.fit(coloured, width: 8)) == 8)
        let result = WeatherResult(report: hourlyReport(temperature: 1), isStale: false, isFromCache: false, age: 0, refreshError: nil)
        let text = TextRenderer(units: .metric, color: false, width: 40).forecast(result, days: 1, hours: 24)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 40 })
    }

    @Test func temperaturesAreColouredByValueOnlyWhenAsked() {
        #expect(TextRenderer(units: .metric, color: true).colouredTemp(-20).contains("38;5;21"))
        #expect(TextRenderer(units: .metric, color: true).colouredTemp(40).contains("38;5;196"))
        #expect(!TextRenderer(units: .metric, color: false).colouredTemp(40).contains("\u{1B}"))
    }

    @Test func hourlyForecastShowsTheNext24HoursByDefault() throws {
        let report = hourlyReport(temperature: 1)
        #expect(report.upcomingHours(24).count == 24)
        #expect(report.upcomingHours(24).first?.time == report.current.time)
        #expect(report.upcomingHours(48).count == 36)  // the slots run out at midnight after next
        let result = WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
        let text = TextRenderer(units: .metric, color: false).forecast(result, days: 1, hours: 24)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let slotLines = lines.filter { $0.range(of: #"^  \d\d:\d\d"#, options: .regularExpression) != nil }
        #expect(slotLines.count == 24)
        #expect(slotLines.first?.contains("13:00") == true)  // 12:00 UTC is 13:00 in Berlin
        // Grouped under their days: Saturday's 11 hours, then Sunday's.
        #expect(lines.contains("Sat 2026-11-21") && lines.contains("Sun 2026-11-22"))
        let sunday = try #require(lines.firstIndex(of: "Sun 2026-11-22"))
        #expect(lines[sunday + 1].hasPrefix("  00:00") && lines[sunday - 2].hasPrefix("  23:00"))
        // The hour under way is the current reading (its wind too); the forecast's hours carry no wind here.
        #expect(slotLines[0].contains("2.0 m/s") && !slotLines[1].contains("m/s"))
    }
}

@Suite struct DisplayWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndMarksNone() {
        #expect("東京".displayWidth == 4 && "Paris".displayWidth == 5 && "مرحبا".displayWidth == 5)
        #expect("e\u{301}".displayWidth == 1 && "\u{200F}abc".displayWidth == 3 && "☀️".displayWidth == 1)
        #expect("東京都".truncated(toWidth: 5) == "東京" && "東京".padded(toWidth: 6) == "東京  ")
    }

    @Test func tableColumnsLineUpInJapanese() {
        let lines = TextRenderer.table([["1.", "東京", "日本"], ["2.", "Osaka", "JP"]], rightAligned: [0])
        // The third column starts at the same column on both lines.
        let starts = lines.map { line in line.prefix { $0 != "日" && $0 != "J" }.description.displayWidth }
        #expect(starts[0] == starts[1])
    }

    @Test func longTextIsWrappedAtSpacesByDisplayWidth() {
        #expect("short".wrapped(toWidth: 10) == ["short"])
        #expect("one two three four".wrapped(toWidth: 9) == ["one two", "three", "four"])
        #expect("東京 大阪 名古屋".wrapped(toWidth: 9) == ["東京 大阪", "名古屋"])
        #expect("unbreakable-word here".wrapped(toWidth: 5) == ["unbre", "akabl", "e-wor", "d", "here"])
    }

    /// Japanese and Chinese write a sentence without spaces: it is broken where the width ends, and
    /// a line cut with `…` is cut by columns, a kanji two (issue 50: at 60 columns the forecast's
    /// Japanese note ran to 71 cells and a warning's line to 65).
    @Test func japaneseIsWrappedAndCutByColumns() {
        let note = "幅：アンサンブル自体のばらつき（この地点ではまだ較正されていません）"
        let lines = note.wrapped(toWidth: 20)
        #expect(lines.joined() == note && lines.allSatisfy { $0.displayWidth <= 20 } && lines.count == 4, "\(lines)")
        let warning = "⚠ 重大  severe thunderstorm warning 日 06:49まで — Official severe thunderstorm warning"
        let cut = TextRenderer.fit(warning, width: 60)
        #expect(cut.hasSuffix("…") && cut.displayWidth <= 60 && cut.displayWidth >= 58, "\(cut) \(cut.displayWidth)")
        let wrapped = TextRenderer.wrapped("brolly: " + note + note, width: 30).split(separator: "\n").map(String.init)
        #expect(wrapped.allSatisfy { $0.displayWidth <= 30 } && wrapped.count >= 5, "\(wrapped)")
        #expect(wrapped.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(wrapped)")
    }

    /// Today's line, the rows and the outlook start their values in one column in every language:
    /// in Arabic and Russian the rows' labels are wider than 11 cells, and today's and the outlook's
    /// values sat left of the rows' (issue 50). At 60 columns no line is wider, and the outlook
    /// shows the days it has room for, none of them cut.
    @Test(arguments: ["en", "ru", "ar", "ja", "de"]) func nowsValuesShareOneColumn(code: String) throws {
        var report = hourlyReport(temperature: 1)
        let condition = Conditions.wmo(61)
        report.days = (21...25).map { DayForecast(date: "2026-11-\($0)", temperatureMin: -5, temperatureMax: 6, condition: condition) }
        let result = WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
        for width in [60, 80, 120] {
            var renderer = TextRenderer(units: .metric, color: false, width: width)
            renderer.language = try #require(Localization.pack(code: code))
            let l = renderer.language
            let lines = renderer.now(result, now: report.fetchedAt).split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.displayWidth <= width }, "\(lines)")
            // Where the value starts after each label: the label's width and its padding.
            func valueColumn(_ label: String) throws -> Int {
                let line = try #require(lines.first { $0.hasPrefix("   " + label + " ") }, "\(label) in \(lines)")
                let rest = line.dropFirst(3 + label.count).prefix { $0 == " " }
                return 3 + label.displayWidth + rest.count
            }
            let columns = try [l.text("today"), l.text("humidity"), l.text("pressure"), l.text("moon"), l.text("outlook")].map(valueColumn)
            #expect(Set(columns).count == 1, "\(code) at \(width): \(columns) in \(lines)")
            let outlook = try #require(lines.first { $0.hasPrefix("   " + l.text("outlook")) })
            #expect(!outlook.hasSuffix("…"), "\(outlook)")
            if width >= 80 { #expect(outlook.components(separatedBy: "°C…").count == 4, "\(outlook)") }
        }
    }

    /// The Russian air-quality line is longer than 80 columns: it goes on under itself, keeping the
    /// US index (it was cut with `…` before).
    @Test func theRussianAirLineKeepsTheUSIndexAt80Columns() throws {
        let report = hourlyReport(temperature: 1)
        var result = WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
        let air = AirQuality(time: report.fetchedAt, europeanAQI: 42, usAQI: 55, pm2_5: 9, fetchedAt: report.fetchedAt)
        result.airQuality = AirQualityService.Result(airQuality: air, isStale: false)
        var renderer = TextRenderer(units: .metric, color: false, width: 80)
        renderer.language = try #require(Localization.pack(code: "ru"))
        let text = renderer.now(result, now: report.fetchedAt)
        #expect(text.contains("США 55"), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { String($0).displayWidth <= 80 }, "\(text)")
    }
}
