import BrollyCore
import BrollyStore
import Foundation

/// A subscription as the API shows it: `{id, endpoint, minimumSeverity, createdAt}`.
public struct PushSubscriptionDocument: Codable, Sendable, Hashable {
    public var id: String
    public var endpoint: String
    public var minimumSeverity: AlertSeverity
    public var createdAt: String

    public init(_ s: PushSubscription) {
        id = s.id
        endpoint = s.endpoint
        minimumSeverity = s.minimumSeverity
        createdAt = LocalTime.iso8601(s.createdAt, in: TimeZone(secondsFromGMT: 0)!)
    }
}

/// One alert to push to one subscription, with what the notification needs.
public struct PendingPush: Sendable {
    public var subscription: PushSubscription
    public var place: SavedPlace
    public var alert: Alert
    /// What is recorded once it is sent: the source and the message's identifier (an update is a
    /// new message, pushed again and replacing the earlier notification through its topic).
    public var alertKey: String { alert.source + "|" + alert.id }
    /// The Web Push `Topic` (at most 32 URL-safe characters): the same for a warning and its
    /// updates (same source, sender, event and areas), so a push service replaces an undelivered
    /// earlier message.
    public var topic: String {
        let text = [alert.source, alert.sender, alert.event, alert.areas.joined(separator: ";")].joined(separator: "|")
        return "a" + Checksum.hex(Data(text.utf8)) + Checksum.hex(Data(("\u{1}" + text).utf8)).prefix(8)
    }
}

extension UseCases {
    /// Adds (or updates) the device's subscription. `p256dh` and `auth` are the browser's keys,
    /// base64url; the endpoint has been checked by the caller.
    public func subscribe(
        device: String, endpoint: URL, p256dh: String, auth: String, minimumSeverity: AlertSeverity
    ) async throws -> PushSubscriptionDocument {
        guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 4 else {
            throw BrollyError.invalidInput("'keys.p256dh' must be a base64url P-256 public key (65 bytes)")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw BrollyError.invalidInput("'keys.auth' must be a base64url 16-byte secret")
        }
        let subscription = PushSubscription(
            id: UUID().uuidString.lowercased(), deviceId: device, endpoint: endpoint.absoluteString, p256dh: p256dh, auth: auth,
            minimumSeverity: minimumSeverity, createdAt: now())
        return PushSubscriptionDocument(try await services.store.subscribe(subscription, now: now()))
    }

    public func subscriptions(device: String) async throws -> [PushSubscriptionDocument] {
        try await services.store.subscriptions(device: device).map(PushSubscriptionDocument.init)
    }

    public func unsubscribe(id: String, device: String) async throws {
        guard try await services.store.unsubscribe(id: id, device: device) else {
            throw BrollyError.noSuchItem("no push subscription \(id)")
        }
    }

    /// Every alert at or above each subscription's severity, at each saved place of its device,
    /// not pushed to it before. Each place's alerts are looked up once per poll (and cached for
    /// their window), however many subscriptions share it.
    public func pendingPushes(language: String = "en") async throws -> [PendingPush] {
        var byDevice: [String: [PushSubscription]] = [:]
        for s in try await services.store.allSubscriptions() { byDevice[s.deviceId, default: []].append(s) }
        var alertsAt: [String: [Alert]] = [:]
        var out: [PendingPush] = []
        for (device, subscriptions) in byDevice.sorted(by: { $0.key < $1.key }) {
            let places = try await services.store.places(device: device)
            // What each subscription was sent, read once per poll (not once per place).
            var delivered: [String: Set<String>] = [:]
            for subscription in subscriptions where !places.isEmpty {
                delivered[subscription.id] = try await services.store.deliveredAlertKeys(subscription: subscription.id)
            }
            for saved in places {
                let place = saved.place
                let key = place.coordinate.cacheKey
                if alertsAt[key] == nil {
                    alertsAt[key] = await alerts(for: place, language: language).here
                }
                for subscription in subscriptions {
                    for alert in alertsAt[key] ?? [] where alert.severity >= subscription.minimumSeverity {
                        let pending = PendingPush(subscription: subscription, place: saved, alert: alert)
                        if delivered[subscription.id]?.contains(pending.alertKey) != true { out.append(pending) }
                    }
                }
            }
        }
        return out
    }
}
