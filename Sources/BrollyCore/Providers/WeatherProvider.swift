import Foundation

/// A source of weather and places.
public protocol WeatherProvider: Sendable {
    /// Which provider this is.
    var id: ProviderID { get }
    /// Current conditions, hourly slots and local days for `place`, in metric units.
    func weather(for place: Place) async throws -> WeatherReport
    /// Places matching `query`, best first. Throws `placeNotFound` when none match.
    func search(_ query: String, limit: Int) async throws -> [Place]
    /// The same, named in `language` (a language tag: `ru`, `pt-BR`) where the provider has the
    /// names; providers without them answer as `search(_:limit:)`.
    func search(_ query: String, limit: Int, language: String) async throws -> [Place]
    /// The nearest named place, or nil when the provider cannot say.
    func reverse(_ coordinate: Coordinate) async throws -> Place?
    /// The weather with the provider's own texts in `language` where it has them (OpenWeatherMap's
    /// `lang=`); providers without localized texts answer as `weather(for:)`.
    func weather(for place: Place, language: String) async throws -> WeatherReport
    /// The weather from a forecast model the caller named (Open-Meteo's `models=`); nil: the
    /// provider's own choice. Providers without models answer as `weather(for:language:)`.
    func weather(for place: Place, language: String, model: String?) async throws -> WeatherReport
}

extension WeatherProvider {
    public func search(_ query: String, limit: Int, language: String) async throws -> [Place] {
        try await search(query, limit: limit)
    }

    public func weather(for place: Place, language: String) async throws -> WeatherReport {
        try await weather(for: place)
    }

    public func weather(for place: Place, language: String, model: String?) async throws -> WeatherReport {
        try await weather(for: place, language: language)
    }
}

extension URL {
    /// Appends a provider path (e.g. `/v1/forecast`) to a base URL that may itself have a path
    /// prefix (a proxy), and sets the query.
    func appending(providerPath path: String, query: [(String, String)]) -> URL {
        var comps = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        let base = comps.path.hasSuffix("/") ? String(comps.path.dropLast()) : comps.path
        comps.path = base + path
        comps.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // '+' is legal in a query but means space to many servers: encode it.
        comps.percentEncodedQuery = comps.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return comps.url!
    }
}
