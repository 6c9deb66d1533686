import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `/api/v1/history`: each device's lookups, newest first.
struct HistoryController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        let group = RouteCollection(context: AppRequestContext.self)
        group.get("history", use: list).delete("history", use: clear)
        group.get("history/:id", use: entry).delete("history/:id", use: delete)
        return group
    }

    /// `GET /api/v1/history[?limit=]` (1–500, default 100).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<HistoryListDocument> {
        let limit = try Query(request).integer("limit", in: 1...500)
        return EditedResponse(
            headers: CacheControl.privateData,
            response: try await useCases.history(device: context.deviceID, limit: limit ?? 100, language: try Language.of(request)))
    }

    /// `GET /api/v1/history/{id}`: one lookup with its weather snapshot (metric, marked stale).
    @Sendable func entry(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<HistoryDocument> {
        let lookup = try await useCases.historyEntry(id: try context.id(), device: context.deviceID, language: try Language.of(request))
        return EditedResponse(headers: CacheControl.privateData, response: lookup.document)
    }

    /// `DELETE /api/v1/history/{id}` → 204.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await useCases.deleteHistoryEntry(id: try context.id(), device: context.deviceID)
        return .noContent
    }

    /// `DELETE /api/v1/history` → 204.
    @Sendable func clear(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await useCases.clearHistory(device: context.deviceID)
        return .noContent
    }
}
