import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// `brolly address`: the street address for coordinates.
struct AddressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address", abstract: "The street address at coordinates (Nominatim, or Google with GOOGLE_MAPS_API_KEY).")
    @OptionGroup var location: LocationOptions
    @OptionGroup var providerOptions: ProviderOptions
    @Flag(name: .long, help: "Print JSON (the API's address shape).") var json = false

    func run() async throws {
        try await CommandContext.with(providerOptions, needsStore: false) { context in
            let place = try await context.place(location)
            let address = try await context.useCases.address(
                at: place.coordinate, offline: context.offline, language: AlertsCommand.language(ProcessInfo.processInfo.environment))
            if json {
                try Terminal.printJSON(address)
            } else {
                print(address.display)
                let parts = [
                    (Terminal.text("cliStreet"), [address.street, address.houseNumber].compactMap { $0 }.joined(separator: " ")),
                    (Terminal.text("cliCity"), address.city ?? ""), (Terminal.text("cliRegion"), address.region ?? ""),
                    (Terminal.text("cliCountry"), address.country ?? ""),
                    (Terminal.text("cliCoordinates"), String(format: "%.5f, %.5f", address.latitude, address.longitude)),
                ].filter { !$0.1.isEmpty }
                print(TextRenderer.table(parts.map { [$0.0, $0.1] }, rightAligned: []).joined(separator: "\n"))
            }
        }
    }
}
