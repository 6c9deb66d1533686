import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `/api/v1/address` and `/api/v1/news`: lookups about a point.
struct LookupsController: Sendable {
    let useCases: UseCases

    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("address", use: address)
        group.get("news", use: news)
        group.get("alerts", use: alerts)
    }

    /// `GET /api/v1/alerts?lat=&lon=` (or `place=`)`[&lang=]`: the official warnings for the place.
    @Sendable func alerts(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<AlertsDocument> {
        let place = try await useCases.resolve(try Query(request).placeOrCoordinate(), device: context.deviceID).place
        let document = await useCases.alertsDocument(for: place, language: try Language.of(request))
        return EditedResponse(headers: CacheControl.revalidate, response: document)
    }

    /// `GET /api/v1/address?lat=&lon=`: the street address.
    @Sendable func address(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Address> {
        let address = try await useCases.address(at: try Query(request).coordinate())
        return EditedResponse(headers: CacheControl.privateData, response: address)
    }

    /// `GET /api/v1/news?lat=&lon=`: up to 10 items published today in the place's time zone.
    @Sendable func news(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<NewsDocument> {
        let c = try Query(request).coordinate()
        let place = try await useCases.resolve(.coordinate(c), device: context.deviceID).place
        return EditedResponse(headers: CacheControl.privateData, response: try await useCases.news(for: place))
    }
}
