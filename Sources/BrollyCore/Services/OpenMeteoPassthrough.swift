import Foundation

/// Open-Meteo requests that Brolly's cached weather cannot answer (variables it does not keep,
/// past days, more than a week, several models…), passed to the upstream Open-Meteo once per
/// normalized query and kept like every other answer: single-flighted, cached for a quarter of an
/// hour (Open-Meteo's models update at most that often), shared by the cluster, and within
/// Open-Meteo's budget, breaker and the client's allowance (the same `Open-Meteo` upstream).
public final class OpenMeteoPassthrough: Sendable {
    public struct Passed: Codable, Sendable {
        /// Open-Meteo's answer as it came.
        public var body: Data
        public var fetchedAt: Date
    }

    let network: NetworkService
    let baseURL: URL
    let fetcher: CachedFetcher<Passed>

    public init(
        network: NetworkService, baseURL: URL, cache: FileCache, keepsEntriesInMemory: Bool = false,
        clock: any WallClock
    ) {
        self.network = network
        self.baseURL = baseURL
        fetcher = CachedFetcher(
            cache: cache, freshFor: 900, usableFor: 6 * 3600, failures: FailureMemory(base: 10, max: 300),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: 32, shared: true, clock: clock)
    }

    /// The largest answer passed through for one query (a week of 20 hourly variables is ~200 KB;
    /// 16 days of every variable of several models runs to many MB). Larger ones are refused with
    /// Open-Meteo's own 400 shape and not kept, so memory stays bounded (at most 32 kept in memory)
    /// whatever clients ask.
    public static let maxAnswerBytes = 1 << 20

    /// The cache key of a query: its normalized form's checksum.
    public func key(for normalized: [(String, String)]) -> String {
        let text = normalized.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return "open-meteo-passed-\(Checksum.hex(Data(text.utf8)))"
    }

    /// Open-Meteo's answer to a query in its normalized form (`OpenMeteoQuery.normalized`: sorted,
    /// without the client's key): cached, else one call for everyone asking the same. Open-Meteo's
    /// refusal of a parameter comes back as `invalidInput` with its reason.
    public func answer(normalized: [(String, String)]) async throws -> (body: Data, isStale: Bool) {
        let url = baseURL.appending(providerPath: "/v1/forecast", query: normalized)
        let answer = try await fetcher.value(key(for: normalized), stamp: { $0.fetchedAt }) { [network, clock = fetcher.clock] in
            let response = try await network.get(url, provider: "Open-Meteo", classify: Self.classify)
            guard response.body.count <= Self.maxAnswerBytes else {
                throw BrollyError.invalidInput(
                    "the answer to this query is larger than this server passes on (\(Self.maxAnswerBytes >> 10) KB): ask for fewer variables, days or models"
                )
            }
            return Passed(body: response.body, fetchedAt: clock.now)
        }
        return (answer.value.body, answer.isStale)
    }

    /// Open-Meteo's own refusal (400 with a reason) is the client's mistake, not the upstream's.
    @Sendable static func classify(_ response: HTTPResponse) -> BrollyError? {
        if response.status == 400, let json = try? JSONValue.parse(response.body, provider: "Open-Meteo"), json["error"]?.bool == true {
            return BrollyError(.invalidInput, json["reason"].nonEmptyString ?? "Open-Meteo refused the request")
        }
        return OpenMeteoProvider.classifyError(response)
    }
}
