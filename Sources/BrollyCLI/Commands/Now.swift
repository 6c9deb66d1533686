import ArgumentParser
import BrollyCore
import Foundation

/// `brolly now`: current conditions.
struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Current conditions, today's range and a short outlook.")

    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let units = context.units(output.units)
            let result = try await context.weather(location)
            if output.json {
                try Terminal.printJSON(WeatherDocument(result, units: units))
            } else {
                print(TextRenderer(units: units, color: Terminal.useColor).now(result))
            }
        }
    }
}
