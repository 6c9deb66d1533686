import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct CachePolicyTests {
    let berlin = Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41)

    func makeService(_ provider: FakeProvider, quick: FakeProvider? = nil, clock: TestClock, freshFor: TimeInterval = 600) -> WeatherService
    {
        WeatherService(
            provider: provider, quickProvider: quick, cache: FileCache(directory: temporaryDirectory(), clock: SystemClock()),
            policy: CachePolicy(freshFor: freshFor, usableFor: 3600), now: { clock.now })
    }

    @Test func freshEntryIsServedWithoutACall() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let service = makeService(provider, clock: clock)
        let first = try await service.weather(for: berlin)
        #expect(!first.isFromCache && provider.callCount == 1)
        clock.advance(9 * 60)
        let second = try await service.weather(for: berlin)
        #expect(second.isFromCache && !second.isStale && provider.callCount == 1)
        #expect(second.age == 540)
    }

    @Test func nearbyPointsShareOneEntry() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let service = makeService(provider, clock: clock)
        _ = try await service.weather(for: berlin)
        let near = Place(name: "Mitte", country: "Germany", latitude: 52.5203, longitude: 13.4098)
        let result = try await service.weather(for: near)
        #expect(provider.callCount == 1 && result.report.place.name == "Mitte")
    }

    @Test func staleEntryIsRefreshedAndFallsBackWhenTheRefreshFails() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport(temperature: 10)))
        let quick = FakeProvider(answer: .failure(.timedOut()))
        let service = makeService(provider, quick: quick, clock: clock)
        _ = try await service.weather(for: berlin)
        clock.advance(20 * 60)
        let stale = try await service.weather(for: berlin)
        #expect(quick.callCount == 1 && provider.callCount == 1)
        #expect(stale.isStale && stale.isFromCache && stale.refreshError?.kind == .timedOut)
        quick.set(.success(sampleReport(temperature: 14)))
        let refreshed = try await service.weather(for: berlin)
        #expect(!refreshed.isStale && refreshed.report.current.temperature == 14 && quick.callCount == 2)
    }

    @Test func oldEntryIsFetchedFirst() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport(temperature: 10)))
        let quick = FakeProvider(answer: .failure(.timedOut()))
        let service = makeService(provider, quick: quick, clock: clock)
        _ = try await service.weather(for: berlin)
        clock.advance(2 * 3600)
        provider.set(.success(sampleReport(temperature: 3)))
        let result = try await service.weather(for: berlin)
        #expect(result.report.current.temperature == 3 && provider.callCount == 2 && quick.callCount == 0)
    }

    @Test func refreshFetchesEvenWhenFreshAndFallsBackMarkedStale() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let service = makeService(provider, clock: clock)
        _ = try await service.weather(for: berlin)
        clock.advance(60)
        provider.set(.failure(.offline()))
        let result = try await service.weather(for: berlin, mode: .refresh)
        #expect(provider.callCount == 2 && result.isStale && result.age == 60 && result.refreshError?.kind == .offline)
    }

    @Test func nothingCachedAndProviderDownIsAnError() async {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let service = makeService(FakeProvider(answer: .failure(.providerUnavailable())), clock: clock)
        await #expect(throws: BrollyError.providerUnavailable()) { try await service.weather(for: berlin) }
    }

    @Test func offlineNeverCalls() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let service = makeService(provider, clock: clock)
        await #expect(throws: BrollyError.self) { try await service.weather(for: berlin, mode: .offline) }
        _ = try await service.weather(for: berlin)
        clock.advance(5 * 3600)
        let result = try await service.weather(for: berlin, mode: .offline)
        #expect(result.isStale && provider.callCount == 1)
    }

    @Test func openWeatherMapIsNeverCalledMoreOftenThanEveryTenMinutes() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(id: .openWeatherMap, answer: .success(sampleReport()))
        let service = makeService(provider, clock: clock, freshFor: 60)
        #expect(service.policy.freshFor == 600)
        #expect(CachePolicy(freshFor: 60).enforcing(.openMeteo).freshFor == 60)  // no floor for Open-Meteo
        _ = try await service.weather(for: berlin)
        clock.advance(5 * 60)
        _ = try await service.weather(for: berlin)
        #expect(provider.callCount == 1)
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRefreshesInTheBackground() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport(temperature: 10)))
        let service = makeService(provider, clock: clock)
        _ = try await service.weather(for: berlin)
        clock.advance(15 * 60)
        provider.set(.success(sampleReport(temperature: 12)))
        let stale = try await service.weather(for: berlin, mode: .staleWhileRevalidate)
        #expect(stale.isStale && stale.report.current.temperature == 10)
        await service.latestBackgroundRefresh.current?.value
        let fresh = try await service.weather(for: berlin, mode: .staleWhileRevalidate)
        #expect(!fresh.isStale && fresh.report.current.temperature == 12 && provider.callCount == 2)
    }
}

@Suite struct MemoryCacheTests {
    @Test func serverKeepsDecodedEntriesAndStillWritesTheFile() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let cache = FileCache(directory: temporaryDirectory(), clock: SystemClock())
        let service = WeatherService(provider: provider, cache: cache, keepsEntriesInMemory: true, now: { clock.now })
        let place = sampleReport().place
        _ = try await service.weather(for: place)
        let file = cache.fileURL(for: service.key(for: place.coordinate))
        #expect(FileManager.default.fileExists(atPath: file.path))  // the disk is still written
        try FileManager.default.removeItem(at: file)
        clock.advance(60)
        let again = try await service.weather(for: place)
        #expect(again.isFromCache && provider.callCount == 1)  // answered from memory
        // Another process (a new service on the same directory) reads what the first one wrote.
        _ = try await service.weather(for: place, mode: .refresh)
        let other = WeatherService(provider: provider, cache: cache, now: { clock.now })
        #expect(other.cached(for: place.coordinate) != nil)
    }

    @Test func capacityBoundsTheMap() {
        let memory = MemoryCache<Int>(capacity: 2)
        for i in 0..<5 { memory.set("k\(i)", CacheEntry(value: i, receivedAt: Date())) }
        #expect(memory.get("k4")?.value == 4)
        #expect(memory.get("k0") == nil)
    }
}

@Suite struct FileCacheTests {
    @Test func roundTripsWithReceivedTime() throws {
        let cache = FileCache(directory: temporaryDirectory(), clock: SystemClock())
        try cache.write(sampleReport(), key: "k", receivedAt: utc("2026-11-21T12:00:00Z"))
        let entry = try #require(cache.read(WeatherReport.self, key: "k"))
        #expect(entry.receivedAt == utc("2026-11-21T12:00:00Z") && entry.value == sampleReport())
    }

    @Test func corruptedEntryIsDroppedAndFetchedAgain() async throws {
        let dir = temporaryDirectory()
        let cache = FileCache(directory: dir, clock: SystemClock())
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let provider = FakeProvider(answer: .success(sampleReport()))
        let service = WeatherService(provider: provider, cache: cache, now: { clock.now })
        let place = sampleReport().place
        _ = try await service.weather(for: place)
        // Flip a byte inside the payload: the JSON still parses, the checksum does not match.
        let url = cache.fileURL(for: service.key(for: place.coordinate))
        var text = try String(contentsOf: url, encoding: .utf8)
        let range = try #require(text.range(of: "\"payload\":\""))
        let i = text.index(range.upperBound, offsetBy: 10)
        text.replaceSubrange(i...i, with: text[i] == "A" ? "B" : "A")
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect(cache.read(WeatherReport.self, key: service.key(for: place.coordinate)) == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        _ = try await service.weather(for: place)
        #expect(provider.callCount == 2)
    }

    @Test func truncatedOrForeignFileIsTreatedAsAbsent() throws {
        let cache = FileCache(directory: temporaryDirectory(), clock: SystemClock())
        try cache.write(sampleReport(), key: "k", receivedAt: Date())
        let url = cache.fileURL(for: "k")
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        #expect(cache.read(WeatherReport.self, key: "k") == nil)
    }

    @Test func keysRoundToAboutOneKilometre() {
        #expect(Coordinate(latitude: 52.5244, longitude: 13.4105).cacheKey == "52.52_13.41")
        #expect(Coordinate(latitude: -0.001, longitude: -0.004).cacheKey == "0.00_0.00")
        // Written like %.2f / %.3f, without String(format:).
        for (value, places) in [(-0.126, 2), (13.4, 2), (-12.3456, 3), (179.999, 2), (0.5, 3), (-89.995, 2), (7.0051, 3)] {
            #expect(
                Coordinate.fixed(value, places: places)
                    == String(format: "%.\(places)f", (value * (places == 3 ? 1000 : 100)).rounded() / (places == 3 ? 1000 : 100)))
        }
    }
}
