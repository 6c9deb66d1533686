import BrollyCore
import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

/// Issue 40, item 1: when the watcher looks at a cell and when it asks upstream — at each
/// subscriber's push moment, closer as the rain nears, seldom where no rain is possible.
@Suite struct WatchPlanTests {
    let now = utc("2026-11-26T12:00:30Z")
    let utcZone = TimeZone(secondsFromGMT: 0)!

    func report(slots mm: [Double], chance: [Double] = []) -> WeatherReport {
        var r = sampleReport(at: now)
        r.nowcast = slots(from: utc("2026-11-26T12:00:00Z"), mm)
        r.hours = chance.enumerated().map { i, p in
            HourForecast(
                time: utc("2026-11-26T13:00:00Z").addingTimeInterval(Double(i) * 3600), temperature: 9, precipitationProbability: p,
                condition: Conditions.wmo(3))
        }
        return r
    }

    func plan(_ r: WeatherReport?, leads: [Int] = [20], mornings: [ClockTime] = []) -> WatchPlan {
        WatchPlan.after(
            r, needs: WatchPlan.Needs(leads: leads.map { TimeInterval($0 * 60) }, minimum: 0.1, mornings: mornings), now: now,
            interval: 900, dry: 7200, zone: utcZone)
    }

    @Test func rainInTheSlotsWakesAtEachPushMomentAndIsAskedOnceMoreTenMinutesBefore() {
        // Rain from 13:30 (the seventh slot).
        let p = plan(report(slots: [0, 0, 0, 0, 0, 0, 0.6, 0.6, 0]), leads: [20, 45])
        // 13:30 − 45 min is the first push moment: asked ten minutes before it, then looked at then.
        #expect(p.nextCall == utc("2026-11-26T12:35:00Z") && p.wake == p.nextCall)
        let refined = WatchPlan.after(
            report(slots: [0, 0, 0, 0, 0, 0, 0.6, 0.6, 0]), needs: WatchPlan.Needs(leads: [1200, 2700], minimum: 0.1),
            now: utc("2026-11-26T12:35:00Z"), interval: 900, dry: 7200, zone: utcZone)
        #expect(refined.wake == utc("2026-11-26T12:45:00Z") && refined.nextCall == utc("2026-11-26T12:50:00Z"))
        // Within 15 minutes of the moment: no call before it; the look at the moment.
        let near = plan(report(slots: [0, 0.6, 0.6]), leads: [10])
        #expect(near.wake == utc("2026-11-26T12:05:00Z") && near.nextCall == now.addingTimeInterval(900))
    }

    @Test func noChanceIsAskedAfterTheDryIntervalAChanceNearEveryHour() {
        let dry = plan(report(slots: Array(repeating: 0, count: 9), chance: Array(repeating: 0, count: 24)))
        #expect(dry.nextCall == now.addingTimeInterval(7200) && dry.wake == dry.nextCall)
        let near = plan(report(slots: Array(repeating: 0, count: 9), chance: [60, 60, 0]), leads: [20])
        #expect(near.nextCall == now.addingTimeInterval(3600))  // every hour while the chance is within reach
        // A chance from 17:00 only: after the dry interval; from 15:00 with a 60-minute lead: at 13:15
        // (15:00 − 60 min − 45 min), when the slots will show it in time.
        let later = plan(report(slots: Array(repeating: 0, count: 9), chance: [0, 0, 0, 0, 0, 60]), leads: [20])
        #expect(later.nextCall == now.addingTimeInterval(7200))
        let soon = plan(report(slots: Array(repeating: 0, count: 9), chance: [0, 0, 0, 60]), leads: [60])
        #expect(soon.nextCall == utc("2026-11-26T13:15:00Z"))
        // Nothing known: again after an interval.
        #expect(plan(nil).nextCall == now.addingTimeInterval(900))
    }

    @Test func rainFallingIsAskedWhenTheNextOnsetCouldBeSeenAndAMorningWakesTheCell() {
        // Raining until 12:30: a new onset needs an hour dry (13:30), seen in time for a 20-minute
        // lead by 12:55; still raining at the slots' end: every other interval.
        #expect(plan(report(slots: [0.6, 0.6, 0])).nextCall == utc("2026-11-26T12:55:00Z"))
        #expect(plan(report(slots: Array(repeating: 0.6, count: 9))).nextCall == now.addingTimeInterval(1800))
        let morning = plan(
            report(slots: Array(repeating: 0, count: 9), chance: Array(repeating: 0, count: 24)),
            mornings: [ClockTime(hour: 13, minute: 0)])
        #expect(morning.wake == utc("2026-11-26T13:00:00Z") && morning.nextCall == now.addingTimeInterval(7200))
        #expect(
            WatchPlan.nextMorning(at: ClockTime(hour: 7, minute: 0), zone: TimeZone(identifier: "Asia/Kolkata")!, after: now)
                == utc("2026-11-27T01:30:00Z"))
    }
}
