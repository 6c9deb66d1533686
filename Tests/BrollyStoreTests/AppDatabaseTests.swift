import BrollyTestSupport
import Foundation
import GRDB
import Testing

@testable import BrollyCore
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
    @Test func migratesAnEmptyDatabase() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-\(UUID()).sqlite")
        let db = try AppDatabase.open(at: url)
        #expect(try await db.places(device: StoreRules.localDevice).isEmpty)
        let mode = try await db.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        // Opening again runs no migration twice.
        _ = try AppDatabase.open(at: url)
    }

    @Test func migratesAnEarlierDatabaseKeepingItsRows() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-\(UUID()).sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try AppDatabase.migrator.migrate(queue, upTo: "v1-places-and-history")
            try await queue.write { db in
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
        let places = try await db.places(device: StoreRules.localDevice)
        #expect(places.map(\.name) == ["Old"])
        let history = try await db.history(device: StoreRules.localDevice)
        #expect(history.count == 1 && history[0].weather.current.temperature == 5)
    }
}

@Suite(.serialized) struct PlacesTests {
    @Test(arguments: Engine.all) func placesKeepTheUsersOrder(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let a = try await db.addPlace(place("A"), customName: nil, device: d.d, now: Date())
        let b = try await db.addPlace(place("B"), customName: "Home", device: d.d, now: Date())
        let c = try await db.addPlace(place("C"), customName: nil, device: d.d, now: Date())
        #expect(try await db.places(device: d.d).map(\.displayName) == ["A", "Home", "C"])
        _ = try await db.movePlace(id: c.id!, to: 0, device: d.d)
        #expect(try await db.places(device: d.d).map(\.name) == ["C", "A", "B"])
        _ = try await db.reorderPlaces([b.id!, a.id!, c.id!], device: d.d)
        #expect(try await db.places(device: d.d).map(\.name) == ["B", "A", "C"])
        #expect(try await db.places(device: d.d).map(\.orderIndex) == [0, 1, 2])
        await #expect(throws: BrollyError.self) { try await db.reorderPlaces([a.id!, b.id!], device: d.d) }
        await #expect(throws: BrollyError.self) { try await db.reorderPlaces([a.id!, a.id!, c.id!], device: d.d) }
        #expect(try await db.removePlace(id: b.id!, device: d.d))
        #expect(try await db.places(device: d.d).map(\.orderIndex) == [0, 1])
        #expect(try await db.renamePlace(id: a.id!, customName: "Work", device: d.d)?.displayName == "Work")
        #expect(try await db.renamePlace(id: a.id!, customName: nil, device: d.d)?.displayName == "A")
    }

    @Test(arguments: Engine.all) func devicesCannotTouchEachOthersPlaces(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let mine = try await db.addPlace(place("Mine"), customName: nil, device: d.one, now: Date())
        _ = try await db.addPlace(place("Theirs"), customName: nil, device: d.two, now: Date())
        #expect(try await db.places(device: d.two).map(\.name) == ["Theirs"])
        #expect(try await db.place(id: mine.id!, device: d.two) == nil)
        #expect(try await db.renamePlace(id: mine.id!, customName: "Hacked", device: d.two) == nil)
        #expect(try await db.movePlace(id: mine.id!, to: 0, device: d.two) == nil)
        #expect(try await !db.removePlace(id: mine.id!, device: d.two))
        await #expect(throws: BrollyError.self) { try await db.reorderPlaces([mine.id!], device: d.two) }
        #expect(try await db.places(device: d.one).map(\.name) == ["Mine"])
    }
}

@Suite(.serialized) struct HistoryTests {
    @Test(arguments: Engine.all) func lookupsAreSavedNewestFirstAndRepeatsCollapse(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
        try await db.recordLookup(report("Berlin", temperature: 1), address: nil, coordinate: berlin, device: d.d, now: t0)
        try await db.recordLookup(report("Berlin", temperature: 2), address: nil, coordinate: berlin, device: d.d, now: t0 + 60)
        #expect(try await db.history(device: d.d).count == 1)
        #expect(try await db.history(device: d.d)[0].weather.current.temperature == 2)
        try await db.recordLookup(
            report("Paris"), address: nil, coordinate: Coordinate(latitude: 48.85, longitude: 2.35), device: d.d, now: t0 + 120)
        try await db.recordLookup(report("Berlin", temperature: 3), address: nil, coordinate: berlin, device: d.d, now: t0 + 3600)
        #expect(try await db.history(device: d.d).map(\.placeName) == ["Berlin", "Paris", "Berlin"])
    }

    /// A status bar re-reading one cached answer every minute: the repeat moves the entry's time
    /// and keeps the snapshot it has (the same answer: its time, model, place, language and
    /// temperature), so 75 KB are not written again each minute.
    @Test func aRepeatOfTheSameAnswerKeepsItsSnapshotAndMovesItsTime() async throws {
        let db = try AppDatabase.inMemory()
        let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        var first = report("Berlin")
        first.current.humidity = 50
        try await db.recordLookup(first, address: nil, coordinate: berlin, device: "d", now: t0)
        var again = first
        again.current.humidity = 99  // not part of the stamp: the same answer, so not written again
        try await db.recordLookup(again, address: nil, coordinate: berlin, device: "d", now: t0 + 60)
        var entries = try await db.history(device: "d")
        #expect(entries.count == 1)
        #expect(entries[0].createdAt == t0 + 60)
        #expect(entries[0].weather.current.humidity == 50)
        // A newer answer is written.
        var newer = again
        newer.fetchedAt = t0 + 30
        try await db.recordLookup(newer, address: nil, coordinate: berlin, device: "d", now: t0 + 120)
        entries = try await db.history(device: "d")
        #expect(entries.count == 1)
        #expect(entries[0].weather.current.humidity == 99)
    }

    @Test(arguments: Engine.all) func entriesAreDeletedOneByOneOrAllAndOnlyTheirOwn(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let address = Address(latitude: 1, longitude: 2, street: "Main St", houseNumber: "1", city: "Town", display: "1 Main St, Town")
        let a = try await db.recordLookup(
            report("A"), address: address, coordinate: Coordinate(latitude: 1, longitude: 2), device: d.one, now: Date())
        _ = try await db.recordLookup(
            report("B"), address: nil, coordinate: Coordinate(latitude: 3, longitude: 4), device: d.one, now: Date())
        _ = try await db.recordLookup(
            report("C"), address: nil, coordinate: Coordinate(latitude: 5, longitude: 6), device: d.two, now: Date())
        #expect(try await db.historyEntry(id: a.id!, device: d.one)?.address?.street == "Main St")
        #expect(try await db.historyEntry(id: a.id!, device: d.two) == nil)
        #expect(try await !db.deleteHistoryEntry(id: a.id!, device: d.two))
        #expect(try await db.deleteHistoryEntry(id: a.id!, device: d.one))
        #expect(try await db.deleteHistory(device: d.one) == 1)
        #expect(try await db.history(device: d.two).count == 1)
    }

    @Test(arguments: Engine.all) func historyIsCappedPerDevice(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        for i in 0..<(StoreRules.historyLimit + 5) {
            try await db.recordLookup(
                report("P\(i)"), address: nil, coordinate: Coordinate(latitude: Double(i % 80), longitude: Double(i / 80)),
                device: d.d, now: Date(timeIntervalSince1970: Double(i) * 1000))
        }
        #expect(try await db.history(device: d.d, limit: 1000).count == StoreRules.historyLimit)
    }
}

@Suite(.serialized) struct BatchedHistoryTests {
    let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
    let paris = Coordinate(latitude: 48.86, longitude: 2.35)

    @Test(arguments: Engine.all) func manyLookupsAreWrittenInOneBatchAndAddressesFollow(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try await db.recordLookups([
            .init(device: d.a, coordinate: berlin, report: report("Berlin"), address: nil, createdAt: t0),
            .init(device: d.b, coordinate: paris, report: report("Paris"), address: nil, createdAt: t0 + 0.5),
            .init(device: d.a, coordinate: paris, report: report("Paris"), address: nil, createdAt: t0 + 1),
        ])
        #expect(try await db.history(device: d.a).map(\.placeName) == ["Paris", "Berlin"])
        #expect(try await db.history(device: d.b).map(\.placeName) == ["Paris"])
        let address = Address(latitude: 52.52, longitude: 13.41, city: "Berlin", country: "Germany", display: "Unter den Linden, Berlin")
        try await db.recordLookups([], addresses: [.init(device: d.a, coordinate: berlin, since: t0, address: address)])
        let a = try await db.history(device: d.a)
        #expect(a.first { $0.placeName == "Berlin" }?.address?.city == "Berlin")
        #expect(a.first { $0.placeName == "Paris" }?.address == nil)
        #expect(try await db.history(device: d.b).first?.address == nil)
    }
}
