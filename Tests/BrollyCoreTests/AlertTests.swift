import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// Every alert format read into one model: NWS, MeteoAlarm, CAP XML, OpenWeatherMap.
@Suite struct AlertDecodingTests {
    let now = utc("2026-11-23T16:00:00Z")

    @Test func nwsUpdatesReplaceTestAndExpiredAreDropped() throws {
        let messages = try CAPDecoding.nws(try fixture("alerts/nws-point-update-test-expired.json"))
        #expect(messages.count == 5)
        let alerts = AlertFilter.current(messages, language: "en", now: now).map(\.alert)
        #expect(alerts.map(\.event) == ["Flood Warning", "Wind Advisory"])
        let flood = alerts[0]
        #expect(flood.id == "urn:oid:2.49.0.1.840.0.b2" && flood.severity == .severe && flood.urgency == "immediate")
        #expect(flood.headline.hasPrefix("Flood Warning issued November 23") && flood.instruction == "Turn around, don't drown.")
        #expect(flood.areas == ["Lake, FL", "Volusia, FL"] && flood.sender == "NWS Melbourne FL")
        #expect(flood.onset == utc("2026-11-23T14:30:00Z") && flood.expires == utc("2026-11-24T02:00:00Z"))
        #expect(flood.url == "https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0.b2")
        // NWS's `ends` is when the hazard ends; `expires` only when the message does.
        #expect(alerts[1].expires == utc("2026-11-24T07:00:00Z"))
        // The update's polygon is kept for matching.
        let info = AlertFilter.current(messages, language: "en", now: now)[0].info
        #expect(info.areas[0].covers(Coordinate(latitude: 29.0, longitude: -81.38)))
        #expect(!info.areas[0].covers(Coordinate(latitude: 30.0, longitude: -81.38)))
        // Later, both have expired.
        #expect(AlertFilter.current(messages, language: "en", now: utc("2026-11-24T08:00:00Z")).isEmpty)
    }

    @Test func meteoAlarmLanguageGreenCancelAndExercise() throws {
        let messages = try CAPDecoding.meteoAlarm(try fixture("alerts/meteoalarm-de-languages-green-cancel.json"))
        let english = AlertFilter.current(messages, language: "en", now: now).map(\.alert)
        // Green "no warning", the cancelled frost warning and the exercise are not shown.
        #expect(english.map(\.event) == ["gale-force gusts", "snowfall"])
        #expect(english[0].headline == "Official WARNING of GALE-FORCE GUSTS" && english[0].source == "meteoalarm")
        let german = AlertFilter.current(messages, language: "de", now: now).map(\.alert)
        #expect(german[0].event == "Sturmböen" && german[0].instruction == "Achten Sie auf herabstürzende Äste.")
        // A language nobody wrote: English.
        #expect(AlertFilter.current(messages, language: "ru", now: now)[0].alert.event == "gale-force gusts")
    }

    @Test func meteoAlarmRegionsAreMatchedThroughTheAddressNames() throws {
        let messages = try CAPDecoding.meteoAlarm(try fixture("alerts/meteoalarm-de-languages-green-cancel.json"))
        let current = AlertFilter.current(messages, language: "en", now: now)
        // Göttingen's county, written with and without its umlaut.
        #expect(AlertFilter.names(current[0].info, match: ["Göttingen", "Niedersachsen"]))
        #expect(AlertFilter.names(current[0].info, match: ["Kreis Gottingen"]))
        #expect(!AlertFilter.names(current[0].info, match: ["Berlin", "Land Berlin"]))
        #expect(!AlertFilter.names(current[1].info, match: ["Göttingen"]))
        // Short names do not match inside other words.
        #expect(!AlertFilter.names(current[1].info, match: ["Land"]))
    }

    @Test func capXMLEmbeddedInAtomWithPolygonAndCircle() throws {
        let (messages, links) = try CAPDecoding.xml(try fixture("alerts/cap-atom-embedded-polygon-circle.xml"))
        #expect(messages.count == 2 && links == [URL(string: "https://example.org/cap/1.xml")!])
        let alerts = AlertFilter.current(messages, language: "en", now: now)
        #expect(alerts.map(\.alert.event) == ["Fire Weather Warning", "Gale"])  // most severe first
        let gale = alerts[1]
        #expect(gale.alert.headline == "Gale, yellow level" && gale.alert.description == "South-westerly gale.")
        #expect(gale.alert.instruction == "Consider leaving the boat in harbour." && gale.alert.sender == "MET Norway")
        #expect(gale.info.areas[0].geocodes["emma_id"] == ["NO809"])
        #expect(gale.info.areas[0].covers(Coordinate(latitude: 62.2, longitude: 5.1)))
        #expect(!gale.info.areas[0].covers(Coordinate(latitude: 60.39, longitude: 5.32)))  // Bergen
        let fire = alerts[0].info.areas[0]
        #expect(fire.covers(Coordinate(latitude: -33.75, longitude: 151.0)))  // ~23 km away
        #expect(!fire.covers(Coordinate(latitude: -35.28, longitude: 149.13)))  // Canberra
        // Norwegian when asked.
        #expect(AlertFilter.current(messages, language: "no", now: now)[1].alert.event == "Kuling")
    }

    @Test func openWeatherMapAlerts() throws {
        let body =
            #"{"lat":51.5,"lon":-0.12,"timezone":"Europe/London","alerts":[{"sender_name":"Met Office","event":"Yellow wind warning","start":1795420800,"end":1795507200,"description":"Strong winds.","tags":["Wind"]}]}"#
        let alerts = AlertFilter.current(try CAPDecoding.openWeatherMap(Data(body.utf8)), language: "en", now: utc("2026-11-23T12:00:00Z"))
        #expect(alerts.count == 1)
        let a = alerts[0].alert
        #expect(a.event == "Yellow wind warning" && a.sender == "Met Office" && a.severity == .unknown && a.source == "openweathermap")
        #expect(a.onset == Date(timeIntervalSince1970: 1_795_420_800))
        #expect(try CAPDecoding.openWeatherMap(Data(#"{"lat":1,"lon":2}"#.utf8)).isEmpty)
    }

    @Test func severityOrderAndReferences() {
        #expect(AlertSeverity.allCases.sorted(by: >) == [.extreme, .severe, .moderate, .minor, .unknown])
        #expect(AlertSeverity(cap: "SEVERE") == .severe && AlertSeverity(cap: "bogus") == .unknown)
        #expect(
            CAPMessage.referencedIdentifiers("a@b,ID-1,2026-01-01T00:00:00+00:00 a@b,ID-2,2026-01-02T00:00:00+00:00") == ["ID-1", "ID-2"])
        #expect(LocalTime.parseISO8601("2022-10-18T11:30:00-04:00") == utc("2022-10-18T15:30:00Z"))
        #expect(LocalTime.parseISO8601("2026-03-02T02:02:43.5Z") == utc("2026-03-02T02:02:43Z").addingTimeInterval(0.5))
        #expect(LocalTime.parseISO8601("2024-01-07T23:59:59+01:00") == utc("2024-01-07T22:59:59Z"))
        #expect(LocalTime.parseISO8601("nonsense") == nil)
    }
}

/// The alert service: which sources a place gets, matching, windows and failures.
@Suite struct AlertServiceTests {
    func service(_ transport: any HTTPTransport, clock: TestClock, key: String? = nil) -> AlertService {
        AlertService(
            network: NetworkService(transport: transport, retry: .none),
            sources: AlertService.Sources(
                nws: URL(string: "http://nws.test")!, meteoAlarm: URL(string: "http://meteoalarm.test")!,
                openWeatherMap: URL(string: "http://owm.test")!, openWeatherMapKey: key, contact: "ops@example.org"),
            cache: FileCache(directory: temporaryDirectory(), clock: SystemClock()), clock: clock)
    }

    @Test func europeanPlaceMatchesItsRegionAndListsTheRestElsewhere() async throws {
        let body = String(decoding: try fixture("alerts/meteoalarm-de-languages-green-cancel.json"), as: UTF8.self)
        let transport = ScriptedTransport([.respond(200, [:], body)])
        let clock = TestClock(utc("2026-11-23T16:00:00Z"))
        let alerts = service(transport, clock: clock)
        let place = Place(
            name: "Göttingen", country: "Germany", countryCode: "DE", latitude: 51.53, longitude: 9.93, timezone: "Europe/Berlin")
        let set = await alerts.alerts(for: place, names: ["Göttingen", "Landkreis Göttingen", "Niedersachsen"])
        #expect(set.here.map(\.event) == ["gale-force gusts"])
        #expect(set.elsewhere.map(\.event) == ["snowfall"] && set.elsewhereCountry == "Germany")
        #expect(set.sources == ["meteoalarm"] && set.failedSources.isEmpty)
        #expect(transport.requests.withLock { $0.map(\.url.absoluteString) } == ["http://meteoalarm.test/api/v1/warnings/feeds-germany"])
        // The country feed is shared: another German place within 5 minutes makes no call.
        clock.advance(240)
        let berlin = Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41)
        let other = await alerts.alerts(for: berlin, names: ["Berlin"])
        #expect(other.here.isEmpty && other.elsewhere.count == 2 && transport.count == 1)
        clock.advance(120)
        _ = await alerts.alerts(for: berlin, names: ["Berlin"])
        #expect(transport.count == 2)
    }

    @Test func usPlaceAsksNWSWithAContactAndOutsideTheUSIsNotAnError() async throws {
        let body = String(decoding: try fixture("alerts/nws-point-update-test-expired.json"), as: UTF8.self)
        let transport = ScriptedTransport([.respond(200, [:], body)])
        let clock = TestClock(utc("2026-11-23T16:00:00Z"))
        let place = Place(name: "DeLand", country: "United States", countryCode: "US", latitude: 29.008, longitude: -81.383)
        let set = await service(transport, clock: clock).alerts(for: place, names: [])
        #expect(set.here.map(\.event) == ["Flood Warning", "Wind Advisory"] && set.sources == ["nws"])
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.url.absoluteString == "http://nws.test/alerts/active?point=29.008,-81.383")
        #expect(request.headers["Accept"] == "application/geo+json")
        #expect(request.headers["User-Agent"]?.contains("ops@example.org") == true)

        let outOfBounds = #"{"title":"Invalid Parameter","status":400,"detail":"Parameter \"point\" is invalid: out of bounds"}"#
        let refusing = ScriptedTransport([.respond(400, ["Content-Type": "application/problem+json"], outOfBounds)])
        let nowhere = Place(name: "Sea", country: "", latitude: 30, longitude: -100)
        let none = await service(refusing, clock: clock).alerts(for: nowhere, names: [])
        #expect(none.here.isEmpty && none.failedSources.isEmpty && none.sources == ["nws"])
        // A place no source covers asks nobody.
        let quiet = ScriptedTransport([])
        let kathmandu = Place(name: "Kathmandu", country: "Nepal", countryCode: "NP", latitude: 27.7, longitude: 85.3)
        let empty = await service(quiet, clock: clock).alerts(for: kathmandu, names: [])
        #expect(empty.sources.isEmpty && quiet.count == 0)
    }

    @Test func aFailingSourceIsListedAndItsLastAnswerStandsIn() async throws {
        let body = String(decoding: try fixture("alerts/meteoalarm-de-languages-green-cancel.json"), as: UTF8.self)
        let transport = ScriptedTransport([.respond(200, [:], body), .fail(.cannotConnect("refused"))])
        let clock = TestClock(utc("2026-11-23T16:00:00Z"))
        let alerts = service(transport, clock: clock)
        let place = Place(name: "Göttingen", country: "Germany", countryCode: "DE", latitude: 51.53, longitude: 9.93)
        _ = await alerts.alerts(for: place, names: ["Göttingen"])
        clock.advance(600)
        let stale = await alerts.alerts(for: place, names: ["Göttingen"])
        #expect(stale.here.map(\.event) == ["gale-force gusts"] && transport.count == 2)
        // With nothing cached, the source is reported as failed and nothing else breaks.
        let elsewhere = Place(name: "Paris", country: "France", countryCode: "FR", latitude: 48.85, longitude: 2.35)
        let failed = await alerts.alerts(for: elsewhere, names: ["Paris"])
        #expect(failed.here.isEmpty && failed.failedSources == ["meteoalarm"])
    }

    @Test func openWeatherMapOneCallWithAKey() async throws {
        let body =
            #"{"lat":51.5,"lon":-0.12,"alerts":[{"sender_name":"Met Office","event":"Yellow wind warning","start":1795420800,"end":1895507200,"description":"Strong winds."}]}"#
        let transport = RoutedTransport([("/data/3.0/onecall", .respond(200, [:], body)), ("", .respond(200, [:], #"{"warnings":[]}"#))])
        let clock = TestClock(utc("2026-11-23T16:00:00Z"))
        let london = Place(name: "London", country: "United Kingdom", countryCode: "GB", latitude: 51.5, longitude: -0.12)
        let set = await service(transport, clock: clock, key: "k").alerts(for: london, names: ["London"])
        #expect(set.here.map(\.event) == ["Yellow wind warning"])
        let urls = transport.requests.withLock { $0.map(\.url.absoluteString) }
        #expect(
            urls.contains {
                $0.hasPrefix("http://owm.test/data/3.0/onecall?lat=51.500&lon=-0.120&exclude=current,minutely,hourly,daily&appid=k")
            })
    }
}
