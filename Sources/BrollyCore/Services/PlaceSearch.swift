import Foundation

/// Place search with a cache, so that a place searched once can be used offline.
public struct PlaceSearch: Sendable {
    public let provider: any WeatherProvider
    public let cache: FileCache
    public var maxAge: TimeInterval = 30 * 86_400
    let now: @Sendable () -> Date

    public init(provider: any WeatherProvider, cache: FileCache, now: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.cache = cache
        self.now = now
    }

    /// Validates a user's query: trimmed, not empty, at most 200 characters.
    public static func validated(_ query: String) throws -> String {
        let q = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !q.isEmpty else { throw BrollyError.invalidInput("the place name is empty") }
        guard q.count <= 200 else { throw BrollyError.invalidInput("the place name is longer than 200 characters") }
        guard !q.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw BrollyError.invalidInput("the place name contains control characters")
        }
        return q
    }

    /// Matching places, best first, named in `language`; served from the cache when searched
    /// before in that language, or when offline (then in any language it was searched in).
    public func search(_ query: String, limit: Int = 10, offline: Bool = false, language: String = "en") async throws -> [Place] {
        let q = try Self.validated(query)
        let code = Localization.baseCode(language)
        let english = "search-\(provider.id.rawValue)-\(Checksum.hex(Data(q.lowercased().utf8)))"
        let key = code == "en" ? english : english + "-" + code
        let (maxAge, now) = (self.maxAge, self.now)
        if let entry = await cache.current(
            [Place].self, key: key, memory: nil, now: now(), isCurrent: { offline || now().timeIntervalSince($0.receivedAt) < maxAge })
        {
            return Array(entry.value.prefix(limit))
        }
        if offline {
            if key != english, let entry = cache.read([Place].self, key: english) { return Array(entry.value.prefix(limit)) }
            throw BrollyError.notCached("\"\(q)\"")
        }
        let places = try await provider.search(q, limit: limit, language: code)
        await cache.writeThrough(places, key: key, receivedAt: now())
        return places
    }
}
