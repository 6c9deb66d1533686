import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// What the compatible APIs' controllers share: the weather (through the same documents as
/// Brolly's own API, counted in the metrics) and the hot path — each request's answer (by its path
/// and query) while the weather it was made from is fresh, for a minute at most (`currently` and
/// the minutes move on), when it was complete; a repeat is answered without resolving, looking up
/// or encoding again. Bounded (256 answers a surface: a week of Dark Sky hours is about 60 kB).
struct CompatibleAnswers: Sendable {
    struct Answer: Sendable {
        let body: EncodedJSON
        let fetchedAt: Date
    }

    let answers = MemoryCache<Answer>(capacity: 256)
    let freshFor: TimeInterval
    let documents: WeatherAnswerMemo<EncodedJSON>
    let metrics: ServerMetrics
    let useCases: UseCases

    init(documents: WeatherAnswerMemo<EncodedJSON>, metrics: ServerMetrics, useCases: UseCases) {
        self.documents = documents
        self.metrics = metrics
        self.useCases = useCases
        freshFor = useCases.services.weather.policy.freshFor
    }

    /// The remembered answer to `request`, counted as a cached weather answer.
    func remembered(_ request: Request) -> Response? {
        guard let response = answer(request) else { return nil }
        metrics.weatherAnswerFromCache()
        return response
    }

    /// The weather for `place` (with air quality when `full`), counted.
    func weather(for place: PlaceQuery, language: String, full: Bool, model: String? = nil) async throws -> (WeatherResult, LanguagePack) {
        let (result, pack) = try await documents.weather(for: place, language: language, device: "", history: nil, full: full, model: model)
        metrics.weatherAnswer(result)
        return (result, pack)
    }

    /// The key of a request: its target as it came (path and query), not parsed again.
    static func key(_ request: Request) -> String { request.head.path ?? "" }

    /// The remembered answer to `request`, while it holds.
    func answer(_ request: Request, now: Date = Date()) -> Response? {
        guard let entry = answers.get(Self.key(request)), now.timeIntervalSince(entry.receivedAt) < 60,
            now.timeIntervalSince(entry.value.fetchedAt) < freshFor
        else { return nil }
        return entry.value.body.response(cacheControl: "public, no-cache")
    }

    /// Encodes `document`, remembers it when `result` was complete and fresh, and answers it.
    func answer(_ request: Request, document: some Encodable, from result: WeatherResult?, now: Date = Date()) throws -> Response {
        let data = try AppRequestContext.encoder.encode(document)
        let body = EncodedJSON(body: data, etag: "\"\(Checksum.hex(data))\"")
        if let result, !result.isStale, result.refreshError == nil, result.lacking.isEmpty {
            answers.set(Self.key(request), CacheEntry(value: Answer(body: body, fetchedAt: result.report.fetchedAt), receivedAt: now))
        }
        return body.response(cacheControl: "public, no-cache")
    }
}
