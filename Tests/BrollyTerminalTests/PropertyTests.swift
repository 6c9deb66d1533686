import BrollyCore
import Foundation
import PropertyBased
import Testing

@testable import BrollyTerminal

/// Issue 35: properties of the unit conversions, the rounding of what is shown and the grouping of
/// hours into the place's local days, checked over generated inputs (swift-property-based), not
/// only at the values the example tests pick.
@Suite struct UnitConversionProperties {
    @Test func temperaturesGoThereAndBack() async {
        await propertyCheck(count: 500, input: Gen.double(in: -90...60)) { c in
            let f = TemperatureUnit.fahrenheit.convert(c)
            let k = TemperatureUnit.kelvin.convert(c)
            #expect(abs(Metric.celsius(fromFahrenheit: f) - c) < 1e-9)
            #expect(abs(Metric.celsius(fromKelvin: k) - c) < 1e-9)
            #expect(abs(Metric.celsius(f, unit: "°F") - c) < 1e-9 && abs(Metric.celsius(k, unit: "K") - c) < 1e-9)
            #expect(k > 0)
        }
    }

    @Test func conversionsKeepOrder() async {
        await propertyCheck(count: 500, input: Gen.double(in: 0...80), Gen.double(in: 0...80)) { a, b in
            let (lo, hi) = (min(a, b), max(a, b))
            for unit in WindUnit.allCases { #expect(unit.convert(lo) <= unit.convert(hi), "\(unit)") }
            for unit in PressureUnit.allCases { #expect(unit.convert(lo * 20) <= unit.convert(hi * 20), "\(unit)") }
            for unit in PrecipitationUnit.allCases { #expect(unit.convert(lo) <= unit.convert(hi), "\(unit)") }
            #expect(WindUnit.beaufort(lo) <= WindUnit.beaufort(hi))
        }
    }

    @Test func windAndRainGoThereAndBack() async {
        await propertyCheck(count: 500, input: Gen.double(in: 0...90)) { ms in
            for (unit, name) in [(WindUnit.kmh, "km/h"), (.mph, "mph"), (.kn, "kn")] {
                // Within a millionth: the knot's factor is written to six digits where it is read.
                #expect(abs(Metric.metresPerSecond(unit.convert(ms), unit: name) - ms) <= 1e-6 * max(1, ms), "\(unit)")
            }
            #expect(abs(Metric.millimetres(PrecipitationUnit.inch.convert(ms), unit: "in") - ms) < 1e-9)
            let b = WindUnit.beaufort(ms)
            #expect((0...12).contains(b))
            // The force's lower limit is at or below the speed (to a tenth, as WMO's table has it),
            // the next force's above it.
            let speed = (ms * 10).rounded() / 10
            if b > 0 { #expect(WindUnit.beaufortLimits[b - 1] <= speed) }
            if b < 12 { #expect(speed < WindUnit.beaufortLimits[b]) }
        }
    }
}

@Suite struct RoundingProperties {
    /// Whole degrees, rounded half away from zero, the same for every system, and never "-0".
    @Test func temperaturesShowWholeDegreesAndNeverMinusZero() async {
        await propertyCheck(count: 1000, input: Gen.double(in: -60...60), Gen.element(of: UnitSystem.allCases)) { c, system in
            guard let system else { return }
            let text = TextRenderer(units: system, color: false).temp(c)
            let expected = system.temperature.convert(c).rounded(.toNearestOrAwayFromZero)
            #expect(!text.hasPrefix("-0"), "\(c) → \(text)")
            let number = Int(text.prefix { $0 == "-" || $0.isNumber })
            #expect(number.map(Double.init) == (expected == 0 ? 0 : expected), "\(c) → \(text)")
        }
    }

    @Test func halvesRoundAwayFromZero() async {
        await propertyCheck(count: 300, input: Gen.int(in: -80...80)) { n in
            let half = Double(n) + (n < 0 ? -0.5 : 0.5)
            let text = TextRenderer(units: .metric, color: false).temp(half)
            let expected = n < 0 ? n - 1 : n + 1
            #expect(text.hasPrefix("\(expected)°"), "\(half) → \(text)")
        }
    }
}

@Suite struct DayGroupingProperties {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Kiritimati",
        "America/St_Johns", "Pacific/Pago_Pago",
    ]

    /// Every hour lands in exactly one local day; days come in order, once each; each day's low
    /// and high are its hours' lowest and highest, its amount their sum.
    @Test func everyHourInExactlyOneLocalDay() async {
        let start = Date(timeIntervalSince1970: 1_774_000_000)  // late March 2026: clocks change
        await propertyCheck(
            count: 200, input: Gen.int(in: 0...(30 * 24)).array(of: 1...200), Gen.element(of: Self.zones),
            Gen.double(in: -30...40).array(of: 200)
        ) { offsets, zoneName, temperatures in
            guard let zoneName, let zone = TimeZone(identifier: zoneName) else { return }
            let hours = offsets.enumerated().map { i, h in
                HourForecast(
                    time: start.addingTimeInterval(Double(h) * 3600), temperature: temperatures[i % temperatures.count],
                    precipitation: Double(i % 3), condition: Conditions.wmo(i % 4 == 0 ? 61 : 1))
            }
            let days = DayGrouping.days(from: hours, in: zone)
            #expect(days.map(\.date) == days.map(\.date).sorted() && Set(days.map(\.date)).count == days.count)
            var byDay: [String: [HourForecast]] = [:]
            for h in hours { byDay[LocalTime.dateString(h.time, in: zone), default: []].append(h) }
            #expect(Set(byDay.keys) == Set(days.map(\.date)))
            #expect(byDay.values.reduce(0) { $0 + $1.count } == hours.count)
            for day in days {
                let group = byDay[day.date]!
                #expect(day.temperatureMin == group.map(\.temperature).min()!)
                #expect(day.temperatureMax == group.map(\.temperature).max()!)
                #expect(abs((day.precipitation ?? 0) - group.compactMap(\.precipitation).reduce(0, +)) < 1e-6)
            }
        }
    }
}
