// The forecast shown, replayed against honest opponents (issues 37 and 51): constructed places whose
// models have known biases, correlated errors, a shared regime error and drifting biases, scored
// day by day the way AccuracyService does — the last 30 days the reference has (the reanalysis
// lags `--lag` days), each model's errors, the fits, the choice and the blend — and tomorrow's
// high compared with every opponent's, per place, with a paired (Diebold–Mariano) test; and each
// day's 80 % range (ForecastRanges, calibrated on the forecast shown's own out-of-sample errors)
// against the raw ensemble's: coverage and CRPS.
//
//   swift run -c release brolly-correction-replay [--places 300] [--days 150] [--lag 5] [--bias 13]
//       [--correlation 46] [--regime 0] [--drift 1] [--seed 37] [--sweep] [--csv ranges.csv]
//
// --correlation: the share (%) of each model's de-biased error that all models share (the measured
// inter-model correlation is printed); --regime: every model under-forecasts the day's anomaly by
// this share (%); --drift: each model's bias drifts by up to this many hundredths of a °C a day;
// --sweep: the table of the README (correlations 46, 70, 81, 95; a 25 % regime error; a fast
// drift). --csv writes each scored day's truth, the calibrated range (as a normal distribution) and
// the ensemble's members, for an independent CRPS (scripts/bench-ranges-crps.py, properscoring).
// Every number comes from BrollyCore's own ForecastScores, ForecastCorrection, AutoChoice and
// ForecastRanges; the places are made here (no recorded answers are on this machine).
import BenchmarkSupport
import BrollyCore
import Foundation

func option(_ name: String, _ fallback: Int) -> Int {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count, let v = Int(args[i + 1]) else { return fallback }
    return v
}
func text(_ name: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

struct Setting {
    var correlation: Double
    var regime: Double
    var drift: Double
    var label: String
}

let places = option("--places", 300)
let days = option("--days", 150)
let lag = option("--lag", 5)
/// The spread of the models' lasting biases, tenths of a degree (13: ±1.3 °C).
let biasSpread = Double(option("--bias", 13)) / 10
let seed = UInt64(option("--seed", 37))
let window = 30
let models = OpenMeteoPreviousRuns.models.filter { $0 != "jma_seamless" }
let members = 31
let dates = (0..<(days + 8)).map { LocalTime.adding($0, to: "2026-01-01") }
func date(_ d: Int) -> String { dates[d] }

let settings: [Setting] =
    CommandLine.arguments.contains("--sweep")
    ? [
        Setting(correlation: 0.46, regime: 0, drift: 0.01, label: "correlation 0.46"),
        Setting(correlation: 0.70, regime: 0, drift: 0.01, label: "correlation 0.70"),
        Setting(correlation: 0.81, regime: 0, drift: 0.01, label: "correlation 0.81"),
        Setting(correlation: 0.95, regime: 0, drift: 0.01, label: "correlation 0.95"),
        Setting(correlation: 0.46, regime: 0.25, drift: 0.01, label: "regime error 25 %"),
        Setting(correlation: 0.46, regime: 0, drift: 0.05, label: "biases drifting 0.05 °C/day"),
    ]
    : [
        Setting(
            correlation: Double(option("--correlation", 46)) / 100, regime: Double(option("--regime", 0)) / 100,
            drift: Double(option("--drift", 1)) / 100, label: "as asked")
    ]

func mean(_ xs: [Double]) -> Double { xs.reduce(0, +) / Double(max(xs.count, 1)) }
func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
/// The CRPS of a normal distribution N(mu, sigma) for the outcome y (Gneiting et al. 2005).
func crpsNormal(mu: Double, sigma: Double, y: Double) -> Double {
    let z = (y - mu) / sigma
    let pdf = exp(-z * z / 2) / (2 * Double.pi).squareRoot()
    let cdf = 0.5 * (1 + erf(z / 2.0.squareRoot()))
    return sigma * (z * (2 * cdf - 1) + 2 * pdf - 1 / Double.pi.squareRoot())
}
/// The CRPS of an ensemble (its empirical distribution) for the outcome y.
func crpsEnsemble(_ xs: [Double], y: Double) -> Double {
    let n = Double(xs.count)
    let first = xs.map { abs($0 - y) }.reduce(0, +) / n
    var pairs = 0.0
    for a in xs { for b in xs { pairs += abs(a - b) } }
    return first - pairs / (2 * n * n)
}

/// What one place gave in one setting: each forecast's day-1 high absolute errors, paired by day.
struct Place {
    var errors: [String: [Double]] = [:]
    var correlation: [Double] = []
    var coverage = (calibrated: 0, raw: 0, n: 0)
    var crps = (calibrated: 0.0, raw: 0.0)
}

var csv = text("--csv").map { _ in ["setting,place,day,truth,mu,sigma,p10,p90," + (1...members).map { "m\($0)" }.joined(separator: ",")] }

/// The places of setting `s`; each scored day's row appended to `csv` when it is not nil.
func run(_ s: Setting, seed: UInt64, csv: inout [String]?) -> [Place] {
    var random = SeededRandom(seed: seed)
    var out: [Place] = []
    for p in 0..<places {
        var place = Place()
        // What happened: a season and weather that persists a few days; the reference measures it
        // to within half a degree (a reanalysis' grid point is not the place).
        let base = random.uniform(-5, 28)
        var anomaly = 0.0
        var truth: [(high: Double, low: Double, anomaly: Double)] = []
        for d in 0..<(days + 8) {
            anomaly = 0.7 * anomaly + random.normal(2.5)
            let high = base + 8 * sin(2 * .pi * Double(d) / 365) + anomaly
            truth.append((high, high - random.uniform(6, 12), anomaly))
        }
        let reference = truth.map { (high: $0.high + random.normal(0.5), low: $0.low + random.normal(0.5)) }
        // How unsure each day is (the weather's own predictability), which the ensemble sees
        // (underdispersed: its spread is 0.7 of the errors').
        let sureness = (0..<(days + 8)).map { _ in random.uniform(0.6, 1.6) }
        struct Traits {
            var highBias, lowBias, drift, scatter: Double
        }
        let traits = Dictionary(
            uniqueKeysWithValues: models.map {
                (
                    $0,
                    Traits(
                        highBias: random.normal(biasSpread), lowBias: random.normal(biasSpread), drift: random.uniform(-s.drift, s.drift),
                        scatter: random.uniform(0.9, 1.6))
                )
            })
        // Tomorrow's forecasts (lead 1): truth + bias (drifting) + the regime error + the error all
        // models share (`correlation` of it) + its own.
        var forecast: [String: [(high: Double, low: Double)]] = [:]
        var noise: [String: [Double]] = [:]
        for d in 0..<(days + 8) {
            let shared = random.normal()
            let sharedLow = random.normal()
            for m in models {
                let t = traits[m]!
                let e = t.scatter * sureness[d] * (s.correlation.squareRoot() * shared + (1 - s.correlation).squareRoot() * random.normal())
                let eLow =
                    t.scatter * sureness[d] * (s.correlation.squareRoot() * sharedLow + (1 - s.correlation).squareRoot() * random.normal())
                noise[m, default: []].append(e)
                forecast[m, default: []].append(
                    (
                        truth[d].high + t.highBias + t.drift * Double(d) - s.regime * truth[d].anomaly + e,
                        truth[d].low + t.lowBias + t.drift * Double(d) - s.regime * truth[d].anomaly + eLow
                    ))
            }
        }
        // The measured correlation of two models' de-biased errors here.
        let a = noise[models[0]]!
        let b = noise[models[1]]!
        let (ma, mb) = (mean(a), mean(b))
        let cov = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
        place.correlation.append(
            cov / (a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +) * b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)).squareRoot())
        // The ensemble: 31 members around Open-Meteo's choice's raw forecast.
        func ensemble(_ d: Int) -> [Double] {
            let centre = forecast[OpenMeteoProvider.defaultModel]![d].high
            let sd = 0.7 * 1.25 * sureness[d]
            return (0..<members).map { _ in centre + random.normal(sd) }
        }
        var shownErrors: [DayError] = []
        for today in (window + lag + 1)..<(days - 1) {
            let known = Array((today - lag - window)..<(today - lag))
            let referenceDays = Dictionary(
                uniqueKeysWithValues: known.map {
                    (date($0), DayValues(high: reference[$0].high, low: reference[$0].low, precipitation: nil))
                })
            var errors: ModelErrors = [:]
            for m in models {
                let f = Dictionary(
                    uniqueKeysWithValues: known.map { d in
                        (date(d), DayValues(high: forecast[m]![d].high, low: forecast[m]![d].low, precipitation: nil))
                    })
                errors[m] = [1: ForecastScores.errors(forecast: f, reference: referenceDays, days: known.map(date))]
            }
            let fits = ForecastCorrection.fits(errors)
            let target = today + 1
            let y = reference[target].high
            let tomorrow = models.map { m in
                (model: m, lead: 1, day: DayValues(high: forecast[m]![target].high, low: forecast[m]![target].low, precipitation: nil))
            }
            guard let shown = ForecastCorrection.blend(tomorrow, fits: fits, choices: ForecastCorrection.choices(errors)),
                let blendAll = ForecastCorrection.blend(tomorrow, fits: fits)
            else { continue }
            func record(_ name: String, _ high: Double) { place.errors[name, default: []].append(abs(high - y)) }
            record("Brolly (shown)", shown.high)
            record("blend, always", blendAll.high)
            // The equal-weight mean of the corrected models.
            let corrected = tomorrow.compactMap { f in fits[f.model]?[1].map { f.day.high - $0.highBias } }
            record("equal-weight corrected mean", mean(corrected))
            // The best bias-corrected single model, chosen from the past (its corrected errors' mean square).
            if let best = fits.min(by: {
                ($0.value[1]?.highVariance ?? .infinity, $0.key) < ($1.value[1]?.highVariance ?? .infinity, $1.key)
            }),
                let fit = best.value[1]
            {
                record("best corrected single (from the past)", forecast[best.key]![target].high - fit.highBias)
            }
            record("best_match (Open-Meteo's choice)", forecast[OpenMeteoProvider.defaultModel]![target].high)
            let pick = AutoChoice.choose(errors, baseline: OpenMeteoProvider.defaultModel)?.model ?? OpenMeteoProvider.defaultModel
            record("auto", forecast[pick]![target].high)
            for m in models { place.errors["raw " + m, default: []].append(abs(forecast[m]![target].high - y)) }

            // The day's 80 % range: calibrated on the forecast shown's out-of-sample errors so far.
            var ensembleDays: [String: EnsembleDays.Day] = [:]
            var todaysMembers: [Double] = []
            for ahead in 1...7 where target - 1 + ahead < truth.count {
                let xs = ensemble(target - 1 + ahead)
                if ahead == 1 { todaysMembers = xs }
                ensembleDays[date(target - 1 + ahead)] = EnsembleDays.Day(high: .init(xs), low: .init(xs))
            }
            let spread = EnsembleDays(fetchedAt: Date(timeIntervalSince1970: 0), members: members, days: ensembleDays)
            let calibration = ForecastRanges.errorRange(lead: 1, errors: shownErrors, withCoverage: false).map { [1: $0] } ?? [:]
            let ranges = ForecastRanges.ranges(
                days: [date(target): DayValues(high: shown.high, low: shown.low, precipitation: nil)], today: date(today),
                ensemble: spread, errors: calibration)
            shownErrors.append(
                DayError(day: date(target), high: shown.high - y, low: shown.low - reference[target].low, forecastWet: nil, wasWet: nil))
            guard let r = ranges[date(target)], r.calibrated else { continue }
            let raw = EnsembleDays.Spread(todaysMembers)
            place.coverage.n += 1
            if r.high[0] <= y && y <= r.high[1] { place.coverage.calibrated += 1 }
            if raw.p10 <= y && y <= raw.p90 { place.coverage.raw += 1 }
            // The calibrated range read as a normal distribution: its centre the middle of the range,
            // its spread such that p10–p90 is the range.
            let mu = (r.high[0] + r.high[1]) / 2
            let sigma = max(0.05, (r.high[1] - r.high[0]) / 2.5631)
            place.crps.calibrated += crpsNormal(mu: mu, sigma: sigma, y: y)
            place.crps.raw += crpsEnsemble(todaysMembers, y: y)
            if csv != nil {
                let row = [s.label, String(p), date(target)] + [y, mu, sigma, r.high[0], r.high[1]].map { String(format: "%.3f", $0) }
                csv!.append((row + todaysMembers.map { String(format: "%.3f", $0) }).joined(separator: ","))
            }
        }
        out.append(place)
    }
    return out
}

let f = { (x: Double) in String(format: "%.2f", x) }
print(
    "places \(places), models' lasting biases ±\(f(biasSpread)) °C, \(days) days (tomorrow's high forecast on each of the last \(days - window - lag - 2)), reference lag \(lag) days, window \(window) days, ensemble \(members) members (underdispersed: 0.7 of the errors' spread)"
)
let opponents = [
    "blend, always", "equal-weight corrected mean", "best corrected single (from the past)", "auto", "best_match (Open-Meteo's choice)",
]
for (i, s) in settings.enumerated() {
    let result = run(s, seed: seed &+ UInt64(i), csv: &csv)
    let shown = result.map { mean($0.errors["Brolly (shown)"] ?? []) }
    let hindsight = result.map { p in models.map { mean(p.errors["raw " + $0] ?? []) }.min() ?? .nan }
    print("")
    print(
        "## \(s.label): measured inter-model correlation \(f(median(result.flatMap(\.correlation)))), regime error \(Int(s.regime * 100)) %, drift up to \(f(s.drift)) °C/day"
    )
    print(
        "| forecast of tomorrow's high | MAE, median place (°C) | Brolly lower at | Diebold–Mariano (5 %): Brolly better / worse / not told apart |"
    )
    print("|---|---|---|---|")
    print("| Brolly (the forecast shown) | \(f(median(shown))) | — | — |")
    for o in opponents {
        let theirs = result.map { mean($0.errors[o] ?? []) }
        let lower = zip(shown, theirs).filter { $0 < $1 }.count
        var better = 0
        var worse = 0
        for p in result {
            let d = zip(p.errors["Brolly (shown)"] ?? [], p.errors[o] ?? []).map { $0 - $1 }
            guard d.count > 2 else { continue }
            let m = mean(d)
            let sd = (d.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(d.count - 1)).squareRoot()
            let statistic = sd > 0 ? m / (sd / Double(d.count).squareRoot()) : 0
            if statistic < -1.96 { better += 1 } else if statistic > 1.96 { worse += 1 }
        }
        print(
            "| \(o) | \(f(median(theirs))) | \(lower) of \(places) places | \(better) / \(worse) / \(places - better - worse) |")
    }
    print(
        "| best raw single model, chosen in hindsight | \(f(median(hindsight))) | \(zip(shown, hindsight).filter { $0 < $1 }.count) of \(places) places | — |"
    )
    let n = result.map(\.coverage.n).reduce(0, +)
    let coverage = (
        calibrated: Double(result.map(\.coverage.calibrated).reduce(0, +)) / Double(max(n, 1)),
        raw: Double(result.map(\.coverage.raw).reduce(0, +)) / Double(max(n, 1))
    )
    print(
        "80 % ranges of tomorrow's high over \(n) days: coverage calibrated \(f(100 * coverage.calibrated)) %, raw ensemble \(f(100 * coverage.raw)) %; mean CRPS calibrated \(f(result.map(\.crps.calibrated).reduce(0, +) / Double(max(n, 1)))) °C, raw ensemble \(f(result.map(\.crps.raw).reduce(0, +) / Double(max(n, 1)))) °C"
    )
}
if let path = text("--csv"), let rows = csv {
    try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    print("\nwrote \(rows.count - 1) scored days to \(path) (scripts/bench-ranges-crps.py \(path): the CRPS again, with properscoring)")
}
