import BrollyCore
import Foundation
import GRDB
import Testing

@testable import BrollyStore

func place(_ name: String, _ lat: Double = 10, _ lon: Double = 20) -> Place {
    Place(name: name, country: "Testland", countryCode: "TL", region: "R", latitude: lat, longitude: lon, timezone: "UTC")
}

func report(_ name: String, temperature: Double = 5) -> WeatherReport {
    let c = Conditions.wmo(3)
    return WeatherReport(
        place: place(name),
        current: CurrentConditions(
            time: Date(timeIntervalSince1970: 1_800_000_000), temperature: temperature, temperatureMin: 1, temperatureMax: 9,
            humidity: 50, pressure: 1000, windSpeed: 2, windDirection: 90, condition: c),
        days: [], hours: [], provider: .openMeteo, fetchedAt: Date(timeIntervalSince1970: 1_800_000_000))
}

@Suite struct MigrationTests {
    @Test func migratesAnEmptyDatabase() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-\(UUID()).sqlite")
        let db = try AppDatabase.open(at: url)
        #expect(try db.places(device: AppDatabase.localDevice).isEmpty)
        let mode = try db.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        // Opening again runs no migration twice.
        _ = try AppDatabase.open(at: url)
    }

    @Test func migratesAnEarlierDatabaseKeepingItsRows() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-\(UUID()).sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try AppDatabase.migrator.migrate(queue, upTo: "v1-places-and-history")
            try queue.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO place (name, country, latitude, longitude, orderIndex, createdAt) VALUES ('Old', 'X', 1, 2, 0, CURRENT_TIMESTAMP)"
                )
                let json = String(decoding: try JSONEncoder().encode(report("Old")), as: UTF8.self)
                try db.execute(
                    sql:
                        "INSERT INTO history (createdAt, latitude, longitude, placeName, weather) VALUES (CURRENT_TIMESTAMP, 1, 2, 'Old', ?)",
                    arguments: [json])
            }
        }
        let db = try AppDatabase.open(at: url)
        let places = try db.places(device: AppDatabase.localDevice)
        #expect(places.map(\.name) == ["Old"])
        let history = try db.history(device: AppDatabase.localDevice)
        #expect(history.count == 1 && history[0].weather.current.temperature == 5)
    }
}

@Suite struct PlacesTests {
    @Test func placesKeepTheUsersOrder() throws {
        let db = try AppDatabase.inMemory()
        let a = try db.addPlace(place("A"), customName: nil, device: "d")
        let b = try db.addPlace(place("B"), customName: "Home", device: "d")
        let c = try db.addPlace(place("C"), customName: nil, device: "d")
        #expect(try db.places(device: "d").map(\.displayName) == ["A", "Home", "C"])
        _ = try db.movePlace(id: c.id!, to: 0, device: "d")
        #expect(try db.places(device: "d").map(\.name) == ["C", "A", "B"])
        _ = try db.reorderPlaces([b.id!, a.id!, c.id!], device: "d")
        #expect(try db.places(device: "d").map(\.name) == ["B", "A", "C"])
        #expect(try db.places(device: "d").map(\.orderIndex) == [0, 1, 2])
        #expect(throws: BrollyError.self) { try db.reorderPlaces([a.id!, b.id!], device: "d") }
        #expect(throws: BrollyError.self) { try db.reorderPlaces([a.id!, a.id!, c.id!], device: "d") }
        #expect(try db.removePlace(id: b.id!, device: "d"))
        #expect(try db.places(device: "d").map(\.orderIndex) == [0, 1])
        #expect(try db.renamePlace(id: a.id!, customName: "Work", device: "d")?.displayName == "Work")
        #expect(try db.renamePlace(id: a.id!, customName: nil, device: "d")?.displayName == "A")
    }

    @Test func devicesCannotTouchEachOthersPlaces() throws {
        let db = try AppDatabase.inMemory()
        let mine = try db.addPlace(place("Mine"), customName: nil, device: "one")
        _ = try db.addPlace(place("Theirs"), customName: nil, device: "two")
        #expect(try db.places(device: "two").map(\.name) == ["Theirs"])
        #expect(try db.place(id: mine.id!, device: "two") == nil)
        #expect(try db.renamePlace(id: mine.id!, customName: "Hacked", device: "two") == nil)
        #expect(try db.movePlace(id: mine.id!, to: 0, device: "two") == nil)
        #expect(try !db.removePlace(id: mine.id!, device: "two"))
        #expect(throws: BrollyError.self) { try db.reorderPlaces([mine.id!], device: "two") }
        #expect(try db.places(device: "one").map(\.name) == ["Mine"])
    }
}

@Suite struct HistoryTests {
    @Test func lookupsAreSavedNewestFirstAndRepeatsCollapse() throws {
        let db = try AppDatabase.inMemory()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
        try db.recordLookup(report("Berlin", temperature: 1), address: nil, coordinate: berlin, device: "d", now: t0)
        try db.recordLookup(report("Berlin", temperature: 2), address: nil, coordinate: berlin, device: "d", now: t0 + 60)
        #expect(try db.history(device: "d").count == 1)
        #expect(try db.history(device: "d")[0].weather.current.temperature == 2)
        try db.recordLookup(
            report("Paris"), address: nil, coordinate: Coordinate(latitude: 48.85, longitude: 2.35), device: "d", now: t0 + 120)
        try db.recordLookup(report("Berlin", temperature: 3), address: nil, coordinate: berlin, device: "d", now: t0 + 3600)
        #expect(try db.history(device: "d").map(\.placeName) == ["Berlin", "Paris", "Berlin"])
    }

    @Test func entriesAreDeletedOneByOneOrAllAndOnlyTheirOwn() throws {
        let db = try AppDatabase.inMemory()
        let address = Address(latitude: 1, longitude: 2, street: "Main St", houseNumber: "1", city: "Town", display: "1 Main St, Town")
        let a = try db.recordLookup(report("A"), address: address, coordinate: Coordinate(latitude: 1, longitude: 2), device: "one")
        _ = try db.recordLookup(report("B"), address: nil, coordinate: Coordinate(latitude: 3, longitude: 4), device: "one")
        _ = try db.recordLookup(report("C"), address: nil, coordinate: Coordinate(latitude: 5, longitude: 6), device: "two")
        #expect(try db.historyEntry(id: a.id!, device: "one")?.address?.street == "Main St")
        #expect(try db.historyEntry(id: a.id!, device: "two") == nil)
        #expect(try !db.deleteHistoryEntry(id: a.id!, device: "two"))
        #expect(try db.deleteHistoryEntry(id: a.id!, device: "one"))
        #expect(try db.deleteHistory(device: "one") == 1)
        #expect(try db.history(device: "two").count == 1)
    }

    @Test func historyIsCappedPerDevice() throws {
        let db = try AppDatabase.inMemory()
        for i in 0..<(AppDatabase.historyLimit + 5) {
            try db.recordLookup(
                report("P\(i)"), address: nil, coordinate: Coordinate(latitude: Double(i % 80), longitude: Double(i / 80)),
                device: "d", now: Date(timeIntervalSince1970: Double(i) * 1000))
        }
        #expect(try db.history(device: "d", limit: 1000).count == AppDatabase.historyLimit)
    }
}

@Suite struct BatchedHistoryTests {
    let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
    let paris = Coordinate(latitude: 48.86, longitude: 2.35)

    @Test func manyLookupsAreWrittenInOneBatchAndAddressesFollow() throws {
        let db = try AppDatabase.inMemory()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try db.recordLookups([
            .init(device: "a", coordinate: berlin, report: report("Berlin"), address: nil, createdAt: t0),
            .init(device: "b", coordinate: paris, report: report("Paris"), address: nil, createdAt: t0 + 0.5),
            .init(device: "a", coordinate: paris, report: report("Paris"), address: nil, createdAt: t0 + 1),
        ])
        #expect(try db.history(device: "a").map(\.placeName) == ["Paris", "Berlin"])
        #expect(try db.history(device: "b").map(\.placeName) == ["Paris"])
        let address = Address(latitude: 52.52, longitude: 13.41, city: "Berlin", country: "Germany", display: "Unter den Linden, Berlin")
        try db.recordLookups([], addresses: [.init(device: "a", coordinate: berlin, since: t0, address: address)])
        let a = try db.history(device: "a")
        #expect(a.first { $0.placeName == "Berlin" }?.address?.city == "Berlin")
        #expect(a.first { $0.placeName == "Paris" }?.address == nil)
        #expect(try db.history(device: "b").first?.address == nil)
    }
}
