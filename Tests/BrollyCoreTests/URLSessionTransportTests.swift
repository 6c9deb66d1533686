import BrollyTestSupport
import BrollyURLSession
import Foundation
import Testing

@testable import BrollyCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The project's upstream double (`tests/upstream_double.py`), which `scripts/test.sh` starts on
/// 127.0.0.1 and names in `BROLLY_UPSTREAM_DOUBLE_URL`.
struct UpstreamDouble: Sendable {
    static let url = ProcessInfo.processInfo.environment["BROLLY_UPSTREAM_DOUBLE_URL"].flatMap(URL.init(string:))
    let base: URL

    init() throws {
        guard let url = Self.url else { throw TransportError.other("BROLLY_UPSTREAM_DOUBLE_URL is not set") }
        base = url
    }

    /// Injects a fault (`POST /__control`).
    func inject(_ fault: [String: Any]) async throws {
        var request = URLRequest(url: base.appendingPathComponent("__control"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: fault)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        _ = try await URLSessionTransport.post(request)
    }
}

extension URLSessionTransport {
    /// A control request to the double (the transport itself only sends what BrollyCore needs).
    static func post(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}

/// URLSessionTransport on Linux (FoundationNetworking) against the upstream double: what an
/// Apple app embedding BrollyCore alone would use.
@Suite(
    .serialized,
    .enabled(
        if: UpstreamDouble.url != nil,
        "needs the upstream double: BROLLY_UPSTREAM_DOUBLE_URL (scripts/test.sh starts it and sets it)"))
struct URLSessionTransportTests {
    let double: UpstreamDouble
    init() throws { double = try UpstreamDouble() }

    @Test func fetchesAndDecodesAForecastThroughTheProvider() async throws {
        let transport = URLSessionTransport()
        let provider = OpenMeteoProvider(
            network: NetworkService(transport: transport, retry: .none, timeout: 5), baseURL: double.base, geocodingURL: double.base,
            now: { Date() })
        let report = try await provider.weather(for: Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41))
        #expect(report.place.timezone == "Europe/Berlin")
        let expected: Double = 2.5  // the double's current temperature: round(20 - 52.52 / 3, 1)
        #expect(report.current.temperature == expected)
        #expect(report.days.count >= 5 && !report.hours.isEmpty)
        let places = try await provider.search("Kathmandu", limit: 5)
        #expect(places.first?.countryCode == "NP")
    }

    @Test func sendsHeadersAndReturnsStatusAndLowercasedHeaders() async throws {
        let response = try await URLSessionTransport().send(
            HTTPRequest(url: double.base.appendingPathComponent("v2/everything"), headers: ["X-Api-Key": "badkey"], timeout: 5))
        #expect(response.status == 401)
        #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(String(decoding: response.body, as: UTF8.self).contains("apiKeyInvalid"))
    }

    @Test func aSlowAnswerTimesOut() async throws {
        try await double.inject(["mode": "delay", "delay": 3, "times": 1, "path": "/v1/forecast"])
        let started = Date()
        await #expect(throws: TransportError.timedOut) {
            try await URLSessionTransport().send(HTTPRequest(url: double.base.appendingPathComponent("v1/forecast"), timeout: 0.5))
        }
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func aRefusedConnectionCannotConnect() async throws {
        await #expect {
            try await URLSessionTransport().send(HTTPRequest(url: URL(string: "http://127.0.0.1:9/v1/forecast")!, timeout: 2))
        } throws: { error in
            if case .cannotConnect = error as? TransportError { return true }
            return false
        }
    }

    @Test func serverErrorsAreRetriedByTheNetworkService() async throws {
        try await double.inject(["mode": "500", "times": 1, "path": "/v1/search"])
        let network = NetworkService(transport: URLSessionTransport(), retry: RetryPolicy(maxAttempts: 2, baseDelay: 0.01), timeout: 5)
        let response = try await network.get(
            double.base.appending(providerPath: "/v1/search", query: [("name", "Berlin")]), provider: "Open-Meteo geocoding")
        #expect(response.status == 200)
    }
}
