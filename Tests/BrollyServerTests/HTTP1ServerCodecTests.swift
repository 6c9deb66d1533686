import BrollyCore
import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Testing

@testable import BrollyServer

/// `HTTP1ServerCodec` against what it replaces, NIO's server pipeline (its request decoder paired
/// with its response encoder, framing headers set automatically) under swift-nio-extras'
/// `HTTP1ToHTTPServerCodec`: the same request bytes in, the same parts out; the same response parts
/// in, the same bytes out — for every method, status class and framing, pipelined, with trailers.
@Suite struct HTTP1ServerCodecTests {
    /// Both pipelines, fed alike.
    struct Pair {
        let reference = EmbeddedChannel()
        let brolly = EmbeddedChannel()

        init() throws {
            try reference.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            try reference.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try brolly.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
            try brolly.pipeline.syncOperations.addHandler(HTTP1ServerCodec())
        }

        /// Writes `bytes` to both and returns what each read (the parts, as HTTP types).
        func read(_ bytes: String) throws -> (reference: [HTTPRequestPart], brolly: [HTTPRequestPart]) {
            (try Self.read(bytes, reference), try Self.read(bytes, brolly))
        }

        static func read(_ bytes: String, _ channel: EmbeddedChannel) throws -> [HTTPRequestPart] {
            try channel.writeInbound(ByteBuffer(string: bytes))
            var parts: [HTTPRequestPart] = []
            while let part = try channel.readInbound(as: HTTPRequestPart.self) { parts.append(part) }
            return parts
        }

        /// Writes `parts` to both and returns the bytes each sent and whether each part's write failed.
        func write(_ parts: [HTTPResponsePart]) -> (reference: Written, brolly: Written) {
            (Self.write(parts, reference), Self.write(parts, brolly))
        }

        struct Written: Equatable {
            var bytes: [UInt8]
            var failed: [Bool]
        }

        static func write(_ parts: [HTTPResponsePart], _ channel: EmbeddedChannel) -> Written {
            var failed: [Bool] = []
            for part in parts {
                let promise = channel.eventLoop.makePromise(of: Void.self)
                channel.write(NIOAny(part), promise: promise)
                channel.flush()
                let outcome = Locked(false)
                promise.futureResult.whenFailure { _ in outcome.withLock { $0 = true } }
                channel.embeddedEventLoop.run()
                failed.append(outcome.withLock { $0 })
            }
            var bytes: [UInt8] = []
            while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { bytes += buffer.readableBytesView }
            return Written(bytes: bytes, failed: failed)
        }
    }

    static let requests: [(method: String, target: String)] = [
        ("GET", "/api/v1/weather?lat=52.52&lon=13.41"), ("HEAD", "/api/v1/weather"), ("POST", "/api/v1/places"),
        ("DELETE", "/api/v1/places/3"), ("OPTIONS", "*"), ("GET", "http://example.com/forecast/KEY/1,2?units=si"),
        ("GET", "//double//slash"), ("PUT", "/caf%C3%A9?q=a+b;c"), ("CONNECT", "example.com:443"),
    ]

    static let responses: [[HTTPResponsePart]] = {
        let body = ByteBuffer(string: "{\"temperature\":21.5}")
        let length = "\(body.readableBytes)"
        return [
            // The cached weather as the repeat desk answers it.
            [
                .head(
                    HTTPResponse(
                        status: .ok,
                        headerFields: [
                            .contentType: "application/json; charset=utf-8", .eTag: "\"abc\"", .cacheControl: "no-cache",
                            .vary: "Accept-Encoding, Accept-Language", .contentLength: length, .init("X-Content-Type-Options")!: "nosniff",
                            .date: "Tue, 01 Dec 2026 21:00:00 GMT",
                        ])), .body(body), .end(nil),
            ],
            // No length: chunked, two parts and an empty one, with trailers and without.
            [
                .head(HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain"])), .body(body), .body(ByteBuffer()), .body(body),
                .end(nil),
            ],
            [.head(HTTPResponse(status: .ok)), .body(body), .end([.init("X-Checksum")!: "1", .init("X-Other")!: "2"])],
            // A Transfer-Encoding the framing replaces, or drops beside a length.
            [.head(HTTPResponse(status: .ok, headerFields: [.transferEncoding: "gzip", .server: "x"])), .body(body), .end(nil)],
            [
                .head(HTTPResponse(status: .ok, headerFields: [.transferEncoding: "chunked", .contentLength: length])), .body(body),
                .end(nil),
            ],
            // Statuses without a body lose both length fields.
            [
                .head(HTTPResponse(status: .noContent, headerFields: [.contentLength: "0", .setCookie: "a=1", .setCookie: "b=2"])),
                .end(nil),
            ],
            [.head(HTTPResponse(status: .notModified, headerFields: [.eTag: "\"abc\"", .contentLength: length])), .end(nil)],
            [
                .head(HTTPResponse(status: .notFound, headerFields: [.contentType: "application/problem+json", .contentLength: length])),
                .body(body), .end(nil),
            ],
            [.head(HTTPResponse(status: .tooManyRequests, headerFields: [.retryAfter: "30"])), .body(body), .end(nil)],
            // Informational answers first (not counted as the answer), then the answer.
            [.head(HTTPResponse(status: .continue)), .head(HTTPResponse(status: .ok, headerFields: [.contentLength: "0"])), .end(nil)],
            [
                .head(HTTPResponse(status: .earlyHints, headerFields: [.init("Link")!: "</app.js>; rel=preload"])),
                .head(HTTPResponse(status: .accepted)), .end(nil),
            ],
            // A code NIO does not know keeps its own reason; a known one gets NIO's.
            [.head(HTTPResponse(status: .init(code: 299, reasonPhrase: "Mostly Fine"), headerFields: [.contentLength: "0"])), .end(nil)],
            [
                .head(HTTPResponse(status: .init(code: 200, reasonPhrase: "Fine"), headerFields: [.contentLength: length])), .body(body),
                .end(nil),
            ],
            [.head(HTTPResponse(status: .init(code: 799, reasonPhrase: ""))), .end(nil)],
            // An empty field value and a long one.
            [
                .head(
                    HTTPResponse(
                        status: .ok, headerFields: [.init("X-Empty")!: "", .contentSecurityPolicy: String(repeating: "a", count: 5000)])),
                .end(nil),
            ],
        ]
    }()

    @Test func everyRequestIsReadAsNIOAndSwiftNIOExtrasReadIt() throws {
        for (method, target) in Self.requests {
            for headers in ["Host: 127.0.0.1:8080\r\n", "", "host: a\r\nHost: b\r\nCookie: brolly_device=x\r\nCookie: y=2\r\n"] {
                let pair = try Pair()
                let request = "\(method) \(target) HTTP/1.1\r\n\(headers)Content-Length: 2\r\n\r\nhi"
                let read = try pair.read(request)
                #expect(read.reference == read.brolly, "\(request)")
                // Head, body and end; NIO's decoder reads no body after a CONNECT's head (the rest is the tunnel's).
                #expect(read.brolly.count == (method == "CONNECT" ? 2 : 3), "\(request)")
            }
        }
    }

    @Test func everyResponseIsWrittenAsNIOWritesIt() throws {
        var compared = 0
        for (method, target) in Self.requests {
            for parts in Self.responses {
                let pair = try Pair()
                _ = try pair.read("\(method) \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
                let written = pair.write(parts)
                #expect(
                    written.reference == written.brolly,
                    "\(method) \(target) \(parts)\nNIO:    \(String(decoding: written.reference.bytes, as: UTF8.self))\nBrolly: \(String(decoding: written.brolly.bytes, as: UTF8.self))"
                )
                compared += 1
            }
        }
        #expect(compared == Self.requests.count * Self.responses.count)
    }

    /// Pipelined requests are answered in order: each answer is framed for its own request's method.
    @Test func pipelinedRequestsAreAnsweredInOrderForTheirMethods() throws {
        let pair = try Pair()
        let read = try pair.read("HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\nHEAD /x HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(read.reference == read.brolly)
        let body = ByteBuffer(string: "hello")
        for parts in [Self.responses[1], Self.responses[0], Self.responses[1]] {
            let written = pair.write(parts)
            #expect(written.reference == written.brolly)
        }
        // And the bytes are what a client expects: the HEAD answer without its body.
        let head = try Pair()
        _ = try head.read("HEAD / HTTP/1.1\r\nHost: a\r\n\r\n")
        let written = head.write([.head(HTTPResponse(status: .ok, headerFields: [.contentLength: "5"])), .body(body), .end(nil)])
        #expect(String(decoding: written.brolly.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
        #expect(written.brolly.failed == [false, true, false])
    }

    /// The status lines of every code NIO knows are NIO's.
    @Test func statusLinesAreNIOs() {
        for code in 100..<1000 {
            let status = HTTPResponse.Status(code: code, reasonPhrase: "Own Reason")
            let nio = HTTPResponseStatus(statusCode: code, reasonPhrase: "Own Reason")
            #expect(StatusLine.of(status).line == "HTTP/1.1 \(code) \(nio.reasonPhrase)\r\n")
            #expect(StatusLine.of(status).mayHaveBody == nio.mayHaveResponseBody, "\(code)")
        }
    }
}
