import BrollyCore
import BrollyStore
import Foundation
import Hummingbird

/// A saved place as the API shows it.
struct PlaceOut: Codable, Sendable {
    var id: Int64
    var name: String
    var customName: String?
    var displayName: String
    var region: String?
    var country: String
    var countryCode: String?
    var latitude: Double
    var longitude: Double
    var timezone: String?
    var position: Int

    init(_ p: SavedPlace) {
        id = p.id ?? 0
        name = p.name
        customName = p.customName
        displayName = p.displayName
        region = p.region
        country = p.country
        countryCode = p.countryCode
        latitude = p.latitude
        longitude = p.longitude
        timezone = p.timezone
        position = p.orderIndex
    }
}

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

struct PlacePatchBody: Decodable {
    /// Present and null clears the custom name; absent leaves it.
    var customName: String??
    var position: Int?

    enum CodingKeys: String, CodingKey { case customName, position }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.customName) {
            customName = .some(try c.decodeNil(forKey: .customName) ? nil : try c.decode(String.self, forKey: .customName))
        }
        position = try c.decodeIfPresent(Int.self, forKey: .position)
    }
}

struct OrderBody: Decodable {
    var ids: [Int64]
}

/// `/api/v1/places`, `/api/v1/history`, `/api/v1/address` and `/api/v1/news`: each device's own
/// saved places and history, street addresses and today's news.
struct DeviceDataController: Sendable {
    let services: ServerServices
    static let maxPlaces = 100

    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("places", use: listPlaces)
        group.post("places", use: addPlace)
        group.put("places/order", use: reorderPlaces)
        group.patch("places/:id", use: updatePlace)
        group.delete("places/:id", use: removePlace)
        group.get("history", use: listHistory)
        group.delete("history", use: clearHistory)
        group.get("history/:id", use: historyEntry)
        group.delete("history/:id", use: deleteHistoryEntry)
        group.get("address", use: address)
        group.get("news", use: news)
    }

    // MARK: Places

    @Sendable func listPlaces(_ request: Request, context: AppRequestContext) async throws -> Response {
        try json(try services.store.places(device: context.deviceID).map(PlaceOut.init))
    }

    @Sendable func addPlace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: NewPlaceBody.self, context: context)
        let customName = try Self.name(body.customName, field: "customName")
        guard try services.store.places(device: context.deviceID).count < Self.maxPlaces else {
            throw Problem.badRequest("at most \(Self.maxPlaces) places can be saved")
        }
        var place: Place
        if let query = body.query {
            let q = try PlaceSearch.validated(query)
            guard let best = try await services.search.search(q, limit: 5).first else { throw BrollyError.placeNotFound("\"\(q)\"") }
            place = best
        } else {
            guard let lat = body.latitude, let lon = body.longitude else {
                throw Problem.badRequest("give 'query', or 'latitude' and 'longitude'")
            }
            let c = try Coordinate.validated(latitude: lat, longitude: lon)
            if let name = try Self.name(body.name, field: "name") {
                place = Place(
                    name: name, country: try Self.name(body.country, field: "country") ?? "",
                    countryCode: try Self.name(body.countryCode, field: "countryCode", max: 3),
                    region: try Self.name(body.region, field: "region"), latitude: lat, longitude: lon,
                    timezone: try Self.name(body.timezone, field: "timezone", max: 64) ?? "UTC")
            } else {
                place = (try? await services.namer.place(at: c)) ?? Place.unnamed(c)
            }
        }
        let saved = try services.store.addPlace(place, customName: customName, device: context.deviceID)
        return try json(PlaceOut(saved), status: .created)
    }

    @Sendable func updatePlace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Self.id(context)
        let body = try await request.decode(as: PlacePatchBody.self, context: context)
        guard body.customName != nil || body.position != nil else {
            throw Problem.badRequest("give 'customName' (a string or null) or 'position'")
        }
        var result: SavedPlace?
        if let customName = body.customName {
            result = try services.store.renamePlace(
                id: id, customName: try Self.name(customName, field: "customName"), device: context.deviceID)
            guard result != nil else { throw Self.noSuchPlace }
        }
        if let position = body.position {
            guard position >= 0 else { throw Problem.badRequest("'position' must be 0 or more") }
            guard let list = try services.store.movePlace(id: id, to: position, device: context.deviceID) else { throw Self.noSuchPlace }
            result = list.first { $0.id == id }
        }
        return try json(PlaceOut(result!))
    }

    @Sendable func removePlace(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard try services.store.removePlace(id: try Self.id(context), device: context.deviceID) else { throw Self.noSuchPlace }
        return Response(status: .noContent)
    }

    @Sendable func reorderPlaces(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.decode(as: OrderBody.self, context: context)
        return try json(try services.store.reorderPlaces(body.ids, device: context.deviceID).map(PlaceOut.init))
    }

    // MARK: History

    @Sendable func listHistory(_ request: Request, context: AppRequestContext) async throws -> Response {
        let raw = try Query(request).string("limit")
        let limit =
            try raw.map { v -> Int in
                guard let n = Int(v), (1...500).contains(n) else { throw Problem.badRequest("'limit' must be between 1 and 500") }
                return n
            } ?? 100
        let items = try services.store.history(device: context.deviceID, limit: limit).map { HistoryDocument($0) }
        return try json(["items": items])
    }

    @Sendable func historyEntry(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let entry = try services.store.historyEntry(id: try Self.id(context), device: context.deviceID) else {
            throw Self.noSuchEntry
        }
        return try json(HistoryDocument(entry, weather: WeatherDocument(entry.weather, units: .metric, stale: true, age: 0)))
    }

    @Sendable func deleteHistoryEntry(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard try services.store.deleteHistoryEntry(id: try Self.id(context), device: context.deviceID) else { throw Self.noSuchEntry }
        return Response(status: .noContent)
    }

    @Sendable func clearHistory(_ request: Request, context: AppRequestContext) async throws -> Response {
        try services.store.deleteHistory(device: context.deviceID)
        return Response(status: .noContent)
    }

    // MARK: Address and news

    @Sendable func address(_ request: Request, context: AppRequestContext) async throws -> Response {
        let c = try Query(request).coordinate()
        return try json(try await services.address.address(for: c))
    }

    @Sendable func news(_ request: Request, context: AppRequestContext) async throws -> Response {
        let c = try Query(request).coordinate()
        var place = (try? await services.namer.place(at: c)) ?? Place.unnamed(c)
        // The place's time zone decides what "today" is: from the weather (usually cached).
        if let report = try? await services.weather.weather(for: place, mode: .staleWhileRevalidate).report {
            place.timezone = report.place.timezone
            place.utcOffsetSeconds = report.place.utcOffsetSeconds
        } else {
            place.utcOffsetSeconds = Int((c.longitude / 15).rounded()) * 3600
            place.timezone = Place.offsetLabel(place.utcOffsetSeconds!)
        }
        let items = try await services.news.today(for: place)
        struct ItemOut: Encodable { var title, summary, publishedAt, url, source: String }
        struct NewsOut: Encodable { var place: String; var items: [ItemOut] }
        let out = NewsOut(
            place: place.displayName,
            items: items.map {
                ItemOut(
                    title: $0.title, summary: $0.summary, publishedAt: LocalTime.iso8601($0.publishedAt, in: place.timeZone),
                    url: $0.url, source: $0.source)
            })
        return try json(out)
    }

    // MARK: Helpers

    static let noSuchPlace = Problem(
        .notFound, code: "not-found", title: "No such place", detail: "this device has no saved place with that id")
    static let noSuchEntry = Problem(
        .notFound, code: "not-found", title: "No such entry", detail: "this device has no history entry with that id")

    static func id(_ context: AppRequestContext) throws -> Int64 {
        guard let raw = context.parameters.get("id"), let id = Int64(raw), id > 0 else {
            throw Problem.badRequest("the id must be a positive integer")
        }
        return id
    }

    /// A trimmed optional text field: nil when absent or blank, 400 when too long or with control characters.
    static func name(_ value: String?, field: String, max: Int = 100) throws -> String? {
        guard let v = value?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        guard v.count <= max else { throw Problem.badRequest("'\(field)' is longer than \(max) characters") }
        guard !v.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw Problem.badRequest("'\(field)' contains control characters")
        }
        return v
    }

    func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let body = try WeatherDocument.makeEncoder(pretty: false).encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "private, no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
