import ArgumentParser
import Foundation

/// `brolly`: the weather where you are.
public struct Brolly: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "brolly",
        abstract: "Today's weather and the coming days' forecast, in the terminal or the browser.",
        discussion: """
            Environment: OPENWEATHERMAP_API_KEY, GOOGLE_MAPS_API_KEY, NEWSAPI_API_KEY, BROLLY_OPEN_METEO_URL, BROLLY_OPEN_METEO_GEOCODING_URL,
            BROLLY_OPENWEATHERMAP_URL, BROLLY_NOMINATIM_URL, BROLLY_GOOGLE_GEOCODING_URL, BROLLY_BBC_FEEDS_URL,
            BROLLY_NEWSAPI_URL, BROLLY_IP_LOCATION_URL, BROLLY_CACHE_DIR, BROLLY_CONFIG_DIR, BROLLY_DATA_DIR, NO_COLOR.
            """,
        version: "1.0.0",
        subcommands: [
            Now.self, Forecast.self, Search.self, Places.self, History.self, AddressCommand.self, NewsCommand.self, Serve.self,
        ],
        defaultSubcommand: Now.self)

    public init() {}
}
