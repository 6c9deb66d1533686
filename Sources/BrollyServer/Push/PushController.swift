import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// `/api/v1/push/*`: the VAPID key and each device's Web Push subscriptions.
struct PushController: Sendable {
    let useCases: UseCases
    let vapid: VAPID?
    let allowInsecure: Bool
    /// Subscriptions one device may hold (a phone, a laptop, a tablet… each a browser of its own).
    static let maxPerDevice = 10
    /// New subscriptions one client address may make in a day, across its devices (a household or
    /// an office behind one address; a script minting device cookies cannot go past it).
    static let maxPerAddressPerDay = 50
    /// When each client address made its subscriptions of the last day (memory: a restart forgets).
    let madeByAddress = Locked<[String: [Date]]>([:])

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        let group = RouteCollection(context: AppRequestContext.self)
        group.get("push/key", use: key)
        group.get("push/subscriptions", use: list).post("push/subscriptions", use: subscribe)
        group.patch("push/subscriptions/:id", use: update).delete("push/subscriptions/:id", use: remove)
        return group
    }

    struct Key: ResponseEncodable { var publicKey: String }
    struct List: ResponseEncodable { var items: [PushSubscriptionDocument] }

    func enabled() throws -> VAPID {
        guard let vapid else {
            throw Problem(.serviceUnavailable, code: .pushDisabled, title: "Web Push is not set up", detail: "this server has no VAPID key")
        }
        return vapid
    }

    /// `GET /api/v1/push/key` → `{"publicKey": "<base64url>"}`, the application server key.
    @Sendable func key(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Key> {
        EditedResponse(headers: CacheControl.day, response: Key(publicKey: try enabled().publicKey))
    }

    /// `PushSubscription.toJSON()` plus an optional `minimumSeverity` and the settings
    /// (`rain`, `morning`, `places`, `language`, `units`; see `PushSettingsChange`).
    struct Body: Decodable {
        struct Keys: Decodable {
            var p256dh: String?
            var auth: String?
        }
        var endpoint: String?
        var keys: Keys?
        var change: PushSettingsChange

        enum CodingKeys: String, CodingKey { case endpoint, keys }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            endpoint = try c.decodeIfPresent(String.self, forKey: .endpoint)
            keys = try c.decodeIfPresent(Keys.self, forKey: .keys)
            change = try PushSettingsChange(from: decoder)
        }
    }

    /// `POST /api/v1/push/subscriptions` → 201 `{id, endpoint, minimumSeverity, createdAt, rain,
    /// morning, places?, language, units}`.
    @Sendable func subscribe(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PushSubscriptionDocument> {
        _ = try enabled()
        let body = try await request.decode(as: Body.self, context: context)
        let change = body.change
        guard let endpoint = body.endpoint else { throw Problem.badRequest("'endpoint' is required") }
        guard let p256dh = body.keys?.p256dh, let auth = body.keys?.auth else {
            throw Problem.badRequest("'keys.p256dh' and 'keys.auth' are required")
        }
        try PushEndpointPolicy.checkKeys(p256dh: p256dh, auth: auth)
        let url = try await PushEndpointPolicy.checkResolving(endpoint, allowInsecure: allowInsecure)
        let existing = try await useCases.subscriptions(device: context.deviceID)
        if !existing.contains(where: { $0.endpoint == url.absoluteString }) {
            if existing.count >= Self.maxPerDevice {
                throw Problem(
                    .tooManyRequests, code: .tooManyRequests, title: "Too many subscriptions",
                    detail: "a device may hold \(Self.maxPerDevice) push subscriptions; remove one first")
            }
            try takeAddressAllowance(context.clientKey, now: useCases.services.clock.now)
        }
        let saved = try await useCases.subscribe(
            device: context.deviceID, endpoint: url, p256dh: p256dh, auth: auth, minimumSeverity: try change.severity() ?? .moderate,
            settings: change)
        return EditedResponse(status: .created, headers: CacheControl.privateData, response: saved)
    }

    /// Counts a new subscription against its address's day; 429 beyond `maxPerAddressPerDay`.
    func takeAddressAllowance(_ address: String, now: Date) throws {
        let retryAfter: TimeInterval? = madeByAddress.withLock { made in
            if made.count > 10_000 { made = made.filter { $0.value.last.map { now.timeIntervalSince($0) < 86_400 } ?? false } }
            var times = made[address, default: []].filter { now.timeIntervalSince($0) < 86_400 }
            defer { made[address] = times }
            guard times.count < Self.maxPerAddressPerDay else { return 86_400 - now.timeIntervalSince(times[0]) }
            times.append(now)
            return nil
        }
        if let retryAfter {
            throw Problem(
                .tooManyRequests, code: .tooManyRequests, title: "Too many subscriptions",
                detail: "this address has made \(Self.maxPerAddressPerDay) push subscriptions today",
                retryAfter: Int(retryAfter.rounded(.up)))
        }
    }

    /// `PATCH /api/v1/push/subscriptions/{id}` with any of `rain`, `morning`, `places`, `language`,
    /// `units`, `minimumSeverity` → the subscription as it now is.
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<PushSubscriptionDocument> {
        _ = try enabled()
        let change = try await request.decode(as: PushSettingsChange.self, context: context)
        let saved = try await useCases.updateSubscription(id: context.parameters.get("id") ?? "", device: context.deviceID, change)
        return EditedResponse(headers: CacheControl.privateData, response: saved)
    }

    /// `GET /api/v1/push/subscriptions` → `{items: [...]}` (this device's).
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<List> {
        EditedResponse(headers: CacheControl.privateData, response: List(items: try await useCases.subscriptions(device: context.deviceID)))
    }

    /// `DELETE /api/v1/push/subscriptions/{id}` → 204.
    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        try await useCases.unsubscribe(id: id, device: context.deviceID)
        return Response(status: .noContent)
    }
}
