import BrollyCore
import Foundation

/// `GET /forecast/{key}/{lat},{lon}[,{time}]`: the Pirate Weather / Dark Sky API. Errors in its
/// shape (`{"detail": …}` for a bad request, `{"message": …}` otherwise); any key is accepted
/// unless the server has keys.
public struct DarkSkySurface: CompatibleSurface {
    public init() {}
    public var name: String { "darksky" }
    public var mount: String { "/forecast" }
    public var routes: [String] { [":key/:location"] }
    public var unknownKeyMessage: String { "Invalid API key" }
    /// Pirate Weather refuses a key it does not know with 403 (Home Assistant's setup reads it).
    public var unknownKeyStatus: Int { 403 }

    /// The key is the path's second segment.
    public func key(of request: CompatibleRequest) -> String? {
        let parts = request.path.split(separator: "/")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    public func errorBody(status: Int, message: String) -> [String: Any] {
        status == 400 ? ["detail": message] : ["message": message]
    }

    /// What a request asks for, beside the place.
    struct Asked: Sendable {
        /// A time machine request's time, as given.
        var time: String?
        /// nil: `auto` (by the place's country).
        var units: DarkSkyDocument.Units?
        var exclude: Set<String>
        /// `include=day_night_forecast`: the twice-daily block.
        var dayNight = false
        var hours: Int
        var version2: Bool
    }

    static let badTime = "Invalid time: expected seconds since 1970 or [YYYY]-[MM]-[DD]T[HH]:[MM]:[SS]"

    public func read(_ request: CompatibleRequest, route: String) throws(CompatibleRefusal) -> CompatibleAsk {
        // The path segment as sent: a client may encode its comma (`52.5%2C13.4`).
        let raw = request.parameters["location"] ?? ""
        let location = raw.removingPercentEncoding ?? raw
        let parts = location.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let lat = RequestRules.number(parts[0]), let lon = RequestRules.number(parts[1]),
            RequestRules.isCoordinate(latitude: lat, longitude: lon)
        else {
            throw .badRequest("Invalid Location Specification: expected latitude,longitude, got '\(location.prefix(60))'")
        }
        // Pirate Weather's default units are `us`.
        var asked = Asked(time: parts.count == 3 ? String(parts[2]) : nil, units: .us, exclude: [], hours: 48, version2: false)
        if let time = asked.time, time.isEmpty || time.count > 32 { throw .badRequest(Self.badTime) }
        switch try request.one("units")?.lowercased() {
        case nil: asked.units = .us
        case "auto": asked.units = nil
        case let raw?:
            guard let u = DarkSkyDocument.Units(rawValue: raw == "uk2" ? "uk" : raw) else {
                throw .badRequest("units must be si, us, uk, ca or auto, got '\(raw.prefix(20))'")
            }
            asked.units = u
        }
        for item in (try request.one("exclude") ?? "").split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            // Pirate Weather's model names and "summary" are accepted and change nothing here.
            if DarkSkyDocument.blocks.contains(name) { asked.exclude.insert(name) }
        }
        for item in (try request.one("include") ?? "").split(separator: ",") {
            if item.trimmingCharacters(in: .whitespaces).lowercased() == "day_night_forecast" { asked.dayNight = true }
        }
        switch try request.one("extend")?.lowercased() {
        case nil: asked.hours = 48
        case "hourly": asked.hours = 168
        case let other?: throw .badRequest("extend can only be hourly, got '\(other.prefix(20))'")
        }
        switch try request.one("version") {
        case nil, "1": asked.version2 = false
        case "2": asked.version2 = true
        case let other?: throw .badRequest("version must be 1 or 2, got '\(other.prefix(20))'")
        }
        return .weather(
            place: .coordinate(Coordinate(latitude: lat, longitude: lon)), language: try request.language(), full: true, model: nil,
            details: asked)
    }

    /// The units asked, else the place's country's (`auto`).
    func apiUnits(for ask: CompatibleAsk, at place: Place) -> DarkSkyDocument.Units {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked, let units = asked.units else {
            return .auto(countryCode: place.countryCode)
        }
        return units
    }

    public func units(for ask: CompatibleAsk, at place: Place) -> UnitChoice { apiUnits(for: ask, at: place).choice }

    public func document(for ask: CompatibleAsk, view: WeatherView) throws(CompatibleRefusal) -> any Encodable & Sendable {
        guard case .weather(_, _, _, _, let details) = ask, let asked = details as? Asked else { throw .badRequest("not a forecast") }
        let units = apiUnits(for: ask, at: view.place)
        guard let time = asked.time else {
            return DarkSkyDocument(
                view, units: units, exclude: asked.exclude, hourlyCount: asked.hours, version2: asked.version2, dayNight: asked.dayNight)
        }
        let zone = view.zone
        let hasZone = time.hasSuffix("Z") || time.dropFirst(19).contains { $0 == "+" || $0 == "-" }
        guard
            let at = Int(time).map({ Date(timeIntervalSince1970: TimeInterval($0)) })
                ?? (hasZone ? LocalTime.parseISO8601(time) : LocalTime.parse(time, in: zone))
        else { throw .badRequest(Self.badTime) }
        if let document = DarkSkyDocument.timeMachine(view, at: at, units: units, exclude: asked.exclude, version2: asked.version2) {
            return document
        }
        // Before the hours Brolly holds (from yesterday's midnight) and within what Open-Meteo keeps
        // of its past runs: the server asks for that day (and gives it back here as `view`).
        let now = view.now
        let oldest = now.addingTimeInterval(-Double(OpenMeteoProvider.pastDaysKept) * 86_400)
        let held = view.timeline().first?.time ?? now
        guard at < held, at >= oldest else {
            throw .badRequest(
                "Brolly has no weather for \(LocalTime.iso8601(at, in: zone)): it answers the past \(OpenMeteoProvider.pastDaysKept) days and the coming week"
            )
        }
        throw CompatibleRefusal(
            status: 400, message: "this server cannot ask for past days (\(LocalTime.iso8601(at, in: zone)))",
            pastDay: LocalTime.dateString(at, in: zone))
    }
}
