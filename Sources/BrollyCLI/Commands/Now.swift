import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly now`: current conditions.
struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Current conditions, today's range and a short outlook.",
        discussion: """
            Examples:
              brolly now --place "Paris, TX"
              brolly now --lat -33.87 --lon 151.21 --units imperial
              brolly now --format "%l: %c %t %w"     # one line, wttr.in's codes
              brolly now --format waybar             # Waybar's JSON
            """)

    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "One line in wttr.in's format (e.g. \"%l: %c %t %w\", or a preset 1–4), or 'waybar' for Waybar's JSON.",
            discussion: "Codes: %c %C %x condition, %t temperature, %f feels like, %h humidity, %w wind, %l location, %m %M moon, "
                + "%o measured at the nearest station, %p precipitation, %P pressure, %u UV, %D %S %z %s %d dawn/sunrise/zenith/sunset/dusk, %T local time, %Z zone, %%; "
                + "Brolly's own: %a alert, %y vs yesterday, %q air quality, %r next hour's rain."))
    var format: String?

    func validate() throws {
        if format != nil && output.json { throw ValidationError("give either --format or --json, not both") }
        if let format, format.isEmpty || format.count > 500 { throw ValidationError("--format must be 1 to 500 characters") }
    }

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let choice = context.unitChoice(output)
            // Air quality for the full views and for formats that ask for it (%q, %u).
            let wantsAir = format.map { $0 != "waybar" && ($0.contains("%q") || $0.contains("%u") || $0.contains("%o")) } ?? true
            let wantsAlerts = format.map { $0 == "waybar" || $0.contains("%a") } ?? true
            let result = try await context.weather(
                location, withAirQualityAndStation: wantsAir, withAlerts: wantsAlerts, language: output.language.code)
            if format == "waybar" {
                let data = try JSONEncoder().encode(
                    WaybarDocument(OneLineFormat(units: choice).view(result, now: context.useCases.services.clock.now)))
                print(String(decoding: data, as: UTF8.self))
            } else if let format {
                var line = OneLineFormat(units: choice)
                line.language = output.language
                print(line.render(format, line.view(result, now: context.useCases.services.clock.now)))
            } else if output.json {
                try Terminal.printJSON(
                    WeatherDocument(result, units: choice, now: context.useCases.services.clock.now, language: output.language))
            } else {
                var renderer = Terminal.renderer(choice)
                renderer.language = output.language
                print(renderer.now(renderer.view(result, now: context.useCases.services.clock.now)))
            }
        }
    }
}
