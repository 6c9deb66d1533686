import ArgumentParser
import BrollyCore
import Foundation

/// Runs one of BrollyCore's input checks, reporting its failure as a usage error.
func validating(_ check: () throws -> Void) throws {
    do { try check() } catch let error as BrollyError { throw ValidationError(error.message) }
}

/// Where to get the weather for.
struct LocationOptions: ParsableArguments {
    @Option(name: .long, help: "A place name to look up, e.g. \"Berlin\" or \"Paris, TX\".")
    var place: String?

    @Option(name: .long, parsing: .unconditional, help: "Latitude in decimal degrees (-90…90). Use with --lon.")
    var lat: Double?

    @Option(name: .long, parsing: .unconditional, help: "Longitude in decimal degrees (-180…180). Use with --lat.")
    var lon: Double?

    @Option(name: .long, help: "A saved place's id (#N in 'brolly places').")
    var saved: Int64?

    func validate() throws {
        if let place {
            try validating { _ = try PlaceSearch.validated(place) }
        }
        if (lat == nil) != (lon == nil) { throw ValidationError("--lat and --lon must be given together") }
        if [place != nil, lat != nil, saved != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --place, --lat/--lon or --saved")
        }
        if let saved, saved < 1 { throw ValidationError("--saved takes a place id (#N in 'brolly places')") }
        if let lat, let lon {
            try validating { _ = try Coordinate.validated(latitude: lat, longitude: lon) }
        }
    }
}

/// Provider, network and cache behaviour.
struct ProviderOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "Where weather and place names come from: open-meteo (keyless) or openweathermap (needs OPENWEATHERMAP_API_KEY; chosen by default when it is set)."
    )
    var provider: String?

    @Option(name: .long, help: "Seconds to wait for each request to a provider.")
    var timeout: Double = 10

    @Flag(name: .long, help: "Never use the network; answer from the cache.")
    var offline = false

    @Flag(name: .long, help: "Fetch now, even if the cached answer is fresh.")
    var refresh = false

    @Option(
        name: .long,
        help: "The forecast model (Open-Meteo): auto (the most accurate at the place lately; the default) or a name such as icon_seamless.")
    var model: String?

    func validate() throws {
        if let model {
            do { _ = try BrollyConfiguration.checkedModel(model) } catch let error as BrollyError { throw ValidationError(error.message) }
        }
        if let provider, ProviderID(rawValue: provider.lowercased()) == nil {
            throw ValidationError("unknown provider '\(provider)'; use open-meteo or openweathermap")
        }
        if !(timeout.isFinite && timeout > 0 && timeout <= 300) {
            throw ValidationError("--timeout must be between 0 and 300 seconds")
        }
        if offline && refresh { throw ValidationError("--offline and --refresh cannot be used together") }
    }

    var mode: FetchMode { offline ? .offline : refresh ? .refresh : .normal }

    /// For commands that only read and write the local database: they make no call.
    static var local: ProviderOptions {
        get throws { try ProviderOptions.parse(["--offline"]) }
    }
}

/// How to print.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Units: metric (°C), imperial (°F) or standard (K). Remembered.")
    var units: String?

    @Option(name: .long, help: "Wind: ms, kmh, mph, kn or bft (Beaufort). Remembered; default from LANG's region.")
    var wind: WindUnit?

    @Option(name: .long, help: "Pressure: hpa, mbar, mmhg, inhg or kpa. Remembered; default from LANG's region.")
    var pressure: PressureUnit?

    @Option(name: .long, help: "Precipitation: mm or in. Remembered; default from LANG's region.")
    var precipitation: PrecipitationUnit?

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Language of the text, the conditions and place names: \(Localization.codes.joined(separator: ", ")) (default: from LANG)."))
    var lang: String?

    /// The language: `--lang`, else `LC_ALL`/`LANG`, else English.
    var language: LanguagePack {
        Localization.pack(for: lang ?? AlertsCommand.language(ProcessInfo.processInfo.environment))
    }

    /// A `--lang` Brolly speaks, or a clear message.
    static func validate(lang: String?) throws {
        if let lang, !Localization.speaks(lang) {
            throw ValidationError("unknown language '\(lang)'; use one of: \(Localization.codes.joined(separator: ", "))")
        }
    }

    func validate() throws {
        try Self.validate(lang: lang)
        if let units, UnitSystem(userInput: units) == nil {
            throw ValidationError("unknown units '\(units)'; use metric, imperial or standard")
        }
    }
}

extension WindUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension PressureUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension PrecipitationUnit: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased() == "inch" ? "in" : argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
