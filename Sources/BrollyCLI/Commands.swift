import ArgumentParser
import BrollyCore
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
        subcommands: [Now.self, Forecast.self, Search.self, Places.self, History.self, AddressCommand.self, News.self, Serve.self],
        defaultSubcommand: Now.self)

    public init() {}
}

/// `brolly now`: current conditions.
struct Now: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Current conditions, today's range and a short outlook.")

    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await Frontend.with(providerOptions) { frontend in
            let units = frontend.units(output.units)
            let place = try await frontend.place(location)
            let result = try await frontend.weather(for: place, mode: providerOptions.mode)
            if output.json {
                try Terminal.printJSON(WeatherDocument(result, units: units))
            } else {
                print(TextRenderer(units: units, color: Terminal.useColor).now(result))
            }
        }
    }
}

/// `brolly forecast`: one row per local day.
struct Forecast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The forecast, one row per local day.")

    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: "Number of days (1–16, default 7).")
    var days: Int = 7

    @Flag(name: .long, help: "Also show the hourly slots.")
    var hourly = false

    func validate() throws {
        if !(1...16).contains(days) { throw ValidationError("--days must be between 1 and 16") }
    }

    func run() async throws {
        try await Frontend.with(providerOptions) { frontend in
            let units = frontend.units(output.units)
            let place = try await frontend.place(location)
            let result = try await frontend.weather(for: place, mode: providerOptions.mode)
            if output.json {
                var doc = WeatherDocument(result, units: units)
                doc.days = Array(doc.days.prefix(days))
                if !hourly { doc.hours = [] }
                try Terminal.printJSON(doc)
            } else {
                print(TextRenderer(units: units, color: Terminal.useColor).forecast(result, days: days, hourly: hourly))
            }
        }
    }
}

/// `brolly search`: places matching a name.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Find places by name, with region, country and coordinates.")

    @Argument(help: "The place name to search for.")
    var query: String

    @OptionGroup var providerOptions: ProviderOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    func validate() throws {
        try validating { _ = try PlaceSearch.validated(query) }
    }

    func run() async throws {
        try await Frontend.with(providerOptions) { frontend in
            let places = try await frontend.search.search(query, limit: 10, offline: providerOptions.offline)
            if json {
                try Terminal.printJSON(places.map(PlaceDocument.init))
            } else {
                print(TextRenderer(units: .metric, color: Terminal.useColor).places(places))
            }
        }
    }
}
