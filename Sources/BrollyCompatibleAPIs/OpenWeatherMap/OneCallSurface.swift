import BrollyCore
import Foundation

/// `GET /data/3.0/onecall`: OpenWeatherMap's One Call API 3.0 (`lat`, `lon`, `exclude`, `units`,
/// `lang`, `appid`), with OpenWeatherMap 2.5's keys and error shape.
public struct OneCallSurface: CompatibleSurface {
    let owm = OpenWeatherMapSurface()

    public init() {}
    public var name: String { "openweathermap-onecall" }
    public var mount: String { "/data/3.0" }
    public var routes: [String] { ["onecall"] }
    public var unknownKeyMessage: String { owm.unknownKeyMessage }
    public func key(of request: CompatibleRequest) -> String? { owm.key(of: request) }
    public func errorBody(status: Int, message: String) -> [String: Any] { owm.errorBody(status: status, message: message) }
    public func message(for error: BrollyError) -> String { owm.message(for: error) }

    struct Asked: Sendable {
        var units: OpenWeatherMapFormat.Units
        var exclude: Set<String>
    }

    static let blocks: Set<String> = ["current", "minutely", "hourly", "daily", "alerts"]

    public func read(_ request: CompatibleRequest, route: String) throws(CompatibleRefusal) -> CompatibleAsk {
        guard let coordinate = try request.coordinate() else { throw .badRequest("Nothing to geocode") }
        let exclude = Set(
            (try request.one("exclude") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty })
        if let unknown = exclude.subtracting(Self.blocks).first {
            throw .badRequest("exclude: '\(unknown.prefix(20))' is not one of current, minutely, hourly, daily, alerts")
        }
        let details = Asked(units: try OpenWeatherMapSurface.units(request), exclude: exclude)
        return .weather(place: .coordinate(coordinate), language: try request.language(), full: false, model: nil, details: details)
    }

    public func units(for ask: CompatibleAsk, at place: Place) -> UnitChoice {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked else { return UnitChoice(.standard) }
        return asked.units.choice
    }

    public func document(for ask: CompatibleAsk, view: WeatherView) throws(CompatibleRefusal) -> any Encodable & Sendable {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked else { throw .badRequest("not a forecast") }
        return OneCallFormat.document(view, exclude: asked.exclude)
    }
}
