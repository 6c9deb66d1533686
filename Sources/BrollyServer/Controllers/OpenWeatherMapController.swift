import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /data/2.5/weather` and `/data/2.5/forecast`: OpenWeatherMap's current weather and
/// 5-day/3-hour forecast, from Brolly's cached weather, in OpenWeatherMap's shapes and condition
/// ids. Errors in its shape: `{"cod": 400, "message": …}`.
struct OpenWeatherMapController: Sendable {
    let answers: CompatibleAnswers

    /// Under `/data/2.5`.
    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("weather", use: weather)
        group.get("forecast", use: forecast)
    }

    struct Refusal: Error { var message: String }

    /// What a request asks for.
    struct Asked {
        var place: PlaceQuery
        var units: OpenWeatherMapFormat.Units
        var language: String
        var count: Int

        init(_ request: Request) throws {
            let q = request.uri.queryParameters
            func one(_ name: String) throws -> String? {
                let values = q.getAll(name)
                guard values.count <= 1 else { throw Refusal(message: "\(name) is given more than once") }
                return values.first.map { String($0).trimmingCharacters(in: .whitespaces) }
            }
            if let lat = try one("lat"), let lon = try one("lon") {
                guard let la = Double(lat), la.isFinite, abs(la) <= 90 else { throw Refusal(message: "wrong latitude") }
                guard let lo = Double(lon), lo.isFinite, abs(lo) <= 180 else { throw Refusal(message: "wrong longitude") }
                place = .coordinate(Coordinate(latitude: la, longitude: lo))
            } else if let name = try one("q"), !name.isEmpty {
                guard name.count <= 100 else { throw Refusal(message: "city name is too long") }
                place = .name(name)
            } else {
                throw Refusal(message: "Nothing to geocode: give lat and lon, or q")
            }
            if let mode = try one("mode"), mode != "json" { throw Refusal(message: "only mode=json is served here") }
            switch try one("units")?.lowercased() {
            case nil, "", "standard": units = .standard
            case "metric": units = .metric
            case "imperial": units = .imperial
            case let other?: throw Refusal(message: "units must be standard, metric or imperial, got '\(other.prefix(20))'")
            }
            let lang = (try one("lang") ?? "en").lowercased()
            guard lang.count <= 12, lang.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw Refusal(message: "lang must be a language code such as en or ru")
            }
            language = lang
            if let raw = try one("cnt") {
                guard let n = Int(raw), (1...40).contains(n) else { throw Refusal(message: "cnt must be from 1 to 40") }
                count = n
            } else {
                count = 40
            }
        }
    }

    @Sendable func weather(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await answer(request) { asked, result, pack in
            OpenWeatherMapFormat.current(result, units: asked.units, language: pack)
        }
    }

    @Sendable func forecast(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await answer(request) { asked, result, pack in
            OpenWeatherMapFormat.forecast(result, units: asked.units, language: pack, count: asked.count)
        }
    }

    func answer(
        _ request: Request, _ make: @Sendable (Asked, WeatherResult, LanguagePack) -> some Encodable
    ) async throws -> Response {
        let api = CompatibleAPI.openWeatherMap
        do {
            let asked = try Asked(request)
            let (result, pack) = try await answers.weather(for: asked.place, language: asked.language, full: false)
            return try answers.answer(request, document: make(asked, result, pack), from: result)
        } catch let refusal as Refusal {
            return api.error(.badRequest, refusal.message)
        } catch let error as BrollyError {
            return api.error(error.kind == .placeNotFound ? BrollyError(.placeNotFound, "city not found") : error)
        }
    }
}
