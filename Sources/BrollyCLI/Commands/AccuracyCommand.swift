import ArgumentParser
import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation

/// `brolly accuracy`: how good the forecasts have been at the place.
struct AccuracyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "How good the forecasts have been at the place lately (up to 30 days), per model and days ahead.",
        discussion: """
            Forecasts as they were made (Open-Meteo's Previous Runs) against an independent
            reference: what a station within 25 km measured (METAR) when it has 7 whole days, else
            the ERA5 reanalysis. Never a model's own run. Kept 6 hours.

            Examples:
              brolly accuracy --place Berlin
              brolly accuracy --lat 40.71 --lon -74.01 --units imperial --json
            """)
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let units = context.units(output.units)
            let place = try await context.place(location)
            let document = try await context.useCases.accuracy(for: place, units: units, offline: context.offline)
            if output.json {
                try Terminal.printJSON(document)
            } else {
                let width = min(Terminal.width ?? 80, 80)
                for line in Self.lines(document, language: output.language, width: width).flatMap({ Self.wrap($0, width: width) }) {
                    print(line)
                }
            }
        }
    }

    /// The text: a sentence, what was scored against, the lasting errors worth knowing, a bar per
    /// lead day for the model shown, and every model's error for tomorrow, in at most `width`
    /// columns. Below the minimum of days: what there is, and that it is not enough.
    static func lines(_ d: AccuracyDocument, language l: LanguagePack, width: Int = 80) -> [String] {
        func number(_ x: Double) -> String { l.number(String(format: "%.1f", x)) }
        func signed(_ x: Double) -> String { (x > 0 ? "+" : x < 0 ? "−" : "") + number(abs(x)) }
        var out = [l.text("accuracyTitle", ["place": d.place.name])]
        guard d.enough, let (model, tomorrow) = d.tomorrow else {
            out += referenceLines(d, language: l)
            out.append(l.text("accuracyNotEnough", ["days": String(d.days), "minimum": String(d.minimumDays)]))
            return out
        }
        let hits = Int((tomorrow.highWithin2 * Double(tomorrow.n)).rounded())
        out.append(
            l.text(
                "accuracySentence",
                ["hits": String(hits), "days": String(tomorrow.n), "model": model.name, "tolerance": d.units.toleranceText(l)]))
        out += referenceLines(d, language: l)
        for b in d.biases.prefix(3) {
            let key = "accuracy" + (b.variable == "high" ? "Highs" : "Lows") + (b.bias > 0 ? "Warm" : "Cold")
            out.append(l.text(key, ["amount": number(abs(b.bias)) + " " + d.units.temperature, "model": b.name]))
        }
        if d.corrected && !d.biases.isEmpty { out.append(l.text("accuracyCorrected")) }
        if let one = d.ranges?.first(where: { $0.lead == 1 }), let coverage = one.coverage {
            out.append(
                l.text("accuracyCoverage", ["share": String(Int((coverage * 100).rounded())), "days": String(one.coverageDays)]))
        }
        if d.stale { out.append(l.text("accuracyOld", ["when": d.computedAt])) }
        out.append("")
        out.append(l.text("accuracyByLead", ["unit": d.units.temperature, "model": model.name]))
        let largest = max((d.models + [d.shown].compactMap { $0 }).flatMap { $0.leads.map(\.highMAE) }.max() ?? 1, 0.1)
        let barWidth = max(10, width - 44)
        for lead in model.leads {
            let cells = Int((lead.highMAE / largest * Double(barWidth)).rounded())
            let bar = String(repeating: "█", count: max(cells, lead.highMAE > 0 ? 1 : 0))
            let label = l.text("accuracyLead", ["lead": String(lead.lead)]).padded(toWidth: 5)
            let within = "\(Int((lead.highWithin2 * 100).rounded()))%".leftPadded(to: 5)
            let value = number(lead.highMAE).leftPadded(to: 5)
            out.append(
                "\(label) \(value) \(bar.padding(toLength: barWidth, withPad: " ", startingAt: 0)) ≤\(d.units.toleranceText(l)) \(within) n=\(lead.n)"
            )
        }
        out.append(l.text("accuracyLeads"))
        out.append("")
        out.append(l.text("accuracyModels", ["tolerance": d.units.toleranceText(l)]))
        // Every model, then the forecast shown (scored out of sample), marked.
        for m in d.models + d.brolly {
            guard let one = m.leads.first(where: { $0.lead == 1 }) else { continue }
            var line = "  " + m.name.padded(toWidth: 22) + number(one.highMAE).leftPadded(to: 6)
            line += " \(d.units.temperature) " + signed(one.highBias).leftPadded(to: 6) + "  "
            line += "\(Int((one.highWithin2 * 100).rounded()))%".leftPadded(to: 4) + "  n=\(one.n)"
            if m.chosen && (d.shown == nil || m == d.shown) { line += "  ← " + l.text("accuracyChosen") }
            out.append(line)
        }
        if let best = d.best, let name = d.models.first(where: { $0.model == best.model })?.name {
            out.append("")
            out.append(l.text("accuracyBest", ["model": name, "error": number(best.highMAE) + " " + d.units.temperature]))
        }
        return out
    }

    /// What the scores were measured against, and the station passed over for too few days.
    static func referenceLines(_ d: AccuracyDocument, language l: LanguagePack) -> [String] {
        let r = d.reference
        let values = [
            "station": "\(r.id) \(r.name)", "distance": l.number(String(format: "%.1f", r.distanceKm ?? 0)), "days": String(d.days),
            "first": r.firstDay ?? "—", "last": r.lastDay ?? "—",
        ]
        var out = [l.text(r.kind == "station" ? "accuracyStation" : "accuracyReanalysis", values)]
        if let p = d.passedOver {
            out.append(
                l.text(
                    "accuracyPassedOver",
                    [
                        "station": "\(p.station.id) \(p.station.name)", "distance": l.number(String(format: "%.1f", p.station.distanceKm)),
                        "days": String(p.days),
                    ]))
        }
        return out
    }
}

extension AccuracyCommand {
    /// A sentence broken at spaces into lines of at most `width` characters (continuations indented).
    static func wrap(_ line: String, width: Int) -> [String] {
        guard line.displayWidth > width else { return [line] }
        var out: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty && current.displayWidth + 1 + String(word).displayWidth > width {
                out.append(current)
                current = "  " + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        out.append(current)
        return out
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
