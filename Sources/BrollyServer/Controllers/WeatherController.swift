import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/weather`: the weather contract for coordinates or a place name.
struct WeatherController: Sendable {
    let useCases: UseCases
    let metrics: ServerMetrics
    /// Encoded weather bodies by what they were made from: a cached answer is encoded (and
    /// checksummed) once per unit system and place label, not on every request.
    let encoded = MemoryCache<EncodedJSON>(capacity: 512)
    /// The latest answer to each query string, while it is fresh and its place is named: a repeat
    /// of the same request is answered from here without parsing, naming or reading the cache
    /// again (the hot path of many browsers asking for the same places). Stale answers and
    /// unnamed places always take the full path, so refreshes and names are never held back.
    let answers = MemoryCache<Answer>(capacity: 2048)

    struct Answer: Sendable {
        let json: EncodedJSON
        let report: WeatherReport
        let coordinate: Coordinate
        /// When it was made, and for how long it answers: a complete answer for the alerts' own
        /// 5-minute window; one that lacks a helper's part, a few seconds (so that a helper that is
        /// down or hanging does not send every request down the full path, and its part is added
        /// soon after it comes back).
        let madeAt: Date
        let answersFor: TimeInterval
    }

    /// How long an answer lacking a helper's part (name, air quality, warnings) is memoized.
    static let incompleteAnswerSeconds: TimeInterval = 5

    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("weather", use: weather)
        group.get("weather/now", use: now)
    }

    /// `GET /api/v1/weather/now?lat=&lon=` (or `place=`): the small document a widget needs.
    @Sendable func now(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<NowDocument> {
        let (result, units, language) = try await lookup(request, context: context, withAlerts: true)
        return EditedResponse(headers: CacheControl.revalidate, response: NowDocument(result, units: units, language: language))
    }

    /// The place, units and language of a weather request, and the weather (recorded for
    /// returning devices).
    func lookup(
        _ request: Request, context: AppRequestContext, withAirQuality: Bool = false, withAlerts: Bool = false
    ) async throws -> (WeatherResult, UnitSystem, LanguagePack) {
        let query = Query(request)
        let units = try query.units()
        let language = try Language.of(request)
        let place = try await useCases.resolve(try query.placeOrCoordinate(), device: context.deviceID).place
        let result = try await useCases.weather(
            for: place, mode: .staleWhileRevalidate,
            recording: context.isReturningDevice ? .inBackground(device: context.deviceID) : .none, withAirQuality: withAirQuality,
            withAlerts: withAlerts, language: language)
        metrics.weatherAnswer(result)
        return (result, units, Localization.pack(for: language))
    }

    /// `GET /api/v1/weather?lat=&lon=[&units=]` or `?place=NAME[&units=]`: the weather contract.
    @Sendable func weather(_ request: Request, context: AppRequestContext) async throws -> Response {
        // Alerts come in the reader's language: the header is part of what the answer is made from.
        var query = request.uri.query ?? ""
        if let languages = request.headers[.acceptLanguage] { query += "#" + languages }
        if let answer = answers.get(query)?.value {
            let age = Date().timeIntervalSince(answer.report.fetchedAt)
            if age >= 0, age < useCases.services.weather.policy.freshFor, Date().timeIntervalSince(answer.madeAt) < answer.answersFor {
                if context.isReturningDevice { useCases.record(answer.report, at: answer.coordinate, device: context.deviceID) }
                metrics.weatherAnswerFromCache()
                return answer.json.response(cacheControl: "public, no-cache")
            }
        }
        let (result, units, language) = try await lookup(request, context: context, withAirQuality: true, withAlerts: true)
        let r = result.report
        // What the body is made from: the request (place and units), the cache entry it answers
        // from, and the name the place was given.
        var key = query
        key += "|" + String(Int(r.fetchedAt.timeIntervalSince1970 * 1000)) + (result.isStale ? "|s|" : "|f|")
        key += r.place.name + "|" + (r.place.region ?? "") + "|" + r.place.country
        key += "|" + (result.fallbackFrom?.rawValue ?? "")
        if let air = result.airQuality {
            key += "|" + String(Int(air.airQuality.fetchedAt.timeIntervalSince1970)) + (air.isStale ? "s" : "f")
        }
        if let set = result.alerts {
            key += "|" + set.here.map(\.id).joined(separator: ",") + "|" + String(set.elsewhere.count)
        }
        // The next hour's sentence is counted from now: re-made every 5 minutes.
        if r.nowcast != nil { key += "|" + String(Int(Date().timeIntervalSince1970 / 300)) }
        let json: EncodedJSON
        if let hit = encoded.get(key) {
            json = hit.value
        } else {
            let body = try AppRequestContext.encoder.encode(WeatherDocument(result, units: units, language: language))
            json = EncodedJSON(body: body, etag: "\"\(Checksum.hex(body))\"")
            encoded.set(key, CacheEntry(value: json, receivedAt: r.fetchedAt))
        }
        // Memoised when the weather is fresh: a complete answer (named, from the configured
        // provider, with fresh air quality and every warning source) for the alerts' window; one
        // lacking a helper's part for a few seconds. Stale answers always take the full path, so
        // refreshes are never held back.
        if !result.isStale, result.refreshError == nil {
            let complete = result.lacking.isEmpty && result.fallbackFrom == nil
            let answer = Answer(
                json: json, report: r, coordinate: r.place.coordinate, madeAt: Date(),
                answersFor: complete ? useCases.services.alerts.freshFor : Self.incompleteAnswerSeconds)
            answers.set(query, CacheEntry(value: answer, receivedAt: r.fetchedAt))
        }
        return json.response(cacheControl: "public, no-cache")
    }
}
