import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/accuracy`: how good the forecasts have been at a place (a helper of its own: it
/// may fail or be slow without touching the weather).
struct AccuracyController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("accuracy", use: accuracy)
    }

    /// `GET /api/v1/accuracy?lat=&lon=` (or `place=`)`[&units=]`.
    @Sendable func accuracy(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<AccuracyDocument> {
        let query = Query(request)
        let units = try query.units()
        // A look at accuracy spends the client's accuracy allowance, never the weather's.
        return try await ClientAllowance.inLane(.accuracy) {
            let place = try await useCases.resolve(try query.placeOrCoordinate(), device: context.deviceID).place
            let document = try await useCases.accuracy(for: place, units: units)
            return EditedResponse(headers: CacheControl.revalidate, response: document)
        }
    }
}
