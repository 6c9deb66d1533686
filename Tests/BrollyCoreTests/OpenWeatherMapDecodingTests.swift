import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct OpenWeatherMapDecodingTests {
    @Test func currentWithIntegersStringCodAndLocalizedDescription() throws {
        let (c, place, zone) = try OpenWeatherMapProvider.current(from: fixture("openweathermap/current-integers-cod-string.json"))
        #expect(c.temperature == 9 && c.feelsLike == 7 && c.humidity == 52 && c.windSpeed == 2)
        #expect(c.condition.description == "ясно")
        #expect(c.condition.icon == "clear-night")
        #expect(c.windGust == nil && c.rain == nil && c.snow == nil)
        #expect(place.name == "Kathmandu" && place.countryCode == "NP" && place.country == "Nepal")
        #expect(place.timezone == "UTC+05:45")
        #expect(zone.secondsFromGMT() == 20700)
    }

    @Test func legacyShapeWithEmptyRainAndSeveralConditions() throws {
        let (c, place, _) = try OpenWeatherMapProvider.current(from: fixture("openweathermap/current-legacy-empty-rain.json"))
        #expect(c.rain == nil)  // "rain": {}
        // "3h": 1.25 mm of water, kept as the depth it makes (7 mm of snow a mm of water), and as the water fallen.
        #expect(c.snow == 8.75 && c.precipitation == 1.25)
        #expect(c.visibility == nil && c.feelsLike == nil)
        #expect(c.windDirection == 290.501)
        #expect(c.condition.kind == .sleet)
        #expect(c.condition.description == "rain and snow, mist")
        #expect(place.timezone == "UTC")  // no timezone field
    }

    @Test func forecastIsGroupedByKathmanduCalendarDays() throws {
        let (slots, city, zone) = try OpenWeatherMapProvider.forecast(from: fixture("openweathermap/forecast-kathmandu.json"))
        #expect(slots.count == 16 && city.name == "Kathmandu")
        let days = DayGrouping.days(from: slots, in: zone)
        // 00:00Z is 05:45 local: seven slots on the 21st (not eight, as UTC would say).
        #expect(days.map(\.date) == ["2026-11-21", "2026-11-22", "2026-11-23"])
        #expect(days[0].temperatureMin == 5 && days[0].temperatureMax == 11)
        #expect(days[1].temperatureMin == 12 && days[1].temperatureMax == 19)
        #expect(days[0].precipitation == 3)  // two light-rain slots of 1.5 mm; "snow": {} adds nothing
        #expect(days[0].condition.kind == .rain)
        #expect(slots[2].precipitationProbability == 25)
    }

    @Test func reportCombinesCurrentAndForecast() throws {
        let report = try OpenWeatherMapProvider.report(
            current: fixture("openweathermap/current-integers-cod-string.json"),
            forecast: fixture("openweathermap/forecast-kathmandu.json"),
            place: Place.unnamed(Coordinate(latitude: 27.7, longitude: 85.32)), fetchedAt: Date())
        // Current time is 00:30 on the 22nd in Kathmandu.
        #expect(report.days.first?.date == "2026-11-22")
        #expect(report.place.name == "Kathmandu")
        #expect(report.current.temperatureMin == 9 && report.current.temperatureMax == 19)
        #expect(report.provider == .openWeatherMap)
    }

    @Test(arguments: [
        ("openweathermap/error-401.json", 401, BrollyError.Kind.invalidAPIKey),
        ("openweathermap/error-404.json", 404, .placeNotFound),
        ("openweathermap/error-429.json", 429, .rateLimited),
    ])
    func errorBodiesBecomeTypedErrors(file: String, status: Int, kind: BrollyError.Kind) throws {
        let error = OpenWeatherMapProvider.classifyError(HTTPResponse(status: status, body: try fixture(file)))
        #expect(error?.kind == kind)
    }

    @Test func errorBodyServedWith200IsStillAnError() throws {
        #expect(throws: BrollyError.placeNotFound("the location (city not found)")) {
            try OpenWeatherMapProvider.current(from: fixture("openweathermap/error-404.json"))
        }
    }

    @Test func geocodingToleratesMissingState() throws {
        let places = try OpenWeatherMapProvider.places(from: fixture("openweathermap/geo-direct.json"))
        #expect(places.count == 3)
        #expect(places[0].region == "Illinois" && places[0].country == "United States")
        #expect(places[2].region == nil && places[2].country == "New Zealand")
        #expect(try OpenWeatherMapProvider.places(from: fixture("openweathermap/geo-reverse-empty.json")).isEmpty)
    }

    @Test func apiKeyIsRedactedFromLoggedURLs() {
        let url = URL(string: "https://api.openweathermap.org/data/2.5/weather?lat=1&lon=2&units=metric&appid=SECRET123")!
        let redacted = URLRedaction.redact(url)
        #expect(!redacted.contains("SECRET123") && redacted.contains("appid=REDACTED"))
    }
}

@Suite struct OtherDecodingTests {
    @Test func nominatimTownStandsInForCity() throws {
        let a = try NominatimGeocoder.address(from: fixture("nominatim/reverse-jsonv2-town.json"))
        #expect(a.city == "Villenave-d'Ornon" && a.street == "Rue des Pins" && a.houseNumber == "7")
        #expect(a.latitude == 44.7797 && a.countryCode == "FR" && a.region == "Nouvelle-Aquitaine")
    }

    @Test func ipLocation() throws {
        let p = try IPLocator.place(from: fixture("ip/ip-api.json"))
        #expect(p.name == "Kathmandu" && p.countryCode == "NP" && p.latitude == 27.7017 && p.timezone == "Asia/Kathmandu")
        #expect(throws: BrollyError.self) { try IPLocator.place(from: Data(#"{"status":"fail","message":"private range"}"#.utf8)) }
    }
}
