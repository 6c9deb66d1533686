import ArgumentParser
import Foundation
import Hummingbird
import Logging

/// `brolly bench-reference` (hidden): a bare Hummingbird route serving a file's bytes as JSON,
/// with no middleware at all. `scripts/bench.sh` measures it in the same run as `brolly serve` and
/// prints the ratio, so the figures do not depend on how busy the machine is.
struct BenchReference: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-reference", abstract: "A bare Hummingbird route serving a file (for scripts/bench.sh).",
        shouldDisplay: false)

    @Option(name: .long, help: "Port to listen on.")
    var port: Int = 18098

    @Option(name: .long, help: "The file whose bytes GET /api/v1/weather answers.")
    var body: String

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: body) else {
            throw CommandFailure(message: "cannot read \(body)")
        }
        let bytes = ByteBuffer(bytes: data)
        let router = Router()
        router.get("/api/v1/weather") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: bytes))
        }
        var logger = Logger(label: "bench-reference")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.runService()
    }
}
