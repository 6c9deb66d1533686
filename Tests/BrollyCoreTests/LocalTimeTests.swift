import Foundation
import Testing

@testable import BrollyCore

/// The wall clock by integer arithmetic agrees with Foundation's `Calendar` in every kind of zone
/// (summer time, half- and quarter-hour offsets, a half-hour summer shift, fixed offsets), before
/// and after 1970, on the hours a transition skips or repeats, at fractions of a second.
@Suite struct LocalTimeTests {
    static let zones =
        [
            "UTC", "Europe/Berlin", "America/New_York", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Chatham",
            "Pacific/Kiritimati", "America/Santiago", "Europe/London",
        ].compactMap(TimeZone.init(identifier:)) + [TimeZone(secondsFromGMT: -9000)!]

    func reference(_ date: Date, in zone: TimeZone) -> (date: String, clock: String, hour: Int, iso: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = zone.secondsFromGMT(for: date)
        let m = abs(offset) / 60
        let day = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        return (
            day, String(format: "%02d:%02d", c.hour!, c.minute!), c.hour!,
            day + String(format: "T%02d:%02d:%02d%@%02d:%02d", c.hour!, c.minute!, c.second!, offset < 0 ? "-" : "+", m / 60, m % 60)
        )
    }

    @Test(arguments: zones) func theWallClockAgreesWithFoundationsCalendar(zone: TimeZone) {
        var generator = SystemRandomNumberGenerator()
        // Every 37 minutes and 13.25 seconds across 2025–2027 (every transition), then random instants 1900–2100.
        let start = -473_385_600.0  // 1955
        var instants = stride(from: 1_735_689_600.0, to: 1_830_297_600.0, by: 2233.25).map(Date.init(timeIntervalSince1970:))
        instants += (0..<600).map { _ in Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...4_102_444_800, using: &generator)) }
        instants += [start, -1, -0.5, 0, 0.999, 86_399.5].map(Date.init(timeIntervalSince1970:))
        for date in instants {
            let expected = reference(date, in: zone)
            #expect(LocalTime.dateString(date, in: zone) == expected.date, "\(date) in \(zone.identifier)")
            #expect(LocalTime.clock(date, in: zone) == expected.clock, "\(date) in \(zone.identifier)")
            #expect(LocalTime.hour(date, in: zone) == expected.hour, "\(date) in \(zone.identifier)")
            #expect(LocalTime.iso8601(date, in: zone) == expected.iso, "\(date) in \(zone.identifier)")
        }
    }

    @Test func anInstantTooFarOffIsStillWrittenByTheCalendar() {
        let far = Date(timeIntervalSince1970: 2e11)
        #expect(LocalTime.wallClock(far, in: .gmt) == nil)
        #expect(LocalTime.dateString(far, in: .gmt) == reference(far, in: .gmt).date)
    }
}
