import Foundation
import Testing

@testable import BrollyCore

/// Loads `Fixtures/<path>` from the test bundle.
func fixture(_ path: String) throws -> Data {
    let url = Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(path)
    return try Data(contentsOf: url)
}

func utc(_ iso: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    return f.date(from: iso)!
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// A tiny lock-protected box (Synchronization's Mutex needs macOS 15, so keep our own).
final class Mutex<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` goes through `lock`.
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A transport that answers from a script and records what it was asked.
final class ScriptedTransport: HTTPTransport {
    enum Step: Sendable {
        case respond(Int, [String: String], String)
        case fail(TransportError)
    }
    private let steps: Mutex<[Step]>
    let requests = Mutex<[HTTPRequest]>([])

    init(_ steps: [Step]) { self.steps = Mutex(steps) }

    var count: Int { requests.withLock { $0.count } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        let step = steps.withLock { s -> Step in s.count > 1 ? s.removeFirst() : s[0] }
        switch step {
        case .respond(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }
}

/// A transport that answers by the request's URL: the first route whose text the URL contains.
final class RoutedTransport: HTTPTransport {
    private let routes: [(String, ScriptedTransport.Step)]
    let requests = Mutex<[HTTPRequest]>([])

    init(_ routes: [(String, ScriptedTransport.Step)]) { self.routes = routes }

    var count: Int { requests.withLock { $0.count } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        guard let step = routes.first(where: { request.url.absoluteString.contains($0.0) })?.1 else { throw TransportError.cannotConnect("no route") }
        switch step {
        case .respond(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }
}

/// A provider that counts calls and answers from a closure.
final class FakeProvider: WeatherProvider {
    let id: ProviderID
    let calls = Mutex(0)
    let answer: Mutex<Result<WeatherReport, BrollyError>>

    init(id: ProviderID = .openMeteo, answer: Result<WeatherReport, BrollyError>) {
        self.id = id
        self.answer = Mutex(answer)
    }

    var callCount: Int { calls.withLock { $0 } }
    func set(_ result: Result<WeatherReport, BrollyError>) { answer.withLock { $0 = result } }

    func weather(for place: Place) async throws -> WeatherReport {
        calls.withLock { $0 += 1 }
        return try answer.withLock { $0 }.get()
    }
    func search(_ query: String, limit: Int) async throws -> [Place] { [] }
    func reverse(_ coordinate: Coordinate) async throws -> Place? { nil }
}

func sampleReport(temperature: Double = 10, at time: Date = utc("2026-11-21T12:00:00Z")) -> WeatherReport {
    let condition = Conditions.wmo(3)
    return WeatherReport(
        place: Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin"),
        current: CurrentConditions(
            time: time, temperature: temperature, temperatureMin: temperature - 3, temperatureMax: temperature + 2,
            humidity: 70, pressure: 1012, windSpeed: 3, windDirection: 200, condition: condition),
        days: [DayForecast(date: "2026-11-21", temperatureMin: 7, temperatureMax: 12, condition: condition)],
        hours: [], provider: .openMeteo, fetchedAt: time)
}

func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
