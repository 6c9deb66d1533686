import BrollyCore
import Foundation

extension UseCases {
    /// Where OpenWeatherMap's city `id` is, asked of OpenWeatherMap with the server's key and kept
    /// 30 days (a city does not move; the weather itself is then Brolly's, at its coordinates); a
    /// failed lookup is not tried again for a minute. Nil when the server has no OpenWeatherMap key.
    public func openWeatherMapCity(id: Int) async throws -> Place? {
        guard let owm = services.openWeatherMapCities else { return nil }
        let key = "owm-city-\(id)"
        if let known = services.cache.read(Place.self, key: key), now().timeIntervalSince(known.receivedAt) < 30 * 86_400 {
            return known.value
        }
        let failedKey = key + "-failed"
        if let failed = services.cache.read(String.self, key: failedKey), now().timeIntervalSince(failed.receivedAt) < 60 {
            throw BrollyError(.providerUnavailable, "OpenWeatherMap could not name city \(id) a moment ago (\(failed.value))")
        }
        do {
            let place = try await owm.city(id: id)
            try? services.cache.write(place, key: key, receivedAt: now())
            return place
        } catch let error as BrollyError {
            // A city OpenWeatherMap does not know is its 404, remembered as any failure.
            try? services.cache.write(error.message, key: failedKey, receivedAt: now())
            throw error
        }
    }
}
