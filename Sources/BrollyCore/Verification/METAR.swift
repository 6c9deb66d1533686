import Foundation

/// A weather station's observation: what was measured, not forecast. Metric, as everywhere in
/// the model (°C, m/s, hPa).
public struct Observation: Codable, Sendable, Hashable {
    /// The station's ICAO id (`EDDB`).
    public var stationID: String
    public var stationName: String
    public var latitude: Double
    public var longitude: Double
    public var time: Date
    public var temperature: Double?
    public var dewPoint: Double?
    public var windSpeed: Double?
    /// Degrees; nil when variable or calm.
    public var windDirection: Double?
    public var windGust: Double?
    public var pressure: Double?
    /// Metres (a report of "10+" statute miles is 16,093 m: at least that).
    public var visibility: Double?
    /// Present weather as reported (`-RA`, `+TSRA`, `BR`); nil when none.
    public var weather: String?
    /// The most covering cloud layer (`FEW`, `SCT`, `BKN`, `OVC`; `CLR` or `SKC` for none) and
    /// its base, metres above the station.
    public var cover: String?
    public var cloudBase: Double?

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A station as answers name it: its ICAO id, its name and how far it is from the place.
public struct StationInfo: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var distanceKm: Double
    /// Where it is (absent in answers kept before it was recorded).
    public var latitude: Double?
    public var longitude: Double?

    /// The same station, its distance measured from `c` (the place asked about rather than its cell).
    public func measured(from c: Coordinate) -> StationInfo {
        guard let latitude, let longitude else { return self }
        var s = self
        s.distanceKm = Rounding.round(c.distanceKm(to: Coordinate(latitude: latitude, longitude: longitude)), 1)
        return s
    }
}

/// The Aviation Weather Center's data API (`/api/data/metar?format=json`, by `ids=` or
/// `bbox=south,west,north,east`, `hours=`): a JSON array of reports with `icaoId`, `obsTime`
/// (seconds since 1970), `temp` and `dewp` (°C), `wdir` (degrees or "VRB"), `wspd` and `wgst`
/// (knots), `altim` (hPa), `visib` (statute miles: a number, or a string such as "10+" or "1/2"),
/// `wxString` (present weather), `clouds` (`[{cover, base}]`, base in feet) and `cover`, `lat`,
/// `lon`, `name`. Unknown values are absent or null.
public enum METAR {

    /// Every report in an answer that has a station, a place and a time; the others are skipped.
    public static func decode(_ data: Data) throws -> [Observation] {
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [] }  // 204: nothing reported
        guard let reports = try JSONValue.parse(data, provider: "Aviation Weather Center").array else {
            throw BrollyError.unreadableResponse("Aviation Weather Center sent no list of reports")
        }
        return reports.compactMap { r in
            guard let id = r["icaoId"]?.string, let lat = r["lat"]?.double, let lon = r["lon"]?.double,
                (-90...90).contains(lat), (-180...180).contains(lon), let time = r["obsTime"]?.epoch
            else { return nil }
            var o = Observation(
                stationID: id, stationName: r["name"]?.string ?? id, latitude: lat, longitude: lon,
                time: time, temperature: r["temp"]?.double, dewPoint: r["dewp"]?.double,
                windSpeed: r["wspd"]?.double.map(WindUnit.kn.base(of:)), windDirection: r["wdir"]?.double,
                windGust: r["wgst"]?.double.map(WindUnit.kn.base(of:)), pressure: r["altim"]?.double)
            o.visibility = (r["visib"]?.double ?? r["visib"]?.string.flatMap(statuteMiles)).map {
                Rounding.round(Metric.metres(fromMiles: $0), 0)
            }
            o.weather = r["wxString"]?.string.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            let layers = (r["clouds"]?.array ?? []).compactMap { l in l["cover"]?.string.map { (cover: $0, base: l["base"]?.double) } }
            if let most = layers.max(by: { (coverOrder[$0.cover] ?? 0) < (coverOrder[$1.cover] ?? 0) }) {
                o.cover = most.cover
                o.cloudBase = most.base.map { Rounding.round(Metric.metres(fromFeet: $0), 0) }
            } else {
                o.cover = r["cover"]?.string
            }
            return o
        }
    }

    /// How much of the sky each METAR cover hides, to pick the most covering layer.
    static let coverOrder = ["SKC": 0, "CLR": 0, "NSC": 0, "NCD": 0, "CAVOK": 0, "FEW": 1, "SCT": 2, "BKN": 3, "OVC": 4, "OVX": 5]

    /// "10+" → 10, "1/2" → 0.5, "1 1/2" → 1.5, "P6SM" → 6; nil when unreadable.
    static func statuteMiles(_ text: String) -> Double? {
        let t = text.replacingOccurrences(of: "+", with: "").replacingOccurrences(of: "SM", with: "")
            .replacingOccurrences(of: "P", with: "").trimmingCharacters(in: .whitespaces)
        var total = 0.0
        for part in t.split(separator: " ") {
            let f = part.split(separator: "/")
            if f.count == 2, let a = Double(f[0]), let b = Double(f[1]), b > 0 {
                total += a / b
            } else if let v = Double(part) {
                total += v
            } else {
                return nil
            }
        }
        return t.isEmpty ? nil : total
    }

    /// The WMO weather code (Open-Meteo's, whose texts every language has) nearest a METAR
    /// present weather group: `-RA` → 61 (slight rain), `+SHRA` → 82, `TSRA` → 95, `FG` → 45.
    /// Nil for what has none (mist, haze, dust).
    public static func wmoCode(_ weather: String) -> Int? {
        guard let first = weather.split(separator: " ").first.map(String.init) else { return nil }
        let level = first.hasPrefix("-") ? 0 : first.hasPrefix("+") ? 2 : 1
        let w = first.trimmingCharacters(in: CharacterSet(charactersIn: "+-")).replacingOccurrences(of: "VC", with: "")
        func graded(_ codes: [Int]) -> Int { codes[level] }
        if w.contains("TS") { return w.contains("GR") || w.contains("GS") ? 96 : 95 }
        if w.contains("FZRA") { return level == 0 ? 66 : 67 }
        if w.contains("FZDZ") { return level == 0 ? 56 : 57 }
        if w.contains("FZFG") { return 48 }
        if w.hasPrefix("SH") && w.contains("SN") { return level == 0 ? 85 : 86 }
        if w.hasPrefix("SH") { return graded([80, 81, 82]) }
        if w.contains("RA") { return graded([61, 63, 65]) }
        if w.contains("DZ") { return graded([51, 53, 55]) }
        if w.contains("SN") { return graded([71, 73, 75]) }
        if w.contains("SG") || w.contains("PL") || w.contains("GS") || w.contains("IC") { return 77 }
        if w.contains("FG") { return 45 }
        return nil
    }

    /// The WMO code whose text names a cover (`FEW` mainly clear, `SCT` partly cloudy, `OVC`
    /// overcast, none clear); nil for `BKN` (mostly cloudy, which has its own text).
    public static func coverCode(_ cover: String) -> Int? {
        switch coverOrder[cover] {
        case 0: 0
        case 1: 1
        case 2: 2
        case 4, 5: 3
        default: nil
        }
    }

    /// The latest observation of the nearest station within `radius` km of `place` that reported
    /// within `maxAge` seconds of `now`, with its distance; nil when none did.
    public static func nearest(
        _ observations: [Observation], to place: Coordinate, within radius: Double = 25, maxAge: TimeInterval = 90 * 60, now: Date
    ) -> (observation: Observation, distanceKm: Double)? {
        var latest: [String: Observation] = [:]
        for o in observations where now.timeIntervalSince(o.time) <= maxAge && o.time <= now.addingTimeInterval(600) {
            if latest[o.stationID].map({ $0.time < o.time }) ?? true { latest[o.stationID] = o }
        }
        return latest.values.map { ($0, place.distanceKm(to: $0.coordinate)) }
            .filter { $0.1 <= radius }
            .min { ($0.1, $0.0.stationID) < ($1.1, $1.0.stationID) }
    }

    /// The box around a place that holds every point within `radius` km (`south,west,north,east`).
    public static func bbox(around c: Coordinate, radius: Double = 25) -> String {
        let dLat = radius / 111.2
        let dLon = radius / (111.2 * max(0.01, cos(c.latitude * .pi / 180)))
        let values = [c.latitude - dLat, c.longitude - dLon, c.latitude + dLat, c.longitude + dLon]
        return values.map { String(format: "%.3f", $0) }.joined(separator: ",")
    }
}
