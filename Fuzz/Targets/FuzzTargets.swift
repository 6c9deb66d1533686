import BrollyCompatibleAPIs
import BrollyCore
import Foundation

/// Every decoder of what Brolly reads from outside, by fuzz target name: the libFuzzer binary
/// (Fuzz/, `scripts/fuzz.sh`, instrumented) feeds one of them, and the suite runs each over its
/// kept corpus and its findings in the ordinary debug build (no build of its own). Each target
/// hands the input to the real decoder, as the provider's bytes would arrive, and then uses what
/// came out (so a value that decodes but cannot be used is found too). A thrown error is the right
/// answer to bad input; a crash, a trap or a hang is what the fuzzer finds.
public enum FuzzTargets {
    static let place = Place(
        name: "Fuzz", country: "Nowhere", countryCode: "NW", region: nil, latitude: 52.52, longitude: 13.41,
        timezone: "Europe/Berlin")
    static let models = ["best_match", "ecmwf_ifs025", "icon_seamless", "gfs_seamless"]

    public static let all: [String: @Sendable (Data) throws -> Void] = [
        "open-meteo": { data in
            _ = try OpenMeteoProvider.decode(data, receivedAt: Date(timeIntervalSince1970: 1_764_000_000))
            let report = try OpenMeteoProvider.report(from: data, place: place, fetchedAt: Date(timeIntervalSince1970: 1_764_000_000))
            _ = report.days.count + report.hours.count
        },
        "open-meteo-geocoding": { data in _ = try OpenMeteoProvider.places(from: data) },
        "open-meteo-air-quality": { data in _ = try OpenMeteoAirQuality.decode(data, fetchedAt: Date()) },
        "previous-runs": { data in _ = try PreviousRuns.decode(data, models: models) },
        "openweathermap-current": { data in _ = try OpenWeatherMapProvider.current(from: data) },
        "openweathermap-forecast": { data in _ = try OpenWeatherMapProvider.forecast(from: data) },
        "openweathermap-geocoding": { data in _ = try OpenWeatherMapProvider.places(from: data) },
        "openweathermap-onecall": { data in _ = try OpenWeatherMapProvider.oneCall(from: data) },
        "nominatim": { data in _ = try NominatimGeocoder.address(from: data, requested: Coordinate(latitude: 52.52, longitude: 13.41)) },
        "google-geocoding": { data in _ = try GoogleGeocoding.address(from: data) },
        "nws": { data in
            let messages = try CAPDecoding.nws(data)
            _ = AlertFilter.current(messages, language: "en", now: Date())
        },
        "meteoalarm": { data in
            let messages = try CAPDecoding.meteoAlarm(data)
            _ = AlertFilter.current(messages, language: "de", now: Date())
        },
        "cap-xml": { data in
            let (messages, _) = try CAPDecoding.xml(data)
            for m in messages { for i in m.infos { for a in i.areas { _ = a.covers(Coordinate(latitude: 52.52, longitude: 13.41)) } } }
        },
        "metar": { data in
            let observations = try METAR.decode(data)
            _ = METAR.nearest(observations, to: Coordinate(latitude: 52.52, longitude: 13.41), now: Date())
        },
        "bbc-rss": { data in _ = try NewsDecoding.rss(data) },
        "newsapi": { data in _ = try NewsDecoding.newsAPI(data) },
        "json": { data in _ = try JSONValue.parse(data, provider: "fuzz") },
        "open-meteo-query": { data in
            // A query string as a client sends it to /v1/forecast.
            let text = String(decoding: data, as: UTF8.self)
            var items: [(String, String)] = []
            for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
                let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
                items.append((name, value))
            }
            if let q = try? OpenMeteoQuery(items) { _ = q.normalized }
        },
    ]
}
