import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct NewsDecodingTests {
    @Test func bbcFeedWithCDATAHTMLAndNumericOffsets() throws {
        let items = try NewsDecoding.rss(fixture("bbc/world-europe.xml"))
        #expect(items.count == 3)  // the item without a date is dropped
        #expect(items[0].title == "Berlin trams halted as snow arrives early")
        #expect(items[0].summary == "Commuters in the German capital faced delays & cancellations.")
        #expect(items[0].url == "https://www.bbc.co.uk/news/articles/berlin-snow")
        #expect(items[1].publishedAt == utc("2026-11-21T22:30:00Z"))
    }

    @Test func notAFeedIsUnreadable() {
        #expect(throws: BrollyError.self) { try NewsDecoding.rss(Data("<html><body>hi</body></html>".utf8)) }
        #expect(throws: BrollyError.self) { try NewsDecoding.rss(Data("{\"not\": \"xml\"}".utf8)) }
    }

    @Test func newsAPIWithNullsAndRemovedArticles() throws {
        let items = try NewsDecoding.newsAPI(fixture("newsapi/everything-nulls.json"))
        #expect(items.map(\.title) == ["Berlin opens new winter market", "Snow in Brandenburg"])
        #expect(items[0].summary == "" && items[0].source == "Berliner Zeitung")
        #expect(items[1].summary == "Roads closed & schools shut." && items[1].publishedAt > utc("2026-11-21T15:30:12Z"))
    }

    @Test func newsAPIErrorBodyIsTyped() throws {
        #expect(throws: BrollyError.invalidAPIKey("NewsAPI")) { try NewsDecoding.newsAPI(fixture("newsapi/error-api-key.json")) }
    }
}

@Suite struct TodayOnlyNewsTests {
    func item(_ title: String, _ iso: String) -> NewsItem {
        NewsItem(title: title, summary: "", publishedAt: utc(iso), url: "https://x/\(title)", source: "BBC News")
    }

    @Test func onlyItemsFromTheLocalTodayAreShown() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let now = utc("2026-11-21T20:00:00Z")  // 21:00 in Berlin
        let items = [
            item("yesterday 23:30", "2026-11-20T22:30:00Z"),
            item("today 00:10", "2026-11-20T23:10:00Z"),
            item("today noon", "2026-11-21T11:00:00Z"),
        ]
        let today = NewsSelection.today(items, in: berlin, now: now, city: "Berlin", country: "Germany")
        #expect(today.map(\.title) == ["today noon", "today 00:10"])
    }

    @Test func theSameInstantIsTodayInOneZoneAndYesterdayInAnother() {
        let now = utc("2026-11-21T02:00:00Z")
        let items = [item("late", "2026-11-20T23:00:00Z")]
        // In Sydney (+11:00) it is 13:00 on the 21st, and the item was at 10:00 on the 21st.
        #expect(NewsSelection.today(items, in: TimeZone(identifier: "Australia/Sydney")!, now: now, city: nil, country: nil).count == 1)
        // In São Paulo (−03:00) it is 23:00 on the 20th; the item was at 20:00 on the 20th.
        #expect(NewsSelection.today(items, in: TimeZone(secondsFromGMT: -10800)!, now: now, city: nil, country: nil).count == 1)
        // In Kathmandu (+05:45) it is 07:45 on the 21st; the item was at 04:45 on the 21st.
        #expect(NewsSelection.today(items, in: TimeZone(secondsFromGMT: 20700)!, now: now, city: nil, country: nil).count == 1)
        // In London it is 02:00 on the 21st; the item was at 23:00 on the 20th: out.
        #expect(NewsSelection.today(items, in: TimeZone(identifier: "Europe/London")!, now: now, city: nil, country: nil).isEmpty)
    }

    @Test func mentionsComeFirstAndAtMostTen() {
        let now = utc("2026-11-21T20:00:00Z")
        var items = (0..<15).map { item("story \($0)", "2026-11-21T1\($0 % 10):00:00Z") }
        items.append(item("Snow in Berlin", "2026-11-21T08:00:00Z"))
        let today = NewsSelection.today(items, in: TimeZone(identifier: "Europe/Berlin")!, now: now, city: "Berlin", country: "Germany")
        #expect(today.count == 10 && today[0].title == "Snow in Berlin")
    }

    @Test func feedsFollowTheCountry() {
        #expect(NewsSelection.bbcFeedPath(countryCode: "GB") == "/news/uk/rss.xml")
        #expect(NewsSelection.bbcFeedPath(countryCode: "de") == "/news/world/europe/rss.xml")
        #expect(NewsSelection.bbcFeedPath(countryCode: "NP") == "/news/world/asia/rss.xml")
        #expect(NewsSelection.bbcFeedPath(countryCode: "BR") == "/news/world/latin_america/rss.xml")
        #expect(NewsSelection.bbcFeedPath(countryCode: "US") == "/news/world/us_and_canada/rss.xml")
        #expect(NewsSelection.bbcFeedPath(countryCode: nil) == "/news/world/rss.xml")
    }
}

@Suite struct AddressDecodingTests {
    @Test func googlePostalTownStandsInForLocality() throws {
        let a = try GoogleGeocoding.address(from: fixture("google/reverse-postal-town.json"))
        #expect(a.street == "Marlowes" && a.houseNumber == "12" && a.city == "Hemel Hempstead")
        #expect(a.region == "England" && a.country == "United Kingdom" && a.countryCode == "GB")
        #expect(a.display == "12 Marlowes, Hemel Hempstead HP1 1LD, UK")
        #expect(throws: BrollyError.placeNotFound("these coordinates")) {
            try GoogleGeocoding.address(from: fixture("google/zero-results.json"))
        }
    }

    @Test func nominatimJSONWithNumbersAsStringsAndAVillage() throws {
        let a = try NominatimGeocoder.address(from: fixture("nominatim/reverse-json-village.json"))
        #expect(a.latitude == 47.3947 && a.longitude == 8.4376)
        #expect(a.city == "Oberengstringen" && a.street == "Dorfstrasse" && a.countryCode == "CH")
        #expect(throws: BrollyError.self) { try NominatimGeocoder.address(from: fixture("nominatim/error.json")) }
    }
}

@Suite struct AddressServiceTests {
    @Test func anUnreachableGeocoderIsLeftAloneForAWhile() async throws {
        let transport = ScriptedTransport([.fail(.cannotConnect("no route"))])
        let network = NetworkService(transport: transport, retry: .none, sleep: { _ in })
        let clock = TestClock(utc("2026-11-21T12:00:00Z"))
        let base = URL(string: "http://127.0.0.1:9")!
        let service = AddressService(
            nominatim: NominatimGeocoder(network: network, baseURL: base), network: network,
            googleURL: base, googleAPIKey: nil, fallback: nil, cache: FileCache(directory: temporaryDirectory(), clock: SystemClock()),
            now: { clock.now })
        await #expect(throws: BrollyError.self) { try await service.address(for: Coordinate(latitude: 1, longitude: 2)) }
        #expect(transport.count == 1)
        // Another point a moment later: no new attempt.
        await #expect(throws: BrollyError.self) { try await service.address(for: Coordinate(latitude: 3, longitude: 4)) }
        #expect(transport.count == 1)
        clock.advance(61)
        await #expect(throws: BrollyError.self) { try await service.address(for: Coordinate(latitude: 3, longitude: 4)) }
        #expect(transport.count == 2)
    }
}
