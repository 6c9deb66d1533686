import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore
@testable import BrollyUseCases

/// 15-minute slots from `first` (the start of the first slot), one per amount.
func slots(from first: Date, _ mm: [Double], snow: Bool = false) -> [NowcastSlot] {
    mm.enumerated().map { i, v in
        NowcastSlot(end: first.addingTimeInterval(Double(i + 1) * 900), precipitation: v, snowfall: snow ? v * 0.7 : 0)
    }
}

@Suite struct RainRulesTests {
    let t0 = utc("2026-11-25T12:00:00Z")
    var lead60: PushSettings.Rain {
        var r = PushSettings.Rain()
        r.leadMinutes = 60
        return r
    }

    func decide(_ s: RainWatchState, _ slots: [NowcastSlot], at now: Date, _ settings: PushSettings.Rain? = nil, quiet: Bool = false)
        -> (RainWatchState, RainNotice?)
    {
        RainRules.decide(s, slots: slots, now: now, settings: settings ?? lead60, quiet: quiet)
    }

    /// Issue 40: rain at 21:30; the forecast (called every 15 minutes, at 21:02:31 and 21:17:31)
    /// shows it; rounds every 15 minutes (21:17:31, 21:32:31) pushed nothing for a 10-minute lead and
    /// 12.5 minutes ahead for a 20-minute one. Rounds every tick (a minute) push within a minute of
    /// the lead: for every lead the API takes.
    @Test(arguments: [10, 15, 20, 30, 45, 60])
    func everyLeadIsHonouredWithinAMinute(_ lead: Int) {
        let rain = utc("2026-11-25T21:30:00Z")
        let forecast = slots(from: utc("2026-11-25T20:45:00Z"), [0, 0, 0, 0.6, 0.6, 0.6, 0, 0, 0])
        var settings = PushSettings.Rain()
        settings.leadMinutes = lead
        func firstPush(every tick: TimeInterval) -> Date? {
            var state = RainWatchState()
            var t = utc("2026-11-25T20:17:31Z")
            while t < rain {
                let (next, notice) = RainRules.decide(state, slots: forecast, now: t, settings: settings, quiet: false)
                if notice?.status == .starting { return t }
                state = next
                t = t.addingTimeInterval(tick)
            }
            return nil
        }
        let pushed = firstPush(every: PushWatcher.tick(for: 900))
        let ahead = pushed.map { rain.timeIntervalSince($0) / 60 }
        #expect(ahead.map { $0 <= Double(lead) && $0 > Double(lead) - 1 } == true, "lead \(lead): pushed \(ahead ?? -1) min ahead")
        if lead == 10 { #expect(firstPush(every: 900) == nil) }  // the rounds of every 15 minutes missed it
    }

    @Test func rainWithinTheLeadTimeIsPushedOnceAndTheSameEventNotAgain() {
        // Dry, dry, then 45 min of rain from 12:30.
        let forecast = slots(from: t0, [0, 0, 0.6, 0.6, 0.6, 0, 0, 0, 0])
        let (s1, n1) = decide(RainWatchState(), forecast, at: t0.addingTimeInterval(60))
        #expect(n1?.status == .starting && n1?.event.start == t0.addingTimeInterval(1800))
        #expect(n1?.event.end == t0.addingTimeInterval(4500) && n1?.event.kind == .rain && n1?.event.intensity == .moderate)
        #expect(
            PushTexts.rain(n1!, place: "Home", now: t0.addingTimeInterval(60), language: Localization.english).body
                == "Rain starting in about 30 min at Home — moderate, for about 45 min")
        // The next look sees the same rain: nothing.
        let (s2, n2) = decide(s1, forecast, at: t0.addingTimeInterval(360))
        #expect(n2 == nil && s2.alerted?.start == s1.alerted?.start)
        // Moved by 10 minutes (slots shifted by 10 min): still the same event.
        let (s3, n3) = decide(s2, slots(from: t0.addingTimeInterval(600), [0, 0, 0.6, 0.6, 0.6, 0, 0, 0]), at: t0.addingTimeInterval(700))
        #expect(n3 == nil && s3.alerted?.start == t0.addingTimeInterval(1800))
        // Moved by 30 minutes: an update, with the new start.
        let later = slots(from: t0, [0, 0, 0, 0, 0.6, 0.6, 0, 0, 0])
        let (s4, n4) = decide(s3, later, at: t0.addingTimeInterval(800))
        #expect(n4?.status == .moved && n4?.event.start == t0.addingTimeInterval(3600))
        // Dried up before it began: "no longer expected", once.
        let dry = slots(from: t0, Array(repeating: 0, count: 9))
        let (s5, n5) = decide(s4, dry, at: t0.addingTimeInterval(900))
        #expect(n5?.status == .cancelled && s5.alerted == nil)
        let (_, n6) = decide(s5, dry, at: t0.addingTimeInterval(1000))
        #expect(n6 == nil)
    }

    @Test func nothingBeyondTheLeadTimeBelowTheMinimumOrWhenNothingWasSent() {
        let forecast = slots(from: t0, [0, 0, 0, 0.3, 0.3, 0, 0, 0, 0])  // from 12:45
        var lead20 = PushSettings.Rain()
        lead20.leadMinutes = 20
        #expect(decide(RainWatchState(), forecast, at: t0, lead20).1 == nil)
        #expect(decide(RainWatchState(), forecast, at: t0.addingTimeInterval(1800), lead20).1?.status == .starting)
        var moderate = lead60
        moderate.minimum = .moderate
        #expect(decide(RainWatchState(), forecast, at: t0, moderate).1 == nil)
        // Never pushed, now dry: no "no longer expected".
        #expect(decide(RainWatchState(), slots(from: t0, [0, 0, 0]), at: t0).1 == nil)
    }

    @Test func alreadyRainingIsTooLateAndANewEventNeedsAnHourDry() {
        let raining = slots(from: t0, [0.4, 0.4, 0, 0, 0.4, 0.4, 0, 0, 0])
        let (s1, n1) = decide(RainWatchState(), raining, at: t0.addingTimeInterval(300))
        #expect(n1 == nil && s1.lastWet == t0.addingTimeInterval(300))
        // It stops; rain again at 13:00, 45 min after it was last seen falling: the same spell.
        let (s2, n2) = decide(s1, slots(from: t0.addingTimeInterval(900), [0, 0, 0, 0.4, 0.4, 0, 0, 0]), at: t0.addingTimeInterval(1000))
        #expect(n2 == nil)
        // Rain at 14:30, after more than an hour dry: a new event.
        let (_, n3) = decide(s2, slots(from: t0.addingTimeInterval(3600), [0, 0, 0, 0.4, 0.4, 0, 0, 0]), at: t0.addingTimeInterval(3900))
        #expect(n3?.status == .starting && n3?.event.start == t0.addingTimeInterval(6300))
    }

    @Test func afterThePushedRainFellTheNextRainNeedsAnHourDry() {
        let forecast = slots(from: t0, [0, 0.6, 0.6, 0, 0, 0, 0, 0, 0])
        let (s1, n1) = decide(RainWatchState(), forecast, at: t0)
        #expect(n1?.status == .starting)
        // 12:20: raining.
        let (s2, _) = decide(s1, slots(from: t0.addingTimeInterval(900), [0.6, 0.6, 0, 0, 0, 0, 0, 0]), at: t0.addingTimeInterval(1200))
        // 12:50: stopped; more at 13:15 (55 min after 12:20): the same spell, no push.
        let (s3, n3) = decide(s2, slots(from: t0.addingTimeInterval(2700), [0, 0, 0.6, 0, 0, 0, 0, 0]), at: t0.addingTimeInterval(3000))
        #expect(n3 == nil && s3.alerted != nil)
        // 13:40: dry since 12:20; rain at 13:45: new.
        let (_, n4) = decide(s3, slots(from: t0.addingTimeInterval(5400), [0, 0.6, 0.6, 0, 0, 0, 0, 0]), at: t0.addingTimeInterval(6000))
        #expect(n4?.status == .starting)
    }

    @Test func quietHoursAreThePlacesAndHoldThePushUntilTheyEnd() {
        let quiet = PushSettings.Rain().quietHours!  // 22:00–07:00
        let sydney = TimeZone(identifier: "Australia/Sydney")!
        let now = utc("2026-11-25T12:30:00Z")  // 23:30 in Sydney (AEDT), 12:30 at the server
        #expect(quiet.contains(ClockTime(now, in: sydney)))
        #expect(!quiet.contains(ClockTime(now, in: TimeZone(identifier: "UTC")!)))
        #expect(quiet.contains(ClockTime(hour: 6, minute: 59)) && !quiet.contains(ClockTime(hour: 7, minute: 0)))
        let forecast = slots(from: t0, [0, 0, 0.6, 0.6, 0, 0, 0, 0, 0])
        let (s1, n1) = decide(RainWatchState(), forecast, at: t0, quiet: true)
        #expect(n1 == nil && s1.alerted == nil)
        #expect(decide(s1, forecast, at: t0.addingTimeInterval(60), quiet: false).1?.status == .starting)
    }

    @Test func snowSaysSnowAndTheTextsAreInTheReadersLanguage() {
        let forecast = slots(from: t0, [0, 0.3, 0.3, 0.3, 0, 0, 0, 0, 0], snow: true)
        let notice = decide(RainWatchState(), forecast, at: t0).1!
        #expect(notice.event.kind == .snow && notice.event.intensity == .light)
        let en = PushTexts.rain(notice, place: "Home", now: t0, language: Localization.english)
        #expect(en.body == "Snow starting in about 15 min at Home — light, for about 45 min")
        let ru = PushTexts.rain(notice, place: "Дом", now: t0, language: Localization.pack(for: "ru"))
        #expect(ru.body == "Дом: снег начнётся примерно через 15 мин — слабый, около 45 мин")
        let gone = PushTexts.rain(
            RainNotice(status: .cancelled, event: notice.event), place: "Home", now: t0, language: Localization.english)
        #expect(gone.body == "Snow no longer expected at Home")
        // Rain to the end of the slots: "for at least".
        let open = decide(RainWatchState(), slots(from: t0, [0, 0, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]), at: t0).1!
        #expect(open.event.end == nil)
        #expect(PushTexts.rain(open, place: "Home", now: t0, language: Localization.english).body.hasSuffix("for at least 105 min"))
    }
}

@Suite struct MorningSummaryTests {
    @Test func dueAtThePlacesSevenAcrossADaylightSavingChange() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let seven = ClockTime(hour: 7, minute: 0)
        // Summer time ends in Berlin on 2026-10-25 at 03:00: 07:00 is 05:00Z the day before, 06:00Z that day.
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-24T04:59:00Z")) == nil)
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-24T05:00:00Z")) == "2026-10-24")
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-25T05:30:00Z")) == nil)
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-25T06:00:00Z")) == "2026-10-25")
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-25T07:59:00Z")) == "2026-10-25")
        #expect(PushTexts.morningDue(at: seven, zone: berlin, now: utc("2026-10-25T08:00:00Z")) == nil)  // two hours late: skipped
        // Summer time starts in New York on 2026-03-08: 07:00 is 12:00Z before, 11:00Z after.
        let newYork = TimeZone(identifier: "America/New_York")!
        #expect(PushTexts.morningDue(at: seven, zone: newYork, now: utc("2026-03-07T12:00:00Z")) == "2026-03-07")
        #expect(PushTexts.morningDue(at: seven, zone: newYork, now: utc("2026-03-08T11:00:00Z")) == "2026-03-08")
        #expect(PushTexts.morningDue(at: seven, zone: newYork, now: utc("2026-03-08T10:59:00Z")) == nil)
    }

    @Test func theSummaryNamesTheDayRainWindAndWarningsInTheReadersUnits() {
        let now = utc("2026-11-25T06:00:00Z")  // 07:00 in Berlin
        var report = sampleReport(at: now)
        let rain = Conditions.wmo(61)
        report.days = [DayForecast(date: "2026-11-25", temperatureMin: 4.2, temperatureMax: 11.6, condition: rain)]
        report.hours = (0..<18).map { h in
            let time = utc("2026-11-25T06:00:00Z").addingTimeInterval(Double(h) * 3600)
            return HourForecast(
                time: time, temperature: 8, precipitationProbability: h >= 8 ? 70 : 10, precipitation: h >= 8 ? 0.8 : 0,
                windSpeed: h == 10 ? 11.1 : 4, condition: h >= 8 ? rain : Conditions.wmo(3))
        }
        let warning = Alert(
            id: "w1", source: "test", sender: "DWD", event: "Wind warning", severity: .moderate, headline: "", description: "",
            onset: nil, expires: nil, areas: [])
        let en = PushTexts.morning(
            report, place: "Home", alerts: [warning], now: now, units: PushSettings.unitChoice(.metric), language: Localization.english)
        #expect(en.title == "Home today")
        #expect(en.body == "Home today: 12° / 4°, rain from 15:00 (70%), wind up to 40 km/h, warning: Wind warning")
        let us = PushTexts.morning(
            report, place: "Home", alerts: [], now: now, units: PushSettings.unitChoice(.imperial), language: Localization.english)
        #expect(us.body == "Home today: 53° / 40°, rain from 15:00 (70%), wind up to 25 mph")
        let ru = PushTexts.morning(
            report, place: "Дом", alerts: [], now: now, units: PushSettings.unitChoice(.metric), language: Localization.pack(for: "ru"))
        #expect(ru.body == "Дом сегодня: 12° / 4°, дождь с 15:00 (70%), ветер до 40 км/ч")
        report.hours = report.hours.map {
            var h = $0
            h.precipitation = 0
            h.precipitationProbability = 0
            return h
        }
        #expect(
            PushTexts.morning(
                report, place: "Home", alerts: [], now: now, units: PushSettings.unitChoice(.metric), language: Localization.english
            ).body
                == "Home today: 12° / 4°, dry, wind up to 40 km/h")
    }
}
