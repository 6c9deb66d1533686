import BrollyCore
import BrollyStore
import Foundation

/// A lease in the store that one instance of the cluster holds at a time, for work that must run
/// once per cluster (the push rounds). The holder renews it every `check` seconds (and during a
/// long round); the others try to take it as often, so when the holder dies its lease runs out
/// after `seconds` and another instance takes over within `seconds + check` (under a minute). One
/// server alone always holds it. Its time is the services' clock.
struct ClusterLease: Sendable {
    let name: String
    /// This instance's name in the lease (host, port and process).
    let holder: String
    let store: any DataStore
    let clock: any WallClock
    var seconds: Double = 40
    var check: Double = 10
    /// When the lease was last renewed.
    let renewedAt = Locked<Date>(.distantPast)

    /// Takes or renews the lease; false when another instance has it or the database is away.
    func renew() async -> Bool {
        let held = (try? await store.acquireLease(name, holder: holder, duration: seconds)) ?? false
        if held { renewedAt.withLock { $0 = clock.now } }
        return held
    }

    /// Whether it is still held during a long round: renewed when its last renewal is older than
    /// `check`.
    func keep() async -> Bool {
        if clock.now.timeIntervalSince(renewedAt.withLock { $0 }) > check { return await renew() }
        return true
    }
}
