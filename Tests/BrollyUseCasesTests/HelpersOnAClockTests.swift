import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

/// Issue 53, item 4: what `tests/test_weather_first.py` measured in real seconds, by itself after
/// the parallel run (the `alone` cases), proved on a clock the test turns. A helper that hangs
/// (the namer, air quality, the warnings, the ensemble, the station) costs the first request for a
/// place its deadline of the clock's time, to the second, and the requests after it nothing.

/// The services' upstreams on `clock`: the paths in `answering` are answered at once (the weather
/// provider's double); any other is, as `mode` says, refused at once, or never answered within
/// the request's own time-out (it sleeps that long on the clock, then times out).
final class HelpersDouble: HTTPTransport {
    enum Mode: String, CustomTestStringConvertible, Sendable {
        case unreachable, hanging
        var testDescription: String { rawValue }
    }
    let answering: Set<String>
    let mode: Mode
    let clock: ManualClock
    let provider = ProviderDouble()
    private let calls = Locked<[String: Int]>([:])

    init(answering: Set<String>, mode: Mode, clock: ManualClock) {
        self.answering = answering
        self.mode = mode
        self.clock = clock
    }

    /// How many requests were made for paths starting with `prefix`.
    func count(_ prefix: String) -> Int { calls.withLock { $0.filter { $0.key.hasPrefix(prefix) }.values.reduce(0, +) } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        calls.withLock { $0[path, default: 0] += 1 }
        if answering.contains(path) { return try await provider.send(request) }
        switch mode {
        case .unreachable: throw TransportError.cannotConnect("refused")
        case .hanging:
            try await clock.sleep(request.timeout)
            throw TransportError.timedOut
        }
    }
}

/// The value of `task` if it ends within `seconds` of real time (the clock does not move): nil
/// when it is still waiting, on the clock or on anything else.
func endsWithoutTheClock<T: Sendable, Failure: Error>(_ task: Task<T, Failure>, seconds: Double = 5) async -> T? {
    await FirstOf.value(task, orNilBy: Date().addingTimeInterval(seconds), on: SystemClock())
}

/// Waits (in real time, briefly) until `condition` holds.
func eventually(_ what: String, _ condition: () -> Bool) async throws {
    for _ in 0..<500 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(condition(), "\(what)")
}

@Suite struct HelpersOnAClockTests {
    let start = utc("2026-11-23T11:00:00Z")

    /// `test_a_hanging_namer_right_after_a_burst_costs_a_new_place_at_most_the_naming_deadline`:
    /// a new place waits for its name the naming deadline (1.5 s) of the clock's time, not a moment
    /// more, and is answered with its coordinates; its neighbours in the same moment do not wait
    /// again (the deadline is the lookup's, counted from when it started), and the lookup is one.
    @Test func aHangingNamerCostsANewPlaceTheNamingDeadlineAndItsNeighboursNothing() async throws {
        let clock = ManualClock(start)
        let double = HelpersDouble(answering: ["/v1/forecast"], mode: .hanging, clock: clock)
        let useCases = try makeUseCases(double, clock: clock)
        let c = Coordinate(latitude: 41.9, longitude: 12.5)
        let first = Task { await useCases.name(c) }
        // Waiting on the clock: the naming deadline, and the lookup the double holds.
        try await eventually("the first request waits on the clock") { double.count("/reverse") == 1 && clock.sleeping >= 2 }
        // Just short of the deadline it still waits, for longer than the deadline in real time: it
        // waits on the clock, not on the wall.
        clock.advance(useCases.namingDeadline - 0.1)
        #expect(await endsWithoutTheClock(first, seconds: 2) == nil)
        clock.advance(0.1)
        let named = await endsWithoutTheClock(first)
        #expect(named?.name == "41.900, 12.500")
        #expect(clock.now.timeIntervalSince(start) == useCases.namingDeadline)
        // Twenty neighbours, the lookup still under way: each answered with the clock standing still.
        let crowd = Task {
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { await useCases.name(c).name } }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
        }
        let names = await endsWithoutTheClock(crowd)
        #expect(names?.count == 20 && names?.allSatisfy { $0 == "41.900, 12.500" } == true)
        #expect(double.count("/reverse") == 1)
    }

    /// `test_cached_weather_stays_fast_while_air_quality_and_alerts_are_down`: with every helper (air
    /// quality, the warnings, the ensemble, the nearest station)
    /// unreachable, the first request waits for none of them; with every helper hanging, it waits
    /// their grace (1 s of the clock's time) once. Either way the weather comes with what it lacks
    /// said, the requests after it are answered with the clock standing still, and each helper was
    /// asked once for the place, not once per request.
    @Test(arguments: [HelpersDouble.Mode.unreachable, .hanging])
    func theWeatherWaitsForDownHelpersTheirGraceOnceAndThenNotAtAll(mode: HelpersDouble.Mode) async throws {
        let clock = ManualClock(start)
        let double = HelpersDouble(answering: ["/v1/forecast", "/reverse"], mode: mode, clock: clock)
        let useCases = try makeUseCases(double, clock: clock)
        let berlin = Place(
            name: "Berlin", country: "Germany", countryCode: "DE", region: "Berlin", latitude: 52.52, longitude: 13.41,
            timezone: "Europe/Berlin")
        @Sendable func ask() async throws -> WeatherResult {
            try await useCases.weather(
                for: berlin, withAirQualityAndStation: true, withAlerts: true, withRanges: true, language: "en")
        }
        let helperPaths = ["/v1/air-quality", "/api/v1/warnings/", "/v1/ensemble", "/api/data/metar"]
        let first = Task { try await ask() }
        let result: WeatherResult?
        switch mode {
        case .unreachable:
            result = await endsWithoutTheClock(first)
        case .hanging:
            // Each of the four asked, and held by the double; each waited for its grace.
            try await eventually("the helpers wait on the clock") {
                helperPaths.allSatisfy { double.count($0) == 1 } && clock.sleeping >= 2 * helperPaths.count
            }
            clock.advance(useCases.airQualityGrace - 0.1)
            #expect(await endsWithoutTheClock(first, seconds: 2) == nil)
            clock.advance(0.1)
            result = await endsWithoutTheClock(first)
            #expect(clock.now.timeIntervalSince(start) == useCases.airQualityGrace)
        }
        let lacking = Set(result?.lacking ?? [])
        #expect(lacking.isSuperset(of: [.airQuality, .alerts, .ranges]), "\(lacking)")
        #expect(result?.airQuality == nil && result?.report.days.first?.temperatureMaxRange == nil)
        let helpers = helperPaths.map(double.count)
        // Forty more, the clock standing still (a helper that failed is left alone for its back-off;
        // one still hanging is not waited for again).
        let crowd = Task {
            try await withThrowingTaskGroup(of: WeatherResult.self) { group in
                for _ in 0..<40 { group.addTask { try await ask() } }
                return try await group.reduce(into: [WeatherResult]()) { $0.append($1) }
            }
        }
        let results = await endsWithoutTheClock(crowd)
        #expect(results?.count == 40 && results?.allSatisfy { $0.report.current.temperature == -0.3 } == true)
        #expect(helperPaths.map(double.count) == helpers)
        #expect(helpers.allSatisfy { $0 == 1 }, "\(helpers)")
    }
}
