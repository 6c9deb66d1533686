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

    public func locate() async throws -> Place {
        let response = try await network.get(url, provider: "IP location service")
        return try Self.place(from: response.body)
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
