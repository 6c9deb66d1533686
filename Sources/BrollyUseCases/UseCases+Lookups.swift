import BrollyCore
import Foundation

extension UseCases {
    /// The street address at `c` in `language` (cached per language); offline, only a cached one
    /// (in English when it is the one kept).
    public func address(at c: Coordinate, offline: Bool = false, language: String = "en") async throws -> Address {
        if offline {
            guard let cached = services.addresses.cachedAddress(for: c, language: language) ?? services.addresses.cachedAddress(for: c)
            else {
                throw BrollyError.notCached(String(format: "the address at %.4f, %.4f", c.latitude, c.longitude))
            }
            return cached
        }
        return try await services.addresses.address(for: c, language: language)
    }

    /// Up to 10 news items published today for `place`. "Today" is in the place's time zone:
    /// the weather's (usually cached), else one guessed from the longitude.
    /// In `language` where a feed in it exists (the document's `feed.language` says which).
    public func news(for place: Place, offline: Bool = false, language: String = "en") async throws -> NewsDocument {
        var place = place
        if let report = try? await services.weather.weather(for: place, mode: offline ? .offline : .staleWhileRevalidate).report {
            place.timezone = report.place.timezone
            place.utcOffsetSeconds = report.place.utcOffsetSeconds
        } else if place.timezone == "UTC" {
            place.utcOffsetSeconds = Int((place.longitude / 15).rounded()) * 3600
            place.timezone = Place.offsetLabel(place.utcOffsetSeconds!)
        }
        let items = try await services.news.today(for: place, language: language)
        return NewsDocument(place: place, items: items, feed: services.news.feed(for: place, language: language))
    }
}
