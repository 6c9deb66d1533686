import ArgumentParser
import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation

/// `brolly history`: every lookup, readable with no network.
struct History: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Past lookups with their weather, readable offline: list, show, delete, clear.",
        subcommands: [List.self, Show.self, Delete.self, Clear.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List lookups, newest first.")
        @Option(name: .long, help: "How many, 1–500.") var limit: Int = 20
        @Flag(name: .long, help: "Print JSON (the API's history shape).") var json = false

        func validate() throws { if !(1...500).contains(limit) { throw ValidationError("--limit must be between 1 and 500") } }

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                let history = try await context.useCases.history(device: context.device, limit: limit, language: Terminal.language.code)
                if json {
                    try Terminal.printJSON(history)
                } else if history.items.isEmpty {
                    print(Terminal.text("cliNoLookups"))
                } else {
                    let units = context.preferences.units ?? .metric
                    let rows = history.items.map { e -> [String] in
                        [
                            "#\(e.id)", TextRenderer.localTime(isoUTC: e.createdAt), e.placeName,
                            TextRenderer.symbol(icon: e.condition.icon),
                            TextRenderer(units: units, color: false).temp(e.temperature), e.condition.description,
                        ]
                    }
                    Terminal.printFitted(TextRenderer.table(rows, rightAligned: [4]))
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one lookup: where, when, and the weather then.")
        @Argument(help: "The entry's id (#N).") var id: Int64
        @Flag(name: .long, help: "Print JSON.") var json = false

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                let units = context.preferences.units ?? .metric
                let lookup = try await context.useCases.historyEntry(
                    id: id, device: context.device, units: units, language: Terminal.language.code)
                if json {
                    try Terminal.printJSON(lookup.document)
                } else {
                    let e = lookup.document
                    print(
                        Terminal.text(
                            "cliLookedUp",
                            [
                                "time": TextRenderer.localTime(isoUTC: e.createdAt),
                                "coordinates": String(format: "%.4f, %.4f", e.latitude, e.longitude),
                            ]))
                    if let a = e.address { print(Terminal.text("cliAddressLine", ["address": a.display])) }
                    var renderer = Terminal.renderer(UnitChoice(units))
                    renderer.language = Terminal.language
                    renderer.showsFooter = false  // a snapshot: when it was looked up is said above
                    print(renderer.now(renderer.view(lookup.weather, now: context.useCases.services.clock.now)))
                    print("   " + Terminal.text("cliAsItWas", ["provider": lookup.weather.report.provider.rawValue]))
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete one lookup.")
        @Argument(help: "The entry's id (#N).") var id: Int64

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                try await context.useCases.deleteHistoryEntry(id: id, device: context.device)
                print(Terminal.text("cliDeletedEntry", ["id": String(id)]))
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Delete every lookup.")

        func run() async throws {
            try await CommandContext.with(try .local) { context in
                let n = try await context.useCases.clearHistory(device: context.device)
                print(Terminal.language.plural("cliDeletedLookups", Double(n), ["n": String(n)]))
            }
        }
    }
}
