import BrollyCore
import BrollyHTTP
import BrollyStore
import Foundation

/// Does the work behind the weather commands: resolves the place, asks the weather service,
/// remembers preferences and prints notes on stderr.
struct Frontend {
    let configuration: BrollyConfiguration
    let transport: AsyncHTTPTransport
    let service: WeatherService
    let search: PlaceSearch
    var preferences: Preferences
    let offline: Bool

    init(providerOptions: ProviderOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        configuration = try BrollyConfiguration(
            provider: providerOptions.provider, timeout: providerOptions.timeout, environment: environment)
        transport = AsyncHTTPTransport(connectTimeout: min(5, providerOptions.timeout))
        service = configuration.makeWeatherService(transport: transport)
        search = PlaceSearch(
            provider: configuration.makeProvider(network: configuration.makeNetwork(transport: transport)),
            cache: FileCache(directory: configuration.directories.cache))
        preferences = Preferences.load(from: configuration.directories.config)
        offline = providerOptions.offline
    }

    /// Runs `body` with a frontend and shuts its HTTP client down afterwards, success or not.
    static func with(_ options: ProviderOptions, _ body: (inout Frontend) async throws -> Void) async throws {
        var frontend = try Frontend(providerOptions: options)
        do {
            try await body(&frontend)
        } catch {
            await frontend.transport.shutdown()
            throw error
        }
        await frontend.transport.shutdown()
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

    func savePreferences() {
        do { try preferences.save(to: configuration.directories.config) } catch {
            note("could not save preferences in \(configuration.directories.config.path): \(error.localizedDescription)")
        }
    }

    /// The place the user meant: by name (best match, said aloud when ambiguous), by coordinates,
    /// the remembered default, or a one-time IP lookup that is then remembered.
    mutating func place(_ options: LocationOptions) async throws -> Place {
        if let name = options.place {
            let matches = try await search.search(name, limit: 5, offline: offline)
            guard let best = matches.first else { throw BrollyError.placeNotFound("\"\(name)\"") }
            if matches.count > 1 { note("\"\(name)\" matches \(matches.count) places; using \(best.displayName)") }
            return best
        }
        if let lat = options.lat, let lon = options.lon {
            let c = try Coordinate.validated(latitude: lat, longitude: lon)
            return await quickAddress(c)?.place ?? Place.unnamed(c)
        }
        if let first = try? openStore().places(device: AppDatabase.localDevice).first {
            return first.place
        }
        if let remembered = preferences.defaultPlace { return remembered }
        if offline { throw BrollyError.notCached("your location (no remembered place; give --place or --lat/--lon)") }
        let locator = IPLocator(
            network: configuration.makeNetwork(
                transport: transport, timeout: min(configuration.timeout, 5), retry: RetryPolicy(maxAttempts: 2)),
            url: configuration.urls.ipLocation)
        let found: Place
        do { found = try await locator.locate() } catch let error as BrollyError {
            throw BrollyError(
                error.kind, "could not find your location from your IP address (\(error.message)); give --place or --lat/--lon")
        }
        note("assuming you are in \(found.displayName) (from your IP address); remembered for next time")
        preferences.defaultPlace = found
        savePreferences()
        return found
    }

    /// The street address at `c`, best effort: from the cache, or one quick call that is never
    /// retried, so that an unreachable geocoder does not hold the command up. Nil offline.
    func quickAddress(_ c: Coordinate) async -> Address? {
        var addresses = configuration.makeAddressService(transport: transport)
        if offline { return addresses.cachedAddress(for: c) }
        addresses.network = addresses.network.with(timeout: min(configuration.timeout, 2), retry: RetryPolicy.none)
        addresses.nominatim.network = addresses.network
        return try? await addresses.address(for: c)
    }

    /// The local profile's database (`$BROLLY_DATA_DIR/brolly.sqlite`).
    func openStore() throws -> AppDatabase {
        let url = configuration.directories.data.appendingPathComponent("brolly.sqlite")
        do { return try AppDatabase.open(at: url) } catch {
            throw CommandFailure(message: "cannot open the database \(url.path): \(error.localizedDescription)")
        }
    }

    func weather(for place: Place, mode: FetchMode) async throws -> WeatherResult {
        let result = try await service.weather(for: place, mode: mode)
        // The street address goes into the history too.
        let address = await quickAddress(place.coordinate)
        do {
            try openStore().recordLookup(
                result.report, address: address, coordinate: place.coordinate, device: AppDatabase.localDevice)
        } catch {
            note("could not save this lookup in the history: \(error)")
        }
        if let error = result.refreshError {
            note("showing cached weather from \(TextRenderer.age(result.age)); refresh failed: \(error.message)")
        } else if result.isStale {
            note("showing cached weather from \(TextRenderer.age(result.age)) (stale)")
        }
        return result
    }

    func note(_ message: String) {
        FileHandle.standardError.write(Data("brolly: note: \(message)\n".utf8))
    }
}

enum Terminal {
    /// Colour only on a TTY, and never when `NO_COLOR` is set (https://no-color.org).
    static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        if let v = env["NO_COLOR"], !v.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        let data = try WeatherDocument.makeEncoder().encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
