import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

// The JSON contracts (owned by BrollyCore and BrollyUseCases) are answered as they are, through
// the context's response encoder.
extension WeatherDocument: ResponseEncodable {}
extension PlaceDocument: ResponseEncodable {}
extension SideBySide: ResponseEncodable {}  // a saved place (`SavedPlaceDocument`)
extension HistoryDocument: ResponseEncodable {}
extension HistoryListDocument: ResponseEncodable {}
extension NewsDocument: ResponseEncodable {}
extension PushSubscriptionDocument: ResponseEncodable {}
extension AlertsDocument: ResponseEncodable {}
extension AccuracyDocument: ResponseEncodable {}
extension NowDocument: ResponseEncodable {}
extension Address: ResponseEncodable {}

/// A JSON body encoded earlier (memoized), with its ETag.
struct EncodedJSON: Sendable {
    /// Kept as a `ByteBuffer`, so answering shares the bytes instead of copying them.
    let body: ByteBuffer
    let etag: String
    /// JSON, but for a compatible API's binary answer (Open-Meteo's FlatBuffers).
    let contentType: String
    /// The headers the whole middleware chain gives a repeat of a public answer (`Cache-Control:
    /// public, no-cache`, `Vary`, the security headers and `Content-Length`), made once:
    /// `WeatherRepeatDesk` answers with them unchanged (a response given them copies nothing).
    let repeatHeaders: HTTPFields

    init(body: Data, etag: String) {
        self.init(body: ByteBuffer(bytes: body), etag: etag, contentType: "application/json; charset=utf-8")
    }

    init(bytes: [UInt8], contentType: String) {
        self.init(body: ByteBuffer(bytes: bytes), etag: "\"\(Checksum.hex(Data(bytes)))\"", contentType: contentType)
    }

    private init(body: ByteBuffer, etag: String, contentType: String) {
        self.body = body
        self.etag = etag
        self.contentType = contentType
        var headers: HTTPFields = [
            .contentType: contentType, .eTag: etag, .cacheControl: "public, no-cache", .vary: "Accept-Encoding",
            .contentLength: String(body.readableBytes),
        ]
        SecurityHeaders.add(to: &headers, policy: "")
        repeatHeaders = headers
    }

    /// The response with its `Cache-Control`, built in one go (the hot path's answer).
    func response(cacheControl: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: contentType, .eTag: etag, .cacheControl: cacheControl],
            body: .init(byteBuffer: body))
    }
}

/// `Cache-Control` values of the API.
enum CacheControl {
    /// Always revalidate: the ETag makes that a cheap 304, and a client never shows old data
    /// believing it current.
    static let revalidate: HTTPFields = [.cacheControl: "public, no-cache"]
    static let hour: HTTPFields = [.cacheControl: "public, max-age=3600"]
    static let day: HTTPFields = [.cacheControl: "public, max-age=86400"]
    /// A device's own data.
    static let privateData: HTTPFields = [.cacheControl: "private, no-store"]
}

extension RequestContext {
    /// A positive integer `:id` path parameter.
    func id() throws -> Int64 {
        guard let raw = parameters.get("id"), let id = Int64(raw), id > 0 else {
            throw Problem.badRequest("the id must be a positive integer")
        }
        return id
    }
}
