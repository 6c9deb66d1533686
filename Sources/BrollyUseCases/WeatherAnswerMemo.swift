import BrollyCore
import Foundation

/// The weather contract for a place, units and language, already encoded, with the rules of when
/// an answer made a moment ago still answers: the hot path of many clients asking for the same
/// places is answered without resolving, naming, reading the cache or encoding again.
///
/// An answer is kept while the weather it was made from is fresh (`WeatherService.policy`) and,
/// when it is complete (named, from the configured provider, with air quality and every warning
/// source), for the alerts' own window (`AlertService.freshFor`); one lacking a helper's part for
/// `incompleteSeconds` only, so that a helper that is down or hanging does not send every request
/// down the full path, and its part is added soon after it comes back. Stale answers always take
/// the full path, so refreshes are never held back. A repeat is still recorded in the device's
/// history.
///
/// `Encoded` is the adapter's form of the bytes (the server's shares one buffer between
/// responses); `encode` makes it from a document.
public final class WeatherAnswerMemo<Encoded: Sendable>: Sendable {
    public let useCases: UseCases
    let encode: @Sendable (WeatherDocument) throws -> Encoded
    /// Encoded bodies by what they were made from: a cached answer is encoded once per unit
    /// system, language and place label, not on every request.
    let encoded = MemoryCache<Encoded>(capacity: 512)
    /// The latest answer to each request while it answers. Each holds its encoded body (~35 KB for
    /// a week with 48 hours) beside its report, so the memo keeps as many as the encoded bodies'
    /// (512): with 2,048 a flood of distinct places held ~70 MB of bodies here alone.
    let answers = MemoryCache<Answer>(capacity: 512)
    /// How long an answer lacking a helper's part (name, air quality, warnings) is kept.
    public static var incompleteSeconds: TimeInterval { 5 }
    /// The compatible APIs' answers (another app's document, already encoded) by their request as
    /// it came (path and query): 256 for each of the four APIs.
    let otherAnswers = MemoryCache<OtherAnswer>(capacity: 1024)
    /// How long another API's answer is kept at most: its `currently` and its minutes move on.
    public static var otherAnswerSeconds: TimeInterval { 60 }

    struct OtherAnswer: Sendable {
        let encoded: Encoded
        /// When the weather it was written from was fetched (when it was made: the entry's time).
        let fetchedAt: Date
    }

    /// A class: the hot path hands it on with one retain, not one per field of its report.
    final class Answer: Sendable {
        let encoded: Encoded
        let report: WeatherReport
        let madeAt: Date
        let answersFor: TimeInterval
        /// The device this answer was last recorded for, and when.
        let recorded = RecordMark()

        init(encoded: Encoded, report: WeatherReport, madeAt: Date, answersFor: TimeInterval) {
            self.encoded = encoded
            self.report = report
            self.madeAt = madeAt
            self.answersFor = answersFor
        }
    }

    /// Which device an answer was last recorded in the history of, and when: a device repeating a
    /// request within a second (a page's several requests, a reload) is recorded once — the
    /// history's own rule folds such repeats into one entry anyway (`StoreRules.repeats`), so the
    /// hot path need not build the lookup, take the writer's lock and hash its keys again (issue 52:
    /// the returning browser, whose every request was recorded, was the slow path).
    final class RecordMark: Sendable {
        private let last = Locked<(device: String, at: Date)?>(nil)

        /// True when `device` is to be recorded now (and marks it so).
        func shouldRecord(_ device: String, now: Date) -> Bool {
            last.withLock { last in
                if let l = last, l.device == device, now.timeIntervalSince(l.at) < 1 { return false }
                last = (device, now)
                return true
            }
        }
    }

    public init(useCases: UseCases, encode: @escaping @Sendable (WeatherDocument) throws -> Encoded) {
        self.useCases = useCases
        self.encode = encode
    }

    /// A recent answer to the request the adapter names `requestKey` (its raw query, say), while
    /// it still answers; recorded in the history of the device `history` when one is given. The
    /// adapter asks this before parsing the request: the hot path of repeated requests.
    public func recent(requestKey: String, history: String?) -> Encoded? {
        guard let recent = recent(requestKey: requestKey) else { return nil }
        if let history { record(recent, device: history) }
        return recent.encoded
    }

    /// A recent answer to `requestKey` while it still answers, recorded nowhere yet: for an adapter
    /// that works out whose request it is only once it knows it can answer it (the server's repeat
    /// desk), and then records it with `record`.
    public func recent(requestKey: String) -> Recent? {
        guard let answer = answers.get(requestKey)?.value, answers(answer) else { return nil }
        return Recent(answer: answer)
    }

    /// Records `recent` in the history of `device` (once a second at most, as `recent(requestKey:history:)`).
    public func record(_ recent: Recent, device: String) {
        let answer = recent.answer
        if answer.recorded.shouldRecord(device, now: useCases.now()) {
            useCases.record(answer.report, at: answer.report.place.coordinate, device: device)
        }
    }

    /// A memoised answer found by `recent(requestKey:)`.
    public struct Recent: Sendable {
        let answer: Answer
        public var encoded: Encoded { answer.encoded }
    }

    /// The weather document for `query` (resolved for `device`: its saved places) in `units` and
    /// `language`, looked up (the adapter asks `recent` first); recorded in the history of the
    /// device `history` when one is given. The answer is kept for `recent` under `requestKey` (the
    /// adapter's name for the request) or, without one, under a key made from the query, units and
    /// language; a device's own places are not kept.
    public func document(
        for query: PlaceQuery, units: UnitChoice, language: String, device: String, history: String?, requestKey: String? = nil,
        model: String? = nil, hours: Int = 48
    ) async throws -> (Encoded, WeatherResult) {
        let (result, pack) = try await weather(
            for: query, language: language, device: device, history: history, full: true, model: model)
        let r = result.report
        let queryKey = Self.memoKey(query, units: units, language: language).map {
            $0 + "|" + (model ?? "") + (hours == 48 ? "" : "|h\(hours)")
        }
        // What the body is made from: the request, the cache entry it answers from, the name the
        // place was given and the helpers' parts.
        var key = queryKey ?? "\(query)|\(units.key)|\(language)|h\(hours)"
        key += "|" + String(Int(r.fetchedAt.timeIntervalSince1970 * 1000)) + (result.isStale ? "|s|" : "|f|")
        key += r.place.name + "|" + (r.place.region ?? "") + "|" + r.place.country
        key += "|" + (result.fallbackFrom?.rawValue ?? "") + "|" + (r.model ?? "") + "|" + (r.modelSelection ?? "")
        if result.isApproximate { key += "|approximate" }
        // A forecast corrected once its place is scored is another body from the same cache entry.
        if let c = r.correction { key += "|c\(c.days)|\(c.tomorrowHigh ?? 0)|\(c.tomorrowLow ?? 0)" }
        if let air = result.airQuality {
            key += "|" + String(Int(air.airQuality.fetchedAt.timeIntervalSince1970)) + (air.isStale ? "s" : "f")
        }
        if let m = result.measured { key += "|m" + m.observation.stationID + String(Int(m.observation.time.timeIntervalSince1970)) }
        if let set = result.alerts { key += "|" + set.here.map(\.id).joined(separator: ",") + "|" + String(set.elsewhere.count) }
        // The next hour's sentence is counted from now: re-made every 5 minutes.
        if r.nowcast != nil { key += "|" + String(Int(useCases.now().timeIntervalSince1970 / 300)) }
        let body: Encoded
        if let hit = encoded.get(key) {
            body = hit.value
        } else {
            body = try encode(WeatherDocument(result, units: units, now: useCases.now(), language: pack, hours: hours))
            encoded.set(key, CacheEntry(value: body, receivedAt: r.fetchedAt))
        }
        if let memoKey = queryKey.map({ requestKey ?? $0 }), result.mayBeReplayed {
            let answer = Answer(
                encoded: body, report: r, madeAt: useCases.now(),
                answersFor: result.isComplete ? useCases.services.alerts.freshFor : Self.incompleteSeconds)
            answers.set(memoKey, CacheEntry(value: answer, receivedAt: r.fetchedAt))
        }
        return (body, result)
    }

    /// The weather for `query` (with air quality and alerts when `full`, else alerts only) and
    /// the language pack to present it in.
    public func weather(
        for query: PlaceQuery, language: String, device: String, history: String?, full: Bool, model: String? = nil
    ) async throws -> (WeatherResult, LanguagePack) {
        let place = try await useCases.resolve(query, device: device, language: language).place
        var result = try await useCases.weather(
            for: place, mode: .staleWhileRevalidate, recording: history.map { .inBackground(device: $0) } ?? .none,
            withAirQualityAndStation: full, withAlerts: true, withRanges: full, language: language, model: model)
        if case .approximate = query { result.isApproximate = true }
        return (result, Localization.pack(for: language))
    }

    /// A compatible API's recent answer to the request `requestKey` (its path and query as they
    /// came), while the weather it was written from is fresh, for a minute at most: a repeat is
    /// answered before parsing, resolving, looking up or encoding again, and costs no allowance.
    public func recentAnswer(to requestKey: String) -> Encoded? {
        guard let entry = otherAnswers.get(requestKey) else { return nil }
        let now = useCases.now()
        guard now.timeIntervalSince(entry.receivedAt) < Self.otherAnswerSeconds,
            now.timeIntervalSince(entry.value.fetchedAt) < useCases.services.weather.policy.freshFor
        else { return nil }
        return entry.value.encoded
    }

    /// Keeps a compatible API's answer to `requestKey`, written from weather fetched at
    /// `fetchedAt` (complete, and weather that may be replayed: the adapter says).
    public func remember(_ body: Encoded, answering requestKey: String, madeFrom fetchedAt: Date) {
        otherAnswers.set(requestKey, CacheEntry(value: OtherAnswer(encoded: body, fetchedAt: fetchedAt), receivedAt: useCases.now()))
    }

    /// Whether a memoised answer still answers: its weather fresh, and within its own window.
    func answers(_ answer: Answer) -> Bool {
        let now = useCases.now()
        let age = now.timeIntervalSince(answer.report.fetchedAt)
        return age >= 0 && age < useCases.services.weather.policy.freshFor && now.timeIntervalSince(answer.madeAt) < answer.answersFor
    }

    /// Requests for a name or coordinates are memoised; a device's own places are not (they
    /// differ by device), nor where a request's address is (it differs by client).
    static func memoKey(_ query: PlaceQuery, units: UnitChoice, language: String) -> String? {
        switch query {
        case .coordinate(let c): "c\(c.latitude),\(c.longitude)|\(units.key)|\(language)"
        case .name(let name): "n\(name)|\(units.key)|\(language)"
        case .saved, .defaultPlace, .approximate: nil
        }
    }
}
