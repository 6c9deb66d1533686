import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/news?lat=&lon=`: up to 10 items published today in the place's time zone.
struct NewsController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("news", use: news)
    }

    @Sendable func news(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<NewsDocument> {
        let c = try Query(request).coordinate()
        let language = try Language.of(request)
        // News spends the client's news allowance, naming the place included: never the weather's.
        return try await ClientAllowance.inLane(.news) {
            let place = try await useCases.resolve(.coordinate(c), device: context.deviceID, language: language).place
            return EditedResponse(
                headers: CacheControl.privateData, response: try await useCases.news(for: place, language: language))
        }
    }
}
