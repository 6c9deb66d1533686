import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A Common Alerting Protocol 1.2 message, the shape every alert source is read into (NWS's
/// GeoJSON, MeteoAlarm's JSON, CAP XML, OpenWeatherMap's alerts) before one filter turns the
/// current ones into ``Alert``s.
public struct CAPMessage: Codable, Sendable, Hashable {
    public var identifier: String
    public var sender: String
    public var sent: Date?
    /// `Actual`, `Exercise`, `System`, `Test`, `Draft`.
    public var status: String = "Actual"
    /// `Alert`, `Update`, `Cancel`, `Ack`, `Error`.
    public var msgType: String = "Alert"
    /// The identifiers of the messages this one updates or cancels.
    public var references: [String] = []
    public var infos: [CAPInfo]
    /// `nws`, `meteoalarm`, `cap`, `openweathermap`.
    public var source: String

    /// The identifiers in CAP's `references` (`sender,identifier,sent` triples separated by spaces).
    public static func referencedIdentifiers(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).compactMap { triple in
            let parts = triple.split(separator: ",", omittingEmptySubsequences: false)
            return parts.count >= 2 ? String(parts[1]) : nil
        }
    }
}

public struct CAPInfo: Codable, Sendable, Hashable {
    public var language: String = "en"
    public var event: String
    public var severity: String
    public var urgency: String = "Unknown"
    public var certainty: String = "Unknown"
    public var headline: String
    public var description: String
    public var instruction: String?
    public var effective: Date?
    public var onset: Date?
    public var expires: Date?
    public var senderName: String?
    public var web: String?
    /// `valueName` → `value` (`awareness_level` → `2; yellow; Moderate`).
    public var parameters: [String: String] = [:]
    public var areas: [CAPArea] = []

    /// MeteoAlarm's "no warning" level: `awareness_level` 1 (green).
    public var isNoWarning: Bool {
        guard let level = parameters["awareness_level"] ?? parameters["awareness_level".uppercased()] else { return false }
        let first = level.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return first == "1" || level.lowercased().contains("green")
    }
}

public struct CAPArea: Codable, Sendable, Hashable {
    public var description: String
    /// Closed rings of points.
    public var polygons: [[Coordinate]] = []
    public var circles: [Circle] = []
    /// `valueName` → values (`EMMA_ID` → [`NL018`], `UGC` → [`FLC069`]).
    public var geocodes: [String: [String]] = [:]

    public struct Circle: Codable, Sendable, Hashable {
        public var center: Coordinate
        public var radiusKilometres: Double
    }

    /// CAP's `polygon`: `lat,lon lat,lon …`.
    public static func polygon(_ text: String) -> [Coordinate] {
        text.split(whereSeparator: \.isWhitespace).compactMap { pair in
            let p = pair.split(separator: ",")
            guard p.count == 2, let lat = Double(p[0]), let lon = Double(p[1]) else { return nil }
            let c = Coordinate(latitude: lat, longitude: lon)
            return c.isValid ? c : nil
        }
    }

    /// CAP's `circle`: `lat,lon radius` (km).
    public static func circle(_ text: String) -> Circle? {
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let r = Double(parts[1]) else { return nil }
        let p = parts[0].split(separator: ",")
        guard p.count == 2, let lat = Double(p[0]), let lon = Double(p[1]) else { return nil }
        return Circle(center: Coordinate(latitude: lat, longitude: lon), radiusKilometres: r)
    }

    /// True when a polygon or circle of the area holds `c`.
    public func covers(_ c: Coordinate) -> Bool {
        polygons.contains { Self.polygon($0, contains: c) }
            || circles.contains { Self.kilometres($0.center, c) <= $0.radiusKilometres }
    }

    /// Ray casting in plain latitude/longitude (warning areas are small against the globe).
    static func polygon(_ ring: [Coordinate], contains c: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.latitude > c.latitude) != (b.latitude > c.latitude),
                c.longitude < (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    static func kilometres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * r, dLon = (b.longitude - a.longitude) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * r) * cos(b.latitude * r) * sin(dLon / 2) * sin(dLon / 2)
        return 6371 * 2 * atan2(sqrt(h), sqrt(1 - h))
    }
}
