import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

/// Issue 49, item 7: the compatible APIs' answers are kept by the one answer memo below the
/// adapters, by the caching policy's rules, on the clock the services read.
@Suite struct AnswerMemoTests {
    @Test func anotherAPIsAnswerIsKeptWhileItsWeatherIsFreshForAMinuteAtMost() throws {
        let start = utc("2026-11-26T12:00:00Z")
        let clock = ManualClock(start)
        let useCases = try makeUseCases(ProviderDouble(), clock: clock)
        let memo = WeatherAnswerMemo<String>(useCases: useCases) { _ in "" }
        let freshFor = useCases.services.weather.policy.freshFor
        #expect(freshFor > 60)
        // Made from weather fetched just now: kept for a minute ("currently" moves on), not longer.
        memo.remember("answer", answering: "/forecast/k/1,2", madeFrom: start)
        #expect(memo.recentAnswer(to: "/forecast/k/1,2") == "answer")
        #expect(memo.recentAnswer(to: "/forecast/k/1,3") == nil)
        clock.advance(59)
        #expect(memo.recentAnswer(to: "/forecast/k/1,2") == "answer")
        clock.advance(2)
        #expect(memo.recentAnswer(to: "/forecast/k/1,2") == nil)
        // Made from weather about to go stale: kept only while it is fresh.
        memo.remember("older", answering: "/v1/forecast?latitude=1", madeFrom: clock.now.addingTimeInterval(-(freshFor - 10)))
        #expect(memo.recentAnswer(to: "/v1/forecast?latitude=1") == "older")
        clock.advance(11)
        #expect(memo.recentAnswer(to: "/v1/forecast?latitude=1") == nil)
    }
}
