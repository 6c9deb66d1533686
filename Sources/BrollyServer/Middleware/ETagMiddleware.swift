import BrollyCore
import Foundation
import Hummingbird

/// ETags for the API's GET answers: a checksum of the body (unless the handler set one it
/// memoized), and `304 Not Modified` when the client's `If-None-Match` names it.
struct ETagMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard request.method == .get || request.method == .head, response.status == .ok else { return response }
        let etag: String
        if let set = response.headers[.eTag] {
            etag = set
        } else {
            let collected = CollectedBody()
            try await response.body.write(BodyCollector(into: collected))
            let body = collected.buffer
            etag = "\"\(Checksum.hex(Data(body.readableBytesView)))\""
            response.body = .init(byteBuffer: body)
            response.headers[.eTag] = etag
        }
        response.headers[.vary] = "Accept-Encoding"
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
            var headers = response.headers
            headers[.contentType] = nil
            headers[.contentLength] = nil
            return Response(status: .notModified, headers: headers)
        }
        return response
    }

    /// Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks for GET).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header == "*"
            || header.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag
            }
    }
}

/// The bytes of one response body, gathered within one request's task.
final class CollectedBody {
    var buffer = ByteBuffer()
}

/// A body writer that appends to a `CollectedBody`.
struct BodyCollector: ResponseBodyWriter {
    let target: CollectedBody

    init(into target: CollectedBody) { self.target = target }

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        target.buffer.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
