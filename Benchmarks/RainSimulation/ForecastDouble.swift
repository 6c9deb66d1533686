import BrollyCore
import Foundation

/// Open-Meteo's `/v1/forecast` over the constructed day: each call answers, in the provider's own
/// format, the forecast a model issued at the clock's time would give for the asked point (48
/// hours, and the 15-minute slots from the last quarter hour to 2¼ hours ahead), and is counted.
/// Anything else is a 404 (the helpers degrade; the watcher needs only the forecast).
final class ForecastDouble: HTTPTransport {
    let field: RainField
    let clock: ManualClock
    /// The model's grid, degrees: a point is answered from its nearest grid point, and the answer
    /// says which (`latitude`, `longitude`), as Open-Meteo's does.
    let grid: Double
    let calls = Locked(0)

    init(field: RainField, clock: ManualClock, grid: Double) {
        self.field = field
        self.clock = clock
        self.grid = grid
    }

    /// The grid point that answers for a point.
    static func snapped(_ latitude: Double, _ longitude: Double, grid: Double) -> (latitude: Double, longitude: Double) {
        ((latitude / grid).rounded() * grid, (longitude / grid).rounded() * grid)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func number(_ name: String) -> Double? { query.first { $0.name == name }?.value.flatMap(Double.init) }
        guard request.url.path == "/v1/forecast", let lat = number("latitude"), let lon = number("longitude") else {
            return HTTPResponse(status: 404, body: Data(#"{"error":true,"reason":"Not Found"}"#.utf8))
        }
        calls.withLock { $0 += 1 }
        let point = Self.snapped(lat, lon, grid: grid)
        return HTTPResponse(status: 200, body: Data(body(latitude: point.latitude, longitude: point.longitude).utf8))
    }

    func body(latitude: Double, longitude: Double) -> String {
        let now = clock.now.timeIntervalSince(field.dayStart)
        let (x, y) = field.km(latitude: latitude, longitude: longitude)
        let quarter = (now / 900).rounded(.down) * 900
        let slotEnds = (0..<10).map { quarter + Double($0) * 900 }
        let slots = slotEnds.map { end in end <= now ? field.slot(x: x, y: y, end: end) : field.slot(x: x, y: y, end: end, issued: now) }
        let hour = (now / 3600).rounded(.down) * 3600
        let hourEnds = (0..<48).map { hour + Double($0) * 3600 }
        let hours = hourEnds.map { field.chance(x: x, y: y, hourEnding: $0, issued: now) }
        func time(_ t: Double) -> String { "\"" + Self.iso(field.dayStart.addingTimeInterval(t)) + "\"" }
        func list(_ v: [Double]) -> String { v.map { String(format: "%.2f", $0) }.joined(separator: ",") }
        let days = [0.0, 86_400].map { time($0).replacingOccurrences(of: "T00:00", with: "") }
        let wet = slots.first ?? 0 >= 0.1
        return """
            {"latitude":\(String(format: "%.4f", latitude)),"longitude":\(String(format: "%.4f", longitude)),"utc_offset_seconds":0,"timezone":"GMT","timezone_abbreviation":"GMT",
            "current":{"time":\(time(quarter)),"interval":900,"temperature_2m":9,"relative_humidity_2m":85,"is_day":1,
            "rain":\(list([slots.first ?? 0])),"showers":0,"snowfall":0,"weather_code":\(wet ? 61 : 3),"cloud_cover":90,
            "pressure_msl":1008,"wind_speed_10m":15,"wind_direction_10m":240},
            "minutely_15_units":{"time":"iso8601","precipitation":"mm","snowfall":"cm"},
            "minutely_15":{"time":[\(slotEnds.map(time).joined(separator: ","))],"precipitation":[\(list(slots))],
            "snowfall":[\(list(slots.map { _ in 0 }))]},
            "hourly":{"time":[\(hourEnds.map(time).joined(separator: ","))],"temperature_2m":[\(list(hours.map { _ in 9 }))],
            "precipitation_probability":[\(list(hours.map(\.probability)))],"precipitation":[\(list(hours.map(\.mm)))],
            "weather_code":[\(hours.map { $0.mm >= 0.1 ? "61" : "3" }.joined(separator: ","))],"is_day":[\(hours.map { _ in "1" }.joined(separator: ","))]},
            "daily":{"time":[\(days.joined(separator: ","))],"weather_code":[61,3],"temperature_2m_max":[11,12],"temperature_2m_min":[6,7]}}
            """
    }

    static func iso(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }
}
