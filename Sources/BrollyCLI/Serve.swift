import ArgumentParser
import BrollyCore
import BrollyHTTP
import BrollyServer
import BrollyStore
import Foundation
import Logging

/// `brolly serve`: the JSON API and the web app.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the JSON API and the web app (default http://127.0.0.1:8080).",
        discussion: "Also reads BROLLY_HOST, BROLLY_PORT, BROLLY_LEAFLET_DIR and BROLLY_WEB_DIR.")

    @Option(name: .long, help: "Address to listen on (default 127.0.0.1, or BROLLY_HOST).")
    var host: String?

    @Option(name: .long, help: "Port to listen on (default 8080, or BROLLY_PORT).")
    var port: Int?

    @Option(name: .long, help: "Weather provider: open-meteo (default) or openweathermap.")
    var provider: String?

    @Option(name: .long, help: "Seconds to wait for each upstream request (default 10).")
    var timeout: Double = 10

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if !(timeout.isFinite && timeout > 0 && timeout <= 300) { throw ValidationError("--timeout must be between 0 and 300 seconds") }
    }

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        let host = self.host ?? env["BROLLY_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        var port = self.port ?? 8080
        if self.port == nil, let raw = env["BROLLY_PORT"], !raw.isEmpty {
            guard let p = Int(raw), (0...65_535).contains(p) else {
                throw BrollyError.invalidInput("BROLLY_PORT is not a port number: \(raw)")
            }
            port = p
        }
        let configuration = try BrollyConfiguration(provider: provider, timeout: timeout, environment: env)
        var logger = Logger(label: "brolly")
        logger.logLevel = env["BROLLY_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
        let transport = AsyncHTTPTransport(connectTimeout: min(5, timeout))
        let settings = ServerSettings(
            host: host, port: port, leafletDirectory: env["BROLLY_LEAFLET_DIR"].flatMap { $0.isEmpty ? nil : $0 },
            webDirectory: env["BROLLY_WEB_DIR"].flatMap { $0.isEmpty ? nil : $0 })
        if !FileManager.default.fileExists(atPath: settings.leafletDirectory + "/leaflet.js") {
            logger.warning(
                "Leaflet not found in \(settings.leafletDirectory): the map will be missing (apt-get install libjs-leaflet, or set BROLLY_LEAFLET_DIR)"
            )
        }
        logger.info("provider \(configuration.provider.rawValue), cache \(configuration.directories.cache.path)")
        let databaseURL = configuration.directories.data.appendingPathComponent("brolly.sqlite")
        let store: AppDatabase
        do { store = try AppDatabase.open(at: databaseURL) } catch {
            await transport.shutdown()
            throw CommandFailure(message: "cannot open the database \(databaseURL.path): \(error.localizedDescription)")
        }
        logger.info("database \(databaseURL.path)")
        let services = ServerServices.make(configuration: configuration, transport: transport, store: store, logger: logger)
        let app = buildApplication(services: services, settings: settings, logger: logger)
        do {
            try await app.runService()
        } catch {
            await transport.shutdown()
            let text = String(describing: error)
            let reason = text.contains("Address already in use") ? "the address is already in use" : text
            throw CommandFailure(message: "cannot serve on \(host):\(port): \(reason)")
        }
        await transport.shutdown()
    }
}
