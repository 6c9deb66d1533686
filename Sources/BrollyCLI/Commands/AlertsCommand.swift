import ArgumentParser
import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation

/// `brolly alerts`: official weather warnings for the place.
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Official weather warnings for the place (NWS in the US, MeteoAlarm in Europe, OpenWeatherMap with a key, CAP feeds).",
        discussion: """
            Examples:
              brolly alerts --place "Miami"
              brolly alerts --lat 29.01 --lon -81.38 --json
            """)
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @Flag(name: .long, help: "Print JSON (the API's alerts shape).") var json = false
    @Option(name: .long, help: "The language of the warnings where the source has several (default: from LANG, else English).")
    var lang: String?

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let place = try await context.place(location)
            let language = lang ?? Self.language(ProcessInfo.processInfo.environment)
            let (zoned, set) = await context.useCases.zonedAlerts(for: place, language: language, offline: context.offline)
            if json {
                try Terminal.printJSON(AlertsDocument(place: zoned, set: set))
            } else {
                var renderer = Terminal.renderer(UnitChoice(context.units(nil)))
                renderer.language = Localization.pack(for: language)
                print(renderer.alerts(set, place: zoned))
            }
        }
    }

    /// `ru` from `LANG=ru_RU.UTF-8`; English for `C`, `POSIX` or nothing.
    static func language(_ env: [String: String]) -> String {
        let raw = env["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 } ?? env["LANG"] ?? ""
        let code = raw.prefix { $0.isLetter }.lowercased()
        return code.count == 2 || code.count == 3 ? (code == "c" ? "en" : code) : "en"
    }
}
