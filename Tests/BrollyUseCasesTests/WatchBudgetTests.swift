import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore
@testable import BrollyUseCases

/// Issue 40, item 2: when the watcher's budget cannot reach every place, whole places are left out
/// — the fewest, those fewer subscribers follow — and each of their subscribers is told.
@Suite struct WatchBudgetTests {
    func subscribe(_ useCases: UseCases, device: String) async throws -> PushSubscriptionDocument {
        try await useCases.subscribe(
            device: device, endpoint: URL(string: "https://push.example/\(device)")!,
            p256dh: Base64URL.encode(Data([4] + Array(repeating: 7, count: 64))), auth: Base64URL.encode(Data(repeating: 1, count: 16)),
            minimumSeverity: .moderate)
    }

    func save(_ useCases: UseCases, _ name: String, latitude: Double, device: String) async throws {
        _ = try await useCases.savePlace(
            .coordinate(
                Coordinate(latitude: latitude, longitude: 0), named: Place(name: name, country: "", latitude: latitude, longitude: 0)),
            device: device)
    }

    @Test func theBudgetAdmitsWholePlacesMostFollowedFirstAndTheOthersAreTold() async throws {
        let clock = ManualClock(utc("2026-11-26T06:00:30Z"))
        let forecasts = OneDayForecast(wet: true)
        let useCases = try makeUseCases(forecasts, clock: clock)
        try await save(useCases, "Home", latitude: 51.5, device: "a")
        try await save(useCases, "Home", latitude: 51.5, device: "b")
        try await save(useCases, "Cottage", latitude: 51.7, device: "c")
        for device in ["a", "b", "c"] { _ = try await subscribe(useCases, device: device) }
        // Eight calls a day: before anything is known a place is reckoned at a call an hour; the
        // place the most subscribers follow is watched all the same, the other not.
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: Budget([RateLimit(8, per: 86_400)]))
        _ = try await watcher.round()
        #expect(forecasts.calls.current == 1)
        #expect(watcher.lastRound.current.watched == 1 && watcher.lastRound.current.unwatched == 1)
        // The place two subscribers follow is watched; the cottage's subscriber is told.
        let told = try await useCases.subscriptions(device: "c").first?.unwatched
        #expect(told == [PushSubscriptionDocument.UnwatchedPlace(id: 3, name: "Cottage", reason: "budget")])
        #expect(try await useCases.subscriptions(device: "a").first?.unwatched == nil)
        // Rounds go on: the cottage is never asked, the home every interval while rain is possible.
        for _ in 0..<30 {
            clock.advance(60)
            _ = try await watcher.round()
        }
        #expect(forecasts.calls.current == 3)
        // Without the budget's limit every place is watched, and the mark goes.
        let unlimited = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        _ = try await unlimited.round()
        #expect(try await useCases.subscriptions(device: "c").first?.unwatched == nil)
    }
}

/// Issue 40, item 2: places the provider answers from one model grid point (Open-Meteo says which
/// in its answer) get the same forecast: the watcher asks once for all of them.
@Suite struct WatchByGridPointTests {
    @Test func placesOnOneGridPointShareTheCalls() async throws {
        let clock = ManualClock(utc("2026-11-26T06:00:30Z"))
        // Every answer comes from the grid point 51.5, 0.
        let forecasts = OneDayForecast(wet: true)
        let useCases = try makeUseCases(forecasts, clock: clock)
        let budget = WatchBudgetTests()
        try await budget.save(useCases, "Home", latitude: 51.50, device: "a")
        try await budget.save(useCases, "Work", latitude: 51.52, device: "b")
        for device in ["a", "b"] { _ = try await budget.subscribe(useCases, device: device) }
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        _ = try await watcher.round()
        // Two cells, not yet known to share a grid point: one call each.
        #expect(forecasts.calls.current == 2)
        clock.advance(60)
        _ = try await watcher.round()
        #expect(watcher.unitCount == 1 && forecasts.calls.current == 2)
        for _ in 0..<29 {
            clock.advance(60)
            _ = try await watcher.round()
        }
        // Then one call per interval for both (two more in half an hour, not four).
        #expect(forecasts.calls.current == 4)
    }
}

extension WatchByGridPointTests {
    /// A place is saved from its weather: the forecast the cache holds says its grid point, and the
    /// watcher places it there without a call of its own.
    @Test func placesLookedUpBeforeArePlacedFromTheCache() async throws {
        let clock = ManualClock(utc("2026-11-26T06:00:30Z"))
        let forecasts = OneDayForecast(wet: true)
        let useCases = try makeUseCases(forecasts, clock: clock)
        let budget = WatchBudgetTests()
        for (name, latitude, device) in [("Home", 51.50, "a"), ("Work", 51.52, "b")] {
            _ = try await useCases.services.weather.weather(for: Place(name: name, country: "", latitude: latitude, longitude: 0))
            try await budget.save(useCases, name, latitude: latitude, device: device)
            _ = try await budget.subscribe(useCases, device: device)
        }
        #expect(forecasts.calls.current == 2)  // the two lookups
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        _ = try await watcher.round()
        clock.advance(60)
        _ = try await watcher.round()
        #expect(watcher.unitCount == 1 && forecasts.calls.current == 2)
    }
}

/// Issue 52, item 3: one address's 2 devices × 100 places × 10 rain subscriptions had a lone
/// subscriber's place ranked last (cells were ranked by subscriptions) and "unwatched: budget".
/// Cells are now taken in turn by device (every device's first place before any device's second),
/// one device's many subscriptions to a place count once, and a device has at most
/// `cellsPerDevice` places watched.
@Suite struct FairWatchingTests {
    @Test func aLoneSubscriberIsWatchedBesideTwoDevicesWithAHundredPlacesEach() async throws {
        let clock = ManualClock(utc("2026-11-26T06:00:30Z"))
        let forecasts = OneDayForecast(wet: true)
        let useCases = try makeUseCases(forecasts, clock: clock)
        let budget = WatchBudgetTests()
        for device in ["x", "y"] {
            for i in 0..<100 {
                try await budget.save(useCases, "\(device)\(i)", latitude: (device == "x" ? 10 : 30) + Double(i) * 0.1, device: device)
            }
            for n in 0..<10 {
                _ = try await useCases.subscribe(
                    device: device, endpoint: URL(string: "https://push.example/\(device)/\(n)")!,
                    p256dh: Base64URL.encode(Data([4] + Array(repeating: 7, count: 64))),
                    auth: Base64URL.encode(Data(repeating: 1, count: 16)), minimumSeverity: .moderate)
            }
        }
        try await budget.save(useCases, "Home", latitude: 51.5, device: "v")
        _ = try await budget.subscribe(useCases, device: "v")
        // 100 calls a day: before anything is known a cell is reckoned at 24 (a call an hour), so
        // three cells are admitted — each device's first place.
        let watcher = PushWatcher(useCases: useCases, interval: 900, budget: Budget([RateLimit(100, per: 86_400)]))
        _ = try await watcher.round()
        #expect(try await useCases.subscriptions(device: "v").first?.unwatched == nil, "the lone subscriber's place is watched")
        #expect(watcher.lastRound.current.watched == 3 && forecasts.calls.current == 3, "\(watcher.lastRound.current)")
        // Without a budget, each device still has at most `cellsPerDevice` places watched.
        let unlimited = PushWatcher(useCases: useCases, interval: 900, budget: nil)
        let before = forecasts.calls.current
        _ = try await unlimited.round()
        // (The three cells asked already are placed on their grid point from the cache this round,
        // without a call; the others are asked once each.)
        #expect(unlimited.lastRound.current.unwatched == 2 * (100 - PushWatcher.cellsPerDevice), "\(unlimited.lastRound.current)")
        #expect(forecasts.calls.current - before == 2 * PushWatcher.cellsPerDevice + 1 - 3)
        #expect(try await useCases.subscriptions(device: "v").first?.unwatched == nil)
        let told = try await useCases.subscriptions(device: "x").first?.unwatched ?? []
        #expect(told.count == 100 - PushWatcher.cellsPerDevice)
    }
}
