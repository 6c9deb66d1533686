import BrollyCore
import Testing

@testable import BrollyUseCases

/// OpenWeatherMap's `q=London,GB` and `q=Springfield,MO,US` (issue 38).
@Suite struct QualifiedNameTests {
    static func place(_ name: String, _ region: String?, _ code: String?) -> Place {
        Place(name: name, country: "", countryCode: code, region: region, latitude: 1, longitude: 1)
    }

    @Test func aCountryCodeAndARegionNarrowTheMatches() throws {
        let london = try #require(QualifiedName("London,GB"))
        #expect(london.name == "London" && london.countryCode == "GB" && london.region == nil)
        #expect(london.matches(Self.place("London", "England", "GB")) && !london.matches(Self.place("London", "Ontario", "CA")))
        let missouri = try #require(QualifiedName("Springfield, MO, us"))
        #expect(missouri.countryCode == "US" && missouri.region == "MO")
        #expect(missouri.matches(Self.place("Springfield", "Missouri", "US")))
        #expect(!missouri.matches(Self.place("Springfield", "Illinois", "US")))
        #expect(try #require(QualifiedName("Springfield,Massachusetts,US")).matches(Self.place("Springfield", "Massachusetts", "US")))
    }

    @Test func plainNamesAreNotQualified() {
        #expect(QualifiedName("Paris") == nil)
        #expect(QualifiedName("Paris, Île-de-France") == nil)
        #expect(QualifiedName(",GB") == nil)
        #expect(QualifiedName("a,b,c,GB") == nil)
    }
}
