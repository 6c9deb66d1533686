import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /forecast/{key}/{lat},{lon}`: the Pirate Weather / Dark Sky API, from the same cached
/// forecast, failover and budgets as everything else. Errors come in that API's own shape
/// (`{"detail": …}` for a bad request, `{"message": …}` otherwise), not as problem+json, because
/// that is what its clients read. Any key is accepted (a household's own server).
struct DarkSkyController: Sendable {
    let answers: CompatibleAnswers

    /// Under `/forecast` (the API's router, with the client allowance and ETags set by the group).
    func add(to group: RouterGroup<AppRequestContext>) {
        group.get(":key/:location", use: forecast)
    }

    /// A request the API refuses.
    struct Refusal: Error {
        var status: HTTPResponse.Status
        var detail: String
    }

    static func bad(_ detail: String) -> Refusal { Refusal(status: .badRequest, detail: detail) }

    /// What a request asks for.
    struct Asked {
        var coordinate: Coordinate
        /// A time machine request's time, as given.
        var time: String?
        var units: DarkSkyDocument.Units?
        var exclude: Set<String>
        var hours: Int
        var version2: Bool
        var language: String

        init(_ request: Request, location raw: String) throws {
            // The path segment as sent: a client may encode its comma (`52.5%2C13.4`).
            let location = raw.removingPercentEncoding ?? raw
            let parts = location.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 || parts.count == 3, let lat = Double(parts[0]), let lon = Double(parts[1]),
                lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
            else {
                throw DarkSkyController.bad("Invalid Location Specification: expected latitude,longitude, got '\(location.prefix(60))'")
            }
            time = parts.count == 3 ? parts[2] : nil
            if let time, time.isEmpty || time.count > 32 {
                throw DarkSkyController.bad("Invalid time: expected seconds since 1970 or [YYYY]-[MM]-[DD]T[HH]:[MM]:[SS]")
            }
            coordinate = Coordinate(latitude: lat, longitude: lon)
            let query = request.uri.queryParameters
            func one(_ name: String) throws -> String? {
                let values = query.getAll(name)
                guard values.count <= 1 else { throw DarkSkyController.bad("'\(name)' is given more than once") }
                return values.first.map { String($0) }
            }
            switch try one("units")?.lowercased() {
            case nil, "auto": units = nil
            case let raw?:
                guard let u = DarkSkyDocument.Units(rawValue: raw == "uk2" ? "uk" : raw) else {
                    throw DarkSkyController.bad("units must be si, us, uk, ca or auto, got '\(raw.prefix(20))'")
                }
                units = u
            }
            exclude = []
            for item in (try one("exclude") ?? "").split(separator: ",") {
                let name = item.trimmingCharacters(in: .whitespaces).lowercased()
                // Pirate Weather's model names and "summary" are accepted and change nothing here.
                if DarkSkyDocument.blocks.contains(name) { exclude.insert(name) }
            }
            switch try one("extend")?.lowercased() {
            case nil: hours = 48
            case "hourly": hours = 168
            case let other?: throw DarkSkyController.bad("extend can only be hourly, got '\(other.prefix(20))'")
            }
            switch try one("version") {
            case nil, "1": version2 = false
            case "2": version2 = true
            case let other?: throw DarkSkyController.bad("version must be 1 or 2, got '\(other.prefix(20))'")
            }
            let lang = (try one("lang") ?? "en").lowercased()
            guard lang.count <= 12, lang.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
                throw DarkSkyController.bad("lang must be a language code such as en or ru")
            }
            language = lang
        }
    }

    @Sendable func forecast(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            let asked = try Asked(request, location: context.parameters.get("location") ?? "")
            let (result, pack) = try await answers.weather(for: .coordinate(asked.coordinate), language: asked.language, full: true)
            let units = asked.units ?? .auto(countryCode: result.report.place.countryCode)
            if let time = asked.time {
                let zone = result.report.place.timeZone
                let hasZone = time.hasSuffix("Z") || time.dropFirst(19).contains { $0 == "+" || $0 == "-" }
                guard
                    let at = Int(time).map({ Date(timeIntervalSince1970: TimeInterval($0)) })
                        ?? (hasZone ? LocalTime.parseISO8601(time) : LocalTime.parse(time, in: zone))
                else { throw Self.bad("Invalid time: expected seconds since 1970 or [YYYY]-[MM]-[DD]T[HH]:[MM]:[SS]") }
                guard
                    let document = DarkSkyDocument.timeMachine(
                        result, at: at, units: units, language: pack, exclude: asked.exclude, version2: asked.version2)
                else {
                    throw Self.bad(
                        "Brolly has no weather for \(LocalTime.iso8601(at, in: zone)): it keeps today's hours from midnight and the coming week, not older ones"
                    )
                }
                return try answers.answer(request, document: document, from: result)
            }
            let document = DarkSkyDocument(
                result, units: units, language: pack, exclude: asked.exclude, hourlyCount: asked.hours, version2: asked.version2)
            return try answers.answer(request, document: document, from: result)
        } catch let refusal as Refusal {
            return CompatibleAPI.darkSky.error(refusal.status, refusal.detail)
        } catch let error as BrollyError {
            return CompatibleAPI.darkSky.error(error)
        }
    }
}
