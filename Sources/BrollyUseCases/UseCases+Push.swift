import BrollyCore
import BrollyStore
import Foundation

/// A subscription as the API shows it: `{id, endpoint, minimumSeverity, createdAt, rain, morning,
/// places?, language, units}`.
public struct PushSubscriptionDocument: Codable, Sendable, Hashable {
    public var id: String
    public var endpoint: String
    public var minimumSeverity: AlertSeverity
    public var createdAt: String
    public var rain: PushSettings.Rain
    public var morning: PushSettings.Morning
    public var places: [Int64]?
    public var language: String
    public var units: UnitSystem
    /// The places the rain watcher cannot watch now (its daily allowance of forecast calls is
    /// spent: the places more subscribers follow come first); absent when every place is watched.
    public var unwatched: [UnwatchedPlace]?

    public struct UnwatchedPlace: Codable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        /// Why: `budget` (the allowance is spent).
        public var reason: String
    }

    public init(_ s: PushSubscription) {
        id = s.id
        endpoint = s.endpoint
        minimumSeverity = s.minimumSeverity
        createdAt = LocalTime.iso8601(s.createdAt, in: TimeZone(secondsFromGMT: 0)!)
        rain = s.settings.rain
        morning = s.settings.morning
        places = s.settings.places
        language = s.settings.language
        units = s.settings.units
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
        device: String, endpoint: URL, p256dh: String, auth: String, minimumSeverity: AlertSeverity,
        settings change: PushSettingsChange = PushSettingsChange()
    ) async throws -> PushSubscriptionDocument {
        guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 4 else {
            throw BrollyError.invalidInput("'keys.p256dh' must be a base64url P-256 public key (65 bytes)")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw BrollyError.invalidInput("'keys.auth' must be a base64url 16-byte secret")
        }
        let subscription = PushSubscription(
            id: UUID().uuidString.lowercased(), deviceId: device, endpoint: endpoint.absoluteString, p256dh: p256dh, auth: auth,
            minimumSeverity: minimumSeverity, createdAt: now(), settings: try change.applied(to: PushSettings()))
        let saved = try await services.store.subscribe(subscription, now: now())
        await watchedChanged()
        return try await document(saved)
    }

    /// Changes one of the device's subscriptions (rain, morning, places, language, units, severity).
    public func updateSubscription(id: String, device: String, _ change: PushSettingsChange) async throws -> PushSubscriptionDocument {
        let store = services.store
        guard let current = try await store.subscriptions(device: device).first(where: { $0.id == id }) else {
            throw BrollyError.noSuchItem("no push subscription \(id)")
        }
        let settings = try change.applied(to: current.settings)
        guard
            let saved = try await store.updateSubscription(
                id: id, device: device, settings: settings, minimumSeverity: try change.severity())
        else { throw BrollyError.noSuchItem("no push subscription \(id)") }
        await watchedChanged()
        return try await document(saved)
    }

    public func subscriptions(device: String) async throws -> [PushSubscriptionDocument] {
        var out: [PushSubscriptionDocument] = []
        for s in try await services.store.subscriptions(device: device) { out.append(try await document(s)) }
        return out
    }

    /// A subscription's document with the places the watcher marked as not watched.
    func document(_ s: PushSubscription) async throws -> PushSubscriptionDocument {
        var doc = PushSubscriptionDocument(s)
        let marks = try await services.store.pushStates(subscription: s.id).compactMap { key, reason -> (Int64, String)? in
            guard key.hasPrefix(PushWatcher.unwatchedMark), let id = Int64(key.dropFirst(PushWatcher.unwatchedMark.count)) else {
                return nil
            }
            return (id, reason)
        }
        guard !marks.isEmpty else { return doc }
        let places = try await services.store.places(device: s.deviceId)
        doc.unwatched = marks.sorted { $0.0 < $1.0 }.compactMap { id, reason in
            places.first { $0.id == id }.map { PushSubscriptionDocument.UnwatchedPlace(id: id, name: $0.displayName, reason: reason) }
        }
        if doc.unwatched?.isEmpty == true { doc.unwatched = nil }
        return doc
    }

    public func unsubscribe(id: String, device: String) async throws {
        guard try await services.store.unsubscribe(id: id, device: device) else {
            throw BrollyError.noSuchItem("no push subscription \(id)")
        }
        await watchedChanged()
    }

    /// Every alert at or above each subscription's severity, at each saved place of its device,
    /// not pushed to it before, once per subscription (two places under one warning: one push).
    /// Each place's alerts are looked up once per poll (and cached for their window), however many
    /// subscriptions share it.
    public func pendingPushes(language: String = "en") async throws -> [PendingPush] {
        var out: [PendingPush] = []
        _ = try await pendingPushes(language: language, from: 0, until: nil) { out += $0 }
        return out
    }

    /// A warnings round, fair whatever others saved (issue 52: 3 devices × 100 saved places looked
    /// up in device order within NWS's 60 a minute left two of five new subscribers in New York
    /// without a warning for 240 s). The places are looked up in turns: every device's first
    /// place (one lookup per place however many devices share it), then every device's second…;
    /// what each turn finds is handed to `found` at once, not at the end of the round. The first
    /// turn is always looked up whole; the later ones, starting at `cursor` and going round, only
    /// until `deadline` — the next round goes on from the cursor returned.
    public func pendingPushes(
        language: String = "en", from cursor: Int, until deadline: Date?, found: ([PendingPush]) async throws -> Void
    ) async throws -> Int {
        var byDevice: [String: [PushSubscription]] = [:]
        for s in try await services.store.allSubscriptions() { byDevice[s.deviceId, default: []].append(s) }
        struct Lookup {
            var place: SavedPlace
            var turn: Int
            /// (device, its subscriptions, the saved place as that device named it)
            var followers: [(String, [PushSubscription], SavedPlace)]
        }
        var lookups: [String: Lookup] = [:]
        var delivered: [String: Set<String>] = [:]
        for (device, subscriptions) in byDevice.sorted(by: { $0.key < $1.key }) {
            let places = try await services.store.places(device: device)
            guard !places.isEmpty else { continue }
            // What each subscription was sent, read once per poll (not once per place).
            for subscription in subscriptions {
                delivered[subscription.id] = try await services.store.deliveredAlertKeys(subscription: subscription.id)
            }
            var seen = Set<String>()
            for saved in places {
                let key = saved.place.coordinate.cacheKey
                guard seen.insert(key).inserted else { continue }
                var lookup = lookups[key] ?? Lookup(place: saved, turn: seen.count - 1, followers: [])
                lookup.turn = min(lookup.turn, seen.count - 1)
                lookup.followers.append((device, subscriptions, saved))
                lookups[key] = lookup
            }
        }
        let ordered = lookups.sorted { ($0.value.turn, $0.key) < ($1.value.turn, $1.key) }.map(\.value)
        let first = ordered.filter { $0.turn == 0 }
        var rest = Array(ordered.dropFirst(first.count))
        let start = rest.isEmpty ? 0 : cursor % rest.count
        rest = Array(rest[start...] + rest[..<start])
        func look(_ lookup: Lookup) async -> [PendingPush] {
            var out: [PendingPush] = []
            let alerts = await alerts(for: lookup.place.place, language: language).here
            for (_, subscriptions, saved) in lookup.followers {
                for subscription in subscriptions {
                    for alert in alerts where alert.severity >= subscription.minimumSeverity {
                        let pending = PendingPush(subscription: subscription, place: saved, alert: alert)
                        // Once per subscription and alert, however many of its places lie under it.
                        if delivered[subscription.id, default: []].insert(pending.alertKey).inserted { out.append(pending) }
                    }
                }
            }
            return out
        }
        var turnFound: [PendingPush] = []
        for lookup in first { turnFound += await look(lookup) }
        if !turnFound.isEmpty { try await found(turnFound) }
        var done = 0
        var turn = rest.first?.turn
        turnFound = []
        for lookup in rest {
            if let deadline, now() >= deadline { break }
            // The later turns leave half of each warnings budget: the first places of devices
            // (a new subscriber's) and people's pages are never refused for them.
            guard warningBudgetsLeave(0.5) else { break }
            if lookup.turn != turn, !turnFound.isEmpty {
                try await found(turnFound)
                turnFound = []
            }
            turn = lookup.turn
            turnFound += await look(lookup)
            done += 1
        }
        if !turnFound.isEmpty { try await found(turnFound) }
        return rest.isEmpty ? 0 : (start + done) % rest.count
    }

    /// Whether each warnings upstream has at least `share` of its tightest limit left now.
    func warningBudgetsLeave(_ share: Double) -> Bool {
        [Upstream.nws, .meteoAlarm, .cap].allSatisfy { upstream in
            guard let buckets = services.guards.buckets[upstream], let count = buckets.budget.limits.map(\.count).min() else {
                return true
            }
            return buckets.remaining() >= share * Double(count)
        }
    }
}
