import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly search`: places matching a name.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find places by name, with region, country and coordinates.",
        discussion: """
            Examples:
              brolly search Springfield
              brolly search "São Paulo" --json
            """)

    @Argument(help: "The place name to search for.")
    var query: String

    @OptionGroup var providerOptions: ProviderOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(
        name: .long, help: ArgumentHelp("The language of the names: \(Localization.codes.joined(separator: ", ")) (default: from LANG)."))
    var lang: String?

    func validate() throws {
        try validating { _ = try PlaceSearch.validated(query) }
        try OutputOptions.validate(lang: lang)
    }

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let language = lang ?? AlertsCommand.language(ProcessInfo.processInfo.environment)
            let places = try await context.useCases.search(query, limit: 10, offline: context.offline, language: language)
            if json {
                try Terminal.printJSON(places.map(PlaceDocument.init))
            } else {
                print(Terminal.renderer(UnitChoice(.metric)).places(places))
            }
        }
    }
}
