import BrollyCore
import BrollyStore
import Foundation
import Hummingbird
import Logging

/// `/api/v1`: weather, place search and reverse lookup.
struct APIController: Sendable {
    let services: ServerServices
    /// Encoded weather bodies by what they were made from: a cached answer is encoded once per
    /// unit system and place label, not on every request.
    let encodedWeather = MemoryCache<Data>(capacity: 512)

    func add(to group: RouterGroup<AppRequestContext>) {
        group.get("weather", use: weather)
        group.get("places/search", use: search)
        group.get("places/reverse", use: reverse)
    }

    /// `GET /api/v1/weather?lat=&lon=[&units=]` or `?place=NAME`.
    @Sendable func weather(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = Query(request)
        let units = try query.units()
        let name = try query.placeQuery("place")
        let place: Place
        if let name {
            if try query.string("lat") != nil || query.string("lon") != nil {
                throw Problem.badRequest("give either 'place' or 'lat' and 'lon', not both")
            }
            guard let best = try await services.search.search(name, limit: 5).first else {
                throw BrollyError.placeNotFound("\"\(name)\"")
            }
            place = best
        } else {
            let c = try query.coordinate()
            place = await placeName(c)
        }
        let result = try await services.weather.weather(for: place, mode: .staleWhileRevalidate)
        if context.isReturningDevice {
            recordLookup(result.report, at: place.coordinate, device: context.deviceID, logger: context.logger)
        }
        let r = result.report
        let memoKey = [
            services.weather.key(for: place.coordinate), units.rawValue, String(r.fetchedAt.timeIntervalSince1970),
            String(result.isStale), r.place.name, r.place.region ?? "", r.place.country,
            String(r.place.latitude), String(r.place.longitude),
        ].joined(separator: "|")
        let body: Data
        if let hit = encodedWeather.get(memoKey) {
            body = hit.value
        } else {
            body = try WeatherDocument.makeEncoder(pretty: false).encode(WeatherDocument(result, units: units))
            encodedWeather.set(memoKey, CacheEntry(value: body, receivedAt: r.fetchedAt))
        }
        // Always revalidate: the ETag makes that a cheap 304, and a client never shows old data
        // believing it current.
        return respond(body, request: request, cacheControl: "public, no-cache")
    }

    /// Saves the lookup in the device's history, with its street address when one can be had;
    /// in the background, so that the answer is not held up.
    func recordLookup(_ report: WeatherReport, at c: Coordinate, device: String, logger: Logger) {
        let services = self.services
        Task {
            let address = try? await services.address.address(for: c)
            do {
                try services.store.recordLookup(report, address: address, coordinate: c, device: device)
            } catch {
                logger.error("could not save history: \(String(describing: error))")
            }
        }
    }

    /// The name of the place at `c`, or its coordinates when no service can name it quickly. A
    /// slow lookup is not cancelled: it finishes in the background, so its answer (or the news
    /// that the geocoder is unreachable) is cached for the next request.
    func placeName(_ c: Coordinate) async -> Place {
        let naming = Task { [namer = services.namer] in try? await namer.place(at: c) }
        let name = await FirstOf.value(naming, orNilAfter: 1.5)
        return name ?? Place.unnamed(c)
    }

    /// `GET /api/v1/places/search?q=`.
    @Sendable func search(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = Query(request)
        guard let q = try query.placeQuery("q") else { throw Problem.badRequest("parameter 'q' is required") }
        let places: [Place]
        do {
            places = try await services.search.search(q, limit: 10)
        } catch let error as BrollyError where error.kind == .placeNotFound {
            places = []
        }
        return try json(places.map(PlaceDocument.init), request: request, cacheControl: "public, max-age=3600")
    }

    /// `GET /api/v1/places/reverse?lat=&lon=`.
    @Sendable func reverse(_ request: Request, context: AppRequestContext) async throws -> Response {
        let c = try Query(request).coordinate()
        let place = try await services.namer.place(at: c)
        return try json(PlaceDocument(place), request: request, cacheControl: "public, max-age=86400")
    }

    /// A JSON response with an ETag (the body's checksum); `If-None-Match` gets 304.
    func json<T: Encodable>(_ value: T, request: Request, cacheControl: String) throws -> Response {
        respond(try WeatherDocument.makeEncoder(pretty: false).encode(value), request: request, cacheControl: cacheControl)
    }

    /// A JSON body with an ETag (its checksum); `If-None-Match` gets 304.
    func respond(_ body: Data, request: Request, cacheControl: String) -> Response {
        let etag = "\"\(Checksum.hex(body))\""
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .eTag: etag, .cacheControl: cacheControl]
        headers[.vary] = "Accept-Encoding"
        if let match = request.headers[.ifNoneMatch],
            match == "*"
                || match.split(separator: ",").contains(where: {
                    $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag
                })
        {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Waits for a task's value, or for a deadline, whichever comes first, without cancelling the task.
enum FirstOf {
    static func value<T: Sendable>(_ task: Task<T?, Never>, orNilAfter seconds: Double) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Once()
            Task {
                let value = await task.value
                if once.claim() { continuation.resume(returning: value) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if once.claim() { continuation.resume(returning: nil) }
            }
        }
    }
}

/// True for the first caller only.
final class Once: @unchecked Sendable {
    // @unchecked Sendable: `claimed` is only read or written while holding `lock`.
    private var claimed = false
    private let lock = NSLock()

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
