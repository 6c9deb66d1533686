import BrollyCore
import Foundation

/// `GET /data/2.5/weather` and `/data/2.5/forecast`: OpenWeatherMap's current weather and
/// 5-day/3-hour forecast, in its shapes and condition ids. Errors in its shape:
/// `{"cod": 400, "message": …}`.
public struct OpenWeatherMapSurface: CompatibleSurface {
    public init() {}
    public var name: String { "openweathermap" }
    public var mount: String { "/data/2.5" }
    public var routes: [String] { ["weather", "forecast"] }
    public var unknownKeyMessage: String { "Invalid API key. Ask this server's operator for one." }

    /// `appid=`, the name in any letter case, as OpenWeatherMap takes it (pyowm and MagicMirror
    /// send `APPID`).
    public func key(of request: CompatibleRequest) -> String? { request.query.first { $0.name.lowercased() == "appid" }?.value }

    /// `cod` as OpenWeatherMap writes it: a string for 400 and 404 (`"404"`, "city not found"),
    /// a number for 401 and 429.
    public func errorBody(status: Int, message: String) -> [String: Any] {
        ["cod": status == 400 || status == 404 ? String(status) as Any : status as Any, "message": message]
    }

    public func message(for error: BrollyError) -> String { error.kind == .placeNotFound ? "city not found" : error.message }

    /// What a request asks for, beside the place.
    struct Asked: Sendable {
        var route: String
        var units: OpenWeatherMapFormat.Units
        var count: Int
    }

    public func read(_ request: CompatibleRequest, route: String) throws(CompatibleRefusal) -> CompatibleAsk {
        let place: CompatiblePlace
        if let coordinate = try request.coordinate() {
            place = .coordinate(coordinate)
        } else if let name = try request.one("q"), !name.isEmpty {
            guard name.count <= 100 else { throw .badRequest("city name is too long") }
            place = .name(name)
        } else if let zip = try request.one("zip"), !zip.isEmpty {
            // `zip=94040,us` (the country defaults to the United States, as OpenWeatherMap's): a
            // postcode search on the geocoder, narrowed to the country.
            guard zip.count <= 40 else { throw .badRequest("invalid zip code") }
            place = .name(zip.contains(",") ? zip : zip + ",US")
        } else if let id = try request.one("id") {
            // OpenWeatherMap's own list of cities: looked up with the server's OpenWeatherMap key.
            guard let n = Int(id), (1...999_999_999).contains(n) else { throw .badRequest("\(id.prefix(20)) is not a city ID") }
            place = .openWeatherMapCity(n)
        } else {
            throw .badRequest("Nothing to geocode: give lat and lon, q or zip")
        }
        if let mode = try request.one("mode"), mode != "json" { throw .badRequest("only mode=json is served here") }
        let units = try Self.units(request)
        var count = 40
        if let raw = try request.one("cnt") {
            guard let n = Int(raw), (1...40).contains(n) else { throw .badRequest("cnt must be from 1 to 40") }
            count = n
        }
        return .weather(
            place: place, language: try request.language(), full: false, model: nil,
            details: Asked(route: route, units: units, count: count))
    }

    /// `units=` (standard when absent), as OpenWeatherMap reads it.
    static func units(_ request: CompatibleRequest) throws(CompatibleRefusal) -> OpenWeatherMapFormat.Units {
        switch try request.one("units")?.lowercased() {
        case nil, "", "standard": return .standard
        case "metric": return .metric
        case "imperial": return .imperial
        case let other?: throw .badRequest("units must be standard, metric or imperial, got '\(other.prefix(20))'")
        }
    }

    public func units(for ask: CompatibleAsk, at place: Place) -> UnitChoice {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked else { return UnitChoice(.standard) }
        return asked.units.choice
    }

    public func document(for ask: CompatibleAsk, view: WeatherView) throws(CompatibleRefusal) -> any Encodable & Sendable {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked else { throw .badRequest("not a forecast") }
        if asked.route == "weather" { return OpenWeatherMapFormat.current(view) }
        return OpenWeatherMapFormat.forecast(view, count: asked.count)
    }
}
