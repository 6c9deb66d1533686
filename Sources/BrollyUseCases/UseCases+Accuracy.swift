import BrollyCore
import Foundation

extension UseCases {
    /// How good the forecasts have been at `place`, in `units`: the scores of the last 6 hours if
    /// any instance computed them, else computed now (one Previous Runs call and at most two
    /// station calls). Offline: only scores already kept. Throws when none can be had — the
    /// weather never waits for this.
    public func accuracy(for place: Place, units: UnitSystem, offline: Bool = false) async throws -> AccuracyDocument {
        let answer: CachedFetcher<AccuracyReport>.Answer
        if offline {
            guard let cached = await services.accuracy.cached(at: place.coordinate) else {
                throw BrollyError.notCached(String(format: "the forecast accuracy at %.1f, %.1f", place.latitude, place.longitude))
            }
            answer = cached
        } else {
            answer = try await services.accuracy.accuracy(at: place.coordinate)
        }
        return AccuracyDocument(
            place: place, report: answer.value, stale: answer.isStale, units: units, chosenModel: services.configuration.model)
    }
}
