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
/// variable (where it is told apart from none), then the models blended, each weighted by the
/// inverse of its corrected error's mean square — or, at a lead where one model corrected alone
/// has done better out of sample than the blend (the models' errors shared, so averaging removes
/// little), that model alone. Pure: the scores it learns from are the accuracy's.
public enum ForecastCorrection {
    /// The bias is a running mean over the first `memory` days, then an exponentially weighted one
    /// with that memory (a Kalman filter's update with a fixed gain): an old season fades.
    public static let memory = 14.0
    /// Residuals are counted once the bias has learned from this many days.
    static let warmUp = 3
    /// No weight grows without bound on a lucky stretch: a variance is at least (0.5 °C)².
    static let varianceFloor = 0.25
    /// The choice at a lead where every model is blended.
    public static let blended = "blend"

    /// One model's errors at one lead learned day by day: the running bias, the errors' spread (to
    /// tell a bias from none) and the mean square of the residuals, each residual made before its
    /// day was learned.
    struct Running {
        var n = 0
        var bias = (high: 0.0, low: 0.0)
        var mean = (high: 0.0, low: 0.0)
        var m2 = (high: 0.0, low: 0.0)
        var squares = (high: 0.0, low: 0.0, n: 0)

        /// The bias removed: the running one where it is more than twice the standard error of the
        /// errors' mean, else none (removing a bias that is noise only adds it to the error).
        var removed: (high: Double, low: Double) {
            guard n >= 2 else { return bias }
            func told(_ b: Double, _ m2: Double) -> Double { abs(b) > 2 * (m2 / Double(n - 1) / Double(n)).squareRoot() ? b : 0 }
            return (told(bias.high, m2.high), told(bias.low, m2.low))
        }
        /// The residual the bias learned so far leaves on `e`; nil during the warm-up.
        func residual(_ e: DayError) -> (high: Double, low: Double)? {
            n >= ForecastCorrection.warmUp ? (e.high - removed.high, e.low - removed.low) : nil
        }
        /// The mean squares of the residuals (at least the floor); nil before any.
        var variance: (high: Double, low: Double)? {
            guard squares.n > 0 else { return nil }
            let k = Double(squares.n)
            return (max(varianceFloor, squares.high / k), max(varianceFloor, squares.low / k))
        }

        mutating func learn(_ e: DayError) {
            if let r = residual(e) {
                squares.high += r.high * r.high
                squares.low += r.low * r.low
                squares.n += 1
            }
            n += 1
            let gain = max(1 / Double(n), 1 / ForecastCorrection.memory)
            bias.high += gain * (e.high - bias.high)
            bias.low += gain * (e.low - bias.low)
            let d = (high: e.high - mean.high, low: e.low - mean.low)
            mean.high += d.high / Double(n)
            mean.low += d.low / Double(n)
            m2.high += d.high * (e.high - mean.high)
            m2.low += d.low * (e.low - mean.low)
        }
    }

    /// The fit of one model and lead from its days' errors, oldest first; nil below
    /// `ForecastScores.minimumDays`.
    public static func fit(_ errors: [DayError]) -> CorrectionFit? {
        guard errors.count >= ForecastScores.minimumDays else { return nil }
        var running = Running()
        for e in errors { running.learn(e) }
        let variance = running.variance ?? (varianceFloor, varianceFloor)
        return CorrectionFit(
            n: errors.count, highBias: Rounding.round(running.removed.high, 3), lowBias: Rounding.round(running.removed.low, 3),
            highVariance: Rounding.round(variance.high, 4), lowVariance: Rounding.round(variance.low, 4))
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

    /// At each lead, the blend (`blended`) or the one model that corrected alone did better than
    /// the blend out of sample (each day's residuals made before that day was learned, compared on
    /// the days both have) by more than twice the standard error of the daily differences; the
    /// blend when none did.
    public static func choices(_ errors: ModelErrors) -> [Int: String] {
        var out: [Int: String] = [:]
        for lead in Set(errors.values.flatMap(\.keys)) {
            out[lead] = choice(errors.compactMapValues { $0[lead] })
        }
        return out
    }

    /// The choice at one lead from each model's errors there (oldest first): models below the
    /// minimum of days take no part.
    static func choice(_ series: [String: [DayError]]) -> String {
        let taking = series.filter { $0.value.count >= ForecastScores.minimumDays }
        var byDay: [String: [(model: String, error: DayError)]] = [:]
        for (model, days) in taking { for e in days { byDay[e.day, default: []].append((model, e)) } }
        var running: [String: Running] = [:]
        // Model → each day's absolute residual less the blend's (high and low), from the days on
        // which every model's weight is learnt (its residuals' mean square known).
        var alone: [String: [Double]] = [:]
        for day in byDay.keys.sorted() {
            let today = byDay[day] ?? []
            var residuals: [(model: String, high: Double, low: Double, weight: (high: Double, low: Double))] = []
            for (model, e) in today {
                guard let state = running[model], let r = state.residual(e), let v = state.variance else { continue }
                residuals.append((model, r.high, r.low, (1 / v.high, 1 / v.low)))
            }
            if !residuals.isEmpty {
                let wh = residuals.map(\.weight.high).reduce(0, +)
                let wl = residuals.map(\.weight.low).reduce(0, +)
                let blendHigh = residuals.map { $0.high * $0.weight.high }.reduce(0, +) / wh
                let blendLow = residuals.map { $0.low * $0.weight.low }.reduce(0, +) / wl
                let blend = abs(blendHigh) + abs(blendLow)
                for r in residuals { alone[r.model, default: []].append(abs(r.high) + abs(r.low) - blend) }
            }
            for (model, e) in today { running[model, default: Running()].learn(e) }
        }
        // Better by more than twice the standard error of the daily differences (as `auto`'s
        // switch): where the models' errors are independent enough, luck does not unmake the blend.
        var best: (model: String, mean: Double)?
        for (model, d) in alone where d.count >= warmUp {
            let n = Double(d.count)
            let mean = d.reduce(0, +) / n
            let variance = d.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)
            guard mean + 2 * (variance / n).squareRoot() < 0 else { continue }
            if best.map({ (mean, model) < ($0.mean, $0.model) }) ?? true { best = (model, mean) }
        }
        return best?.model ?? blended
    }

    /// One day from `forecasts` (model, lead in days, the day's raw high and low): each corrected
    /// by its fit at that lead, blended by weight — or, where `choices` names one model at the
    /// day's lead, that model alone. A model not scored at a lead is left out there (its weight at
    /// another lead is not borrowed: Météo-France scored at leads 1–3 says nothing of day 5), so
    /// the days beyond the scored leads are not corrected; today (lead 0, a forecast made less than
    /// a day ahead) uses lead 1's. Nil when no forecast has a fit.
    public static func blend(
        _ forecasts: [(model: String, lead: Int, day: DayValues)], fits: [String: [Int: CorrectionFit]], choices: [Int: String] = [:]
    ) -> CorrectedDay? {
        var forecasts = forecasts
        if let lead = forecasts.map({ max($0.lead, 1) }).min(), let one = choices[lead], one != blended {
            let alone = forecasts.filter { $0.model == one && fits[one]?[max($0.lead, 1)] != nil }
            if !alone.isEmpty { forecasts = alone }
        }
        var high = (sum: 0.0, weight: 0.0)
        var low = (sum: 0.0, weight: 0.0)
        var models: [String] = []
        for f in forecasts {
            guard let fit = fits[f.model]?[max(f.lead, 1)] else { continue }
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

extension ForecastCorrection {
    /// The forecast shown, replayed out of sample: each past day at each lead corrected exactly as
    /// `blend` does (fits and choice), with what was learned only from the days known when that
    /// forecast was made — the days before the day it was issued (`lead` days before), less `lag`
    /// days for a reference that arrives late (the reanalysis, about 5). Lead → the corrected
    /// forecast's errors, oldest first; a day on which no model had a fit yet is not scored (the
    /// forecast shown then was not corrected).
    public static func replay(_ errors: ModelErrors, lag: Int = 0) -> [Int: [DayError]] {
        var out: [Int: [DayError]] = [:]
        for lead in Set(errors.values.flatMap(\.keys)).sorted() {
            let series = errors.compactMapValues { $0[lead] }
            for day in Set(series.values.flatMap { $0.map(\.day) }).sorted() {
                let known = LocalTime.adding(-(lead + lag), to: day)
                let past = series.mapValues { $0.filter { $0.day < known } }
                let fits = past.compactMapValues(fit)
                let choice = choice(past)
                var forecasts: [(model: String, lead: Int, day: DayValues)] = []
                for (model, days) in series where fits[model] != nil {
                    // The day's error as a forecast against a truth of zero: the corrected error.
                    if let e = days.first(where: { $0.day == day }) {
                        forecasts.append((model, lead, DayValues(high: e.high, low: e.low, precipitation: nil)))
                    }
                }
                guard
                    let corrected = blend(
                        forecasts, fits: fits.mapValues { [lead: $0] }, choices: [lead: choice])
                else { continue }
                out[lead, default: []].append(
                    DayError(day: day, high: corrected.high, low: corrected.low, forecastWet: nil, wasWet: nil))
            }
        }
        return out
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

    /// `auto`'s forecast, replayed out of sample: each past day at each lead is the forecast of the
    /// model `choose` would have picked from the days known when it was made (as `replay`), else
    /// `baseline`'s. Lead → its errors, oldest first.
    public static func replay(_ errors: ModelErrors, baseline: String, lag: Int = 0) -> [Int: [DayError]] {
        var out: [Int: [DayError]] = [:]
        for lead in Set(errors.values.flatMap(\.keys)).sorted() {
            let days = Set(errors.values.flatMap { ($0[lead] ?? []).map(\.day) }).sorted()
            for day in days {
                let known = LocalTime.adding(-(lead + lag), to: day)
                let past = errors.mapValues { $0.mapValues { $0.filter { $0.day < known } } }
                let model = choose(past, baseline: baseline)?.model ?? baseline
                guard let e = errors[model]?[lead]?.first(where: { $0.day == day }) else { continue }
                out[lead, default: []].append(e)
            }
        }
        return out
    }
}
