import BenchmarkSupport
import BrollyCore
import BrollyStore
import BrollyUseCases
import Foundation

/// One run: N places where people live (five cities, forty towns, a tenth in the country), each
/// saved by its own device with rain alerts at a lead people pick (10–60 min, 20 the most
/// common), watched through the day by the real `PushWatcher` a minute at a time.
struct Simulation {
    let places: Int
    let field: RainField
    let seed: UInt64
    let budget: String
    let grid: Double
    let modelGrid: Double

    struct Result {
        var wetShare = 0.0
        var places = 0, cells = 0, units = 0, calls = 0
        /// Places the budget left unwatched at some time of the day, and those told so at its end.
        var unwatched = 0, told = 0
        /// Onsets at the places watched all day, and how they were warned.
        var onsets = 0, onTime = 0, offTime = 0, missed = 0
        /// Onsets at the places left unwatched.
        var onsetsElsewhere = 0
        var row: String {
            func pct(_ k: Int) -> String { onsets == 0 ? "—" : String(format: "%d (%.1f %%)", k, 100 * Double(k) / Double(onsets)) }
            return "| \(places) | \(cells) | \(units) | \(calls) | \(String(format: "%.2f", Double(calls) / Double(max(1, places)))) | "
                + "\(places - unwatched) | \(onsets) | \(pct(onTime)) | \(pct(offTime)) | \(pct(missed)) | \(unwatched) (\(told) told) | "
                + "\(onsetsElsewhere) | \(String(format: "%.1f %%", 100 * wetShare)) |"
        }
    }

    /// Where the places are, km in the field: clustered as people are.
    func points() -> [(x: Double, y: Double)] {
        var r = SeededRandom(seed: seed &* 31 &+ 1)
        let cities = (0..<5).map { _ in (Double.random(in: 40...260, using: &r), Double.random(in: 40...260, using: &r), 5.0) }
        let towns = (0..<40).map { _ in (Double.random(in: 10...290, using: &r), Double.random(in: 10...290, using: &r), 1.5) }
        return (0..<places).map { _ in
            let u = Double.random(in: 0..<1, using: &r)
            if u < 0.1 { return (Double.random(in: 0..<300, using: &r), Double.random(in: 0..<300, using: &r)) }
            let c = u < 0.7 ? cities[Int.random(in: 0..<cities.count, using: &r)] : towns[Int.random(in: 0..<towns.count, using: &r)]
            return (min(299, max(0, c.0 + r.normal() * c.2)), min(299, max(0, c.1 + r.normal() * c.2)))
        }
    }

    func run() async throws -> Result {
        // The places were saved the evening before, each from its weather page (one lookup each).
        let clock = ManualClock(dayStart.addingTimeInterval(-12 * 3600))
        let double = ForecastDouble(field: field, clock: clock, grid: modelGrid)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-rain-simulation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = "http://127.0.0.1:9"
        let configuration = try BrollyConfiguration(
            provider: nil, cacheDirectory: directory,
            environment: [
                "BROLLY_OPEN_METEO_URL": base, "BROLLY_OPEN_METEO_GEOCODING_URL": base, "BROLLY_NOMINATIM_URL": base,
                "BROLLY_OPEN_METEO_BUDGET": "1000000/day", "BROLLY_MODEL": "best_match",
            ])
        let store: any DataStore = try AppDatabase.inMemory()
        let services = Services.make(
            configuration: configuration, transport: double, store: store,
            options: Services.Options(
                keepsEntriesInMemory: true, clock: clock, staleLimit: 86_400, memoryEntries: max(2_048, places + 100)))
        let useCases = UseCases(services: services)
        let watcher = PushWatcher(
            useCases: useCases, interval: 900, budget: try Budget.parse(budget), grid: grid)
        var r = SeededRandom(seed: seed &* 17 &+ 3)
        let leads = [10, 15, 20, 20, 20, 20, 30, 30, 45, 60]
        var watched: [(id: Int64, subscription: String, x: Double, y: Double, lead: Int)] = []
        var cellOf: [Int64: String] = [:]
        for (i, p) in points().enumerated() {
            let c = field.coordinate(x: p.x, y: p.y)
            let place = Place(name: "Place \(i)", country: "", latitude: c.latitude, longitude: c.longitude, timezone: "Europe/Berlin")
            let saved = try await store.addPlace(place, customName: nil, device: "device-\(i)", now: dayStart)
            var settings = PushSettings()
            settings.rain.leadMinutes = leads[Int.random(in: 0..<leads.count, using: &r)]
            settings.rain.quietHours = nil
            settings.morning.enabled = false
            _ = try await store.subscribe(
                PushSubscription(
                    id: "s\(i)", deviceId: "device-\(i)", endpoint: "https://push.example/\(i)", p256dh: "k", auth: "a",
                    minimumSeverity: .extreme, createdAt: dayStart, settings: settings), now: dayStart)
            // The rain that counts at a place is what the provider says fell at the grid point that
            // answers it (for the centre of its 0.01° cell, where Brolly asks).
            let centre = watcher.cell(of: saved.place).place
            let point = ForecastDouble.snapped(centre.latitude, centre.longitude, grid: modelGrid)
            let xy = field.km(latitude: point.latitude, longitude: point.longitude)
            watched.append((saved.id ?? 0, "s\(i)", xy.x, xy.y, settings.rain.leadMinutes))
            cellOf[saved.id ?? 0] = watcher.cell(of: saved.place).key
        }
        var pushes: [Int64: [(at: Double, status: String)]] = [:]
        var unwatched = Set<Int64>()
        var callsBy: [WatchPlan.Reason: Int] = [:]
        var everUnwatched = Set<String>()
        for saved in try await store.allSubscriptions() {
            for place in try await store.places(device: saved.deviceId) {
                _ = try? await services.weather.weather(for: watcher.cell(of: place.place).place)
            }
        }
        let lookups = double.calls.current
        clock.advance(dayStart.timeIntervalSince(clock.now))
        for _ in 0..<(24 * 60) {
            let now = clock.now.timeIntervalSince(dayStart)
            for push in try await watcher.round() {
                let id = push.payload.place.id ?? 0
                pushes[id, default: []].append((now, push.payload.status ?? ""))
                try await watcher.delivered(push)
            }
            callsBy.merge(watcher.lastRound.current.callsBy, uniquingKeysWith: +)
            everUnwatched.formUnion(watcher.unwatchedCells)
            clock.advance(60)
        }
        if ProcessInfo.processInfo.environment["SIM_CALLS"] != nil {
            print("calls by reason: " + WatchPlan.Reason.allCases.map { "\($0.rawValue) \(callsBy[$0] ?? 0)" }.joined(separator: ", "))
        }
        for w in watched {
            let states = try await store.pushStates(subscription: w.subscription)
            if states.keys.contains(where: { $0.hasPrefix("unwatched|") }) { unwatched.insert(w.id) }
        }
        func key(_ w: (id: Int64, subscription: String, x: Double, y: Double, lead: Int)) -> String { cellOf[w.id] ?? "" }
        let left = Set(watched.filter { everUnwatched.contains(key($0)) }.map(\.id))
        var result = Result(places: places, calls: double.calls.current - lookups, unwatched: left.count, told: unwatched.count)
        result.cells = Set(watched.map(key)).count
        result.units = watcher.unitCount
        // The truth: a quarter hour with 0.1 mm or more after an hour dry is an onset at its
        // start; those from 02:00 (the watcher has looked everywhere) to the day's end count.
        var wetSlots = 0
        for w in watched {
            wetSlots += (0..<96).filter { field.slot(x: w.x, y: w.y, end: Double($0 + 1) * 900) >= 0.1 }.count
        }
        result.wetShare = Double(wetSlots) / Double(96 * max(1, watched.count))
        for w in watched {
            let wet = (0..<(26 * 4)).map { field.slot(x: w.x, y: w.y, end: Double($0 - 8 + 1) * 900) >= 0.1 }
            for k in 4..<wet.count where wet[k] && !wet[(k - 4)..<k].contains(true) {
                let onset = Double(k - 8) * 900
                guard onset >= 2 * 3600, onset < 24 * 3600 else { continue }
                guard !left.contains(w.id) else {
                    result.onsetsElsewhere += 1
                    continue
                }
                result.onsets += 1
                let lead = Double(w.lead * 60)
                let warned = pushes[w.id, default: []].last {
                    ($0.status == "starting" || $0.status == "moved") && $0.at <= onset && $0.at > onset - lead - 2700
                }
                guard let warned else {
                    if ProcessInfo.processInfo.environment["SIM_DEBUG"] != nil {
                        print(
                            "missed: place \(w.id) lead \(w.lead) onset \(onset / 3600) pushes \(pushes[w.id, default: []].map { ($0.at / 3600, $0.status) }) wet \(wet.enumerated().filter(\.element).map { Double($0.offset - 8) / 4 })"
                        )
                    }
                    result.missed += 1
                    continue
                }
                if abs(onset - warned.at - lead) <= 180 {
                    result.onTime += 1
                } else {
                    result.offTime += 1
                    if ProcessInfo.processInfo.environment["SIM_DEBUG"] != nil {
                        print(
                            "off: place \(w.id) lead \(w.lead) onset \(onset / 3600) pushes \(pushes[w.id, default: []].map { ($0.at / 3600, $0.status) })"
                        )
                    }
                }
            }
        }
        return result
    }
}
