import BrollyCore
import BrollyStore
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
/// With a `watcher`, the same instance also runs the rain and morning watcher every
/// `watcher.interval` seconds (`BROLLY_WATCH_SECONDS`), under the same lease and with the same
/// handling of the push service's answers.
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
    /// Tests only: http push endpoints on loopback (checked again at every send, as at subscribing).
    let allowInsecure: Bool
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
    /// Rain alerts and morning summaries; nil: none.
    let watcher: PushWatcher?
    /// Rain and morning pushes delivered, by type (for metrics).
    let watchPushes = Locked<[String: Int]>([:])
    /// Subscriptions whose push service failed (no answer, a refused address, a redirect, 5xx)
    /// rounds in a row: how often, and when to try it again.
    let troubled = Locked<[String: Trouble]>([:])
    struct Trouble {
        var failures: Int
        var retryAt: Date
    }
    /// Pushes sent at once (each subscription's in turn, up to this many subscriptions together).
    static let parallelSends = 64
    /// Seconds for one push, connection and TLS included (a connection alone has 3).
    static let sendTimeout: Double = 5
    /// Rounds in a row a subscription's push service may fail before the subscription is removed.
    static let maxFailures = 5

    func run() async throws {
        logger.info("alert poller: every \(interval) s (as \(holder))")
        await cancelWhenGracefulShutdown {
            var lastPoll: Date?
            var lastWatch: Date?
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
                if holds, let watcher, lastWatch.map({ Date().timeIntervalSince($0) >= watcher.interval }) ?? true {
                    lastWatch = Date()
                    await watchOnce(watcher)
                    let counts = watcher.lastRound.withLock { $0 }
                    logger.info(
                        "watcher: round done (\(counts.watched) places watched, \(counts.unwatched) not, \(counts.calls) calls, \(counts.pushes) pushes)"
                    )
                }
                let pause = min(interval, leaseCheck, watcher?.interval ?? .infinity)
                try? await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
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
        let store = useCases.services.store
        await deliver(
            pending, subscription: \.subscription.id, key: \.alertKey, what: { "\($0.alert.event) at \($0.place.displayName)" },
            send: { await send($0) },
            done: { push, status in
                try? await store.recordDelivery(subscription: push.subscription.id, alertKey: push.alertKey, status: status ?? 0)
            })
    }

    /// Sends the pushes while this instance keeps the lease: up to `parallelSends` subscriptions at
    /// once, each subscription's pushes in turn (skipping the rest of one found gone or failing);
    /// a subscription whose push service is backed off waits for a later round. `done` records one
    /// that was delivered or given up on (see `outcome`).
    func deliver<Push: Sendable>(
        _ pushes: [Push], subscription: @escaping @Sendable (Push) -> String, key: @escaping @Sendable (Push) -> String,
        what: @escaping @Sendable (Push) -> String, send: @escaping @Sendable (Push) async -> Int?,
        done: @escaping @Sendable (Push, Int?) async -> Void, now: Date = Date()
    ) async {
        var order: [String] = []
        var bySubscription: [String: [Push]] = [:]
        for push in pushes {
            let id = subscription(push)
            if bySubscription[id] == nil { order.append(id) }
            bySubscription[id, default: []].append(push)
        }
        let waiting = troubled.withLock { t in Set(order.filter { t[$0].map { $0.retryAt > now } ?? false }) }
        let batches = order.filter { !waiting.contains($0) }.map { bySubscription[$0]! }
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func start() {
                guard next < batches.count else { return }
                let batch = batches[next]
                next += 1
                group.addTask {
                    for push in batch {
                        if Task.isCancelled { return }
                        if await !keepsLease() { return }
                        let status = await send(push)
                        switch await outcome(status, subscription: subscription(push), key: key(push), what: what(push)) {
                        case .delivered, .givenUp: await done(push, status)
                        case .gone: return
                        case .retry: if troubled.withLock({ $0[subscription(push)] != nil }) { return }
                        }
                    }
                }
            }
            for _ in 0..<Self.parallelSends { start() }
            while await group.next() != nil { start() }
        }
    }

    /// Counts a failure of the subscription's push service; true when it has failed
    /// `maxFailures` rounds in a row (the subscription is then removed). The next try waits
    /// 1, 2, 4, … minutes (at most 6 hours).
    func pushServiceFailed(_ subscription: String, now: Date = Date()) -> Bool {
        troubled.withLock { t in
            var trouble = t[subscription] ?? Trouble(failures: 0, retryAt: now)
            trouble.failures += 1
            trouble.retryAt = now.addingTimeInterval(min(6 * 3600, 60 * pow(2, Double(trouble.failures - 1))))
            t[subscription] = trouble.failures >= Self.maxFailures ? nil : trouble
            return trouble.failures >= Self.maxFailures
        }
    }

    /// A long round keeps its lease; one that lost it stops (another instance polls now).
    func keepsLease() async -> Bool {
        if Date().timeIntervalSince(renewedAt.withLock { $0 }) > leaseCheck { return await renewLease() }
        return true
    }

    enum Outcome { case delivered, gone, retry, givenUp }

    /// What a push service's answer means: delivered (2xx); the subscription gone (404, 410:
    /// removed); to be retried at a later round (429, 5xx, no answer), or given up after
    /// `maxAttempts` or on another 4xx (then recorded, so it is not tried forever).
    func outcome(_ status: Int?, subscription: String, key: String, what: String) async -> Outcome {
        let answer = status.map(String.init) ?? "no answer"
        switch status {
        case .some(200..<300):
            troubled.withLock { $0[subscription] = nil }
            logger.info("push: \(what) sent (\(answer))")
            return .delivered
        case .some(404), .some(410):
            try? await useCases.services.store.removeSubscription(id: subscription)
            logger.info("push: subscription \(subscription) is gone (\(answer)): removed")
            return .gone
        case nil, .some(300..<400), .some(500...):
            // No answer (or a refused address), a redirect (never followed), or the service's own
            // failure: the subscription's push service is backed off, and removed when it keeps failing.
            if pushServiceFailed(subscription) {
                try? await useCases.services.store.removeSubscription(id: subscription)
                logger.warning(
                    "push: subscription \(subscription) removed: its push service failed \(Self.maxFailures) rounds in a row (\(answer))")
                return .gone
            }
            return retryOrGiveUp(status, subscription: subscription, key: key, what: what)
        default:
            return retryOrGiveUp(status, subscription: subscription, key: key, what: what)
        }
    }

    /// A 4xx gives up at once; anything else is retried at later rounds, at most `maxAttempts` times.
    func retryOrGiveUp(_ status: Int?, subscription: String, key: String, what: String) -> Outcome {
        let answer = status.map(String.init) ?? "no answer"
        let attempt = subscription + "|" + key
        let n = attempts.withLock { a -> Int in
            a[attempt, default: 0] += 1
            return a[attempt]!
        }
        if n >= maxAttempts || (status.map { (400..<500).contains($0) && $0 != 429 } ?? false) {
            attempts.withLock { $0[attempt] = nil }
            logger.warning("push: \(what) to \(subscription) given up (\(answer))")
            return .givenUp
        }
        logger.info("push: \(what) to \(subscription) failed (\(answer)), will retry")
        return .retry
    }

    /// One round of the rain and morning watcher: what is due, pushed; what was delivered (or
    /// given up on) remembered.
    func watchOnce(_ watcher: PushWatcher) async {
        let pushes: [WatchPush]
        do { pushes = try await watcher.round() } catch {
            logger.error("watcher: \(error)")
            return
        }
        await deliver(
            pushes, subscription: \.subscription.id, key: { $0.topic + "|" + ($0.payload.status ?? "") + ($0.payload.start ?? "") },
            what: { "\($0.payload.type) (\($0.payload.status ?? "summary")) at \($0.payload.place.name)" },
            send: { push in
                guard let json = try? Self.encoder.encode(push.payload) else { return 400 }
                return await post(json, to: push.subscription, ttl: push.ttl, urgency: push.urgency, topic: push.topic)
            },
            done: { push, status in
                try? await watcher.delivered(push)
                if (200..<300).contains(status ?? 0) { watchPushes.withLock { $0[push.payload.type, default: 0] += 1 } }
            })
    }

    /// The notification's payload: `{"type": "alert", "place", "alert", "url"}`.
    struct Payload: Encodable {
        var type = "alert"
        var place: PushPlace
        var alert: WeatherDocument.AlertInfo
        var url: String
    }

    /// Encrypts and POSTs one alert; the push service's status, or nil when it could not be reached.
    func send(_ push: PendingPush, now: Date = Date()) async -> Int? {
        let place = push.place
        let payload = Payload(
            place: PushPlace(place), alert: WeatherDocument.AlertInfo(push.alert, in: place.place.timeZone), url: "/?place=\(place.id ?? 0)"
        )
        do {
            var json = try Self.encoder.encode(payload)
            // Push services accept about 4 KB: a long description is cut, the rest stays whole.
            if json.count > 3000 {
                var short = payload
                short.alert.description = String(
                    short.alert.description.prefix(max(0, 2800 - (json.count - short.alert.description.utf8.count))))
                short.alert.instruction = short.alert.instruction.map { String($0.prefix(300)) }
                json = try Self.encoder.encode(short)
            }
            let ttl = max(0, min(86_400, Int((push.alert.expires ?? now.addingTimeInterval(86_400)).timeIntervalSince(now))))
            return await post(
                json, to: push.subscription, ttl: ttl, urgency: push.alert.severity >= .severe ? "high" : "normal", topic: push.topic,
                now: now)
        } catch {
            logger.info("push: payload not encoded: \(error)")
            return nil
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Encrypts (RFC 8291) and POSTs one payload with VAPID (RFC 8292); the push service's status,
    /// or nil when it could not be reached. A subscription with unreadable keys answers 400.
    func post(_ json: Data, to subscription: PushSubscription, ttl: Int, urgency: String, topic: String, now: Date = Date()) async -> Int? {
        guard let endpoint = URL(string: subscription.endpoint),
            let p256dh = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth)
        else { return 400 }
        // Checked again at every send: the name may resolve elsewhere now (DNS rebinding).
        do { _ = try await PushEndpointPolicy.checkResolving(subscription.endpoint, allowInsecure: allowInsecure) } catch {
            logger.warning("push: \(endpoint.host ?? "?") refused at sending: \(error)")
            return nil
        }
        do {
            let body = try WebPushEncryption.encrypt(json, p256dh: p256dh, auth: auth)
            let request = HTTPRequest(
                url: endpoint, method: "POST",
                headers: [
                    "Authorization": try vapid.authorization(for: endpoint, now: now), "Content-Encoding": "aes128gcm",
                    "Content-Type": "application/octet-stream", "TTL": String(ttl), "Urgency": urgency, "Topic": topic,
                ], timeout: Self.sendTimeout, body: body)
            return try await transport.send(request).status
        } catch {
            logger.info("push: \(endpoint.host ?? "?") unreachable: \(error)")
            return nil
        }
    }
}
