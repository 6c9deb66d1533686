import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The plain HTTP/1.1 port's connection: Hummingbird's `HTTP1Channel` pipeline (NIO's request
/// decoder, the configuration's handlers, Hummingbird's connection state and time-out) with one
/// handler, `HTTP1ServerCodec`, where NIO's response encoder and swift-nio-extras' conversion to
/// HTTP types were. Issue 52: callgrind put those two at 24 k instructions of a returning browser's
/// 147 k per cached answer (the bare route: 16 k of 137 k) — about 1.2 k for each response header,
/// written by four `ByteBuffer` writes through an intermediate `HTTPHeaders` — and the request's
/// conversion parsed every target with Foundation's `URLComponents` (2.4-3.5 k) to find a scheme an
/// origin-form target (`/…`) cannot have.
struct BrollyHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    let responder: HTTPChannelHandler.Responder
    let configuration: HTTP1Channel.Configuration

    init(responder: @escaping HTTPChannelHandler.Responder, configuration: HTTP1Channel.Configuration) {
        self.responder = responder
        self.configuration = configuration
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: limits)))
            try operations.addHandler(HTTP1ServerCodec())
            try operations.addHandlers(configuration.additionalChannelHandlers())
            try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout.map { .init($0) }, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

/// HTTP/1.1 parts as HTTP types, and HTTP types' responses as HTTP/1.1 bytes: what
/// `HTTP1ToHTTPServerCodec` and `HTTPResponseEncoder` (framing headers set automatically) do
/// together, byte for byte (`HTTP1ServerCodecTests` compares the two on every kind of response),
/// with a response head written in one pass into one buffer of its exact size.
///
/// - An origin-form target (`/path?query`, every browser's and app's request) is the request's path
///   as it came: swift-nio-extras looks for a scheme in it with `URLComponents` first, and a target
///   starting with `/` has none. Any other target goes through swift-nio-extras' conversion.
/// - Answers to `HEAD` and `CONNECT` carry no body; `1xx` (but `101`), `204` and `304` answers, and
///   answers to `CONNECT`, lose `Content-Length` and `Transfer-Encoding`; any other answer without a
///   `Content-Length` is chunked (`Transfer-Encoding: chunked`, added last) — as NIO's encoder does,
///   which learns each request's method from NIO's decoder; this handler notes them as they pass.
final class HTTP1ServerCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = IOData

    /// The methods of the requests read and not yet answered, oldest first (pipelined requests
    /// are answered in order).
    private var methods = CircularBuffer<HTTPMethod>(initialCapacity: 4)
    /// The answer being written goes to a `HEAD` or `CONNECT` request: its body is not sent.
    private var suppressesBody = false
    /// The answer being written is chunked.
    private var isChunked = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            methods.append(head.method)
            do {
                context.fireChannelRead(wrapInboundOut(.head(try Self.request(head))))
            } catch {
                context.fireErrorCaught(error)
            }
        case .body(let body):
            context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            context.fireChannelRead(wrapInboundOut(.end(trailers.map { HTTPFields($0, splitCookie: false) })))
        }
    }

    /// The request in HTTP types, as `HTTP1ToHTTPServerCodec(secure: false)` makes it.
    static func request(_ head: HTTPRequestHead) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/") else { return try HTTPRequest(head, secure: false, splitCookie: false) }
        return HTTPRequest(
            method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers.first(name: "Host"), path: head.uri,
            headerFields: HTTPFields(head.headers, splitCookie: false))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            let code = response.status.code
            var respondsToConnect = false
            if !((100..<200).contains(code) && code != 101), let method = methods.popFirst() {
                suppressesBody = method == .HEAD || method == .CONNECT
                respondsToConnect = method == .CONNECT
            }
            let status = StatusLine.of(response.status)
            let head = Self.head(
                response.headerFields, status: status.line, hasBody: !respondsToConnect && status.mayHaveBody,
                allocator: context.channel.allocator)
            isChunked = head.isChunked && !suppressesBody
            context.write(wrapOutboundOut(.byteBuffer(head.bytes)), promise: promise)
        case .body(let body):
            if suppressesBody {
                promise?.fail(NIOHTTPResponseEncoderError.responseBodyNotAllowed)
            } else if isChunked && body.readableBytes > 0 {
                var size = context.channel.allocator.buffer(capacity: 32)
                size.writeString(String(body.readableBytes, radix: 16))
                size.writeStaticString("\r\n")
                context.write(wrapOutboundOut(.byteBuffer(size)), promise: nil)
                context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil)
                size.moveReaderIndex(forwardBy: size.readableBytes - 2)  // its "\r\n" once more
                context.write(wrapOutboundOut(.byteBuffer(size)), promise: promise)
            } else {
                context.write(wrapOutboundOut(.byteBuffer(body)), promise: promise)
            }
        case .end(let trailers):
            suppressesBody = false
            if isChunked {
                var end = context.channel.allocator.buffer(capacity: 8)
                end.writeStaticString("0\r\n")
                if let trailers {
                    for field in trailers { Self.write(field, into: &end) }
                }
                end.writeStaticString("\r\n")
                context.write(wrapOutboundOut(.byteBuffer(end)), promise: promise)
            } else if let promise {
                context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
            }
        }
    }

    /// A response head's bytes: the status line, the fields in their order less those the framing
    /// drops (`hasBody` false: `Content-Length` and `Transfer-Encoding`; a `Content-Length`:
    /// `Transfer-Encoding`), `Transfer-Encoding: chunked` last when the body has no length.
    static func head(_ fields: HTTPFields, status line: String, hasBody: Bool, allocator: ByteBufferAllocator) -> (
        bytes: ByteBuffer, isChunked: Bool
    ) {
        var hasLength = false
        for field in fields where matches(field.name, .contentLength) {
            hasLength = true
            break
        }
        let isChunked = hasBody && !hasLength
        var status = line
        var size = status.utf8.count + 2 + (isChunked ? chunkedField.utf8.count : 0)
        for field in fields where keeps(field.name, hasBody: hasBody) {
            size += field.name.rawName.utf8.count + field.value.utf8.count + 4
        }
        var buffer = allocator.buffer(capacity: size)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { space in
            guard var at = space.baseAddress else { return 0 }
            at = copy(&status, to: at)
            for field in fields where keeps(field.name, hasBody: hasBody) {
                var name = field.name.rawName
                var value = field.value
                at = copy(&name, to: at)
                at.storeBytes(of: (UInt8(ascii: ":"), UInt8(ascii: " ")), as: (UInt8, UInt8).self)
                at = copy(&value, to: at + 2)
                at.storeBytes(of: (UInt8(ascii: "\r"), UInt8(ascii: "\n")), as: (UInt8, UInt8).self)
                at += 2
            }
            if isChunked {
                var chunked = chunkedField
                at = copy(&chunked, to: at)
            }
            at.storeBytes(of: (UInt8(ascii: "\r"), UInt8(ascii: "\n")), as: (UInt8, UInt8).self)
            let written = at + 2 - space.baseAddress!
            // The count above and the copies here walk the same fields by the same rule.
            precondition(written == size, "response head: \(written) bytes written for \(size) counted")
            return written
        }
        return (buffer, isChunked)
    }

    /// NIO's framing: without a body neither length field is sent; with a body
    /// `Transfer-Encoding` is dropped (kept by its length, or replaced by `chunked`).
    @inline(__always)
    private static func keeps(_ name: HTTPField.Name, hasBody: Bool) -> Bool {
        !matches(name, .transferEncoding) && (hasBody || !matches(name, .contentLength))
    }

    /// `name == framing`, comparing the canonical names' lengths first: most names differ in
    /// length from both framing fields, and a long name's comparison was 1 k instructions a head.
    @inline(__always)
    private static func matches(_ name: HTTPField.Name, _ framing: HTTPField.Name) -> Bool {
        name.canonicalName.utf8.count == framing.canonicalName.utf8.count && name == framing
    }

    /// As `HTTPHeaders.replaceOrAdd(name: "transfer-encoding", value: "chunked")` writes it.
    static let chunkedField = "transfer-encoding: chunked\r\n"

    @inline(__always)
    private static func copy(_ string: inout String, to at: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        string.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else { return at }
            at.copyMemory(from: source, byteCount: utf8.count)
            return at + utf8.count
        }
    }

    private static func write(_ field: HTTPField, into buffer: inout ByteBuffer) {
        buffer.writeString(field.name.rawName)
        buffer.writeStaticString(": ")
        buffer.writeString(field.value)
        buffer.writeStaticString("\r\n")
    }
}

/// HTTP/1.1 status lines as NIO writes them — a known code with NIO's reason phrase (whatever the
/// response's), another code with the response's own — and NIO's `mayHaveResponseBody` for the
/// code. The known codes' are made once.
struct StatusLine {
    let line: String
    let mayHaveBody: Bool

    init(_ status: HTTPResponseStatus) {
        line = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        mayHaveBody = status.mayHaveResponseBody
    }

    private static let known: [StatusLine?] = (0..<600).map { code in
        let status = HTTPResponseStatus(statusCode: code)
        return code < 100 || isCustom(status) ? nil : StatusLine(status)
    }

    static func of(_ status: HTTPResponse.Status) -> StatusLine {
        if status.code < known.count, let known = known[status.code] { return known }
        return StatusLine(HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase))
    }

    private static func isCustom(_ status: HTTPResponseStatus) -> Bool {
        if case .custom = status { return true }
        return false
    }
}
