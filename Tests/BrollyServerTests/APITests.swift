import BrollyTestSupport
import BrollyUseCases
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import BrollyCore
@testable import BrollyServer
@testable import BrollyStore

/// A provider whose answer the test sets; counts calls; can be slow.
final class StubProvider: WeatherProvider {
    let id = ProviderID.openMeteo
    private let answer: Result<WeatherReport, BrollyError>
    private let calls = Locked(0)
    let clock: ManualClock?

    /// With a clock, each call lasts 0.3 s of it: until the test lets that time pass.
    init(_ answer: Result<WeatherReport, BrollyError>, clock: ManualClock? = nil) {
        self.answer = answer
        self.clock = clock
    }

    var callCount: Int { calls.current }

    func weather(for place: Place) async throws -> WeatherReport {
        let result = calls.withLock {
            $0 += 1
            return answer
        }
        try await clock?.sleep(0.3)
        var report = try result.get()
        report.place = place
        return report
    }

    func search(_ query: String, limit: Int) async throws -> [Place] {
        if query == "Nowhere" { throw BrollyError.placeNotFound(query) }
        return [Place(name: query, country: "Testland", countryCode: "TL", latitude: 1, longitude: 2)]
    }

    func reverse(_ coordinate: Coordinate) async throws -> Place? {
        Place(name: "Reverse", country: "Testland", latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}

func report() -> WeatherReport {
    let condition = Conditions.wmo(61)
    let now = Date()
    return WeatherReport(
        place: Place(name: "X", country: "Y", latitude: 0, longitude: 0, timezone: "Europe/Berlin"),
        current: CurrentConditions(
            time: now, temperature: 5, feelsLike: 3, temperatureMin: 1, temperatureMax: 8, humidity: 80, pressure: 1010,
            windSpeed: 4, windDirection: 270, condition: condition),
        days: (0..<7).map { DayForecast(date: "2026-11-2\($0 + 1)", temperatureMin: 1, temperatureMax: 8, condition: condition) },
        hours: [], provider: .openMeteo, fetchedAt: now)
}

func makeApp(_ provider: StubProvider) -> some ApplicationProtocol {
    buildApplication(useCases: makeServerUseCases(provider), settings: testSettings(), logger: Logger(label: "test"))
}

func testSettings() -> ServerSettings {
    var settings = ServerSettings(leafletDirectory: "/nonexistent", webDirectory: ServerSettings.bundledWebDirectory)
    // The router tests address the server as `localhost` (HummingbirdTesting's authority).
    settings.publicOrigins = ["http://localhost"]
    return settings
}

/// Use cases over `provider`, with every helper refusing (no network in these tests).
func makeServerUseCases(_ provider: StubProvider) -> UseCases {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-server-\(UUID().uuidString)")
    let clock = SystemClock()
    let now: @Sendable () -> Date = { clock.now }
    let cache = FileCache(directory: dir, clock: clock)
    let nominatim = NominatimGeocoder(
        network: NetworkService(transport: RefusingTransport()), baseURL: URL(string: "http://127.0.0.1:9")!)
    let refusing = NetworkService(transport: RefusingTransport(), retry: .none)
    let addresses = AddressService(
        nominatim: nominatim, network: refusing, googleURL: URL(string: "http://127.0.0.1:9")!, googleAPIKey: nil,
        fallback: nil, cache: cache, now: now)
    let configuration = try! BrollyConfiguration(provider: nil, cacheDirectory: dir, environment: [:])
    let services = Services(
        configuration: configuration, weather: WeatherService(provider: provider, cache: cache, now: now),
        search: PlaceSearch(provider: provider, cache: cache, now: now),
        namer: PlaceNamer(provider: provider, addresses: addresses, cache: cache, now: now),
        addresses: addresses,
        news: NewsService(network: refusing, source: .bbc(baseURL: URL(string: "http://127.0.0.1:9")!), cache: cache, clock: clock),
        airQuality: AirQualityService(
            source: OpenMeteoAirQuality(network: refusing, baseURL: URL(string: "http://127.0.0.1:9")!, now: now), cache: cache,
            clock: clock),
        alerts: AlertService(network: refusing, sources: AlertService.Sources(), cache: cache, clock: clock),
        accuracy: AccuracyService(
            previousRuns: OpenMeteoPreviousRuns(network: refusing, baseURL: URL(string: "http://127.0.0.1:9")!),
            stations: AviationWeather(network: refusing, baseURL: URL(string: "http://127.0.0.1:9")!), cache: cache, clock: clock),
        ipLocator: IPLocator(network: refusing, url: URL(string: "http://127.0.0.1:9")!), store: try! AppDatabase.inMemory())
    return UseCases(services: services)
}

struct RefusingTransport: HTTPTransport {
    func send(_ request: BrollyCore.HTTPRequest) async throws -> BrollyCore.HTTPResponse {
        throw TransportError.cannotConnect("refused")
    }
}

@Suite struct APITests {
    @Test func weatherFollowsTheContract() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            try await client.execute(uri: "/api/v1/weather?lat=52.52&lon=13.41&units=imperial", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] != nil && response.headers[.cacheControl] == "public, no-cache")
                let doc = try JSONDecoder().decode(WeatherDocument.self, from: Data(buffer: response.body))
                #expect(doc.place.name == "Reverse" && doc.current.temperature == 41 && doc.units.temperature == "°F")
                #expect(doc.days.count == 7 && !doc.source.stale)
            }
        }
    }

    @Test(arguments: BrollyError.Kind.allCases)
    func everyProviderFailureIsAProblemNeverA500(kind: BrollyError.Kind) async throws {
        let provider = StubProvider(.failure(BrollyError(kind, "failure \(kind)")))
        try await makeApp(provider).test(.router) { client in
            try await client.execute(uri: "/api/v1/weather?lat=10&lon=10", method: .get) { response in
                #expect(response.status.code != 500)
                #expect((400..<600).contains(Int(response.status.code)))
                #expect(response.headers[.contentType] == "application/problem+json")
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(body?["status"] as? Int == Int(response.status.code))
                if kind == .timedOut { #expect(response.status == .gatewayTimeout) }
                if kind == .placeNotFound { #expect(response.status == .notFound) }
                if kind == .invalidInput { #expect(response.status == .badRequest) }
            }
        }
    }

    @Test func ifNoneMatchGetsNotModified() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            let etag = try await client.execute(uri: "/api/v1/weather?lat=1&lon=1", method: .get) { $0.headers[.eTag] }
            let tag = try #require(etag)
            try await client.execute(uri: "/api/v1/weather?lat=1&lon=1", method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified && response.body.readableBytes == 0)
            }
        }
    }

    @Test func concurrentRequestsShareOneUpstreamCall() async throws {
        let clock = ManualClock(Date())
        let provider = StubProvider(.success(report()), clock: clock)
        try await makeApp(provider).test(.router) { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await client.execute(uri: "/api/v1/weather?lat=20&lon=20", method: .get) { $0.status } }
                }
                // The one upstream call is under way; the others join it while it lasts. Its time
                // passes once it has begun (and again, should another call ever begin).
                let time = Task {
                    while !Task.isCancelled {
                        await yieldUntil { clock.sleeping > 0 || Task.isCancelled }
                        for _ in 0..<1_000 { await Task.yield() }
                        clock.advance(0.3)
                    }
                }
                for try await status in group { #expect(status == .ok) }
                time.cancel()
            }
        }
        #expect(provider.callCount == 1)
    }

    @Test func searchReturnsPlacesAndEmptyForNoMatch() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            try await client.execute(uri: "/api/v1/places/search?q=Berlin", method: .get) { response in
                let places = try JSONDecoder().decode([PlaceDocument].self, from: Data(buffer: response.body))
                #expect(places.map(\.name) == ["Berlin"])
            }
            try await client.execute(uri: "/api/v1/places/search?q=Nowhere", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "[]")
            }
        }
    }

    /// `HEAD` is the `GET` without its body: the same status, `Content-Length` and `ETag` (it was
    /// `405` with an `Allow` that named `HEAD`); a path without `GET` is still `405`, without `HEAD`.
    @Test func headIsTheGetWithoutItsBody() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            for uri in ["/api/v1/weather?lat=1&lon=2", "/healthz", "/api/openapi.json", "/api/v1/places/search?q=Berlin"] {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(get.status == .ok && head.status == .ok, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentLength] == "\(get.body.readableBytes)", "\(uri)")
                #expect(head.headers[.eTag] == get.headers[.eTag], "\(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
            }
            let missing = try await client.execute(uri: "/api/v1/weather?lat=1", method: .head)
            #expect(missing.status == .badRequest && missing.body.readableBytes == 0)
            let putOnly = try await client.execute(uri: "/api/v1/places/order", method: .head)
            #expect(putOnly.status == .methodNotAllowed)
            #expect(putOnly.headers[.allow]?.contains("HEAD") == false)
        }
    }

    @Test func healthAndOpenAPI() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/openapi.json", method: .get) { response in
                let spec = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(spec?["openapi"] as? String == "3.1.0")
            }
        }
    }
}
