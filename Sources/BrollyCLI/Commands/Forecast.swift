import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly forecast`: one row per local day, and the next hours on request.
struct Forecast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forecast",
        abstract: "The forecast, one row per local day.",
        discussion: """
            Examples:
              brolly forecast --place Paris --days 5
              brolly forecast --hourly              # and the next 24 hours, grouped by day
              brolly forecast --hours 48 --units imperial
            """)

    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "Number of days, 1–16.")
    var days: Int = 7

    @Flag(name: .long, help: "Also show the next 24 hours, slot by slot.")
    var hourly = false

    @Option(name: .long, help: "Show the next N hours, slot by slot (1–384; implies --hourly).")
    var hours: Int?

    @Flag(name: .long, help: "Also chart the next 48 hours: temperature and precipitation, in 80 columns.")
    var chart = false

    func validate() throws {
        if !(1...16).contains(days) { throw ValidationError("--days must be between 1 and 16") }
        if let hours, !(1...384).contains(hours) { throw ValidationError("--hours must be between 1 and 384") }
    }

    /// How many hours to show: `--hours N`, else 24 with `--hourly`, else none.
    var hourCount: Int? { hours ?? (hourly ? 24 : nil) }

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let choice = context.unitChoice(output)
            let result = try await context.weather(location, withRanges: true, language: output.language.code)
            if output.json {
                var report = result
                report.report.days = Array(result.report.days.prefix(days))
                report.report.hours = hourCount.map { result.report.upcomingHours($0) } ?? []
                try Terminal.printJSON(WeatherDocument(report, units: choice, now: context.useCases.services.clock.now))
            } else {
                var renderer = Terminal.renderer(choice)
                renderer.language = output.language
                let view = renderer.view(result, now: context.useCases.services.clock.now)
                print(renderer.forecast(view, days: days, hours: hourCount))
                if chart { print("\n" + renderer.chart(view)) }
            }
        }
    }
}
