import BrollyCore
import Foundation

extension UseCases {
    /// The street address at `c`; offline, only a cached one.
    public func address(at c: Coordinate, offline: Bool = false) async throws -> Address {
        if offline {
            guard let cached = services.addresses.cachedAddress(for: c) else {
                throw BrollyError.notCached(String(format: "the address at %.4f, %.4f", c.latitude, c.longitude))
            }
            return cached
        }
        return try await services.addresses.address(for: c)
    }

    /// Up to 10 news items published today for `place`. "Today" is in the place's time zone:
    /// the weather's (usually cached), else one guessed from the longitude.
    public func news(for place: Place, offline: Bool = false) async throws -> NewsDocument {
        var place = place
        if let report = try? await services.weather.weather(for: place, mode: offline ? .offline : .staleWhileRevalidate).report {
            place.timezone = report.place.timezone
            place.utcOffsetSeconds = report.place.utcOffsetSeconds
        } else if place.timezone == "UTC" {
            place.utcOffsetSeconds = Int((place.longitude / 15).rounded()) * 3600
            place.timezone = Place.offsetLabel(place.utcOffsetSeconds!)
        }
        let items = try await services.news.today(for: place)
        return NewsDocument(place: place, items: items, feed: services.news.feed(for: place))
    }
}
