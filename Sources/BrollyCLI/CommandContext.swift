import BrollyCore
import BrollyHTTP
import BrollyStore
import BrollyTerminal
import BrollyUseCases
import Foundation

/// What every command runs with: the configuration from its options and the environment, the
/// use cases built by the one service factory on AsyncHTTPClient, the local profile's database
/// and the remembered preferences. Commands parse, call one use case, and render.
struct CommandContext {
    let useCases: UseCases
    /// The HTTP client, shut down when the command ends.
    let transport: AsyncHTTPTransport
    /// Where the cache, the database and the preferences are (XDG's directories).
    let directories: Directories
    var preferences: Preferences
    /// `--offline`: the cache only, no call upstream.
    let offline: Bool
    let mode: FetchMode

    /// The CLI's own profile in the shared database.
    let device = StoreRules.localDevice

    /// - Parameter needsStore: when false (weather, search, address, news) an unopenable
    ///   database is not fatal: the command works without history, and says so.
    init(
        _ options: ProviderOptions, needsStore: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        directories = Directories.fromEnvironment(environment)
        var configuration = try BrollyConfiguration(
            provider: options.provider, timeout: options.timeout, cacheDirectory: directories.cache, environment: environment)
        if let model = options.model { configuration.model = try BrollyConfiguration.checkedModel(model) }
        let url = directories.data.appendingPathComponent("brolly.sqlite")
        let store: AppDatabase
        do { store = try AppDatabase.open(at: url) } catch {
            let message = "cannot open the database \(url.path): \(error.localizedDescription)"
            guard !needsStore else { throw CommandFailure(message: message) }
            Terminal.note(message + "; this lookup is not saved in the history")
            store = try AppDatabase.inMemory()
        }
        transport = AsyncHTTPTransport(connectTimeout: min(3, options.timeout))
        useCases = UseCases(
            services: Services.make(configuration: configuration, transport: transport, store: store),
            historyFailed: { Terminal.note("could not save this lookup in the history: \($0)") })
        preferences = Preferences.load(from: directories.config)
        offline = options.offline
        mode = options.mode
    }

    /// Runs `body` with a context and shuts its HTTP client down afterwards, success or not.
    static func with(
        _ options: ProviderOptions, needsStore: Bool = true, _ body: (inout CommandContext) async throws -> Void
    ) async throws {
        var context = try CommandContext(options, needsStore: needsStore)
        do {
            // `--timeout` is the whole command's deadline, retries included.
            try await RequestDeadline.$current.withValue(context.useCases.services.clock.now.addingTimeInterval(options.timeout)) {
                try await body(&context)
            }
        } catch {
            await context.transport.shutdown()
            throw error
        }
        await context.transport.shutdown()
    }

    /// Units from the option (and remember them), else the remembered ones, else metric.
    mutating func units(_ option: String?) -> UnitSystem {
        if let option, let units = UnitSystem(userInput: option) {
            if preferences.units != units {
                preferences.units = units
                savePreferences()
            }
            return units
        }
        return preferences.units ?? .metric
    }

    /// Every unit: each from its option (remembered), else the remembered one, else the defaults
    /// of LANG's region (`en_US` °F mph inHg in; `ru_RU` m/s mmHg…) — or, once `--units` was
    /// chosen, that preset's.
    mutating func unitChoice(_ output: OutputOptions) -> UnitChoice {
        let temperature = units(output.units)
        let environment = ProcessInfo.processInfo.environment
        let locale = [environment["LC_ALL"], environment["LC_MEASUREMENT"], environment["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
        let region = UnitChoice.region(ofLocale: locale)
        var choice = preferences.units == nil && region != nil ? UnitChoice.forRegion(region) : UnitChoice(temperature)
        if preferences.units != nil { choice.temperature = temperature.temperature }
        var changed = false
        if let wind = output.wind, preferences.wind != wind { preferences.wind = wind; changed = true }
        if let pressure = output.pressure, preferences.pressure != pressure { preferences.pressure = pressure; changed = true }
        if let p = output.precipitation, preferences.precipitation != p { preferences.precipitation = p; changed = true }
        if changed { savePreferences() }
        choice.wind = preferences.wind ?? choice.wind
        choice.pressure = preferences.pressure ?? choice.pressure
        choice.precipitation = preferences.precipitation ?? choice.precipitation
        return choice
    }

    /// The place the options name: by name, by coordinates, else the default place (the first
    /// saved one, the remembered one, or a one-time IP lookup that is then remembered).
    /// A name is searched in `language` (the names come back in it), else in the environment's.
    mutating func place(_ options: LocationOptions, language: String? = nil) async throws -> Place {
        let query: PlaceQuery
        if let name = options.place {
            query = .name(name)
        } else if let lat = options.lat, let lon = options.lon {
            query = .coordinate(try Coordinate.validated(latitude: lat, longitude: lon))
        } else if let id = options.saved {
            query = .saved(id: id)
        } else {
            query = .defaultPlace(remembered: preferences.defaultPlace)
        }
        let resolved = try await useCases.resolve(
            query, device: device, offline: offline, language: language ?? AlertsCommand.language(ProcessInfo.processInfo.environment))
        if let note = resolved.note { Terminal.note(note) }
        if resolved.isFromIPLocation {
            preferences.defaultPlace = resolved.place
            savePreferences()
        }
        return resolved.place
    }

    /// The weather for the options' place, recorded in the local history; notes on stderr when
    /// the answer is cached and stale.
    mutating func weather(
        _ options: LocationOptions, withAirQualityAndStation: Bool = false, withAlerts: Bool = false, withRanges: Bool = false,
        language: String? = nil
    ) async throws -> WeatherResult {
        let place = try await place(options, language: language)
        let result = try await useCases.weather(
            for: place, mode: mode, recording: .beforeReturning(device: device), withAirQualityAndStation: withAirQualityAndStation,
            withAlerts: withAlerts, withRanges: withRanges,
            language: language ?? AlertsCommand.language(ProcessInfo.processInfo.environment))
        if let error = result.refreshError {
            Terminal.note("showing cached weather from \(TextRenderer.age(result.age)); refresh failed: \(error.message)")
        } else if result.isStale {
            Terminal.note("showing cached weather from \(TextRenderer.age(result.age)) (stale)")
        }
        return result
    }

    func savePreferences() {
        do { try preferences.save(to: directories.config) } catch {
            Terminal.note("could not save preferences in \(directories.config.path): \(error.localizedDescription)")
        }
    }
}
