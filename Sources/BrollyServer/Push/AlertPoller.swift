import BrollyCore
import BrollyUseCases
import Foundation
import Logging
import ServiceLifecycle

/// Checks the alerts of every saved place of every device with a push subscription every
/// `interval` seconds and pushes each new or updated alert at or above the subscription's severity
/// once (what was sent is stored, so a restart does not resend). `404`/`410` from the push service
/// remove the subscription; `429` and `5xx` are retried at later polls, at most `maxAttempts` times.
/// Stops cleanly on SIGTERM.
///
/// Several servers on one PostgreSQL poll once for the cluster: only the instance holding the
/// `alert-poller` lease polls. It renews the lease every `leaseCheck` seconds (and during a long
/// poll); the others try to take it as often, so when the holder dies its lease runs out after
/// `leaseSeconds` and another instance takes over within `leaseSeconds + leaseCheck` (under a
/// minute). One server alone always holds it.
struct AlertPoller: Service {
    let useCases: UseCases
    let vapid: VAPID
    let transport: any HTTPTransport
    let interval: Double
    let logger: Logger
    /// Failed attempts per subscription and alert, in memory (a restart starts the count again).
    let attempts = Locked<[String: Int]>([:])
    let maxAttempts = 5
    /// This instance's name in the lease (host, port and process).
    let holder: String
    static let leaseName = "alert-poller"
    let leaseSeconds: Double = 40
    let leaseCheck: Double = 10
    /// When the lease was last renewed during a poll.
    let renewedAt = Locked<Date>(.distantPast)

    func run() async throws {
        logger.info("alert poller: every \(interval) s (as \(holder))")
        await cancelWhenGracefulShutdown {
            var lastPoll: Date?
            var held = false
            while !Task.isCancelled {
                let holds = await renewLease()
                if holds != held {
                    logger.info(holds ? "alert poller: this instance (\(holder)) polls" : "alert poller: another instance polls")
                    held = holds
                }
                if holds, lastPoll.map({ Date().timeIntervalSince($0) >= interval }) ?? true {
                    lastPoll = Date()
                    await pollOnce()
                    // One line a round (every 5 minutes by default): operators and tests see it poll.
                    logger.info("alert poller: round done")
                }
                try? await Task.sleep(nanoseconds: UInt64(min(interval, leaseCheck) * 1_000_000_000))
            }
        }
    }

    /// Takes or renews the lease; false when another instance has it or the database is away.
    func renewLease() async -> Bool {
        let held = (try? await useCases.services.store.acquireLease(Self.leaseName, holder: holder, duration: leaseSeconds)) ?? false
        if held { renewedAt.withLock { $0 = Date() } }
        return held
    }

    /// One round: what is pending, pushed.
    func pollOnce() async {
        let pending: [PendingPush]
        do { pending = try await useCases.pendingPushes() } catch {
            logger.error("alert poller: \(error)")
            return
        }
        var gone = Set<String>()
        for push in pending where !gone.contains(push.subscription.id) {
            if Task.isCancelled { return }
            // A long round keeps its lease; one that lost it stops (another instance polls now).
            if Date().timeIntervalSince(renewedAt.withLock { $0 }) > leaseCheck, await !renewLease() { return }
            let status = await send(push)
            let store = useCases.services.store
            switch status {
            case .some(200..<300):
                try? await store.recordDelivery(subscription: push.subscription.id, alertKey: push.alertKey, status: status!)
                logger.info("push: \(push.alert.event) at \(push.place.displayName) sent (\(status!))")
            case .some(404), .some(410):
                gone.insert(push.subscription.id)
                try? await store.removeSubscription(id: push.subscription.id)
                logger.info("push: subscription \(push.subscription.id) is gone (\(status!)): removed")
            default:
                let key = push.subscription.id + "|" + push.alertKey
                let n = attempts.withLock { a -> Int in
                    a[key, default: 0] += 1
                    return a[key]!
                }
                if n >= maxAttempts || (status.map { (400..<500).contains($0) && $0 != 429 } ?? false) {
                    // Given up: recorded so that it is not tried forever.
                    try? await store.recordDelivery(subscription: push.subscription.id, alertKey: push.alertKey, status: status ?? 0)
                    attempts.withLock { $0[key] = nil }
                    logger.warning(
                        "push: \(push.alert.event) to \(push.subscription.id) given up (\(status.map(String.init) ?? "no answer"))")
                } else {
                    logger.info(
                        "push: \(push.alert.event) to \(push.subscription.id) failed (\(status.map(String.init) ?? "no answer")), will retry"
                    )
                }
            }
        }
    }

    /// The notification's payload: `{"type": "alert", "place", "alert", "url"}`.
    struct Payload: Encodable {
        struct PlaceInfo: Encodable {
            var id: Int64?
            var name: String
            var latitude: Double
            var longitude: Double
        }
        var type = "alert"
        var place: PlaceInfo
        var alert: WeatherDocument.AlertInfo
        var url: String
    }

    /// Encrypts and POSTs one push; the push service's status, or nil when it could not be reached.
    func send(_ push: PendingPush, now: Date = Date()) async -> Int? {
        guard let endpoint = URL(string: push.subscription.endpoint),
            let p256dh = Base64URL.decode(push.subscription.p256dh), let auth = Base64URL.decode(push.subscription.auth)
        else { return 400 }
        let place = push.place
        let payload = Payload(
            place: .init(id: place.id, name: place.displayName, latitude: place.latitude, longitude: place.longitude),
            alert: WeatherDocument.AlertInfo(push.alert, in: place.place.timeZone), url: "/?place=\(place.id ?? 0)")
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var json = try encoder.encode(payload)
            // Push services accept about 4 KB: a long description is cut, the rest stays whole.
            if json.count > 3000 {
                var short = payload
                short.alert.description = String(
                    short.alert.description.prefix(max(0, 2800 - (json.count - short.alert.description.utf8.count))))
                short.alert.instruction = short.alert.instruction.map { String($0.prefix(300)) }
                json = try encoder.encode(short)
            }
            let body = try WebPushEncryption.encrypt(json, p256dh: p256dh, auth: auth)
            let ttl = max(0, min(86_400, Int((push.alert.expires ?? now.addingTimeInterval(86_400)).timeIntervalSince(now))))
            let request = HTTPRequest(
                url: endpoint, method: "POST",
                headers: [
                    "Authorization": try vapid.authorization(for: endpoint, now: now), "Content-Encoding": "aes128gcm",
                    "Content-Type": "application/octet-stream", "TTL": String(ttl),
                    "Urgency": push.alert.severity >= .severe ? "high" : "normal", "Topic": push.topic,
                ], timeout: 10, body: body)
            return try await transport.send(request).status
        } catch {
            logger.info("push: \(endpoint.host ?? "?") unreachable: \(error)")
            return nil
        }
    }
}
