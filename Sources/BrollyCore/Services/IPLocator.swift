import Foundation

/// Finds an approximate location from the public IP address. Understands ip-api.com
/// (`lat`, `lon`, `city`, `regionName`, `countryCode`) and ipapi.co / ipinfo-style answers
/// (`latitude`, `longitude`, `region`, `country_name`, or `loc: "lat,lon"`).
public struct IPLocator: Sendable {
    public var network: NetworkService
    public var url: URL

    public init(network: NetworkService, url: URL) {
        self.network = network
        self.url = url
    }

    /// The place of this machine's public address; with `ip`, of that address (ip-api.com's
    /// `/json/{ip}`) when it is a public one; a private or loopback address (a phone on the same
    /// network as a home server) is where this machine is.
    public func locate(ip: String? = nil) async throws -> Place {
        var asked = url
        if let ip, Self.isPublic(ip) { asked = url.appendingPathComponent(ip) }
        let response = try await network.get(asked, provider: "IP location service")
        return try Self.place(from: response.body)
    }

    /// Whether `ip` is a public address: not loopback, private (RFC 1918, fc00::/7), link-local,
    /// carrier-grade NAT or unspecified; nil-like text is not.
    public static func isPublic(_ ip: String) -> Bool {
        let v4 = ip.split(separator: ".").compactMap { UInt8($0) }
        if v4.count == 4 {
            switch (v4[0], v4[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168): return false
            case (172, 16...31), (100, 64...127): return false
            default: return true
            }
        }
        let lower = ip.lowercased()
        guard lower.contains(":"), lower.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        return
            !(lower == "::1" || lower == "::" || lower.hasPrefix("fe80") || lower.hasPrefix("fc") || lower.hasPrefix("fd")
            || lower.hasPrefix("::ffff:127.") || lower.hasPrefix("::ffff:10.") || lower.hasPrefix("::ffff:192.168."))
    }

    public static func place(from data: Data) throws -> Place {
        let json = try JSONValue.parse(data, provider: "IP location service")
        if let status = json["status"]?.string, status != "success" {
            throw BrollyError.placeNotFound("this network (IP lookup: \(json["message"].nonEmptyString ?? status))")
        }
        var lat = json["lat"]?.double ?? json["latitude"]?.double
        var lon = json["lon"]?.double ?? json["longitude"]?.double
        if lat == nil, let loc = json["loc"]?.string {
            let parts = loc.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 2 { (lat, lon) = (parts[0], parts[1]) }
        }
        guard let lat, let lon, Coordinate(latitude: lat, longitude: lon).isValid else {
            throw BrollyError.unreadableResponse("IP location answer has no coordinates")
        }
        let code =
            (json["countryCode"].nonEmptyString ?? json["country_code"].nonEmptyString
            ?? (json["country"].nonEmptyString.flatMap { $0.count == 2 ? $0 : nil }))?.uppercased()
        let country =
            json["country_name"].nonEmptyString
            ?? json["country"].nonEmptyString.flatMap { $0.count == 2 ? nil : $0 }
            ?? Countries.name(forCode: code) ?? code ?? ""
        return Place(
            name: json["city"].nonEmptyString ?? String(format: "%.3f, %.3f", lat, lon), country: country,
            countryCode: code, region: json["regionName"].nonEmptyString ?? json["region"].nonEmptyString,
            latitude: lat, longitude: lon, timezone: json["timezone"].nonEmptyString ?? "UTC")
    }
}
