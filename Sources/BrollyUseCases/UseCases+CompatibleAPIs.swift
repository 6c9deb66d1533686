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
        // A failure is remembered a minute with its kind: an unknown id stays a 404 (it answered
        // 502 when remembered, issue 52), a failed provider a 502; a refusal is not remembered.
        if let failed = rememberedFailure(key, what: "naming OpenWeatherMap's city \(id)") { throw failed }
        do {
            let place = try await owm.city(id: id)
            try? services.cache.write(place, key: key, receivedAt: now())
            return place
        } catch let error as BrollyError {
            rememberFailure(error, key: key)
            throw error
        }
    }
}

extension UseCases {
    /// The past local day `day` at `place` (a Dark Sky time machine request before yesterday):
    /// Open-Meteo's answer for that date through the pass-through (cached, one call for everyone
    /// asking the same, within Open-Meteo's budget and the client's allowance). Nil when the server
    /// has no Open-Meteo pass-through.
    public func pastDay(_ day: String, at place: Place) async throws -> WeatherResult? {
        guard let passthrough = services.openMeteoPassthrough else { return nil }
        let (body, _) = try await passthrough.answer(normalized: OpenMeteoProvider.pastDayQuery(place.coordinate, day: day))
        let report = try OpenMeteoProvider.pastDayReport(from: body, place: place, fetchedAt: now())
        return WeatherResult(report: report, isStale: false, isFromCache: false, age: 0, refreshError: nil)
    }
}
