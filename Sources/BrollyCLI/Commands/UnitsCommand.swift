import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly units`: shows the units in use and where each comes from, and sets them
/// (`--units`, `--wind`, `--pressure`, `--precipitation`; `--reset` forgets every choice).
struct UnitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "units", abstract: "Show or set the units: temperature, wind, pressure, precipitation.")

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Forget the chosen units: the defaults of LANG's region again.")
    var reset = false

    func run() async throws {
        try await CommandContext.with(try ProviderOptions.local, needsStore: false) { context in
            if reset {
                context.preferences.units = nil
                context.preferences.wind = nil
                context.preferences.pressure = nil
                context.preferences.precipitation = nil
                context.savePreferences()
            }
            let choice = context.unitChoice(output)
            let l = output.language
            if output.json {
                try Terminal.printJSON([
                    "temperature": choice.temperature.symbol, "wind": choice.wind.symbol, "pressure": choice.pressure.symbol,
                    "precipitation": choice.precipitation.symbol, "distance": choice.distance.symbol,
                ])
                return
            }
            let p = context.preferences
            func origin(_ chosen: Bool) -> String { chosen ? l.text("unitsChosen") : l.text("unitsDefault") }
            let rows: [(String, String, Bool)] = [
                (l.text("temperature"), choice.temperature.symbol, p.units != nil),
                (l.text("wind"), l.text("unit_" + choice.wind.rawValue + (choice.wind == .bft ? "#other" : "")), p.wind != nil),
                (l.text("pressure"), l.text("unit_" + choice.pressure.rawValue), p.pressure != nil),
                (l.text("precipitation"), l.text("unit_" + choice.precipitation.rawValue), p.precipitation != nil),
            ]
            let width = rows.map(\.0.displayWidth).max() ?? 0
            for (name, unit, chosen) in rows {
                print(
                    name.padded(toWidth: width + 2) + unit.padded(toWidth: 12)
                        + origin(chosen))
            }
        }
    }
}
