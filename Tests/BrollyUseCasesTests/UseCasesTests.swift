import BrollyCore
import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

@Suite struct ResolvingPlacesTests {
    @Test func aNameResolvesToTheBestMatchAndSaysSoWhenAmbiguous() async throws {
        let double = ProviderDouble()
        let useCases = try makeUseCases(double)
        let resolved = try await useCases.resolve(.name("Paris"), device: "d")
        #expect(resolved.place.country == "France" && resolved.place.timezone == "Europe/Paris")
        #expect(resolved.note == "\"Paris\" matches 2 places; using Paris, Île-de-France, France")
        // Searched once: found again offline, without a call.
        _ = try await useCases.resolve(.name("paris"), device: "d", offline: true)
        #expect(double.count("/v1/search") == 1)
        await #expect(throws: BrollyError.placeNotFound("\"Nowhere\"")) { try await useCases.resolve(.name("Nowhere"), device: "d") }
    }

    @Test func coordinatesAreNamedByTheirAddress() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let place = try await useCases.resolve(.coordinate(Coordinate(latitude: 52.52, longitude: 13.41)), device: "d").place
        #expect(place.name == "Berlin" && place.country == "Deutschland" && place.latitude == 52.52)
        // Now cached: named offline too.
        let offline = await useCases.name(Coordinate(latitude: 52.52, longitude: 13.41), offline: true)
        #expect(offline.name == "Berlin")
    }

    @Test func anUnreachableNamerLeavesTheCoordinatesAsTheName() async throws {
        let double = ProviderDouble()
        double.fail("/reverse")
        let place = try await makeUseCases(double).resolve(.coordinate(Coordinate(latitude: -33.87, longitude: 151.21)), device: "d").place
        #expect(place.name == "-33.870, 151.210")
    }

    @Test func theDefaultPlaceIsTheFirstSavedThenTheRememberedThenTheIPLocation() async throws {
        let double = ProviderDouble()
        let useCases = try makeUseCases(double)
        let located = try await useCases.resolve(.defaultPlace(remembered: nil), device: "d")
        #expect(located.isFromIPLocation && located.place.name == "Kathmandu" && located.note?.contains("from your IP address") == true)
        let remembered = try await useCases.resolve(.defaultPlace(remembered: located.place), device: "d")
        #expect(!remembered.isFromIPLocation && double.count("/json") == 1)
        _ = try await useCases.savePlace(.query("Paris"), device: "d")
        #expect(try await useCases.resolve(.defaultPlace(remembered: located.place), device: "d").place.name == "Paris")
        await #expect(throws: BrollyError.self) {
            try await useCases.resolve(.defaultPlace(remembered: nil), device: "other", offline: true)
        }
    }
}

@Suite struct WeatherUseCaseTests {
    @Test func aLookupIsRecordedWithItsAddressAndServedFromTheCacheNextTime() async throws {
        let double = ProviderDouble()
        let useCases = try makeUseCases(double)
        let place = try await useCases.resolve(.coordinate(Coordinate(latitude: 52.52, longitude: 13.41)), device: "d").place
        let result = try await useCases.weather(for: place, recording: .beforeReturning(device: "d"))
        #expect(!result.isStale && result.report.current.temperature == -0.3)
        let again = try await useCases.weather(for: place, recording: .beforeReturning(device: "d"))
        #expect(again.isFromCache && double.count("/v1/forecast") == 1)
        let history = try await useCases.history(device: "d")
        #expect(history.items.count == 1)  // a repeat within 10 minutes updates the entry
        #expect(history.items[0].placeName == "Berlin" && history.items[0].address?.street == "Hauptstraße")
        #expect(try await useCases.history(device: "someone else").items.isEmpty)
    }

    @Test func notRecordingLeavesNoHistory() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        _ = try await useCases.weather(for: Place(name: "Berlin", country: "DE", latitude: 52.52, longitude: 13.41))
        #expect(try await useCases.history(device: StoreRules.localDevice).items.isEmpty)
    }

    @Test func precipitationKeepsTheProvidersPrecisionInJSON() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let result = try await useCases.weather(for: Place(name: "Berlin", country: "DE", latitude: 52.52, longitude: 13.41))
        let doc = WeatherDocument(result, units: .metric, now: Date())
        #expect(doc.current.rain == 0.25)
        #expect(doc.hours.first?.precipitation == 0.25 && doc.days.first?.precipitation == 1.37)
        let imperial = WeatherDocument(result, units: .imperial, now: Date())
        #expect(imperial.current.rain == 0.0098)  // 0.25 mm in inches, to 4 decimals
    }

    @Test func offlineWithNothingCachedIsNotCached() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        await #expect(throws: BrollyError.self) {
            try await useCases.weather(for: Place(name: "X", country: "", latitude: 1, longitude: 1), mode: .offline)
        }
    }
}

@Suite struct SavedPlacesUseCaseTests {
    /// Issue 40: a place saved by its coordinates (named by a geocoder that gives no zone) is in its
    /// own time zone — the forecast's — not UTC.
    @Test func aPlaceSavedByCoordinatesIsInTheForecastsZone() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let point = Coordinate(latitude: 52.52, longitude: 13.41)
        let forecast = try await useCases.weather(for: Place(name: "", country: "", latitude: 52.52, longitude: 13.41))
        #expect(forecast.report.place.timezone != "UTC")
        let saved = try await useCases.savePlace(
            .coordinate(point, named: Place(name: "Here", country: "", latitude: 52.52, longitude: 13.41, timezone: "UTC")), device: "d")
        #expect(saved.timezone == forecast.report.place.timezone)
        #expect(try await useCases.savedPlaces(device: "d").first?.timezone == forecast.report.place.timezone)
    }

    @Test func savedPlacesAreAddedRenamedMovedAndRemovedPerDevice() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let work = try await useCases.savePlace(.query("Paris"), customName: "  Work ", device: "d")
        #expect(work.displayName == "Work" && work.name == "Paris" && work.position == 0)
        let home = try await useCases.savePlace(.coordinate(Coordinate(latitude: 52.52, longitude: 13.41)), customName: "Home", device: "d")
        #expect(home.name == "Berlin" && home.position == 1)  // named by its address
        let given = try await useCases.savePlace(
            .coordinate(Coordinate(latitude: 1, longitude: 2), named: Place(name: "Null Island", country: "", latitude: 1, longitude: 2)),
            device: "d")
        #expect(given.name == "Null Island")

        #expect(try await useCases.movePlace(id: home.id, to: 0, device: "d").map(\.displayName) == ["Home", "Work", "Null Island"])
        #expect(try await useCases.renamePlace(id: work.id, customName: nil, device: "d").displayName == "Paris")
        #expect(try await useCases.reorderPlaces([given.id, work.id, home.id], device: "d").map(\.id) == [given.id, work.id, home.id])
        try await useCases.removePlace(id: given.id, device: "d")
        #expect(try await useCases.savedPlaces(device: "d").map(\.position) == [0, 1])

        // Another device sees none of them and can change none of them.
        #expect(try await useCases.savedPlaces(device: "other").isEmpty)
        await #expect(throws: BrollyError.noSuchItem("there is no saved place #\(work.id)")) {
            try await useCases.renamePlace(id: work.id, customName: "Mine", device: "other")
        }
        await #expect(throws: BrollyError.self) { try await useCases.removePlace(id: work.id, device: "other") }
        await #expect(throws: BrollyError.self) { try await useCases.movePlace(id: work.id, to: -1, device: "d") }
        await #expect(throws: BrollyError.self) {
            try await useCases.savePlace(.query("Paris"), customName: String(repeating: "x", count: 101), device: "d")
        }
    }
}

@Suite struct HistoryUseCaseTests {
    @Test func anEntryReadsWithItsWeatherMarkedStaleAndCanBeDeleted() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let place = try await useCases.resolve(.name("Paris"), device: "d").place
        _ = try await useCases.weather(for: place, recording: .beforeReturning(device: "d"))
        let id = try await #require(try useCases.history(device: "d").items.first?.id)
        let lookup = try await useCases.historyEntry(id: id, device: "d", units: .imperial)
        #expect(lookup.document.weather?.source.stale == true && lookup.document.weather?.units.temperature == "°F")
        #expect(lookup.document.temperature == -0.3)  // the summary is always °C
        await #expect(throws: BrollyError.self) { try await useCases.historyEntry(id: id, device: "other") }
        try await useCases.deleteHistoryEntry(id: id, device: "d")
        await #expect(throws: BrollyError.self) { try await useCases.deleteHistoryEntry(id: id, device: "d") }
        #expect(try await useCases.clearHistory(device: "d") == 0)
        await #expect(throws: BrollyError.self) { try await useCases.history(device: "d", limit: 0) }
    }
}

@Suite struct LookupUseCaseTests {
    @Test func addressIsLookedUpOnceThenReadOffline() async throws {
        let double = ProviderDouble()
        let useCases = try makeUseCases(double)
        let c = Coordinate(latitude: 52.52, longitude: 13.41)
        await #expect(throws: BrollyError.self) { try await useCases.address(at: c, offline: true) }
        let address = try await useCases.address(at: c)
        #expect(address.street == "Hauptstraße" && address.houseNumber == "12" && address.countryCode == "DE")
        #expect(try await useCases.address(at: c, offline: true) == address && double.count("/reverse") == 1)
    }

    @Test func newsIsTodaysInThePlacesTimeZone() async throws {
        let useCases = try makeUseCases(ProviderDouble())
        let place = Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41)
        let news = try await useCases.news(for: place)
        #expect(news.place == "Berlin, Germany")
        #expect(news.items.map(\.title) == ["Snow closes schools in Berlin"])
        #expect(news.items[0].publishedAt.hasSuffix("+01:00"))  // Europe/Berlin in November, from the weather
    }
}
