import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /api/v1/address?lat=&lon=`: the street address of a point.
struct AddressController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("address", use: address)
    }

    @Sendable func address(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Address> {
        let address = try await useCases.address(at: try Query(request).coordinate(), language: try Language.of(request))
        return EditedResponse(headers: CacheControl.privateData, response: address)
    }
}
