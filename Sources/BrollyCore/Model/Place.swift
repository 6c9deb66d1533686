import Foundation

/// A geographic point in decimal degrees (WGS 84).
public struct Coordinate: Codable, Sendable, Hashable {
    /// Latitude, −90…90.
    public var latitude: Double
    /// Longitude, −180…180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance in km (haversine, mean Earth radius 6371 km).
    public func distanceKm(to other: Coordinate) -> Double {
        let rad = Double.pi / 180
        let dLat = (other.latitude - latitude) * rad
        let dLon = (other.longitude - longitude) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * rad) * cos(other.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 6371 * 2 * atan2(sqrt(a), sqrt(1 - a))
    }

    /// Whether both values are finite and within range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Validates user input, throwing a usage error that names the bad value.
    public static func validated(latitude: Double, longitude: Double) throws -> Coordinate {
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw BrollyError.invalidInput("latitude must be between -90 and 90, got \(latitude)")
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            throw BrollyError.invalidInput("longitude must be between -180 and 180, got \(longitude)")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The coordinate snapped to a grid of about 1 km (0.01°), used as a cache key.
    public var rounded: Coordinate {
        Coordinate(latitude: Rounding.round(latitude, 2), longitude: Rounding.round(longitude, 2))  // never -0 in keys
    }

    /// A stable key such as `52.52_13.41` for the rounded coordinate.
    public var cacheKey: String {
        Self.fixed(latitude, places: 2) + "_" + Self.fixed(longitude, places: 2)
    }

    /// `value` rounded to `places` decimals and written like `%.Nf` (without `String(format:)`,
    /// which is slow on Linux and this runs on every request): `52.52`, `-0.13`, `13.40`.
    public static func fixed(_ value: Double, places: Int) -> String {
        let scale = places == 3 ? 1_000 : places == 1 ? 10 : 100
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return String(value) }
        let units = Int(scaled)
        let magnitude = units.magnitude
        var fraction = String(magnitude % UInt(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (units < 0 ? "-" : "") + String(magnitude / UInt(scale)) + "." + fraction
    }
}

/// A named place: what the user asked about.
public struct Place: Codable, Sendable, Hashable {
    /// Display name, e.g. "Berlin".
    public var name: String
    /// Country name, e.g. "Germany" (may be a code when the provider gives nothing better).
    public var country: String
    /// ISO 3166-1 alpha-2 code, e.g. "DE".
    public var countryCode: String?
    /// First-level region (state, province), e.g. "Berlin".
    public var region: String?
    public var latitude: Double
    public var longitude: Double
    /// IANA time zone identifier when known, else a fixed offset such as "UTC+05:45".
    public var timezone: String
    /// Offset from UTC at the time of the observation, in seconds.
    public var utcOffsetSeconds: Int?

    public init(
        name: String, country: String, countryCode: String? = nil, region: String? = nil,
        latitude: Double, longitude: Double, timezone: String = "UTC", utcOffsetSeconds: Int? = nil
    ) {
        self.name = name
        self.country = country
        self.countryCode = countryCode
        self.region = region
        self.latitude = latitude
        self.longitude = longitude
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }

    /// The place's time zone: the IANA zone when known, else the fixed offset.
    public var timeZone: TimeZone {
        if let zone = TimeZone(identifier: timezone), timezone != "UTC" || utcOffsetSeconds ?? 0 == 0 {
            return zone
        }
        return TimeZone(secondsFromGMT: utcOffsetSeconds ?? 0) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// "Name, Region, Country" without repeats or blanks.
    public var displayName: String {
        var parts = [name]
        if let region, !region.isEmpty, region != name { parts.append(region) }
        if !country.isEmpty, country != name { parts.append(country) }
        return parts.joined(separator: ", ")
    }

    /// A place with no name yet, labelled by its coordinates.
    public static func unnamed(_ c: Coordinate) -> Place {
        Place(
            name: String(format: "%.3f, %.3f", c.latitude, c.longitude), country: "",
            latitude: c.latitude, longitude: c.longitude)
    }

    /// A fixed-offset label such as "UTC+05:45".
    public static func offsetLabel(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let m = abs(seconds) / 60
        return String(format: "UTC%@%02d:%02d", sign, m / 60, m % 60)
    }
}
