import Foundation

/// How far the truth has fallen from the forecast shown at one lead, out of sample: the 10th and
/// 90th percentiles of (truth − forecast) for the high and the low, °C — what an 80 % range
/// around the forecast needs to reach here — and how often such a range, made for each day
/// without that day and its neighbours, held the truth.
public struct ErrorRange: Codable, Sendable, Hashable {
    public var lead: Int
    /// The days the percentiles come from.
    public var n: Int
    /// [p10, p90] of truth − forecast.
    public var high: [Double]
    public var low: [Double]
    /// The share (0–1) of highs and lows that fell inside the range made without their day (and
    /// the day either side); nil below `ForecastScores.minimumDays` such days.
    public var coverage: Double?
    /// The days `coverage` counts (each with its high and its low).
    public var coverageDays: Int
}

/// Each day's 80 % range of its high and low: the ensemble's spread, calibrated for the place.
///
/// The method is quantile mapping on the forecast shown's own errors, scaled by the ensemble:
/// the 10th and 90th percentiles of the past out-of-sample errors at the day's lead give the range
/// around the forecast shown (split conformal: right at least 8 times in 10 here out of sample),
/// and the day's ensemble spread against the spread the ensemble has at that lead as a rule (a
/// robust line through the week's) scales it: where the members disagree the range widens, where
/// they agree it narrows (the factor is kept within 0.5–3). Where
/// the place has fewer than `ForecastScores.minimumDays` errors at the lead, the ensemble's own
/// 10th–90th percentiles are used, centred on the forecast shown, and the range is said to be
/// uncalibrated.
public enum ForecastRanges {
    /// The range claims 80 %: from the 10th to the 90th percentile.
    public static let lower = 0.1
    public static let upper = 0.9
    /// A range is at least this wide, °C (a perfect record is not a promise of a perfect day).
    public static let narrowest = 0.4
    /// How far the ensemble may scale the calibrated range.
    static let factorBounds = (0.5, 3.0)

    /// The range of `errors` that holds a new one 8 times in 10 (split conformal prediction: the
    /// ⌊(n+1)·0.1⌋-th and ⌈(n+1)·0.9⌉-th smallest of n, so a short record gives a wider range
    /// rather than one that holds less often than it says).
    static func conformal(_ errors: [Double]) -> [Double] {
        let s = errors.sorted()
        guard !s.isEmpty else { return [0, 0] }
        let n = Double(s.count)
        let low = min(max(Int(((n + 1) * lower).rounded(.down)), 1), s.count)
        let high = min(max(Int(((n + 1) * upper).rounded(.up)), 1), s.count)
        return [s[low - 1], s[high - 1]]
    }

    /// The `p` quantile of `values` (linear between order statistics, as numpy's default); 0 when empty.
    public static func quantile(_ values: [Double], _ p: Double) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        let x = p * Double(s.count - 1)
        let i = Int(x.rounded(.down))
        let j = min(i + 1, s.count - 1)
        return s[i] + (x - Double(i)) * (s[j] - s[i])
    }

    /// The error range at `lead` from the forecast shown's replayed errors there (oldest first; each
    /// already out of sample), with its out-of-sample coverage: each day checked against the range
    /// made from the other days but its neighbours. Nil below the minimum of days.
    public static func errorRange(lead: Int, errors: [DayError], withCoverage: Bool = true) -> ErrorRange? {
        guard errors.count >= ForecastScores.minimumDays else { return nil }
        func range(_ xs: [Double]) -> [Double] { conformal(xs).map { Rounding.round($0, 2) } }
        var inside = 0
        var checked = 0
        for e in errors where withCoverage {
            // Out of sample: the range made without the day itself and the day either side (its
            // neighbours' errors are alike), from the rest of the record — a month holds too few
            // days to check only against earlier ones.
            let around = Set([-1, 0, 1].map { LocalTime.adding($0, to: e.day) })
            let past = errors.filter { !around.contains($0.day) }
            guard past.count >= ForecastScores.minimumDays else { continue }
            let high = range(past.map { -$0.high })
            let low = range(past.map { -$0.low })
            checked += 1
            if high[0] <= -e.high && -e.high <= high[1] { inside += 1 }
            if low[0] <= -e.low && -e.low <= low[1] { inside += 1 }
        }
        return ErrorRange(
            lead: lead, n: errors.count, high: range(errors.map { -$0.high }), low: range(errors.map { -$0.low }),
            coverage: checked >= ForecastScores.minimumDays ? Rounding.round(Double(inside) / Double(2 * checked), 2) : nil,
            coverageDays: checked)
    }

    /// The ranges of the days from `today` on (lead 0…7) that the ensemble covers, °C, around each
    /// day's high and low (`days`: date → the forecast shown's high and low): calibrated with
    /// `errors` (lead → range) where they have the lead (today uses lead 1's), else the
    /// ensemble's own. Date → (high range, low range, calibrated).
    public static func ranges(
        days: [String: DayValues], today: String, ensemble: EnsembleDays, errors: [Int: ErrorRange]
    ) -> [String: (high: [Double], low: [Double], calibrated: Bool)] {
        let week = (1...7).compactMap { lead in ensemble.days[LocalTime.adding(lead, to: today)].map { (lead: lead, day: $0) } }
        let expected = (
            high: trend(week.map { (Double($0.lead), $0.day.high.width) }), low: trend(week.map { (Double($0.lead), $0.day.low.width) })
        )
        var out: [String: (high: [Double], low: [Double], calibrated: Bool)] = [:]
        for (day, values) in days {
            guard let lead = LocalTime.daysBetween(today, day), (0...7).contains(lead), let e = ensemble.days[day] else { continue }
            if let calibration = errors[max(lead, 1)] {
                let at = Double(max(lead, 1))
                let typical = (high: expected.high(at), low: expected.low(at))
                func scaled(_ value: Double, _ past: [Double], _ spread: EnsembleDays.Spread, _ typical: Double) -> [Double] {
                    let factor = typical > 0 ? min(factorBounds.1, max(factorBounds.0, spread.width / typical)) : 1
                    // The narrowest range is scaled too: a perfect record still widens where the members disagree.
                    return around(value, below: factor * min(past[0], -narrowest / 2), above: factor * max(past[1], narrowest / 2))
                }
                out[day] = (
                    scaled(values.high, calibration.high, e.high, typical.high), scaled(values.low, calibration.low, e.low, typical.low),
                    true
                )
            } else {
                out[day] = (
                    around(values.high, below: min(e.high.p10 - e.high.median, 0), above: max(e.high.p90 - e.high.median, 0)),
                    around(values.low, below: min(e.low.p10 - e.low.median, 0), above: max(e.low.p90 - e.low.median, 0)), false
                )
            }
        }
        return out
    }

    /// The spread an ensemble has at each lead as a rule (it grows as the days go), fitted to the
    /// week's spreads by Theil–Sen (the median of the pairwise slopes, and the median intercept):
    /// one day on which the members disagree does not move the line, so that day stands out from
    /// it, and day 1 is compared with day 1's usual spread, not the week's.
    static func trend(_ points: [(x: Double, y: Double)]) -> (Double) -> Double {
        guard points.count >= 2 else { return { _ in points.first?.y ?? 0 } }
        var slopes: [Double] = []
        for i in points.indices {
            for j in points.indices where j > i && points[j].x != points[i].x {
                slopes.append((points[j].y - points[i].y) / (points[j].x - points[i].x))
            }
        }
        let slope = quantile(slopes, 0.5)
        let intercept = quantile(points.map { $0.y - slope * $0.x }, 0.5)
        return { x in max(0.01, intercept + slope * x) }
    }

    /// [value + below, value + above], widened evenly to at least `narrowest`, to a tenth.
    static func around(_ value: Double, below: Double, above: Double) -> [Double] {
        let widen = max(0, narrowest - (above - below)) / 2
        return [Rounding.round(value + below - widen, 1), Rounding.round(value + above + widen, 1)]
    }
}
