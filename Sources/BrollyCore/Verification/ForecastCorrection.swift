import Foundation

/// What one model's forecasts at one lead have done at a place, for correcting them: the bias
/// still in them (a running estimate, as national services' post-processing keeps one) and the
/// spread of the errors left once that bias is removed, °C.
public struct CorrectionFit: Codable, Sendable, Hashable {
    /// The days the fit learned from.
    public var n: Int
    /// Forecast − reference, today's estimate: positive is too warm.
    public var highBias: Double
    public var lowBias: Double
    /// The mean square of the corrected forecast's errors, each made before its day was learned
    /// (out of sample): what blending weighs the models by.
    public var highVariance: Double
    public var lowVariance: Double
}

/// One day corrected: the blended high and low, °C, and the models blended.
public struct CorrectedDay: Codable, Sendable, Hashable {
    public var high: Double
    public var low: Double
    public var models: [String]
}

/// A forecast corrected for the place: each model's measured bias removed per lead day and
/// variable, then the models blended, each weighted by the inverse of its corrected error's
/// mean square. Pure: the scores it learns from are the accuracy's.
public enum ForecastCorrection {
    /// The bias is a running mean over the first `memory` days, then an exponentially weighted one
    /// with that memory (a Kalman filter's update with a fixed gain): an old season fades.
    public static let memory = 14.0
    /// Residuals are counted once the bias has learned from this many days.
    static let warmUp = 3
    /// No weight grows without bound on a lucky stretch: a variance is at least (0.5 °C)².
    static let varianceFloor = 0.25

    /// The fit of one model and lead from its days' errors, oldest first; nil below
    /// `ForecastScores.minimumDays`.
    public static func fit(_ errors: [DayError]) -> CorrectionFit? {
        guard errors.count >= ForecastScores.minimumDays else { return nil }
        var bias = (high: 0.0, low: 0.0)
        var squares = (high: 0.0, low: 0.0, n: 0)
        for (i, e) in errors.enumerated() {
            if i >= warmUp {
                squares.high += (e.high - bias.high) * (e.high - bias.high)
                squares.low += (e.low - bias.low) * (e.low - bias.low)
                squares.n += 1
            }
            let gain = max(1 / Double(i + 1), 1 / memory)
            bias.high += gain * (e.high - bias.high)
            bias.low += gain * (e.low - bias.low)
        }
        let n = Double(max(squares.n, 1))
        return CorrectionFit(
            n: errors.count, highBias: Rounding.round(bias.high, 3), lowBias: Rounding.round(bias.low, 3),
            highVariance: Rounding.round(max(varianceFloor, squares.high / n), 4),
            lowVariance: Rounding.round(max(varianceFloor, squares.low / n), 4))
    }

    /// Every model's fits: model → lead → fit (leads with too few days left out).
    public static func fits(_ errors: ModelErrors) -> [String: [Int: CorrectionFit]] {
        var out: [String: [Int: CorrectionFit]] = [:]
        for (model, leads) in errors {
            for (lead, days) in leads {
                if let f = fit(days) { out[model, default: [:]][lead] = f }
            }
        }
        return out
    }

    /// One day from `forecasts` (model, lead in days, the day's raw high and low): each corrected
    /// by its fit at that lead (a lead beyond the fits' uses the furthest; lead 0, today, uses
    /// lead 1), blended by weight. Nil when no forecast has a fit.
    public static func blend(_ forecasts: [(model: String, lead: Int, day: DayValues)], fits: [String: [Int: CorrectionFit]])
        -> CorrectedDay?
    {
        var high = (sum: 0.0, weight: 0.0)
        var low = (sum: 0.0, weight: 0.0)
        var models: [String] = []
        for f in forecasts {
            guard let leads = fits[f.model], let furthest = leads.keys.max() else { continue }
            guard let fit = leads[min(max(f.lead, 1), furthest)] else { continue }
            high.sum += (f.day.high - fit.highBias) / fit.highVariance
            high.weight += 1 / fit.highVariance
            low.sum += (f.day.low - fit.lowBias) / fit.lowVariance
            low.weight += 1 / fit.lowVariance
            models.append(f.model)
        }
        guard high.weight > 0 else { return nil }
        return CorrectedDay(high: high.sum / high.weight, low: low.sum / low.weight, models: models.sorted())
    }
}

/// The single model `auto` switches to: better than Open-Meteo's own choice at tomorrow's high by
/// more than the uncertainty of the difference, on the same days.
public struct AutoChoice: Codable, Sendable, Hashable {
    public var model: String
    /// Days compared.
    public var n: Int
    /// How much lower its mean absolute error was than Open-Meteo's choice's, °C.
    public var improvement: Double
    /// Twice the standard error of the daily differences: the improvement was larger.
    public var margin: Double

    /// The model whose tomorrow's-high errors were smaller than `baseline`'s by more than twice the
    /// standard error of the paired daily differences, over at least
    /// `ForecastScores.minimumDays` common days; the largest such improvement. Nil: keep the
    /// baseline.
    public static func choose(_ errors: ModelErrors, baseline: String) -> AutoChoice? {
        guard let base = errors[baseline]?[1] else { return nil }
        let baseByDay = Dictionary(base.map { ($0.day, abs($0.high)) }, uniquingKeysWith: { a, _ in a })
        var best: AutoChoice?
        for (model, leads) in errors where model != baseline {
            let differences = (leads[1] ?? []).compactMap { e in baseByDay[e.day].map { abs(e.high) - $0 } }
            guard differences.count >= ForecastScores.minimumDays else { continue }
            let n = Double(differences.count)
            let mean = differences.reduce(0, +) / n
            let variance = differences.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)
            let margin = 2 * (variance / n).squareRoot()
            guard mean + margin < 0 else { continue }
            let candidate = AutoChoice(
                model: model, n: differences.count, improvement: Rounding.round(-mean, 2), margin: Rounding.round(margin, 2))
            if let b = best, b.improvement > candidate.improvement || (b.improvement == candidate.improvement && b.model < model) {
                continue
            }
            best = candidate
        }
        return best
    }
}
