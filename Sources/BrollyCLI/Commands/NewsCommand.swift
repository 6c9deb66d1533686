import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly news`: up to 10 of today's items for the place.
struct NewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news",
        abstract: "Up to 10 of today's news items for the place (BBC News, or NewsAPI with NEWSAPI_API_KEY).")
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @Flag(name: .long, help: "Print JSON (the API's news shape).") var json = false

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let place = try await context.place(location)
            let news = try await context.useCases.news(
                for: place, offline: context.offline, language: AlertsCommand.language(ProcessInfo.processInfo.environment))
            if json {
                try Terminal.printJSON(news)
            } else if news.items.isEmpty {
                print(Terminal.text("cliNoNews", ["place": news.place]))
            } else {
                for item in news.items {
                    // publishedAt is ISO 8601 in the place's time: its HH:mm is the local clock.
                    Terminal.printFitted(
                        ["\(item.publishedAt.dropFirst(11).prefix(5))  \(item.title)"]
                            + (item.summary.isEmpty ? [] : ["       \(item.summary)"]))
                    print("       \(item.url)")  // a link is never cut
                }
            }
        }
    }
}
