import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// A helper that fails is left alone for a back-off that doubles; a refusal that names its own
/// wait (the server's budget for a provider spent: "try again in 3 s") keeps the key for that wait
/// only — the flood test found a point refused for 151 s after the client was told 3 s.
@Suite struct FailureMemoryTests {
    @Test func aRefusalWithItsOwnWaitIsKeptForThatWaitNotTheBackOff() async throws {
        let memory = FailureMemory(base: 60, max: 900)
        let start = utc("2026-11-26T12:00:00Z")
        let clock = Locked(start)
        let now: @Sendable () -> Date = { clock.withLock { $0 } }
        // Two outages in a row: 60 s, then 120 s.
        for _ in 0..<2 {
            _ = try? await memory.tracking("p", now: now) { () async throws -> Int in throw BrollyError.providerUnavailable() }
        }
        #expect(memory.backingOff("p", now: start)! > 119)
        // The budget spent: 3 s, as the client was told, whatever came before.
        _ = try? await memory.tracking("p", now: now) { () async throws -> Int in
            throw BrollyError.budgetSpent("Nominatim", retryAfter: 3)
        }
        #expect(memory.backingOff("p", now: start)! <= 3)
        #expect(memory.backingOff("p", now: start.addingTimeInterval(3.1)) == nil)
        #expect(memory.refusal("p", now: start.addingTimeInterval(1), what: "naming the place")?.retryAfter ?? 99 <= 2)
        // The client's own limit is not the helper's failure at all.
        _ = try? await memory.tracking("q", now: now) { () async throws -> Int in throw BrollyError.clientLimited(retryAfter: 30) }
        #expect(memory.backingOff("q", now: start) == nil)
    }
}
