import ArgumentParser
import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation

/// `brolly places`: saved places, in your order; the first is the default place.
struct Places: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Saved places: list, add, rename, move, remove. The first is the default place.",
        subcommands: [List.self, Add.self, Rename.self, Move.self, Remove.self], defaultSubcommand: List.self)

    static func render(_ places: [SavedPlaceDocument]) -> String {
        if places.isEmpty { return Terminal.text("cliNoPlaces") }
        let rows = places.map { p in
            [
                "\(p.position + 1).", "#\(p.id)", p.displayName,
                [p.customName == nil ? nil : p.name, p.region, p.country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "),
                String(format: "%.4f, %.4f", p.latitude, p.longitude),
            ]
        }
        return TextRenderer.table(rows, rightAligned: [0]).map { TextRenderer.fit($0, width: Terminal.width) }.joined(separator: "\n")
    }

    static func validateName(_ name: String?) throws {
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
            throw ValidationError("the name must be 1 to 100 characters")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List saved places in order.")
        @Flag(name: .long, help: "Print JSON (the API's saved-place shape).") var json = false

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                let places = try await context.useCases.savedPlaces(device: context.device)
                if json { try Terminal.printJSON(places) } else { print(Places.render(places)) }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Save a place found by name, or by --lat/--lon.")
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
            try Places.validateName(name)
        }

        func run() async throws {
            try await CommandContext.with(providerOptions) { context in
                let new: NewPlace =
                    if let query { .query(query) } else { .coordinate(try Coordinate.validated(latitude: lat!, longitude: lon!)) }
                let (saved, created) = try await context.useCases.saveOrFindPlace(
                    new, customName: name, device: context.device, offline: context.offline)
                let own = saved.customName == nil ? "" : " (\(saved.place.displayName))"
                print(
                    Terminal.text(
                        created ? "cliSaved" : "cliAlreadySaved",
                        ["id": String(saved.id), "name": saved.displayName + own, "position": String(saved.position + 1)]))
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give a saved place a custom name (or --clear it).")
        @Argument(help: "The place's id (#N in the list).") var id: Int64
        @Argument(help: "The custom name.") var name: String?
        @Flag(name: .long, help: "Remove the custom name.") var clear = false

        func validate() throws {
            if clear == (name != nil) { throw ValidationError("give a new name, or --clear") }
            try Places.validateName(name)
        }

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                let p = try await context.useCases.renamePlace(id: id, customName: name, device: context.device)
                print(Terminal.text("cliRenamed", ["id": String(id), "name": p.displayName]))
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move a saved place to a position (1 = first, the default).")
        @Argument(help: "The place's id (#N in the list).") var id: Int64
        @Argument(help: "The new position, from 1.") var position: Int

        func validate() throws { if position < 1 { throw ValidationError("the position starts at 1") } }

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                print(Places.render(try await context.useCases.movePlace(id: id, to: position - 1, device: context.device)))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a saved place.")
        @Argument(help: "The place's id (#N in the list).") var id: Int64

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                try await context.useCases.removePlace(id: id, device: context.device)
                print(Terminal.text("cliRemoved", ["id": String(id)]))
            }
        }
    }
}
