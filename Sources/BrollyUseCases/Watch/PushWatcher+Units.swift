import BrollyCore
import BrollyStore
import Foundation

/// The watched places and their units: which cells there are, on which model grid point each one
/// is answered (cells on one grid point share a unit: one plan, one call), and which units the
/// budget admits.
extension PushWatcher {
    /// The cells the budget can keep watched for the whole day, in turn (`before`: each device's
    /// first place, then its second…; at most `cellsPerDevice` a device), each at
    /// what it cost over the last day (a cell watched for less: `reckonedCost`). The others are not
    /// asked at all — rather than every cell losing calls at random — and their subscribers are
    /// told; the fewest places go unwatched.
    func admitted(_ cells: [(key: String, cell: Cell)], now: Date) -> Set<String> {
        guard let daily = dailyCalls else { return Set(cells.filter { $0.cell.turn < Self.cellsPerDevice }.map(\.key)) }
        let dayAgo = now.addingTimeInterval(-86_400)
        let costs = callLog.withLock { log in
            log = log.compactMapValues { calls in
                let kept = calls.filter { $0 > dayAgo }
                return kept.isEmpty ? nil : kept
            }
            return log.mapValues { Double($0.count) }
        }
        let watchedFor = now.timeIntervalSince(started.withLock { $0 ?? now })
        // A cell's calls over the last day; within the first day, its calls so far scaled to a day
        // (after an hour); a cell not asked yet: what the others cost on average, or
        // `reckonedCost` before anything is known.
        let scale = watchedFor >= 86_400 ? 1 : watchedFor >= 3600 ? 86_400 / watchedFor : 0
        let known = scale > 0 ? costs.values.map { $0 * scale } : []
        let reckoned = known.isEmpty ? Self.reckonedCost : known.reduce(0, +) / Double(known.count)
        var used = discoveries.withLock { calls in
            calls.removeAll { $0 <= dayAgo }
            return Double(calls.count)
        }
        var out = Set<String>()
        for (key, cell) in cells {
            let cost = scale > 0 ? costs[key].map { $0 * scale } ?? reckoned : reckoned
            // A device's places beyond `cellsPerDevice` are not watched; the first cell in turn is
            // always watched (the budget itself still refuses what it cannot give).
            guard cell.turn < Self.cellsPerDevice else { continue }
            guard used + cost <= 0.9 * daily || out.isEmpty else { continue }
            used += cost
            out.insert(key)
        }
        return out
    }

    /// A place's cell: its key and the place asked for it — the cell's centre (on the 0.01° grid,
    /// the point the normal cache keeps the place's forecast under), named and zoned as a place in it,
    /// so that every place of the cell is answered from the same point.
    public func cell(of place: Place) -> (key: String, place: Place) {
        let size = max(0.01, grid)
        var centre = place
        centre.latitude = Rounding.round((place.latitude / size).rounded() * size, 2)
        centre.longitude = Rounding.round((place.longitude / size).rounded() * size, 2)
        return (centre.coordinate.cacheKey, centre)
    }

    /// The watched cells, most subscribers first: read again when the subscriptions or saved
    /// places changed through this instance or, as the store counts, any other, or after `indexAge`.
    func cells(now: Date) async throws -> [(key: String, cell: Cell)] {
        let store = useCases.services.store
        let known = index.withLock { $0 }
        // The changes through this instance and through every instance (PostgreSQL); when the
        // store cannot say, the count last read (the list is read again within `indexAge`).
        let version = Index.Version(
            local: useCases.watchVersion.current, shared: (try? await store.watchedChanges()) ?? known?.version.shared ?? 0)
        if let known, known.version == version, now.timeIntervalSince(known.builtAt) < Self.indexAge { return known.cells }
        var cells: [String: Cell] = [:]
        var byDevice: [String: [PushSubscription]] = [:]
        for s in try await store.allSubscriptions() where s.settings.rain.enabled || s.settings.morning.enabled {
            byDevice[s.deviceId, default: []].append(s)
        }
        for (device, subscriptions) in byDevice {
            let places = try await store.places(device: device)
            // The device's watched places in its own order: a place's turn is its position here.
            let watched = places.filter { saved in subscriptions.contains { $0.settings.covers(saved.id) } }
            var turns: [String: Int] = [:]
            for saved in watched where turns[cell(of: saved.place).key] == nil {
                turns[cell(of: saved.place).key] = turns.count
            }
            for subscription in subscriptions {
                for saved in places where subscription.settings.covers(saved.id) {
                    let (key, point) = cell(of: saved.place)
                    var cell = cells[key] ?? Cell(place: point)
                    cell.watchers.append(Watcher(subscription: subscription, saved: saved))
                    cell.subscribers.insert(subscription.id)
                    cell.devices.insert(device)
                    cell.turn = min(cell.turn, turns[key] ?? .max)
                    let s = subscription.settings
                    if s.rain.enabled {
                        cell.needs.leads.append(TimeInterval(s.rain.leadMinutes * 60))
                        cell.needs.minimum = min(cell.needs.minimum, s.rain.minimum.millimetres)
                    }
                    if s.morning.enabled { cell.needs.mornings.append(s.morning.at) }
                    cells[key] = cell
                }
            }
        }
        // The same needs however the store listed them (a plan is kept while its needs are).
        for key in cells.keys {
            cells[key]?.needs.leads.sort()
            cells[key]?.needs.mornings.sort { ($0.hour, $0.minute) < ($1.hour, $1.minute) }
        }
        let ordered = cells.sorted { Self.before($0.value, $0.key, $1.value, $1.key) }.map { (key: $0.key, cell: $0.value) }
        index.withLock { $0 = Index(cells: ordered, builtAt: now, version: version) }
        return ordered
    }

    /// The cells grouped by the grid point that answers them, most subscribers first. A unit whose
    /// needs changed (settings, or a cell joining it) is looked at again now, from what is cached.
    func grouped(_ cells: [(key: String, cell: Cell)], now: Date) -> [(key: String, cell: Cell)] {
        let grid = gridOf.current
        var merged: [String: Cell] = [:]
        var members: [String: [String]] = [:]
        for (key, cell) in cells {
            let unit = grid[key] ?? key
            members[unit, default: []].append(key)
            guard var m = merged[unit] else {
                merged[unit] = cell
                continue
            }
            m.watchers += cell.watchers
            m.subscribers.formUnion(cell.subscribers)
            m.devices.formUnion(cell.devices)
            m.turn = min(m.turn, cell.turn)
            m.needs = m.needs.joined(with: cell.needs)
            merged[unit] = m
        }
        let before = units.withLock { units in
            let before = units
            units = merged.reduce(into: [:]) { out, unit in
                out[unit.key] = (members[unit.key] ?? [], unit.value.needs, units[unit.key]?.asked)
            }
            return before
        }
        plans.withLock { plans in
            plans = plans.filter { merged[$0.key] != nil }
            for (key, unit) in merged where before[key]?.needs != unit.needs {
                plans[key]?.wake = now
            }
        }
        return merged.sorted { Self.before($0.value, $0.key, $1.value, $1.key) }.map { (key: $0.key, cell: $0.value) }
    }

    /// The order cells are looked at and admitted in: by turn (each device's first place, then
    /// each device's second…), then the most devices, then the key. Fair by device, not by
    /// subscription: one device's ten subscriptions to a place count as one.
    static func before(_ a: Cell, _ aKey: String, _ b: Cell, _ bKey: String) -> Bool {
        if a.turn != b.turn { return a.turn < b.turn }
        if a.devices.count != b.devices.count { return a.devices.count > b.devices.count }
        return aKey < bKey
    }

    /// The key of the unit of a grid point.
    func grid(of point: Coordinate) -> String { String(format: Self.gridPrefix + "%.4f,%.4f", point.latitude, point.longitude) }

    static let gridPrefix = "grid "

    /// Records that the cells of `unit` are answered from the grid point `point`: from the next
    /// round they share one unit (and one plan) with every other cell answered from it.
    func learn(_ point: Coordinate, unit: String, plan: WatchPlan, asked: Coordinate, fromCache: Bool = false) {
        let grid = grid(of: point)
        guard grid != unit else { return }
        let cells = units.withLock { units -> [String] in
            let cells = units[unit]?.cells ?? [unit]
            units[grid] = (units[grid]?.cells ?? [], units[grid]?.needs ?? units[unit]?.needs ?? WatchPlan.Needs(), asked)
            return cells
        }
        gridOf.withLock { for cell in cells { $0[cell] = grid } }
        gridVersion.withLock { $0 += 1 }
        plans.withLock { plans in
            plans[unit] = nil
            // Another unit on the same grid point planned already: the sooner of the two (a cell
            // placed from the cache does not hurry the grid point's plan).
            if let other = plans[grid], fromCache {
                plans[grid] = other
            } else if let other = plans[grid] {
                plans[grid] = WatchPlan(nextCall: min(other.nextCall, plan.nextCall), wake: min(other.wake, plan.wake), reason: plan.reason)
            } else {
                plans[grid] = plan
            }
        }
        // The call that found the grid point is not what watching it costs from now on; it stays
        // in the day's window all the same.
        let found = callLog.withLock { $0.removeValue(forKey: unit) } ?? []
        discoveries.withLock { $0 += found }
    }
}
