import BrollyCore
import Foundation
import Logging
import Testing

@testable import BrollyServer

/// The server's log lines are StreamLogHandler's, made by a handler whose metadata costs nothing
/// until a line is written (issue 52); the Vary check of the compression compares bytes.
@Suite struct LogAndVaryTests {
    @Test func aLineIsWrittenAsStreamLogHandlerWritesIt() {
        let event = LogEvent(
            level: .info, message: "Request", metadata: ["hb.request.path": "/api/v1/weather", "hb.request.method": "GET"],
            source: "BrollyServer", file: #fileID, function: #function, line: #line)
        let at = Date(timeIntervalSince1970: 1_795_262_400)
        let line = LineLogHandler.line(event, label: "brolly", metadata: ["hb.request.id": "abc"], provider: nil, at: at)
        // StreamLogHandler's layout: level, label, metadata sorted by key, [source], message.
        let expected = " info brolly: hb.request.id=abc hb.request.method=GET hb.request.path=/api/v1/weather [BrollyServer] Request\n"
        #expect(line.hasSuffix(expected), "\(line)")
        // The time first, in the machine's zone, as StreamLogHandler's strftime writes it.
        let stamp = String(line.prefix(while: { $0 != " " }))
        #expect(stamp.count == 24 && stamp.hasPrefix("2026-11-2") && stamp.contains("T"), "\(stamp)")
        #expect(LineLogHandler.timestamp(at) == stamp && LineLogHandler.timestamp(at.addingTimeInterval(0.5)) == stamp)
        #expect(LineLogHandler.timestamp(at.addingTimeInterval(1)) != stamp)
        // Without metadata: nothing between the label's colon and the source.
        let bare = LineLogHandler.line(
            LogEvent(level: .warning, message: "m", metadata: nil, source: "S", file: "", function: "", line: 0), label: "x",
            metadata: [:], provider: nil, at: at)
        #expect(bare.hasSuffix(" warning x: [S] m\n"), "\(bare)")
    }

    @Test func varyIsReadByItsNames() {
        #expect(CompressionMiddleware.namesAcceptEncoding("Accept-Encoding"))
        #expect(CompressionMiddleware.namesAcceptEncoding("Origin,  accept-encoding "))
        #expect(CompressionMiddleware.namesAcceptEncoding("Cookie,\tACCEPT-ENCODING"))
        #expect(!CompressionMiddleware.namesAcceptEncoding("Accept-Language"))
        #expect(!CompressionMiddleware.namesAcceptEncoding("X-Accept-Encoding"))
        #expect(!CompressionMiddleware.namesAcceptEncoding(""))
    }
}
