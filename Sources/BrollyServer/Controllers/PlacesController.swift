import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `/api/v1/places`: search and reverse lookup, and each device's saved places.
struct PlacesController: Sendable {
    let useCases: UseCases

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        let group = RouteCollection(context: AppRequestContext.self)
        group.get("places/search", use: search)
        group.get("places/reverse", use: reverse)
        group.get("places", use: list).post("places", use: save)
        group.put("places/order", use: reorder)
        group.patch("places/:id", use: update).delete("places/:id", use: remove)
        return group
    }

    /// `GET /api/v1/places/search?q=`: matching places; an empty list when none.
    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<[PlaceDocument]> {
        guard let q = try Query(request).placeQuery("q") else { throw Problem.badRequest("parameter 'q' is required") }
        let places: [Place]
        do {
            places = try await useCases.search(q, limit: 10, language: try Language.of(request))
        } catch let error as BrollyError where error.kind == .placeNotFound {
            places = []
        }
        return EditedResponse(headers: CacheControl.hour, response: places.map(PlaceDocument.init))
    }

    /// `GET /api/v1/places/reverse?lat=&lon=`: the nearest named place.
    @Sendable func reverse(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PlaceDocument> {
        let place = try await useCases.reverse(try Query(request).coordinate(), language: try Language.of(request))
        return EditedResponse(headers: CacheControl.day, response: PlaceDocument(place))
    }

    /// `GET /api/v1/places`: this device's saved places in order.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<[SavedPlaceDocument]> {
        let language = try Language.of(request)
        return EditedResponse(
            headers: CacheControl.privateData,
            response: try await useCases.savedPlacesAtAGlance(device: context.deviceID, language: language))
    }

    /// The body of `POST /api/v1/places`.
    struct NewPlaceBody: Decodable {
        var query: String?
        var latitude: Double?
        var longitude: Double?
        var name: String?
        var customName: String?
        var region: String?
        var country: String?
        var countryCode: String?
        var timezone: String?
    }

    /// `POST /api/v1/places`: save one (by `query`, or by `latitude`/`longitude` and an optional name) → 201.
    @Sendable func save(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SavedPlaceDocument> {
        let body = try await request.decode(as: NewPlaceBody.self, context: context)
        let new: NewPlace
        if let query = body.query {
            new = .query(query)
        } else {
            guard let lat = body.latitude, let lon = body.longitude else {
                throw Problem.badRequest("give 'query', or 'latitude' and 'longitude'")
            }
            let c = try Coordinate.validated(latitude: lat, longitude: lon)
            // The place's fields are checked whether or not they are used (without a name they are
            // not: the place is named from its coordinates); a bad one is 400 either way.
            for (field, value) in [("region", body.region), ("country", body.country), ("countryCode", body.countryCode)] {
                _ = try TextField.validated(value, field: field)
            }
            _ = try TextField.validated(body.timezone, field: "timezone", max: 64)
            let named = try TextField.validated(body.name, field: "name").map {
                Place(
                    name: $0, country: body.country ?? "", countryCode: body.countryCode, region: body.region, latitude: lat,
                    longitude: lon, timezone: body.timezone ?? "UTC")
            }
            new = .coordinate(c, named: named)
        }
        // Saving a place that is already saved answers with it (200), never a copy.
        let (saved, created) = try await useCases.saveOrFindPlace(
            new, customName: body.customName, device: context.deviceID, language: try Language.of(request))
        return EditedResponse(status: created ? .created : .ok, headers: CacheControl.privateData, response: saved)
    }

    /// The body of `PATCH /api/v1/places/{id}`.
    struct PatchBody: Decodable {
        /// Present and null clears the custom name; absent leaves it.
        var customName: String??
        var position: Int?

        enum CodingKeys: String, CodingKey { case customName, position }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.customName) {
                customName = .some(try c.decodeNil(forKey: .customName) ? nil : try c.decode(String.self, forKey: .customName))
            }
            // A position, if given, is a number: `null` is refused, not read as "leave it".
            if c.contains(.position) { position = try c.decode(Int.self, forKey: .position) }
        }
    }

    /// `PATCH /api/v1/places/{id}`: rename (`customName`, null clears) and/or move (`position`).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<SavedPlaceDocument> {
        let id = try context.id()
        let body = try await request.decode(as: PatchBody.self, context: context)
        let list = try await useCases.updatePlace(id: id, customName: body.customName, position: body.position, device: context.deviceID)
        guard let result = list.first(where: { $0.id == id }) else { throw BrollyError.noSuchItem("there is no saved place #\(id)") }
        return EditedResponse(headers: CacheControl.privateData, response: result)
    }

    /// The body of `PUT /api/v1/places/order`.
    struct OrderBody: Decodable {
        var ids: [Int64]
    }

    /// `PUT /api/v1/places/order`: `{"ids": [3, 1, 2]}`, every id once.
    @Sendable func reorder(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<[SavedPlaceDocument]> {
        let body = try await request.decode(as: OrderBody.self, context: context)
        return EditedResponse(
            headers: CacheControl.privateData, response: try await useCases.reorderPlaces(body.ids, device: context.deviceID))
    }

    /// `DELETE /api/v1/places/{id}` → 204.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> HTTPResponse.Status {
        try await useCases.removePlace(id: try context.id(), device: context.deviceID)
        return .noContent
    }
}
