import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// The next hour's rain (Open-Meteo's `minutely_15`), in the report, the sentence and the document.
@Suite struct NowcastTests {
    let berlin = Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin")

    func slots(_ values: [Double], from start: Date, snow: [Double]? = nil) -> [NowcastSlot] {
        values.enumerated().map { i, v in
            NowcastSlot(end: start.addingTimeInterval(Double(i + 1) * 900), precipitation: v, snowfall: snow?[i])
        }
    }

    @Test func minutelySlotsComeFromTheSameForecastCall() throws {
        let report = try OpenMeteoProvider.report(
            from: try fixture("open-meteo/forecast-minutely15-rain-soon.json"), place: berlin, fetchedAt: utc("2026-11-23T13:00:00Z"))
        let nowcast = try #require(report.nowcast)
        // The slot that ends at the current time is past; nine from the one under way.
        #expect(nowcast.count == 9)
        #expect(nowcast.first?.end == utc("2026-11-23T13:15:00Z"))
        #expect(nowcast.map(\.precipitation) == [0, 0, 0.3, 0.5, 0.2, 0, 0, 0, 0])
        #expect(report.current.temperatureYesterday == 3.1)
        let url = OpenMeteoProvider(
            network: NetworkService(transport: ScriptedTransport([])), baseURL: URL(string: "https://api.open-meteo.com")!,
            geocodingURL: URL(string: "https://geocoding-api.open-meteo.com")!, now: { Date() },
        ).forecastURL(for: berlin.coordinate).absoluteString
        #expect(url.contains("minutely_15=precipitation,snowfall") && url.contains("forecast_minutely_15=9"))
        #expect(url.contains("past_days=1"))

        let doc = WeatherDocument(report, units: .metric, stale: false, age: 0, now: utc("2026-11-23T13:00:00Z"))
        #expect(doc.nowcast?.summary == "Rain starting in about 30 min, for about 45 min")
        #expect(doc.nowcast?.slots.count == 8)
        #expect(doc.nowcast?.slots.first?.start == "2026-11-23T14:00:00+01:00")
        #expect(doc.nowcast?.slots[2].precipitation == 0.3)
        // In inches for imperial.
        let imperial = WeatherDocument(report, units: .imperial, stale: false, age: 0, now: utc("2026-11-23T13:00:00Z"))
        #expect(imperial.nowcast?.slots[3].precipitation == 0.0197)
    }

    @Test func sentences() {
        let t0 = utc("2026-11-23T13:00:00Z")
        #expect(
            NowcastSummary.sentence(slots([0, 0, 0.3, 0.5, 0.2, 0, 0, 0], from: t0), now: t0)
                == "Rain starting in about 30 min, for about 45 min")
        #expect(
            NowcastSummary.sentence(slots([0.4, 0, 0, 0, 0, 0, 0, 0], from: t0), now: t0.addingTimeInterval(120))
                == "Rain stopping in about 15 min")
        #expect(NowcastSummary.sentence(slots(Array(repeating: 1.0, count: 8), from: t0), now: t0) == "Rain for the next 2 hours")
        #expect(
            NowcastSummary.sentence(slots([0, 0, 0, 0, 0, 0, 0.2, 0.2], from: t0), now: t0)
                == "Rain starting in about 90 min, for at least 30 min")
        #expect(
            NowcastSummary.sentence(slots([0, 0.6, 0.6, 0, 0, 0, 0, 0], from: t0, snow: [0, 0.42, 0.42, 0, 0, 0, 0, 0]), now: t0)
                == "Snow starting in about 15 min, for about 30 min")
        // Minutes are counted from now, not from the slot boundary.
        #expect(
            NowcastSummary.sentence(slots([0, 0, 0.3, 0.5, 0.2, 0, 0, 0], from: t0), now: t0.addingTimeInterval(600))
                == "Rain starting in about 20 min, for about 45 min")
    }

    @Test func aDryNextHourSaysNothing() {
        let t0 = utc("2026-11-23T13:00:00Z")
        #expect(NowcastSummary.sentence(slots(Array(repeating: 0, count: 8), from: t0), now: t0) == nil)
        // A trace below 0.1 mm a quarter hour is not rain a person notices.
        #expect(NowcastSummary.sentence(slots([0, 0.05, 0, 0, 0, 0, 0, 0], from: t0), now: t0) == nil)
        // Rain that has passed does not count.
        #expect(NowcastSummary.sentence(slots([0.5, 0, 0, 0, 0, 0, 0, 0], from: t0), now: t0.addingTimeInterval(900)) == nil)
        var report = sampleReport(at: t0)
        report.nowcast = slots(Array(repeating: 0, count: 9), from: t0)
        let doc = WeatherDocument(report, units: .metric, stale: false, age: 0, now: t0)
        #expect(doc.nowcast != nil && doc.nowcast?.summary == nil)
        let json = String(decoding: try! WeatherDocument.makeEncoder().encode(doc), as: UTF8.self)
        #expect(json.contains("\"nowcast\"") && !json.contains("\"summary\""))
    }

    @Test func openWeatherMapHasNoNowcastBlock() throws {
        var report = sampleReport()
        report.provider = .openWeatherMap
        let json = String(
            decoding: try WeatherDocument.makeEncoder().encode(WeatherDocument(report, units: .metric, stale: false, age: 0, now: Date())),
            as: UTF8.self
        )
        #expect(!json.contains("nowcast") && !json.contains("airQuality") && !json.contains("fallbackFrom"))
    }
}

/// Air quality, UV and pollen: decoding, bands, the service's window and the document block.
@Suite struct AirQualityTests {
    /// Today's highest UV: from a whole day's hours, never below the value now.
    @Test func todaysHighestUVNeedsTheWholeDayAndIsNeverBelowNow() throws {
        func answer(now uv: Double, hours: [Double]) -> Data {
            let times = hours.indices.map { String(format: "\"2026-06-01T%02d:00\"", $0) }.joined(separator: ",")
            return Data(
                """
                {"timezone":"UTC","utc_offset_seconds":0,"current":{"time":"2026-06-01T12:00","uv_index":\(uv)},
                 "hourly":{"time":[\(times)],"uv_index":[\(hours.map { String($0) }.joined(separator: ","))]}}
                """.utf8)
        }
        let fetched = utc("2026-06-01T12:05:00Z")
        let day = (0..<24).map { h in max(0, 6.2 * sin(Double(h - 6) / 12 * .pi)) }
        #expect(try OpenMeteoAirQuality.decode(answer(now: 5.0, hours: day), fetchedAt: fetched).uvIndexMax == day.max())
        // The value now above every hour's (the hours are a different run): no highest.
        #expect(try OpenMeteoAirQuality.decode(answer(now: 7.0, hours: day), fetchedAt: fetched).uvIndexMax == nil)
        // Only the morning: no highest.
        #expect(try OpenMeteoAirQuality.decode(answer(now: 2.0, hours: Array(day.prefix(13))), fetchedAt: fetched).uvIndexMax == nil)
    }

    @Test func decodesEuropeInSeason() throws {
        let a = try OpenMeteoAirQuality.decode(
            try fixture("open-meteo/air-quality-europe-in-season.json"), fetchedAt: utc("2026-04-14T11:05:00Z"))
        #expect(a.time == utc("2026-04-14T11:00:00Z"))
        #expect(a.europeanAQI == 63 && a.usAQI == 104 && a.pm2_5 == 36.4 && a.nitrogenDioxide == 19.7)
        #expect(a.uvIndex == 4.65)
        // The answer's hours of today stop at 14:00: today's highest is not known (not 4.7, and
        // not tomorrow's 7.9).
        #expect(a.uvIndexMax == nil)
        #expect(a.pollen["birch"] == 310.5 && a.pollen["grass"] == 0 && a.pollen.count == 6)
        #expect(AirQualityBand.european(63).category == "Poor")
        #expect(AirQualityBand.us(104) == AirQualityBand(category: "Unhealthy for sensitive groups", colour: "#ff7e00"))
        #expect(AirQualityBand.uv(4.65).category == "Moderate")

        let doc = WeatherDocument.airQuality(a, stale: false, in: TimeZone(identifier: "Europe/Berlin")!)
        #expect(doc.europeanAqi == WeatherDocument.Index(value: 63, category: "Poor", colour: "#ff5050", label: nil))
        #expect(doc.uvIndex?.value == 4.7 && doc.uvIndexMax == nil)
        #expect(doc.pollen?["birch"] == 310.5)
        #expect(doc.time == "2026-04-14T13:00:00+02:00")
    }

    @Test func aPlaceOutsideThePollenModelHasNoPollenNotZero() throws {
        let a = try OpenMeteoAirQuality.decode(
            try fixture("open-meteo/air-quality-outside-pollen-model.json"), fetchedAt: utc("2026-11-24T01:10:00Z"))
        #expect(a.pollen.isEmpty)
        #expect(a.europeanAQI == 18 && a.usAQI == 31)
        #expect(AirQualityBand.uv(a.uvIndex!).category == "Extreme")
        let doc = WeatherDocument.airQuality(a, stale: false, in: TimeZone(identifier: "Australia/Sydney")!)
        #expect(doc.pollen == nil)
        let json = String(decoding: try WeatherDocument.makeEncoder().encode(doc), as: UTF8.self)
        #expect(!json.contains("pollen") && json.contains("\"europeanAqi\""))
    }

    @Test func bandsFollowThePublishedScales() {
        #expect(
            [0, 19.9, 20, 45, 60, 99, 150].map { AirQualityBand.european($0).category }
                == ["Good", "Good", "Fair", "Moderate", "Poor", "Very poor", "Extremely poor"])
        #expect(
            [0, 50, 50.4, 51, 100, 101, 151, 201, 301].map { AirQualityBand.us($0).category }
                == [
                    "Good", "Good", "Good", "Moderate", "Moderate", "Unhealthy for sensitive groups", "Unhealthy", "Very unhealthy",
                    "Hazardous",
                ])
        #expect(
            [0, 2.4, 2.6, 5, 6, 7, 8, 10, 11].map { AirQualityBand.uv($0).category }
                == ["Low", "Low", "Moderate", "Moderate", "High", "High", "Very high", "Very high", "Extreme"])
    }

    func service(_ transport: ScriptedTransport, clock: TestClock) -> AirQualityService {
        AirQualityService(
            source: OpenMeteoAirQuality(
                network: NetworkService(transport: transport, retry: .none), baseURL: URL(string: "http://127.0.0.1:9/proxy")!,
                now: { clock.now }),
            cache: FileCache(directory: temporaryDirectory(), clock: SystemClock()), clock: clock)
    }

    @Test func oneCallPerPlacePerHourSharedByConcurrentCallers() async throws {
        let body = String(decoding: try fixture("open-meteo/air-quality-europe-in-season.json"), as: UTF8.self)
        let transport = ScriptedTransport([.respond(200, [:], body)])
        let clock = TestClock(utc("2026-04-14T11:05:00Z"))
        let air = service(transport, clock: clock)
        let c = Coordinate(latitude: 52.52, longitude: 13.41)
        let results = await withTaskGroup(of: AirQualityService.Result?.self) { group in
            for _ in 0..<20 { group.addTask { await air.airQuality(at: c) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0?.airQuality.europeanAQI == 63 && $0?.isStale == false })
        #expect(transport.count == 1)
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.url.path == "/proxy/v1/air-quality")
        #expect(request.url.query?.contains("birch_pollen") == true && request.url.query?.contains("timezone=auto") == true)
        clock.advance(59 * 60)
        _ = await air.airQuality(at: c)
        #expect(transport.count == 1)
        clock.advance(2 * 60)
        _ = await air.airQuality(at: c)
        #expect(transport.count == 2)
    }

    @Test func aFailureIsAbsentNeverAnErrorAndIsNotRetriedAtOnce() async throws {
        let body = String(decoding: try fixture("open-meteo/air-quality-europe-in-season.json"), as: UTF8.self)
        let transport = ScriptedTransport([.respond(200, [:], body), .respond(503, [:], "{\"error\":true,\"reason\":\"down\"}")])
        let clock = TestClock(utc("2026-04-14T11:05:00Z"))
        let air = service(transport, clock: clock)
        let c = Coordinate(latitude: 52.52, longitude: 13.41)
        _ = await air.airQuality(at: c)
        clock.advance(2 * 3600)
        // Stale answer stands in, marked stale.
        let stale = await air.airQuality(at: c)
        #expect(stale?.isStale == true && stale?.airQuality.europeanAQI == 63 && transport.count == 2)
        // The failure is remembered: no call on every weather request.
        _ = await air.airQuality(at: c)
        #expect(transport.count == 2)
        // Nothing cached at another place: absent.
        let elsewhere = await air.airQuality(at: Coordinate(latitude: 10, longitude: 10))
        #expect(elsewhere == nil)
        // Offline: the cache only.
        #expect(await air.airQuality(at: Coordinate(latitude: 11, longitude: 11), offline: true) == nil)
        #expect(transport.count == 3)
    }
}

/// Automatic failover between Open-Meteo and OpenWeatherMap.
@Suite struct FailoverTests {
    let berlin = Place(name: "Berlin", country: "Germany", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin")

    func owmReport(_ t: Double) -> WeatherReport {
        var r = sampleReport(temperature: t)
        r.provider = .openWeatherMap
        return r
    }

    func service(_ primary: FakeProvider, _ other: FakeProvider, clock: TestClock, cache: FileCache? = nil) -> WeatherService {
        WeatherService(
            provider: primary, cache: cache ?? FileCache(directory: temporaryDirectory(), clock: SystemClock()),
            policy: CachePolicy(freshFor: 600, usableFor: 3600), fallback: FallbackProvider(provider: other), now: { clock.now })
    }

    @Test func openMeteoDownOpenWeatherMapAnswersAndSaysSo() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let primary = FakeProvider(answer: .failure(.providerUnavailable("HTTP 502")))
        let other = FakeProvider(id: .openWeatherMap, answer: .success(owmReport(7)))
        let weather = service(primary, other, clock: clock)
        let result = try await weather.weather(for: berlin)
        #expect(result.report.provider == .openWeatherMap && result.fallbackFrom == .openMeteo && !result.isStale)
        #expect(primary.callCount == 1 && other.callCount == 1)
        let doc = WeatherDocument(result, units: .metric, now: Date())
        #expect(doc.source.provider == "openweathermap" && doc.source.fallbackFrom == "open-meteo")
        #expect(ProviderID.openWeatherMap.attribution(fallbackFrom: .openMeteo) == "from OpenWeatherMap (Open-Meteo unavailable)")
        // Still down: the fallback's answer is fresh in its own cache, so it is not asked again.
        clock.advance(120)
        let again = try await weather.weather(for: berlin)
        #expect(again.fallbackFrom == .openMeteo && other.callCount == 1 && primary.callCount == 2)
        // Cached answers stay keyed by provider.
        #expect(weather.cache.read(WeatherReport.self, key: weather.key(for: berlin.coordinate, provider: .openWeatherMap)) != nil)
        #expect(weather.cache.read(WeatherReport.self, key: weather.key(for: berlin.coordinate)) == nil)
        // Back: the configured provider answers again.
        primary.set(.success(sampleReport(temperature: 9)))
        let back = try await weather.weather(for: berlin)
        #expect(back.report.provider == .openMeteo && back.fallbackFrom == nil && back.report.current.temperature == 9)
    }

    @Test func openWeatherMapDownOpenMeteoAnswers() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let primary = FakeProvider(id: .openWeatherMap, answer: .failure(.rateLimited(retryAfter: 60)))
        let other = FakeProvider(answer: .success(sampleReport(temperature: 5)))
        let result = try await service(primary, other, clock: clock).weather(for: berlin)
        #expect(result.report.provider == .openMeteo && result.fallbackFrom == .openWeatherMap)
        for error in [BrollyError.timedOut(), .budgetSpent("OpenWeatherMap", retryAfter: 5), .offline(), .unreadableResponse("x")] {
            primary.set(.failure(error))
            let r = try await service(primary, other, clock: clock).weather(for: berlin)
            #expect(r.fallbackFrom == .openWeatherMap, "\(error)")
        }
    }

    @Test func aRejectedKeyIsNotHiddenByTheOtherProvider() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let primary = FakeProvider(id: .openWeatherMap, answer: .failure(.invalidAPIKey("OpenWeatherMap")))
        let other = FakeProvider(answer: .success(sampleReport()))
        await #expect(throws: BrollyError.invalidAPIKey("OpenWeatherMap")) {
            try await service(primary, other, clock: clock).weather(for: berlin)
        }
        #expect(other.callCount == 0)
        // Nor an unknown place, nor this client's own limit.
        for error in [BrollyError.placeNotFound("x"), .clientLimited(retryAfter: 3)] {
            primary.set(.failure(error))
            await #expect(throws: error) { try await service(primary, other, clock: clock).weather(for: berlin) }
        }
        #expect(other.callCount == 0)
        // The fallback's rejected key is said too, not swallowed.
        let down = FakeProvider(answer: .failure(.providerUnavailable("HTTP 503")))
        let badKey = FakeProvider(id: .openWeatherMap, answer: .failure(.invalidAPIKey("OpenWeatherMap")))
        do {
            _ = try await service(down, badKey, clock: clock).weather(for: berlin)
            Issue.record("expected an error")
        } catch let error as BrollyError {
            #expect(error.kind == .providerUnavailable && error.message.contains("OpenWeatherMap rejected the API key"))
        }
    }

    @Test func bothDownFallsBackToStaleDataThenAnError() async throws {
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let primary = FakeProvider(answer: .success(sampleReport(temperature: 4)))
        let other = FakeProvider(id: .openWeatherMap, answer: .failure(.timedOut()))
        let weather = service(primary, other, clock: clock)
        _ = try await weather.weather(for: berlin)
        clock.advance(2 * 3600)
        primary.set(.failure(.providerUnavailable()))
        let stale = try await weather.weather(for: berlin)
        #expect(stale.isStale && stale.report.provider == .openMeteo && stale.fallbackFrom == nil && other.callCount == 1)
        await #expect(throws: BrollyError.self) {
            try await weather.weather(for: Place(name: "Elsewhere", country: "", latitude: 1, longitude: 1))
        }
    }

    @Test func noSecondProviderBehavesAsBefore() throws {
        let dir = temporaryDirectory()
        let plain = try BrollyConfiguration(provider: nil, cacheDirectory: dir, environment: [:])
        #expect(plain.fallbackProvider == nil)
        let keyed = try BrollyConfiguration(provider: "open-meteo", cacheDirectory: dir, environment: ["OPENWEATHERMAP_API_KEY": "k"])
        #expect(keyed.fallbackProvider == .openWeatherMap)
        let owm = try BrollyConfiguration(provider: nil, cacheDirectory: dir, environment: ["OPENWEATHERMAP_API_KEY": "k"])
        #expect(owm.provider == .openWeatherMap && owm.fallbackProvider == .openMeteo)
        let off = try BrollyConfiguration(
            provider: nil, cacheDirectory: dir, environment: ["OPENWEATHERMAP_API_KEY": "k", "BROLLY_FAILOVER": "off"])
        #expect(off.fallbackProvider == nil)
        #expect(throws: BrollyError.self) {
            try BrollyConfiguration(provider: nil, cacheDirectory: dir, environment: ["BROLLY_FAILOVER": "maybe"])
        }
    }
}
