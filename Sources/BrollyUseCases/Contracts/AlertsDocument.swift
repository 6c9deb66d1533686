import BrollyCore
import Foundation

/// The official warnings for a place, as `GET /api/v1/alerts` and `brolly alerts --json` show them.
public struct AlertsDocument: Codable, Sendable, Hashable {
    public var place: PlaceDocument
    /// Warnings covering the place, most severe first.
    public var alerts: [WeatherDocument.AlertInfo]
    /// Warnings in the place's country that could not be matched to it; never shown as "here".
    public var elsewhere: WeatherDocument.AlertsElsewhere?
    /// The sources that answered (`nws`, `meteoalarm`, `openweathermap`, `cap`), and those that failed.
    public var sources: [String]
    public var failedSources: [String]

    public init(place: Place, set: AlertSet) {
        let zone = place.timeZone
        self.place = PlaceDocument(place)
        alerts = set.here.map { WeatherDocument.AlertInfo($0, in: zone) }
        if let country = set.elsewhereCountry, !set.elsewhere.isEmpty {
            elsewhere = WeatherDocument.AlertsElsewhere(
                country: country, alerts: set.elsewhere.map { WeatherDocument.AlertInfo($0, in: zone) })
        }
        sources = set.sources
        failedSources = set.failedSources
    }
}
