import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/alerts`: the official warnings for a place (a helper of its own: it may fail or
/// be slow without touching the weather).
struct AlertsController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("alerts", use: alerts)
    }

    /// `GET /api/v1/alerts?lat=&lon=` (or `place=`)`[&lang=]`: the official warnings for the place.
    @Sendable func alerts(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<AlertsDocument> {
        let place = try await useCases.resolve(try Query(request).placeOrCoordinate(), device: context.deviceID).place
        let document = await useCases.alertsDocument(for: place, language: try Language.of(request))
        return EditedResponse(headers: CacheControl.revalidate, response: document)
    }
}
