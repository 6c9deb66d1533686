import BrollyCore
import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

/// Open-Meteo's forecast at a place in the zone its latitude names (as `ZonedForecasts`), with
/// 15-minute slots from the clock's quarter hour: dry, then 0.6 mm a quarter from `rain`.
final class ZonedRain: HTTPTransport {
    let clock: ManualClock
    let rain: Date
    init(clock: ManualClock, rain: Date) {
        self.clock = clock
        self.rain = rain
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard request.url.path == "/v1/forecast", let lat = query.first(where: { $0.name == "latitude" })?.value.flatMap(Double.init),
            let zone = ZonedForecasts.zones[(lat * 100).rounded() / 100].flatMap(TimeZone.init(identifier:))
        else { return HTTPResponse(status: 404, body: Data(#"{"error":true,"reason":"Not Found"}"#.utf8)) }
        let now = clock.now
        let offset = zone.secondsFromGMT(for: now)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let quarter = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 900).rounded(.down) * 900)
        let ends = (0..<10).map { quarter.addingTimeInterval(Double($0) * 900) }
        let times = ends.map { "\"\(formatter.string(from: $0))\"" }.joined(separator: ",")
        let mm = ends.map { $0.addingTimeInterval(-900) >= rain ? "0.6" : "0" }.joined(separator: ",")
        let body = """
            {"latitude":\(lat),"longitude":0,"utc_offset_seconds":\(offset),"timezone":"\(zone.identifier)",
            "current":{"time":\(ends.first.map { "\"\(formatter.string(from: $0))\"" }!),"interval":900,"temperature_2m":11,
            "relative_humidity_2m":70,"is_day":1,"rain":0,"showers":0,"snowfall":0,"weather_code":3,"cloud_cover":90,"pressure_msl":1012,
            "wind_speed_10m":10,"wind_direction_10m":200},
            "minutely_15":{"time":[\(times)],"precipitation":[\(mm)],"snowfall":[\(ends.map { _ in "0" }.joined(separator: ","))]},
            "hourly":{"time":[\(times)],"temperature_2m":[\(ends.map { _ in "11" }.joined(separator: ","))],
            "precipitation_probability":[\(ends.map { _ in "80" }.joined(separator: ","))],"precipitation":[\(mm)],
            "weather_code":[\(ends.map { _ in "61" }.joined(separator: ","))],"is_day":[\(ends.map { _ in "1" }.joined(separator: ","))]},
            "daily":{"time":["\(formatter.string(from: now).prefix(10))"],"weather_code":[61],"temperature_2m_max":[14],"temperature_2m_min":[8]}}
            """
        return HTTPResponse(status: 200, body: Data(body.utf8))
    }
}

/// Issue 40, item 4: the rain push through the real watcher on the services' clock, at a place's
/// local time — a half-hour zone, a zone on summer time, and a zone on the day its clocks go back
/// — with the default quiet hours (22:00–07:00 at the place).
@Suite struct RainOnAClockTests {
    func firstPush(latitude: Double, lead: Int, rain: Date, from start: Date) async throws -> (at: Date, body: String)? {
        let clock = ManualClock(start)
        let useCases = try makeUseCases(ZonedRain(clock: clock, rain: rain), clock: clock)
        _ = try await useCases.savePlace(
            .coordinate(
                Coordinate(latitude: latitude, longitude: 0), named: Place(name: "Home", country: "", latitude: latitude, longitude: 0)),
            device: "d")
        let change = try JSONDecoder().decode(
            PushSettingsChange.self, from: Data(#"{"rain":{"enabled":true,"leadMinutes":\#(lead)}}"#.utf8))
        _ = try await useCases.subscribe(
            device: "d", endpoint: URL(string: "https://push.example/x")!,
            p256dh: Base64URL.encode(Data([4] + Array(repeating: 7, count: 64))), auth: Base64URL.encode(Data(repeating: 1, count: 16)),
            minimumSeverity: .moderate, settings: change)
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        while clock.now < rain {
            if let push = try await watcher.round().first(where: { $0.payload.type == "rain" }) {
                return (clock.now, push.payload.body ?? "")
            }
            clock.advance(60)
        }
        return nil
    }

    /// 07:00 local on 2026-11-01 (the same zones as the morning summary's test).
    @Test(arguments: ZonedForecasts.sevenInTheMorning)
    func theRainPushComesAtItsLeadAndNotInTheLocalQuietHours(_ latitude: Double, _ seven: String) async throws {
        let sevenLocal = utc(seven)
        // Rain at 07:30 local, a 20-minute lead: pushed at 07:10 local, to the minute.
        let rain = sevenLocal.addingTimeInterval(1800)
        let pushed = try await firstPush(latitude: latitude, lead: 20, rain: rain, from: sevenLocal.addingTimeInterval(-3600))
        #expect(pushed?.at == rain.addingTimeInterval(-1200), "\(latitude): \(String(describing: pushed))")
        #expect(pushed?.body.contains("20 min") == true)
        // Rain at 07:15 local, a 30-minute lead: due at 06:45, in the quiet hours; pushed at 07:00.
        let early = sevenLocal.addingTimeInterval(900)
        let held = try await firstPush(latitude: latitude, lead: 30, rain: early, from: sevenLocal.addingTimeInterval(-3600))
        #expect(held?.at == sevenLocal, "\(latitude): \(String(describing: held))")
    }
}
