import BrollyCompatibleAPIs
import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyTerminal

/// One answer, every surface, every unit system: the JSON document (the page and the widget read
/// it), the terminal text, the one-line format and the three compatible APIs show the same numbers.
@Suite struct OneViewTests {
    let report = formatReport()
    let now = utc("2026-11-23T16:53:30Z")
    var result: WeatherResult { WeatherResult(report: report, isStale: false, isFromCache: true, age: 60, refreshError: nil) }

    /// The number at the start of a text (`+3°C` → 3, `-1 K` → -1, `4.2m/s` → 4.2).
    func number(_ s: String) -> Double? {
        let digits = s.drop { !($0.isNumber || $0 == "-" || $0 == "+") }.prefix { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }
        return Double(digits.replacingOccurrences(of: "+", with: ""))
    }

    @Test(arguments: UnitSystem.allCases)
    func everySurfaceShowsTheSameTemperatureAndWind(_ preset: UnitSystem) throws {
        let choice = UnitChoice(preset)
        let doc = WeatherDocument(result, units: choice, now: now)
        let whole = Double(Rounding.whole(doc.current.temperature))
        #expect(number(OneLineFormat(units: choice).render("%t", report, now: now)) == whole)
        #expect(number(TextRenderer(choice: choice, color: false).temp(report.current.temperature)) == whole)
        // The compatible APIs keep decimals; rounded they are the document's.
        let owm = OpenWeatherMapFormat.current(
            WeatherView(result, units: OpenWeatherMapFormat.Units(rawValue: preset.rawValue)!.choice, now: now))
        #expect(Rounding.round(owm.main.temp, 1) == doc.current.temperature)
        #expect(Rounding.round(owm.wind.speed ?? .nan, 1) == doc.current.windSpeed)
        if preset != .standard {
            let skyUnits: DarkSkyDocument.Units = preset == .imperial ? .us : .si
            let sky = DarkSkyDocument(WeatherView(result, units: skyUnits.choice, now: now), units: skyUnits)
            #expect(Rounding.round(sky.currently?.temperature ?? .nan, 1) == doc.current.temperature)
            #expect(Rounding.round(sky.currently?.windSpeed ?? .nan, 1) == doc.current.windSpeed)
            let query = try OpenMeteoQuery([
                ("latitude", "52.52"), ("longitude", "13.41"), ("current", "temperature_2m,wind_speed_10m"),
                ("temperature_unit", preset == .imperial ? "fahrenheit" : "celsius"), ("wind_speed_unit", choice.wind.rawValue),
            ])
            let meteo = OpenMeteoFormat.document(query, view: WeatherView(result, units: query.units, now: now))
            #expect(meteo["current"]?["temperature_2m"]?.double == doc.current.temperature)
            #expect(meteo["current"]?["wind_speed_10m"]?.double.map { Rounding.round($0, 1) } == doc.current.windSpeed)
        }
    }

    @Test func theNowHourIsTheCurrentReading() {
        // The report's hour under way says 2 °C; the reading says 2.5 °C: every "now" shows 2.5.
        var r = report
        r.hours.insert(HourForecast(time: utc("2026-11-23T16:00:00Z"), temperature: 2, condition: Conditions.wmo(3)), at: 0)
        let doc = WeatherDocument(r, units: .metric, stale: false, age: 0, now: now)
        #expect(doc.hours.first?.temperature == doc.current.temperature)
        #expect(doc.hours.first?.condition.code == doc.current.condition.code)
        #expect(doc.hours.dropFirst().first?.temperature == 2)
    }

    /// No conversion constant outside BrollyCore's table, in Swift or in the page's JavaScript.
    @Test func conversionConstantsAreWrittenOnce() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(
            pattern: #"273\.15|0\.447|25\.4|\b1\.8\b|\b9 ?/ ?5\b|\* ?3\.6\b|33\.86|1\.3332|1609|2\.54|1852|0\.514|/ ?0\.7\b|2\.236"#)
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard ["swift", "js"].contains(url.pathExtension), url.lastPathComponent != "Units.swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || code.hasPrefix("*") || code.hasPrefix("/**") { continue }
                let s = String(line)
                if pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil {
                    found.append("\(url.lastPathComponent):\(i + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The page's table is the Swift one.
    @Test func thePagesTableIsTheSwiftTable() throws {
        let table = try #require(try JSONSerialization.jsonObject(with: UnitTable.json) as? [String: Any])
        let wind = try #require(table["wind"] as? [String: [String: Any]])
        let mph = try #require(wind["mph"])
        let value = 10 * (mph["factor"] as! Double) / (mph["divisor"] as! Double) + (mph["offset"] as! Double)
        #expect(value == WindUnit.mph.convert(10))
        let f = try #require((table["temperature"] as? [String: [String: Any]])?["F"])
        #expect(100 * (f["factor"] as! Double) / (f["divisor"] as! Double) + (f["offset"] as! Double) == 212)
        #expect((table["snowFor"] as? [String: String]) == ["mm": "cm", "in": "in"])
    }
}
