import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore
@testable import BrollyUseCases

/// A forecast double whose place is in the zone its latitude names (one place per zone), so the
/// watcher meets the zones people live in.
final class ZonedForecasts: HTTPTransport {
    static let zones: [Double: String] = [
        28.61: "Asia/Kolkata", -34.93: "Australia/Adelaide", 40.71: "America/New_York", 52.52: "Europe/Berlin",
    ]
    /// 07:00 local on 2026-11-01 in a half-hour zone, a zone on summer time and one on the day its
    /// clocks go back, as UTC.
    static let sevenInTheMorning: [(Double, String)] = [
        (28.61, "2026-11-01T01:30:00Z"),  // Kolkata, UTC+5:30
        (-34.93, "2026-10-31T20:30:00Z"),  // Adelaide, UTC+10:30 (summer time)
        (40.71, "2026-11-01T12:00:00Z"),  // New York: EDT until 02:00 that morning, EST (UTC-5) at 07:00
    ]

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard request.url.path == "/v1/forecast", let lat = query.first(where: { $0.name == "latitude" })?.value.flatMap(Double.init),
            let zone = Self.zones[(lat * 100).rounded() / 100].flatMap(TimeZone.init(identifier:))
        else { return HTTPResponse(status: 404, body: Data(#"{"error":true,"reason":"Not Found"}"#.utf8)) }
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_795_996_800))
        let body = """
            {"latitude":\(lat),"longitude":0,"utc_offset_seconds":\(offset),"timezone":"\(zone.identifier)",
            "current":{"time":"2026-11-01T06:00","interval":900,"temperature_2m":11,"relative_humidity_2m":70,"is_day":1,"rain":0,
            "showers":0,"snowfall":0,"weather_code":3,"cloud_cover":90,"pressure_msl":1012,"wind_speed_10m":10,"wind_direction_10m":200},
            "hourly":{"time":["2026-11-01T06:00"],"temperature_2m":[11],"precipitation_probability":[0],"precipitation":[0],
            "weather_code":[3],"is_day":[1]},
            "daily":{"time":["2026-11-01"],"weather_code":[3],"temperature_2m_max":[14],"temperature_2m_min":[8]}}
            """
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }
}

/// Issue 40, item 4: the morning summary on the services' clock — a test sets the time instead of
/// waiting for the minute — at a place's local 07:00, in a half-hour zone, a zone on summer time and
/// a zone on the day its clocks go back.
@Suite struct MorningOnAClockTests {
    @Test(arguments: ZonedForecasts.sevenInTheMorning)
    func theSummaryComesAtTheLocalSevenOnce(_ latitude: Double, _ seven: String) async throws {
        let due = utc(seven)
        let clock = ManualClock(due.addingTimeInterval(-120))
        let useCases = try makeUseCases(ZonedForecasts(), clock: clock)
        let zone = try #require(ZonedForecasts.zones[latitude])
        _ = try await useCases.savePlace(
            .coordinate(
                Coordinate(latitude: latitude, longitude: 0), named: Place(name: "Home", country: "", latitude: latitude, longitude: 0)),
            device: "d")
        let change = try JSONDecoder().decode(
            PushSettingsChange.self, from: Data(#"{"rain":{"enabled":false},"morning":{"enabled":true,"at":"07:00"}}"#.utf8))
        _ = try await useCases.subscribe(
            device: "d", endpoint: URL(string: "https://push.example/x")!,
            p256dh: Base64URL.encode(Data([4] + Array(repeating: 7, count: 64))), auth: Base64URL.encode(Data(repeating: 1, count: 16)),
            minimumSeverity: .moderate, settings: change)
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        // 06:58 and 06:59 at the place: nothing yet.
        #expect(try await watcher.round().isEmpty)
        clock.advance(60)
        #expect(try await watcher.round().isEmpty)
        // 07:00 at the place: the summary, once.
        clock.advance(60)
        let pushes = try await watcher.round()
        #expect(pushes.count == 1 && pushes.first?.payload.type == "morning", "\(zone): \(pushes.map(\.payload.type))")
        for push in pushes { try await watcher.delivered(push) }
        clock.advance(60)
        #expect(try await watcher.round().isEmpty)
        // The next morning, again.
        clock.advance(24 * 3600 - 60)
        #expect(try await watcher.round().count == 1)
    }
}

/// A day of hours at a place on Greenwich time, every hour wet or every hour dry; counts its calls.
final class OneDayForecast: HTTPTransport {
    let wet: Bool
    let calls = Locked(0)
    init(wet: Bool) { self.wet = wet }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.url.path == "/v1/forecast" else { return HTTPResponse(status: 404, body: Data("{}".utf8)) }
        calls.withLock { $0 += 1 }
        let hours = (0..<24).map { String(format: "\"2026-11-26T%02d:00\"", $0) }.joined(separator: ",")
        func repeated(_ v: String) -> String { Array(repeating: v, count: 24).joined(separator: ",") }
        let body = """
            {"latitude":51.5,"longitude":0,"utc_offset_seconds":0,"timezone":"GMT",
            "current":{"time":"2026-11-26T06:00","interval":900,"temperature_2m":9,"relative_humidity_2m":80,"is_day":0,"rain":0,
            "showers":0,"snowfall":0,"weather_code":3,"cloud_cover":90,"pressure_msl":1012,"wind_speed_10m":10,"wind_direction_10m":200},
            "hourly":{"time":[\(hours)],"temperature_2m":[\(repeated("9"))],"precipitation_probability":[\(repeated(wet ? "80" : "0"))],
            "precipitation":[\(repeated(wet ? "0.6" : "0"))],"weather_code":[\(repeated(wet ? "61" : "3"))],"is_day":[\(repeated("0"))]},
            "daily":{"time":["2026-11-26"],"weather_code":[3],"temperature_2m_max":[11],"temperature_2m_min":[7]}}
            """
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }
}

/// Issue 40, item 1: only where rain is possible is a cell asked every interval; where the forecast
/// the cache holds shows no chance of rain in the coming hours, after six hours.
@Suite struct WatchWhereRainIsPossibleTests {
    func callsInTwoHours(wet: Bool) async throws -> Int {
        let clock = ManualClock(utc("2026-11-26T06:00:30Z"))
        let forecasts = OneDayForecast(wet: wet)
        let useCases = try makeUseCases(forecasts, clock: clock)
        _ = try await useCases.savePlace(
            .coordinate(Coordinate(latitude: 51.5, longitude: 0), named: Place(name: "Home", country: "", latitude: 51.5, longitude: 0)),
            device: "d")
        _ = try await useCases.subscribe(
            device: "d", endpoint: URL(string: "https://push.example/x")!,
            p256dh: Base64URL.encode(Data([4] + Array(repeating: 7, count: 64))), auth: Base64URL.encode(Data(repeating: 1, count: 16)),
            minimumSeverity: .moderate)
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        for _ in 0..<120 {
            _ = try await watcher.round()
            clock.advance(watcher.tick)
        }
        return forecasts.calls.current
    }

    @Test func aDryCellIsAskedOnceInTwoHoursAWetOneEveryQuarter() async throws {
        // Two hours of rounds a minute apart: a wet cell every 15 minutes (8), a dry one once.
        #expect(try await callsInTwoHours(wet: true) == 8)
        let dry = try await callsInTwoHours(wet: false)
        #expect(dry == 1, "\(dry)")
    }
}
