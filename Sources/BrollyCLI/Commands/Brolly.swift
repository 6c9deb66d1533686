import ArgumentParser
import BrollyCore
import Foundation

/// `brolly`: the weather where you are.
public struct Brolly: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "brolly",
        abstract: "Today's weather and the coming days' forecast, in the terminal or the browser.",
        usage: "brolly [<subcommand>] [<options>]",
        discussion: """
            Without a subcommand: brolly now. Examples:
              brolly                                 # the weather where you are
              brolly forecast --place Paris --hourly
              brolly now --format 3                  # one line for a status bar
            """,
        version: "1.0.0",
        subcommands: [
            Now.self, Forecast.self, Search.self, Places.self, History.self, AddressCommand.self, NewsCommand.self, AlertsCommand.self,
            AccuracyCommand.self, UnitsCommand.self,
            Serve.self,
            BenchReference.self,
        ],
        defaultSubcommand: Now.self)

    public init() {}

    /// The environment the commands read, printed after the options and subcommands of
    /// `brolly --help` (issue 50: a 13-line block indented under USAGE came before them, and
    /// BROLLY_RADAR_URL was missing). The upstream URLs are every one `UpstreamURLs` reads.
    static let environmentHelp = """

        ENVIRONMENT:
          OPENWEATHERMAP_API_KEY, GOOGLE_MAPS_API_KEY, NEWSAPI_API_KEY
                                  provider keys (they stay on this machine)
          \(UpstreamURLs.environmentNames.joined(separator: ", "))
                                  upstream base URLs (a proxy, self-hosting)
          BROLLY_CACHE_DIR, BROLLY_CONFIG_DIR, BROLLY_DATA_DIR
                                  where files are kept (XDG by default)
          BROLLY_FRESH_SECONDS    the cache's fresh window (600)
          NO_COLOR                no colour
        """
}
