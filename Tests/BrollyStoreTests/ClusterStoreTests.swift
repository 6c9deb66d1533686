import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyStore

@Suite(.serialized) struct PushStoreTests {
    @Test(arguments: Engine.all) func subscriptionsAreUpdatedInPlaceAndDeliveriesRecordedOnce(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        let s = PushSubscription(
            id: "s-\(d.run)", deviceId: d.one, endpoint: "https://push.example/\(d.run)", p256dh: "key1", auth: "auth1",
            minimumSeverity: .severe, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        _ = try await db.subscribe(s, now: Date())
        var again = s
        again.id = "other-\(d.run)"
        again.p256dh = "key2"
        again.minimumSeverity = .moderate
        let updated = try await db.subscribe(again, now: Date())
        #expect(updated.id == s.id && updated.p256dh == "key2" && updated.minimumSeverity == .moderate)
        #expect(try await db.subscriptions(device: d.one).count == 1)
        #expect(try await db.subscriptions(device: d.two).isEmpty)
        try await db.recordDelivery(subscription: s.id, alertKey: "k1", status: 201, now: Date())
        try await db.recordDelivery(subscription: s.id, alertKey: "k1", status: 500, now: Date())
        #expect(try await db.deliveredAlertKeys(subscription: s.id) == ["k1"])
        #expect(try await !db.unsubscribe(id: s.id, device: d.two))
        #expect(try await db.unsubscribe(id: s.id, device: d.one))
        #expect(try await db.deliveredAlertKeys(subscription: s.id).isEmpty)
        await db.close()
    }

    @Test(arguments: Engine.all) func settingsAndTheWatchersStateAreKeptPerSubscription(engine: Engine) async throws {
        let db = try await engine.open()
        let d = Devices()
        var settings = PushSettings()
        settings.rain.leadMinutes = 45
        settings.rain.quietHours = nil
        settings.morning.enabled = true
        settings.places = [3, 1]
        settings.language = "ru"
        let s = try await db.subscribe(
            PushSubscription(
                id: "w-\(d.run)", deviceId: d.one, endpoint: "https://push.example/w\(d.run)", p256dh: "k", auth: "a",
                minimumSeverity: .moderate, createdAt: Date(timeIntervalSince1970: 1_800_000_000), settings: settings), now: Date())
        let read = try await db.subscriptions(device: d.one).first
        #expect(read?.settings == settings && read?.settings.rain.quietHours == nil)
        // Changed by its device only; the severity when given.
        settings.rain.minimum = .moderate
        #expect(try await db.updateSubscription(id: s.id, device: d.two, settings: settings, minimumSeverity: nil) == nil)
        let changed = try await db.updateSubscription(id: s.id, device: d.one, settings: settings, minimumSeverity: .severe)
        #expect(changed?.settings.rain.minimum == .moderate && changed?.minimumSeverity == .severe)
        let unchanged = try await db.updateSubscription(id: s.id, device: d.one, settings: settings, minimumSeverity: nil)
        #expect(unchanged?.minimumSeverity == .severe)
        // The watcher's memory: set, replaced, removed, and gone with the subscription.
        try await db.setPushState(subscription: s.id, key: "rain|1", value: "a", now: Date())
        try await db.setPushState(subscription: s.id, key: "rain|1", value: "b", now: Date())
        try await db.setPushState(subscription: s.id, key: "morning|1", value: "2026-11-25", now: Date())
        #expect(try await db.pushStates(subscription: s.id) == ["rain|1": "b", "morning|1": "2026-11-25"])
        try await db.setPushState(subscription: s.id, key: "rain|1", value: nil, now: Date())
        #expect(try await db.pushStates(subscription: s.id) == ["morning|1": "2026-11-25"])
        #expect(try await db.unsubscribe(id: s.id, device: d.one))
        #expect(try await db.pushStates(subscription: s.id).isEmpty)
        await db.close()
    }

    @Test func settingsLeftOutTakeTheirDefaults() throws {
        let old = PushSettings.stored("{}")
        #expect(old.rain.enabled && old.rain.leadMinutes == 20 && old.rain.minimum == .light && !old.morning.enabled)
        #expect(old.rain.quietHours == PushSettings.QuietHours(from: ClockTime(hour: 22, minute: 0), to: ClockTime(hour: 7, minute: 0)))
        #expect(PushSettings.stored(#"{"rain":{"quietHours":null}}"#).rain.quietHours == nil)
        #expect(PushSettings.stored("not json") == PushSettings())
        #expect(ClockTime("7:05") == ClockTime(hour: 7, minute: 5) && ClockTime("24:00") == nil && ClockTime("07:5") == nil)
    }
}

/// What several servers share through PostgreSQL. Each test opens two connections to the
/// database, as two instances would.
@Suite(.serialized, .enabled(if: Engine.postgresURL != nil, "BROLLY_TEST_DATABASE_URL is not set: no PostgreSQL to test against"))
struct ClusterStoreTests {
    func two() async throws -> (PostgresDatabase, PostgresDatabase) {
        // Started together: the migration lock lets one of them migrate.
        async let a = PostgresDatabase.connect(url: Engine.postgresURL!, clock: SystemClock())
        async let b = PostgresDatabase.connect(url: Engine.postgresURL!, clock: SystemClock())
        return try await (Engine.running(a), Engine.running(b))
    }

    @Test func migrationsAreVersionedAndRunOnce() async throws {
        let (a, b) = try await two()
        #expect(try await a.appliedMigrations() == PostgresDatabase.migrations.map(\.name))
        #expect(try await b.appliedMigrations() == PostgresDatabase.migrations.map(\.name))
        await a.close()
        await b.close()
    }

    @Test func aLeaseHasOneHolderUntilItExpires() async throws {
        let (a, b) = try await two()
        let name = "test-lease-\(UUID().uuidString.prefix(8))"
        #expect(try await a.acquireLease(name, holder: "A", duration: 30))
        #expect(try await !b.acquireLease(name, holder: "B", duration: 30))
        // A renews for no time at all: its lease has ended by the database's next transaction, as
        // if A had stopped renewing (it "died") and its time had run out — B takes over.
        #expect(try await a.acquireLease(name, holder: "A", duration: 0))
        #expect(try await b.acquireLease(name, holder: "B", duration: 30))
        #expect(try await !a.acquireLease(name, holder: "A", duration: 30))
        await a.close()
        await b.close()
    }

    @Test func aChangeMarkedOnOneInstanceIsCountedOnTheOther() async throws {
        let (a, b) = try await two()
        let before = try await b.watchedChanges()
        try await a.markWatchedChange()
        let once = try await b.watchedChanges()
        #expect(once > before)
        try await b.markWatchedChange()
        #expect(try await a.watchedChanges() > once)
        await a.close()
        await b.close()
    }

    @Test func theCacheTierKeepsTheNewerAnswer() async throws {
        let (a, b) = try await two()
        let key = "test-\(UUID())"
        #expect(try await a.read(key) == nil)
        let new = SharedCacheRow(payload: Data("new".utf8), receivedAt: Date(timeIntervalSince1970: 2_000))
        let old = SharedCacheRow(payload: Data("old".utf8), receivedAt: Date(timeIntervalSince1970: 1_000))
        try await a.write(key, new)
        try await b.write(key, old)
        #expect(try await b.read(key) == new)
        await a.close()
        await b.close()
    }

    @Test func concurrentFlightsForOneKeyOnTwoInstancesMakeOneCall() async throws {
        let (a, b) = try await two()
        let key = "test-\(UUID())"
        let calls = Counter()
        let started = Counter()
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<12 {
                let instance = i % 2 == 0 ? a : b
                group.addTask {
                    started.add()
                    return try await instance.exclusively(key) { row -> (result: String, store: SharedCacheRow?) in
                        if let row { return (String(decoding: row.payload, as: UTF8.self), nil) }
                        calls.add()
                        // The upstream call: it lasts until every flight has asked.
                        await yieldUntil(10_000) { started.value >= 12 }
                        return ("fetched", SharedCacheRow(payload: Data("fetched".utf8), receivedAt: Date()))
                    }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(calls.value == 1)
        #expect(results.count == 12 && Set(results) == ["fetched"])
        await a.close()
        await b.close()
    }

    @Test func theCacheTierIsKeptBoundedByAgeAndSize() async throws {
        let (a, b) = try await two()
        let now = Date()
        let run = UUID().uuidString.prefix(8)
        try await a.write("old-\(run)", SharedCacheRow(payload: Data(count: 10), receivedAt: now.addingTimeInterval(-40 * 86_400)))
        try await a.write("older-\(run)", SharedCacheRow(payload: Data(count: 1000), receivedAt: now.addingTimeInterval(-10)))
        try await a.write("newest-\(run)", SharedCacheRow(payload: Data(count: 1000), receivedAt: now))
        let removed = try await b.sweep(olderThan: now.addingTimeInterval(-30 * 86_400), maxBytes: 1200)
        #expect(removed >= 2)
        #expect(try await a.read("old-\(run)") == nil)
        #expect(try await a.read("older-\(run)") == nil)
        #expect(try await a.read("newest-\(run)") != nil)
        await a.close()
        await b.close()
    }

    @Test func sharedBucketsHoldAcrossInstances() async throws {
        let (a, b) = try await two()
        let key = "budget:test-\(UUID())"
        let limits = [RateLimit(3, per: 60), RateLimit(100, per: 3_600)]
        var granted = 0
        for i in 0..<8 where try await (i % 2 == 0 ? a : b).take(key, limits: limits) == nil { granted += 1 }
        #expect(granted == 3)
        let wait = try await a.take(key, limits: limits)
        #expect(wait != nil && wait! > 0 && wait! <= 20)
        await a.close()
        await b.close()
    }

    @Test func anUnreachableDatabaseIsReportedQuicklyNotWaitedFor() async throws {
        // Nothing listens on port 1.
        let db = try PostgresDatabase(
            url: "postgres://brolly@127.0.0.1:1/brolly", logger: .init(label: "test"), timeout: 1, clock: SystemClock())
        db.runDetached()
        let started = Date()
        await #expect(throws: StoreUnavailable.self) { try await db.places(device: "x") }
        #expect(Date().timeIntervalSince(started) < 5)
        // Straight after, it is refused at once.
        let again = Date()
        await #expect(throws: StoreUnavailable.self) { try await db.addPlace(place("X"), customName: nil, device: "x", now: Date()) }
        #expect(Date().timeIntervalSince(again) < 0.5)
        await #expect(throws: SharedTierUnavailable.self) { try await db.read("k") }
        await db.close()
    }

    /// The time limit of a short query is the server's own (`statement_timeout`, sent when each
    /// pooled connection starts): on a clock that never moves, the caller's own limit cannot fire,
    /// yet the slow query ends at the limit, and it is no longer running on the server.
    @Test func aSlowQueryIsEndedByTheServerAtTheLimitNotLeftRunning() async throws {
        guard let url = Engine.postgresURL else {
            print("note: BROLLY_TEST_DATABASE_URL is not set: the statement time-out is not tried")
            return
        }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_764_000_000))
        let db = try await PostgresDatabase.connect(url: url, logger: .init(label: "test"), timeout: 1, clock: clock)
        db.runDetached()
        let marker = "brolly_slow_\(UInt32.random(in: 0...UInt32.max))"
        let started = ContinuousClock.now
        await #expect(throws: StoreUnavailable.self) {
            try await db.run { client in
                try await client.query("SELECT pg_sleep(30), \(unescaped: "'" + marker + "'")", logger: PostgresDatabase.quiet)
                    .collect().count
            }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        // Taken as down for a second of the clock's time; then asked again.
        clock.advance(2)
        let running = try await db.run { client in
            try await PostgresDatabase.column(
                try await client.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE \("%" + marker + "%") AND pid <> pg_backend_pid()",
                    logger: PostgresDatabase.quiet), "count", as: Int64.self
            ).first
        }
        #expect(running == 0)
        await db.close()
    }

    @Test func badURLsAreRefusedWithAClearMessage() {
        #expect(throws: BrollyError.self) { try PostgresDatabase.configuration(from: "mysql://x@y/z") }
        #expect(throws: BrollyError.self) { try PostgresDatabase.configuration(from: "postgres://u@h/db?sslmode=sometimes") }
        #expect(throws: BrollyError.self) { try PostgresDatabase.configuration(from: "postgres://u@h/db?pool=0") }
    }
}

final class Counter: Sendable {
    private let n = Locked(0)
    func add() { n.withLock { $0 += 1 } }
    var value: Int { n.current }
}
