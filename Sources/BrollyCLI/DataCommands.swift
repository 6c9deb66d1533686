import ArgumentParser
import BrollyCore
import BrollyStore
import Foundation

/// `brolly places`: saved places, in your order; the first is the default place.
struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Saved places: list, add, rename, move, remove. The first is the default place.",
        subcommands: [List.self, Add.self, Rename.self, Move.self, Remove.self], defaultSubcommand: List.self)

    static func render(_ places: [SavedPlace]) -> String {
        if places.isEmpty { return "No saved places. Add one with: brolly places add \"City\" [--name Home]" }
        let rows = places.map { p in
            [
                "\(p.orderIndex + 1).", "#\(p.id ?? 0)", p.displayName,
                [p.customName == nil ? nil : p.name, p.region, p.country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "),
                String(format: "%.4f, %.4f", p.latitude, p.longitude),
            ]
        }
        return TextRenderer.table(rows, rightAligned: [0]).joined(separator: "\n")
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List saved places in order.")
        @OptionGroup var providerOptions: ProviderOptions
        @Flag(name: .long, help: "Print JSON.") var json = false

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                let places = try frontend.openStore().places(device: AppDatabase.localDevice)
                if json { try Terminal.printJSON(places) } else { print(Places.render(places)) }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a place found by name, or by --lat/--lon.")
        @Argument(help: "A place name to look up.") var query: String?
        @Option(name: .long, parsing: .unconditional, help: "Latitude (with --lon).") var lat: Double?
        @Option(name: .long, parsing: .unconditional, help: "Longitude (with --lat).") var lon: Double?
        @Option(name: .long, help: "A custom name, e.g. Home.") var name: String?
        @OptionGroup var providerOptions: ProviderOptions

        func validate() throws {
            if query == nil && (lat == nil || lon == nil) { throw ValidationError("give a place name, or --lat and --lon") }
            if query != nil && (lat != nil || lon != nil) { throw ValidationError("give either a place name or --lat/--lon, not both") }
            if (lat == nil) != (lon == nil) { throw ValidationError("--lat and --lon must be given together") }
            if let lat, let lon {
                try validating { _ = try Coordinate.validated(latitude: lat, longitude: lon) }
            }
            if let query { try validating { _ = try PlaceSearch.validated(query) } }
            if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
                throw ValidationError("--name must be 1 to 100 characters")
            }
        }

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                let place: Place
                if let query {
                    guard let best = try await frontend.search.search(query, limit: 5, offline: frontend.offline).first else {
                        throw BrollyError.placeNotFound("\"\(query)\"")
                    }
                    place = best
                } else {
                    let c = Coordinate(latitude: lat!, longitude: lon!)
                    // Name the point by its address when the network allows; else by its coordinates.
                    let address =
                        frontend.offline
                        ? nil : try? await frontend.configuration.makeAddressService(transport: frontend.transport).address(for: c)
                    place = address?.place ?? Place.unnamed(c)
                }
                let saved = try frontend.openStore().addPlace(
                    place, customName: name?.trimmingCharacters(in: .whitespaces), device: AppDatabase.localDevice)
                print("Saved #\(saved.id ?? 0): \(saved.displayName) (\(place.displayName)) at position \(saved.orderIndex + 1)")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a saved place a custom name (or --clear it).")
        @Argument(help: "The place's id (#N in the list).") var id: Int64
        @Argument(help: "The custom name.") var name: String?
        @Flag(name: .long, help: "Remove the custom name.") var clear = false
        @OptionGroup var providerOptions: ProviderOptions

        func validate() throws {
            if clear == (name != nil) { throw ValidationError("give a new name, or --clear") }
            if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
                throw ValidationError("the name must be 1 to 100 characters")
            }
        }

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                guard
                    let p = try frontend.openStore().renamePlace(
                        id: id, customName: name?.trimmingCharacters(in: .whitespaces), device: AppDatabase.localDevice)
                else { throw BrollyError.invalidInput("no saved place #\(id)") }
                print("#\(id) is now \(p.displayName)")
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a saved place to a position (1 = first, the default).")
        @Argument(help: "The place's id (#N in the list).") var id: Int64
        @Argument(help: "The new position, from 1.") var position: Int
        @OptionGroup var providerOptions: ProviderOptions

        func validate() throws { if position < 1 { throw ValidationError("the position starts at 1") } }

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                guard let list = try frontend.openStore().movePlace(id: id, to: position - 1, device: AppDatabase.localDevice) else {
                    throw BrollyError.invalidInput("no saved place #\(id)")
                }
                print(Places.render(list))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a saved place.")
        @Argument(help: "The place's id (#N in the list).") var id: Int64
        @OptionGroup var providerOptions: ProviderOptions

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                guard try frontend.openStore().removePlace(id: id, device: AppDatabase.localDevice) else {
                    throw BrollyError.invalidInput("no saved place #\(id)")
                }
                print("Removed #\(id)")
            }
        }
    }
}

/// `brolly history`: every lookup, readable with no network.
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Past lookups with their weather, readable offline: list, show, delete, clear.",
        subcommands: [List.self, Show.self, Delete.self, Clear.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List lookups, newest first.")
        @Option(name: .long, help: "How many (default 20).") var limit: Int = 20
        @Flag(name: .long, help: "Print JSON.") var json = false
        @OptionGroup var providerOptions: ProviderOptions

        func validate() throws { if !(1...500).contains(limit) { throw ValidationError("--limit must be between 1 and 500") } }

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                let entries = try frontend.openStore().history(device: AppDatabase.localDevice, limit: limit)
                if json {
                    try Terminal.printJSON(entries.map { HistoryDocument($0) })
                } else if entries.isEmpty {
                    print("No lookups yet.")
                } else {
                    let units = frontend.preferences.units ?? .metric
                    let rows = entries.map { e -> [String] in
                        [
                            "#\(e.id ?? 0)",
                            LocalTime.iso8601(e.createdAt, in: .current).prefix(16).replacingOccurrences(of: "T", with: " "),
                            e.placeName, TextRenderer.symbol(e.weather.current.condition),
                            String(format: "%.0f%@", units.temperature(e.weather.current.temperature), units.temperatureSymbol),
                            e.weather.current.condition.description,
                        ]
                    }
                    print(TextRenderer.table(rows, rightAligned: [4]).joined(separator: "\n"))
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one lookup: where, when, and the weather then.")
        @Argument(help: "The entry's id (#N).") var id: Int64
        @Flag(name: .long, help: "Print JSON.") var json = false
        @OptionGroup var providerOptions: ProviderOptions

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                guard let e = try frontend.openStore().historyEntry(id: id, device: AppDatabase.localDevice) else {
                    throw BrollyError.invalidInput("no history entry #\(id)")
                }
                let units = frontend.preferences.units ?? .metric
                let result = WeatherResult(
                    report: e.weather, isStale: true, isFromCache: true, age: Date().timeIntervalSince(e.weather.fetchedAt),
                    refreshError: nil)
                if json {
                    try Terminal.printJSON(HistoryDocument(e, weather: WeatherDocument(result, units: units)))
                } else {
                    print(
                        "Looked up \(LocalTime.iso8601(e.createdAt, in: .current)) at \(String(format: "%.4f, %.4f", e.latitude, e.longitude))"
                    )
                    if let a = e.address { print("Address: \(a.display)") }
                    print(TextRenderer(units: units, color: Terminal.useColor).now(result))
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one lookup.")
        @Argument(help: "The entry's id (#N).") var id: Int64
        @OptionGroup var providerOptions: ProviderOptions

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                guard try frontend.openStore().deleteHistoryEntry(id: id, device: AppDatabase.localDevice) else {
                    throw BrollyError.invalidInput("no history entry #\(id)")
                }
                print("Deleted #\(id)")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete every lookup.")
        @OptionGroup var providerOptions: ProviderOptions

        func run() async throws {
            try await Frontend.with(providerOptions) { frontend in
                let n = try frontend.openStore().deleteHistory(device: AppDatabase.localDevice)
                print("Deleted \(n) lookup\(n == 1 ? "" : "s")")
            }
        }
    }
}

/// `brolly address`: the street address for coordinates.
struct AddressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address", abstract: "The street address at coordinates (Nominatim, or Google with GOOGLE_MAPS_API_KEY).")
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
        try await Frontend.with(providerOptions) { frontend in
            let place = try await frontend.place(location)
            let address = try await frontend.configuration.makeAddressService(transport: frontend.transport).address(for: place.coordinate)
            if json {
                try Terminal.printJSON(address)
            } else {
                print(address.display)
                let parts = [
                    ("Street", [address.street, address.houseNumber].compactMap { $0 }.joined(separator: " ")),
                    ("City", address.city ?? ""), ("Region", address.region ?? ""), ("Country", address.country ?? ""),
                    ("Coordinates", String(format: "%.5f, %.5f", address.latitude, address.longitude)),
                ].filter { !$0.1.isEmpty }
                print(TextRenderer.table(parts.map { [$0.0, $0.1] }, rightAligned: []).joined(separator: "\n"))
            }
        }
    }
}

/// `brolly news`: up to 10 of today's items for the place.
struct News: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Up to 10 of today's news items for the place (BBC News, or NewsAPI with NEWSAPI_API_KEY).")
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @Flag(name: .long, help: "Print JSON.") var json = false

    func run() async throws {
        try await Frontend.with(providerOptions) { frontend in
            var place = try await frontend.place(location)
            // The place's time zone decides what "today" is.
            if let report = try? await frontend.service.weather(for: place, mode: frontend.offline ? .offline : .normal).report {
                place.timezone = report.place.timezone
                place.utcOffsetSeconds = report.place.utcOffsetSeconds
            }
            let items = try await frontend.configuration.makeNewsService(transport: frontend.transport).today(for: place)
            if json {
                struct Out: Encodable { var title, summary, publishedAt, url, source: String }
                try Terminal.printJSON([
                    "items": items.map {
                        Out(
                            title: $0.title, summary: $0.summary, publishedAt: LocalTime.iso8601($0.publishedAt, in: place.timeZone),
                            url: $0.url, source: $0.source)
                    }
                ])
            } else if items.isEmpty {
                print("No news published today for \(place.displayName).")
            } else {
                for item in items {
                    print("\(LocalTime.clock(item.publishedAt, in: place.timeZone))  \(item.title)")
                    if !item.summary.isEmpty { print("       \(item.summary)") }
                    print("       \(item.url)")
                }
            }
        }
    }
}
