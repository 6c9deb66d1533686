import ArgumentParser
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `brolly bench-reference` (hidden): a bare Hummingbird route serving a file's bytes as JSON,
/// with no middleware at all. `scripts/bench.sh` measures it in the same run as `brolly serve` and
/// prints the ratio, so the figures do not depend on how busy the machine is. With `--header` it
/// answers with those headers too (the script passes the ones `brolly serve` answers with, so that
/// a second reference serves the very same response).
struct BenchReference: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-reference", abstract: "A bare Hummingbird route serving a file (for scripts/bench.sh).",
        shouldDisplay: false)

    @Option(name: .long, help: "Port to listen on.")
    var port: Int = 18098

    @Option(name: .long, help: "The file whose bytes GET /api/v1/weather answers.")
    var body: String

    @Option(name: .customLong("header"), help: "A response header, \"Name: value\" (repeatable; default: Content-Type JSON only).")
    var headers: [String] = []

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: body) else {
            throw CommandFailure(message: "cannot read \(body)")
        }
        let bytes = ByteBuffer(bytes: data)
        var fields: HTTPFields = headers.isEmpty ? [.contentType: "application/json; charset=utf-8"] : [:]
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let name = HTTPField.Name(String(parts[0]).trimmingCharacters(in: .whitespaces)) else {
                throw CommandFailure(message: "--header must be \"Name: value\", not \(header)")
            }
            fields.append(HTTPField(name: name, value: String(parts[1]).trimmingCharacters(in: .whitespaces)))
        }
        let router = Router()
        router.get("/api/v1/weather") { [fields] _, _ -> Response in
            Response(status: .ok, headers: fields, body: .init(byteBuffer: bytes))
        }
        var logger = Logger(label: "bench-reference")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.runService()
    }
}
