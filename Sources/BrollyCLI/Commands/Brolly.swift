import ArgumentParser
import Foundation

/// `brolly`: the weather where you are.
public struct Brolly: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "brolly",
        abstract: "Today's weather and the coming days' forecast, in the terminal or the browser.",
        usage: """
            brolly [<subcommand>] [<options>]      (no subcommand: brolly now)

            ENVIRONMENT:
              OPENWEATHERMAP_API_KEY, GOOGLE_MAPS_API_KEY, NEWSAPI_API_KEY
                  provider keys (they stay on this machine)
              BROLLY_OPEN_METEO_URL, BROLLY_OPEN_METEO_GEOCODING_URL,
              BROLLY_OPENWEATHERMAP_URL, BROLLY_NOMINATIM_URL,
              BROLLY_GOOGLE_GEOCODING_URL, BROLLY_BBC_FEEDS_URL, BROLLY_NEWSAPI_URL,
              BROLLY_IP_LOCATION_URL, BROLLY_OPEN_METEO_PREVIOUS_RUNS_URL,
              BROLLY_OPEN_METEO_ARCHIVE_URL, BROLLY_AVIATIONWEATHER_URL
                  upstream base URLs (proxies, self-hosting)
              BROLLY_CACHE_DIR, BROLLY_CONFIG_DIR, BROLLY_DATA_DIR
                  where files are kept (XDG by default)
              BROLLY_FRESH_SECONDS   the cache's fresh window (600)
              NO_COLOR               no colour
            """,
        discussion: """
            Examples:
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
}
