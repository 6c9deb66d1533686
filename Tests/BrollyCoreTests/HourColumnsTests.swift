import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// A report's hours stored column by column: the same hours back, the older form still read, and
/// columns that disagree refused.
@Suite struct HourColumnsTests {
    func hours() -> [HourForecast] {
        let t0 = utc("2026-11-21T00:00:00Z")
        return (0..<48).map { (i: Int) -> HourForecast in
            let x = Double(i)
            let probability: Double? = i % 3 == 0 ? nil : x
            let feelsLike: Double? = i % 4 == 0 ? nil : -5.5
            let uv: Double? = i % 24 > 12 ? nil : 1.2
            let condition = i % 2 == 0 ? Conditions.wmo(3) : Conditions.wmo(61, isDay: false)
            return HourForecast(
                time: t0.addingTimeInterval(x * 3600), temperature: x / 4 - 3, precipitationProbability: probability,
                precipitation: i % 5 == 0 ? 0.4 : 0, windSpeed: 3.25, condition: condition, feelsLike: feelsLike, humidity: 80,
                pressure: 1012.3, clouds: nil, windDirection: 270, windGust: 9.1, uvIndex: uv)
        }
    }

    @Test(arguments: [false, true]) func theHoursComeBackAsTheyWere(millisecondDates: Bool) throws {
        var report = sampleReport()
        report.hours = hours()
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        if millisecondDates {
            encoder.dateEncodingStrategy = .millisecondsSince1970
            decoder.dateDecodingStrategy = .millisecondsSince1970
        }
        let data = try encoder.encode(report)
        #expect(try decoder.decode(WeatherReport.self, from: data) == report)
        // Two distinct conditions are written once each, the hours by their index; no hour has clouds.
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let columns = try #require(object?["hours"] as? [String: Any])
        #expect((columns["conditions"] as? [Any])?.count == 2)
        #expect((columns["time"] as? [Double])?.first == utc("2026-11-21T00:00:00Z").timeIntervalSince1970)
        #expect(columns["clouds"] == nil)
    }

    @Test func anArrayOfHourObjectsWrittenBeforeIsStillRead() throws {
        var report = sampleReport()
        report.hours = hours()
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        // The older form, written here from the columns as the builds before wrote it: an object per
        // hour, its time in the coder's date strategy (seconds since 2001), a value no hour has left out.
        let columns = try #require(object["hours"] as? [String: Any])
        let times = try #require(columns["time"] as? [Double])
        let conditions = try #require(columns["conditions"] as? [Any]), which = try #require(columns["condition"] as? [Int])
        object["hours"] = times.indices.map { i in
            var hour: [String: Any] = ["time": times[i] - 978_307_200, "condition": conditions[which[i]]]
            for (key, column) in columns where !["time", "conditions", "condition"].contains(key) {
                if let value = (column as? [Any])?[i], !(value is NSNull) { hour[key] = value }
            }
            return hour
        }
        let older = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(WeatherReport.self, from: older).hours == report.hours)
    }

    @Test(arguments: ["temperature", "condition", "humidity"]) func aColumnOfAnotherLengthIsUnreadable(column: String) throws {
        var report = sampleReport()
        report.hours = hours()
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        var columns = try #require(object["hours"] as? [String: Any])
        columns[column] = (columns[column] as? [Any]).map { Array($0.dropLast()) }
        object["hours"] = columns
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(WeatherReport.self, from: data) }
    }
}
