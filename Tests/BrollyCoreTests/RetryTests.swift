import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct RetryTests {
    let url = URL(string: "http://127.0.0.1:1/v1/forecast")!

    func service(_ transport: ScriptedTransport, sleeps: Locked<[TimeInterval]>, attempts: Int = 3) -> NetworkService {
        NetworkService(
            transport: transport, retry: RetryPolicy(maxAttempts: attempts, baseDelay: 0.5, maxDelay: 8), timeout: 4,
            sleep: { s in sleeps.withLock { $0.append(s) } }, jitter: { 1 })
    }

    @Test func serverErrorsAreRetriedWithExponentialBackoff() async throws {
        let sleeps = Locked<[TimeInterval]>([])
        let transport = ScriptedTransport([.respond(500, [:], ""), .respond(503, [:], ""), .respond(200, [:], "{}")])
        let response = try await service(transport, sleeps: sleeps).get(url, provider: "X")
        #expect(response.status == 200 && transport.count == 3)
        #expect(sleeps.withLock { $0 } == [0.5, 1.0])
        // The time-out is the whole call's: the first attempt gets (nearly) all of it.
        #expect(abs(transport.requests.withLock { $0[0].timeout } - 4) < 0.05)
    }

    @Test func jitterSpreadsTheDelay() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 8)
        #expect(policy.delay(forRetry: 1, jitter: 0) == 0.5)
        #expect(policy.delay(forRetry: 3, jitter: 0.5) == 3)
        #expect(policy.delay(forRetry: 10, jitter: 1) == 8)
    }

    @Test func retryAfterIsHonoured() async throws {
        let sleeps = Locked<[TimeInterval]>([])
        let transport = ScriptedTransport([.respond(429, ["Retry-After": "3"], ""), .respond(200, [:], "{}")])
        _ = try await service(transport, sleeps: sleeps).get(url, provider: "X")
        #expect(sleeps.withLock { $0 } == [3])
    }

    @Test func retryAfterLongerThanWeWaitIsReportedAsRateLimited() async {
        let sleeps = Locked<[TimeInterval]>([])
        let transport = ScriptedTransport([.respond(429, ["Retry-After": "120"], "")])
        await #expect(throws: BrollyError.rateLimited(retryAfter: 120)) {
            try await service(transport, sleeps: sleeps).get(url, provider: "X")
        }
        #expect(transport.count == 1 && sleeps.withLock { $0 }.isEmpty)
    }

    @Test func otherClientErrorsAreNotRetried() async {
        let sleeps = Locked<[TimeInterval]>([])
        let transport = ScriptedTransport([.respond(401, [:], #"{"cod":401,"message":"Invalid API key"}"#)])
        await #expect(throws: BrollyError.invalidAPIKey("OpenWeatherMap")) {
            try await service(transport, sleeps: sleeps).get(url, provider: "X", classify: OpenWeatherMapProvider.classifyError)
        }
        #expect(transport.count == 1)
        let notFound = ScriptedTransport([.respond(404, [:], #"{"cod":"404","message":"city not found"}"#)])
        do {
            _ = try await service(notFound, sleeps: sleeps).get(url, provider: "X", classify: OpenWeatherMapProvider.classifyError)
            Issue.record("expected an error")
        } catch let e as BrollyError { #expect(e.kind == .placeNotFound) } catch { Issue.record("\(error)") }
        #expect(notFound.count == 1 && sleeps.withLock { $0 }.isEmpty)
    }

    @Test func timeoutsAreRetriedThenReported() async {
        let sleeps = Locked<[TimeInterval]>([])
        let transport = ScriptedTransport([.fail(.timedOut)])
        do {
            _ = try await service(transport, sleeps: sleeps).get(url, provider: "X")
            Issue.record("expected an error")
        } catch let e as BrollyError { #expect(e.kind == .timedOut) } catch { Issue.record("\(error)") }
        #expect(transport.count == 3 && sleeps.withLock { $0 } == [0.5, 1])
    }

    @Test func connectionFailuresBecomeOfflineAndAreNotRetriedWhenNoConnectionCanBeMade() async {
        let sleeps = Locked<[TimeInterval]>([])
        // A lost connection is retried; a connection that cannot be made at all (no network,
        // no DNS) is reported at once: retrying it only makes the user wait.
        let transport = ScriptedTransport([
            .fail(.connectionLost("eof")), .fail(.cannotConnect("refused")), .fail(.cannotConnect("refused")),
        ])
        do {
            _ = try await service(transport, sleeps: sleeps).get(url, provider: "X")
            Issue.record("expected an error")
        } catch let e as BrollyError { #expect(e.kind == .offline && e.message.contains("127.0.0.1")) } catch { Issue.record("\(error)") }
        #expect(transport.count == 2)
    }

    @Test func retryAfterAsHTTPDate() {
        let now = utc("2026-11-21T12:00:00Z")
        #expect(NetworkService.retryAfter("Sat, 21 Nov 2026 12:00:30 GMT", now: now) == 30)
        #expect(NetworkService.retryAfter("soon", now: now) == nil)
    }
}
