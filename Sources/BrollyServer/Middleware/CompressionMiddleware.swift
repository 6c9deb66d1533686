import BrollyCore
import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird

/// gzip for text responses (JSON, HTML, CSS, JavaScript, SVG, manifests) when the client accepts
/// it, with `Vary: Accept-Encoding`. Bodies under 1 KB are sent as they are. A compressed body with
/// an `ETag` is kept (LRU) under its path and ETag, so static files and cached weather answers are
/// compressed once, not on every request; its ETag gets a `-gzip` suffix, and a revalidation that
/// sends it back is matched against the plain one.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let compressed = MemoryCache<ByteBuffer>(capacity: 512)
    static let minimumBytes = 1024
    static let maximumBytes = 8 << 20

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let accepts = Self.acceptsGzip(request.headers[.acceptEncoding])
        var request = request
        if accepts, let tag = request.headers[.ifNoneMatch], tag.contains("-gzip\"") {
            var head = request.head
            head.headerFields[.ifNoneMatch] = tag.replacingOccurrences(of: "-gzip\"", with: "\"")
            request = Request(head: head, body: request.body)
        }
        var response = try await next(request, context)
        guard let type = response.headers[.contentType], Self.isCompressible(type), response.headers[.contentEncoding] == nil else {
            return response
        }
        if !response.headers[values: .vary].contains(where: Self.namesAcceptEncoding) {
            response.headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        }
        guard accepts else { return response }
        if response.status == .notModified, let tag = response.headers[.eTag] {
            response.headers[.eTag] = Self.gzipTag(tag)
            return response
        }
        guard response.status == .ok, let length = response.body.contentLength, length >= Self.minimumBytes, length <= Self.maximumBytes
        else { return response }
        let tag = response.headers[.eTag]
        let key = tag.map { Self.key(path: request.uri.path, etag: $0) }
        var body: ByteBuffer
        if let key, let hit = compressed.get(key) {
            body = hit.value
        } else {
            let collector = Collector()
            try await response.body.write(collector)
            guard var plain = collector.box.current else { return response }
            body = try plain.compress(with: .gzip())
            guard body.readableBytes < length else {
                response.body = .init(byteBuffer: collector.box.current!)
                return response
            }
            // Kept by its ETag: an entry never goes stale, so it carries no time of its own.
            if let key { compressed.set(key, CacheEntry(value: body, receivedAt: .distantPast)) }
        }
        response.body = .init(byteBuffer: body)
        Self.markGzipped(&response.headers, bytes: body.readableBytes)
        return response
    }

    /// Where a compressed body is kept: its path and the plain body's ETag.
    static func key(path: String, etag: String) -> String { path + "|" + etag }

    /// The headers of a body now `bytes` of gzip: its encoding, its length, and its ETag's `-gzip` form.
    static func markGzipped(_ headers: inout HTTPFields, bytes: Int) {
        headers[.contentEncoding] = "gzip"
        headers[.contentLength] = String(bytes)
        if let tag = headers[.eTag] { headers[.eTag] = gzipTag(tag) }
    }

    /// Whether a `Vary` value names `Accept-Encoding` (compared by bytes: Foundation's
    /// `contains`, a `CFStringFind` on Linux, was 0.9 % of a cached answer's time under wrk).
    static func namesAcceptEncoding(_ vary: String) -> Bool {
        vary.split(separator: ",").contains { part in
            let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 }
            var bytes = Array(part.utf8)
            while let last = bytes.last, isSpace(last) { bytes.removeLast() }
            let name = bytes.drop(while: isSpace)
            let lower = name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            return lower.elementsEqual("accept-encoding".utf8)
        }
    }

    static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") && !tag.hasSuffix("-gzip\"") ? String(tag.dropLast()) + "-gzip\"" : tag
    }

    /// `gzip` listed without `q=0`.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard pieces.first == "gzip" || pieces.first == "*" else { continue }
            if pieces.dropFirst().contains(where: { $0.replacingOccurrences(of: " ", with: "") == "q=0" || $0 == "q=0.0" }) { return false }
            return true
        }
        return false
    }

    static func isCompressible(_ type: String) -> Bool {
        let t = type.lowercased()
        return t.hasPrefix("text/") || t.hasPrefix("application/json") || t.hasPrefix("application/problem+json")
            || t.hasPrefix("application/javascript") || t.hasPrefix("application/manifest+json") || t.hasPrefix("image/svg+xml")
            || t.hasPrefix("application/geo+json") || t.hasPrefix("text/javascript")
    }

    /// Collects a response body (the ones compressed here are in memory or small files). The
    /// writer is consumed by `write`, so what it collects is kept in a shared box.
    struct Collector: ResponseBodyWriter {
        let box = Locked<ByteBuffer?>(nil)
        mutating func write(_ buffer: ByteBuffer) async throws {
            box.withLock { collected in
                if collected == nil {
                    collected = buffer
                } else {
                    var b = buffer
                    collected!.writeBuffer(&b)
                }
            }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
