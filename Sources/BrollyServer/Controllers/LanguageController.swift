import BrollyCore
import Foundation
import Hummingbird

/// `/lang/*`: the page's texts, one file per language (BrollyCore's Languages), and the list of them.
struct LanguageController: Sendable {
    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("lang/index.json", use: list).get("lang/:file", use: file)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let list = Localization.codes.map { ["code": $0, "name": Localization.pack(code: $0)?.name ?? $0] }
        let body = try JSONSerialization.data(withJSONObject: list, options: [.sortedKeys])
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func file(_ request: Request, context: AppRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".json"), let data = Localization.file(String(file.dropLast(5))) else { throw HTTPError(.notFound) }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
