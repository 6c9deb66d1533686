import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct UpstreamGuardTests {
    let url = URL(string: "http://127.0.0.1:1/v1/forecast")!

    func network(_ transport: ScriptedTransport, guards: UpstreamGuards, attempts: Int = 3) -> NetworkService {
        var n = NetworkService(
            transport: transport, retry: RetryPolicy(maxAttempts: attempts, baseDelay: 0.01, maxDelay: 0.05), timeout: 4,
            clock: guards.clock, sleep: { _ in }, jitter: { 0 })
        n.guards = guards
        return n
    }

    @Test func budgetsParseAndPrint() throws {
        let budget = try Budget.parse("600/min, 5000/h,10000/day")
        #expect(budget == Budget([.init(600, per: 60), .init(5_000, per: 3_600), .init(10_000, per: 86_400)]))
        #expect(budget.description == "600/min,5000/h,10000/day")
        #expect(Upstream.openMeteo.defaultBudget == budget)
        #expect(Upstream.nominatim.budgetVariable == "BROLLY_NOMINATIM_BUDGET")
        #expect(Upstream.openMeteo.budgetVariable == "BROLLY_OPEN_METEO_BUDGET")
        for bad in ["", "600", "x/min", "10/fortnight", "-1/s", "0/s"] {
            #expect(throws: BrollyError.self) { try Budget.parse(bad) }
        }
        #expect(throws: BrollyError.self) { try UpstreamGuards.budgets(from: ["BROLLY_NOMINATIM_BUDGET": "lots"]) }
        #expect(try UpstreamGuards.budgets(from: ["BROLLY_NOMINATIM_BUDGET": "2/s"])[.nominatim] == Budget([.init(2, per: 1)]))
    }

    @Test func aBudgetIsASlidingWindowAndNeverQueuesBeyondTheWait() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let buckets = TokenBuckets(Budget([.init(2, per: 1), .init(3, per: 60)]), clock: ManualClock(start))
        #expect(buckets.reserve(maxWait: 0, now: start) == .granted(after: 0))
        #expect(buckets.reserve(maxWait: 0, now: start) == .granted(after: 0))
        // Two calls in this second: the third may come when the first leaves the window, 1 s on.
        #expect(buckets.reserve(maxWait: 0, now: start) == .refused(retryAfter: 1))
        #expect(buckets.reserve(maxWait: 2, now: start) == .granted(after: 1))
        // Three calls in this minute (3/min): the next when the first is a minute old.
        #expect(buckets.reserve(maxWait: 2, now: start.addingTimeInterval(1)) == .refused(retryAfter: 59))
        #expect(buckets.reserve(maxWait: 0, now: start.addingTimeInterval(25)) == .refused(retryAfter: 35))
        #expect(buckets.reserve(maxWait: 0, now: start.addingTimeInterval(60)) == .granted(after: 0))
        #expect(buckets.remaining(now: start.addingTimeInterval(60)) == 1)
    }

    /// Issue 35: token buckets starting full and refilling at the budget's rate let through about
    /// twice the budget in a window. Whatever the calls' times, no window of a limit's length
    /// holds more than its count.
    @Test func noWindowEverHoldsMoreThanTheBudget() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let start = Date(timeIntervalSince1970: 1_000_000)
            let limits = [RateLimit(5, per: 10), RateLimit(12, per: 60)]
            let buckets = TokenBuckets(Budget(limits), clock: ManualClock(start))
            var t = start
            var calls: [Date] = []
            for _ in 0..<400 {
                t = t.addingTimeInterval(Double.random(in: 0...2, using: &rng))
                if case .granted(let wait) = buckets.reserve(maxWait: Double.random(in: 0...3, using: &rng), now: t) {
                    calls.append(t.addingTimeInterval(wait))
                }
            }
            #expect(calls.count > 50)
            for limit in limits {
                for (i, c) in calls.enumerated() {
                    let inWindow = calls[i...].prefix { $0 < c.addingTimeInterval(limit.period) }.count
                    #expect(inWindow <= limit.count, "\(inWindow) calls in \(limit.period) s from \(c)")
                }
            }
        }
    }

    @Test func aSpentBudgetRefusesTheCallWithoutAskingTheProvider() async {
        let guards = UpstreamGuards(budgets: [.openMeteo: Budget([.init(2, per: 3_600)])])
        let transport = ScriptedTransport([.respond(200, [:], "{}")])
        let n = network(transport, guards: guards)
        _ = try? await n.get(url, provider: "Open-Meteo")
        _ = try? await n.get(url, provider: "Open-Meteo geocoding")
        do {
            _ = try await n.get(url, provider: "Open-Meteo")
            Issue.record("expected the budget to be spent")
        } catch let e as BrollyError {
            #expect(e.kind == .rateLimited && (e.retryAfter ?? 0) > 1_000 && e.message.contains("budget"))
        } catch { Issue.record("\(error)") }
        #expect(transport.count == 2)
        // Other upstreams have budgets of their own.
        _ = try? await n.get(url, provider: "Nominatim")
        #expect(transport.count == 3)
    }

    @Test func retriesStayWithinTheBudget() async {
        let guards = UpstreamGuards(budgets: [.openMeteo: Budget([.init(2, per: 3_600)])])
        let transport = ScriptedTransport([.respond(500, [:], "")])
        do {
            _ = try await network(transport, guards: guards, attempts: 5).get(url, provider: "Open-Meteo")
            Issue.record("expected a failure")
        } catch let e as BrollyError {
            // The provider's failure is reported, not the budget that stopped the retries.
            #expect(e.kind == .providerUnavailable)
        } catch { Issue.record("\(error)") }
        #expect(transport.count == 2)
    }

    @Test func theBreakerOpensAfterRepeatedFailuresThenLetsOneTrialThrough() async throws {
        let outcomes = Locked<[UpstreamOutcome]>([])
        let clock = ManualClock(Date(timeIntervalSince1970: 1_000_000))
        let guards = UpstreamGuards(
            breakerThreshold: 3, breakerCoolDown: 0.3, clock: clock, observe: { _, o in outcomes.withLock { $0.append(o) } })
        let failing = ScriptedTransport([.respond(503, [:], "")])
        let n = network(failing, guards: guards, attempts: 1)
        for _ in 0..<3 { _ = try? await n.get(url, provider: "Open-Meteo") }
        #expect(guards.breakers[.openMeteo]!.currentState == .open)
        // Open: no call is made, the answer is immediate.
        do {
            _ = try await n.get(url, provider: "Open-Meteo")
            Issue.record("expected the breaker to refuse")
        } catch let e as BrollyError { #expect(e.kind == .providerUnavailable && e.message.contains("paused")) }
        #expect(failing.count == 3 && outcomes.withLock { $0.last } == .circuitOpen)
        // After the cool-down one trial goes through; it fails, so the circuit opens again, for
        // twice as long (0.6 s).
        clock.advance(0.35)
        _ = try? await n.get(url, provider: "Open-Meteo")
        #expect(failing.count == 4 && guards.breakers[.openMeteo]!.currentState == .open)
        clock.advance(0.35)
        _ = try? await n.get(url, provider: "Open-Meteo")
        #expect(failing.count == 4)
        // A successful trial closes it.
        clock.advance(0.3)
        let healthy = ScriptedTransport([.respond(200, [:], "{}")])
        _ = try await network(healthy, guards: guards, attempts: 1).get(url, provider: "Open-Meteo")
        #expect(guards.breakers[.openMeteo]!.currentState == .closed)
        // A 404 is an answer, not a failure of the provider.
        let notFound = ScriptedTransport([.respond(404, [:], "")])
        for _ in 0..<5 { _ = try? await network(notFound, guards: guards, attempts: 1).get(url, provider: "Open-Meteo") }
        #expect(guards.breakers[.openMeteo]!.currentState == .closed)
    }

    @Test func aRequestCountsOnceForTheBreakerWhateverItsRetries() async {
        let guards = UpstreamGuards(breakerThreshold: 3)
        let failing = ScriptedTransport([.respond(503, [:], "")])
        let n = network(failing, guards: guards, attempts: 3)
        for _ in 0..<2 { _ = try? await n.get(url, provider: "Open-Meteo") }
        // Six failed attempts, but two failed requests: still closed.
        #expect(failing.count == 6 && guards.breakers[.openMeteo]!.currentState == .closed)
        do {
            _ = try await n.get(url, provider: "Open-Meteo")
            Issue.record("expected a failure")
        } catch let e as BrollyError {
            // The third failed request opens it; the failure says when to ask again.
            #expect(e.kind == .providerUnavailable && (e.retryAfter ?? 0) > 1.5 && (e.retryAfter ?? 0) <= 2)
        } catch { Issue.record("\(error)") }
        #expect(guards.breakers[.openMeteo]!.currentState == .open)
    }

    @Test func theBreakerOpensOnAFailureRateOnceItHasEnoughRequests() {
        let t0 = Date()
        let breaker = CircuitBreaker(minimumRequests: 4, failureRate: 0.5, window: 30)
        breaker.recordSuccess(now: t0)
        breaker.recordFailure(now: t0 + 1)
        breaker.recordSuccess(now: t0 + 2)
        #expect(breaker.currentState == .closed)
        // Two of four failed: half.
        breaker.recordFailure(now: t0 + 3)
        #expect(breaker.currentState == .open)
        // Outside the window, old outcomes no longer count.
        let other = CircuitBreaker(minimumRequests: 4, failureRate: 0.5, window: 10)
        for i in 0..<3 { other.recordFailure(now: t0 + Double(i) * 20) }
        other.recordSuccess(now: t0 + 61)
        other.recordFailure(now: t0 + 62)
        #expect(other.currentState == .closed)
        // Many successes do not hide failures in a row.
        let busy = CircuitBreaker(minimumRequests: 5)
        for i in 0..<100 { busy.recordSuccess(now: t0 + Double(i) / 10) }
        for i in 0..<4 { busy.recordFailure(now: t0 + 11 + Double(i) / 10) }
        #expect(busy.currentState == .closed)
        busy.recordFailure(now: t0 + 12)
        #expect(busy.currentState == .open)
    }

    @Test func theCoolDownStartsShortGrowsOnRepeatedTripsAndStartsAgainAfterASuccess() {
        let t0 = Date()
        let breaker = CircuitBreaker(minimumRequests: 1, coolDown: 2, maxCoolDown: 10)
        breaker.recordFailure(now: t0)
        if case .refused(let wait) = breaker.permit(now: t0 + 1.9) { #expect(wait > 0 && wait <= 0.11) } else { Issue.record("not open") }
        #expect(breaker.permit(now: t0 + 2) == .trial)
        // Only one trial at a time.
        if case .refused = breaker.permit(now: t0 + 2.1) {} else { Issue.record("a second trial was let through") }
        breaker.recordFailure(now: t0 + 2.5)
        #expect(abs(breaker.retryAfter(now: t0 + 2.5) - 4) < 0.01)
        #expect(breaker.permit(now: t0 + 6.5) == .trial)
        breaker.recordFailure(now: t0 + 6.5)
        #expect(abs(breaker.retryAfter(now: t0 + 6.5) - 8) < 0.01)
        #expect(breaker.permit(now: t0 + 14.5) == .trial)
        breaker.recordFailure(now: t0 + 14.5)
        #expect(abs(breaker.retryAfter(now: t0 + 14.5) - 10) < 0.01)  // at most maxCoolDown
        #expect(breaker.permit(now: t0 + 24.5) == .trial)
        breaker.recordSuccess(now: t0 + 24.5)
        #expect(breaker.currentState == .closed)
        breaker.recordFailure(now: t0 + 30)
        #expect(abs(breaker.retryAfter(now: t0 + 30) - 2) < 0.01)
    }

    @Test func aFiveSecondBlipDeniesNewPlacesForLessThanTenSecondsAfterTheNetworkReturns() {
        // Requests every 0.2 s (a crowd of clients, each retrying); the network is away from 0 to
        // 5 s. The first request answered after it returns must come within 10 s of it.
        let t0 = Date()
        for start in stride(from: 0.0, to: 2.0, by: 0.3) {
            let breaker = CircuitBreaker()
            var firstServed: Double?
            for step in 0..<200 {
                let t = start + Double(step) * 0.2
                let now = t0 + t
                if case .refused = breaker.permit(now: now) { continue }
                if t < 5 {
                    breaker.recordFailure(now: now)
                } else {
                    breaker.recordSuccess(now: now)
                    firstServed = t
                    break
                }
            }
            #expect(
                firstServed.map { $0 - 5 < 10 } == true,
                "blip starting \(start) s into the cycle: served at \(String(describing: firstServed))")
        }
    }

    @Test func theClientIsChargedOncePerRequestAndOncePerOperation() async {
        // Nominatim's own 1 a second would have the naming calls wait their turns in real time
        // (29 s, the Swift suite's longest case): what is counted here is the charges, not the budget.
        let guards = UpstreamGuards(budgets: [.nominatim: Budget([.init(1_000, per: 1)])])
        let failing = ScriptedTransport([.respond(500, [:], "")])
        let n = network(failing, guards: guards, attempts: 3)
        let charged = Locked(0)
        let aux = Locked(0)
        let allowance = ClientAllowance(
            take: {
                charged.withLock { $0 += 1 }
                return nil
            },
            auxiliary: {
                aux.withLock { $0 += 1 }
                return nil
            })
        await ClientAllowance.$current.withValue(allowance) {
            _ = try? await n.get(url, provider: "Open-Meteo")
            // Three attempts, one request: one charge.
            #expect(failing.count == 3 && charged.withLock { $0 } == 1)
            // Naming: several calls, charged once, to the auxiliary allowance.
            await ClientAllowance.auxiliaryOnce {
                for _ in 0..<3 { _ = try? await n.get(url, provider: "Nominatim") }
                await ClientAllowance.auxiliaryOnce { _ = try? await n.get(url, provider: "Nominatim") }
            }
        }
        #expect(charged.withLock { $0 } == 1 && aux.withLock { $0 } == 1)
    }

    @Test func aClientPastItsAllowanceIsRefusedWithoutACall() async {
        let guards = UpstreamGuards()
        let transport = ScriptedTransport([.respond(200, [:], "{}")])
        let n = network(transport, guards: guards)
        let left = Locked(2)
        let allowance = ClientAllowance {
            left.withLock { n in
                if n > 0 {
                    n -= 1
                    return nil
                }
                return 42
            }
        }
        await ClientAllowance.$current.withValue(allowance) {
            for _ in 0..<4 { _ = try? await n.get(url, provider: "Open-Meteo") }
            do {
                _ = try await n.get(url, provider: "Open-Meteo")
                Issue.record("expected the client to be limited")
            } catch let e as BrollyError { #expect(e.kind == .clientLimited && e.retryAfter == 42) } catch { Issue.record("\(error)") }
        }
        #expect(transport.count == 2)
        // Without an allowance (the CLI), no client limit applies.
        _ = try? await n.get(url, provider: "Open-Meteo")
        #expect(transport.count == 3)
    }

    @Test func theSharedDeadlineBoundsTheWholeCall() async {
        let transport = ScriptedTransport([.respond(200, [:], "{}")])
        let n = NetworkService(transport: transport, timeout: 10)
        await RequestDeadline.$current.withValue(Date().addingTimeInterval(2)) {
            _ = try? await n.get(url, provider: "X")
        }
        let given = transport.requests.withLock { $0[0].timeout }
        #expect(given <= 2 && given > 1.5)
        await RequestDeadline.$current.withValue(Date().addingTimeInterval(-1)) {
            do {
                _ = try await n.get(url, provider: "X")
                Issue.record("expected a time-out")
            } catch let e as BrollyError { #expect(e.kind == .timedOut) } catch { Issue.record("\(error)") }
        }
        #expect(transport.count == 1)
    }
}

@Suite struct LRUTests {
    @Test func theLeastRecentlyUsedEntryGoesFirst() {
        let cache = MemoryCache<Int>(capacity: 3)
        let at = Date()
        for (i, key) in ["a", "b", "c"].enumerated() { cache.set(key, CacheEntry(value: i, receivedAt: at)) }
        _ = cache.get("a")  // a is now the most recent; b the least
        cache.set("d", CacheEntry(value: 3, receivedAt: at))
        #expect(cache.get("b") == nil && cache.get("a")?.value == 0 && cache.get("c")?.value == 2 && cache.get("d")?.value == 3)
        #expect(cache.count == 3)
        cache.set("c", CacheEntry(value: 9, receivedAt: at))
        cache.remove("a")
        #expect(cache.count == 2 && cache.get("c")?.value == 9 && cache.get("a") == nil)
        for i in 0..<1_000 { cache.set("k\(i)", CacheEntry(value: i, receivedAt: at)) }
        #expect(cache.count == 3 && cache.get("k999")?.value == 999 && cache.get("k996") == nil)
    }
}

@Suite struct CacheEvictionTests {
    @Test func oldEntriesGoThenTheOldestUntilTheSizeFits() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-evict-\(UUID().uuidString)")
        let cache = FileCache(directory: dir, clock: SystemClock())
        let payload = String(repeating: "x", count: 10_000)
        for i in 0..<10 { try cache.write(payload, key: "k\(i)", receivedAt: Date()) }
        let now = Date()
        // k0 was last written 40 days ago; k1…k9 one minute apart, k1 the oldest.
        for i in 0..<10 {
            let date = i == 0 ? now.addingTimeInterval(-40 * 86_400) : now.addingTimeInterval(Double(i - 10) * 60)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: cache.fileURL(for: "k\(i)").path)
        }
        let size = try FileManager.default.attributesOfItem(atPath: cache.fileURL(for: "k5").path)[.size] as! Int
        let (removed, bytes) = cache.evict(maxBytes: size * 5, now: now)
        #expect(cache.read(String.self, key: "k0") == nil && cache.read(String.self, key: "k1") == nil)
        #expect(cache.read(String.self, key: "k9") != nil)
        #expect(bytes <= size * 5 && removed >= 5)
    }
}
