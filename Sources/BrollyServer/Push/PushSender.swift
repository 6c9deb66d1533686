import BrollyCore
import BrollyStore
import BrollyUseCases
import Foundation
import Logging

/// How pushes are sent: Web Push (RFC 8291 encryption, RFC 8292 VAPID), one payload type
/// (`PushPayload`) and one TTL and urgency rule (`PushMessage.ttl`, `urgency`). Up to
/// `parallelSends` subscriptions at once, each subscription's pushes in turn. A push service's
/// answer decides what follows: delivered (2xx); the subscription gone (404, 410: removed); tried
/// again at a later round (429, 5xx, no answer, a redirect — never followed —, at most
/// `maxAttempts` times), with the subscription's push service backed off 1, 2, 4… minutes and the
/// subscription removed after `maxFailures` failed rounds in a row; any other 4xx given up.
struct PushSender: Sendable {
    let useCases: UseCases
    let vapid: VAPID
    let transport: any HTTPTransport
    /// Tests only: http push endpoints on loopback (checked again at every send, as at subscribing).
    let allowInsecure: Bool
    let logger: Logger
    /// How a push service's name is resolved for its check (getaddrinfo; a test's resolver).
    var resolve: @Sendable (String) -> [[UInt8]] = PushEndpointPolicy.resolve
    /// Failed attempts per subscription and push, in memory (a restart starts the count again).
    let attempts = Locked<[String: Int]>([:])
    let maxAttempts = 5
    /// Subscriptions whose push service failed rounds in a row: how often, and when to try again.
    let troubled = Locked<[String: Trouble]>([:])
    struct Trouble {
        var failures: Int
        var retryAt: Date
    }
    /// Push services (endpoint hosts) whose sends failed in a row, and when to try them again.
    let hostTrouble = Locked<[String: Trouble]>([:])
    /// Rain and morning pushes delivered, by type (for metrics).
    let watchPushes = Locked<[String: Int]>([:])
    /// Pushes sent at once (each subscription's in turn, up to this many subscriptions together).
    static let parallelSends = 64
    /// Seconds for one push, connection and TLS included (a connection alone has 3).
    static let sendTimeout: Double = 5
    /// Rounds in a row a subscription's push service may fail before the subscription is removed.
    static let maxFailures = 5
    var clock: any WallClock { useCases.services.clock }

    /// Sends `pushes` while `keepsLease` holds; `done` records one that was delivered or given up
    /// on. A subscription whose push service is backed off waits for a later round.
    ///
    /// Each push service (the endpoint's host) has a lane of its own: at most `perHost` of its
    /// subscriptions at once, the hosts taken in turn, `parallelSends` in all; and a host whose
    /// sends failed `hostFailures` times in a row (no answer, a redirect, a 5xx) is left alone for
    /// a minute, doubling to an hour — its remaining subscriptions wait for a later round without
    /// being tried. Issue 52: 320 subscriptions to an endpoint that never answers took all 64 slots
    /// for 5 s at a time and held a real push back 23.9 s.
    func deliver(
        _ pushes: [PushMessage], keepsLease: @escaping @Sendable () async -> Bool,
        done: @escaping @Sendable (PushMessage, Int?) async -> Void
    ) async {
        let now = clock.now
        var order: [String] = []
        var bySubscription: [String: [PushMessage]] = [:]
        for push in pushes {
            let id = push.subscription.id
            if bySubscription[id] == nil { order.append(id) }
            bySubscription[id, default: []].append(push)
        }
        let waiting = troubled.withLock { t in Set(order.filter { t[$0].map { $0.retryAt > now } ?? false }) }
        var hosts: [String] = []
        var lanes: [String: ArraySlice<[PushMessage]>] = [:]
        for id in order where !waiting.contains(id) {
            let batch = bySubscription[id]!
            let host = Self.host(of: batch[0])
            if lanes[host] == nil { hosts.append(host) }
            lanes[host, default: []].append(batch)
        }
        var inFlight: [String: Int] = [:]
        var turn = 0
        await withTaskGroup(of: String.self) { group in
            var running = 0
            /// Starts the next subscription of the next host in turn that has room; false when none can start.
            func start() -> Bool {
                for _ in 0..<hosts.count {
                    let host = hosts[turn % hosts.count]
                    turn += 1
                    guard inFlight[host, default: 0] < Self.perHost, !hostIsBackingOff(host), var lane = lanes[host],
                        let batch = lane.popFirst()
                    else { continue }
                    lanes[host] = lane
                    inFlight[host, default: 0] += 1
                    group.addTask {
                        for push in batch {
                            if Task.isCancelled || hostIsBackingOff(host) { return host }
                            if await !keepsLease() { return host }
                            let status = await send(push)
                            hostAnswered(host, status)
                            switch await outcome(status, push) {
                            case .delivered, .givenUp: await done(push, status)
                            case .gone: return host
                            case .retry: if troubled.withLock({ $0[push.subscription.id] != nil }) { return host }
                            }
                        }
                        return host
                    }
                    return true
                }
                return false
            }
            while running < Self.parallelSends && start() { running += 1 }
            while let host = await group.next() {
                inFlight[host, default: 1] -= 1
                running -= 1
                while running < Self.parallelSends && start() { running += 1 }
            }
        }
    }

    /// A push service's lane: at most this many of its subscriptions are sent to at once.
    static let perHost = 8
    /// Failed sends in a row after which a push service is left alone for a while.
    static let hostFailures = 8

    static func host(of push: PushMessage) -> String {
        URL(string: push.subscription.endpoint)?.host?.lowercased() ?? ""
    }

    /// Whether `host` failed `hostFailures` times in a row lately and is left alone for now.
    func hostIsBackingOff(_ host: String) -> Bool {
        let now = clock.now
        return hostTrouble.withLock { $0[host].map { $0.failures >= Self.hostFailures && $0.retryAt > now } ?? false }
    }

    /// Counts a send's answer against its push service: a 2xx or 4xx (it answered) clears its
    /// failures; no answer, a redirect or a 5xx adds one, and the `hostFailures`-th leaves it
    /// alone for 1, 2, 4… minutes (at most an hour).
    func hostAnswered(_ host: String, _ status: Int?) {
        let now = clock.now
        let failed = status.map { (300..<400).contains($0) || $0 >= 500 } ?? true
        hostTrouble.withLock { t in
            guard failed else {
                t[host] = nil
                return
            }
            var trouble = t[host] ?? Trouble(failures: 0, retryAt: now)
            trouble.failures += 1
            if trouble.failures >= Self.hostFailures {
                let rounds = Double(trouble.failures / Self.hostFailures - 1)
                trouble.retryAt = now.addingTimeInterval(min(3600, 60 * pow(2, rounds)))
            }
            t[host] = trouble
        }
    }

    /// What a push is, in the logs.
    static func what(_ push: PushMessage) -> String {
        if let alert = push.payload.alert { return "\(alert.event) at \(push.payload.place.name)" }
        return "\(push.payload.type) (\(push.payload.status ?? "summary")) at \(push.payload.place.name)"
    }

    /// Counts a failure of the subscription's push service; true when it has failed
    /// `maxFailures` rounds in a row (the subscription is then removed). The next try waits
    /// 1, 2, 4, … minutes (at most 6 hours).
    func pushServiceFailed(_ subscription: String) -> Bool {
        let now = clock.now
        return troubled.withLock { t in
            var trouble = t[subscription] ?? Trouble(failures: 0, retryAt: now)
            trouble.failures += 1
            trouble.retryAt = now.addingTimeInterval(min(6 * 3600, 60 * pow(2, Double(trouble.failures - 1))))
            t[subscription] = trouble.failures >= Self.maxFailures ? nil : trouble
            return trouble.failures >= Self.maxFailures
        }
    }

    enum Outcome { case delivered, gone, retry, givenUp }

    /// What a push service's answer means (see the type's description).
    func outcome(_ status: Int?, _ push: PushMessage) async -> Outcome {
        let answer = status.map(String.init) ?? "no answer"
        let subscription = push.subscription.id
        switch status {
        case .some(200..<300):
            troubled.withLock { $0[subscription] = nil }
            logger.info("push: \(Self.what(push)) sent (\(answer))")
            return .delivered
        case .some(404), .some(410):
            try? await useCases.services.store.removeSubscription(id: subscription)
            await useCases.watchedChanged()
            logger.info("push: subscription \(subscription) is gone (\(answer)): removed")
            return .gone
        case nil, .some(300..<400), .some(500...):
            if pushServiceFailed(subscription) {
                try? await useCases.services.store.removeSubscription(id: subscription)
                await useCases.watchedChanged()
                logger.warning(
                    "push: subscription \(subscription) removed: its push service failed \(Self.maxFailures) rounds in a row (\(answer))")
                return .gone
            }
            return retryOrGiveUp(status, push)
        default:
            return retryOrGiveUp(status, push)
        }
    }

    /// A 4xx gives up at once; anything else is retried at later rounds, at most `maxAttempts` times.
    func retryOrGiveUp(_ status: Int?, _ push: PushMessage) -> Outcome {
        let answer = status.map(String.init) ?? "no answer"
        let attempt = push.subscription.id + "|" + push.identity
        let n = attempts.withLock { a -> Int in
            a[attempt, default: 0] += 1
            return a[attempt]!
        }
        if n >= maxAttempts || (status.map { (400..<500).contains($0) && $0 != 429 } ?? false) {
            attempts.withLock { $0[attempt] = nil }
            logger.warning("push: \(Self.what(push)) to \(push.subscription.id) given up (\(answer))")
            return .givenUp
        }
        logger.info("push: \(Self.what(push)) to \(push.subscription.id) failed (\(answer)), will retry")
        return .retry
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The payload's JSON, within what push services accept (about 4 KB): a warning's long
    /// description is cut, the rest stays whole.
    static func json(_ payload: PushPayload) throws -> Data {
        var json = try encoder.encode(payload)
        if json.count > 3000, var alert = payload.alert {
            alert.description = String(alert.description.prefix(max(0, 2800 - (json.count - alert.description.utf8.count))))
            alert.instruction = alert.instruction.map { String($0.prefix(300)) }
            var short = payload
            short.alert = alert
            json = try encoder.encode(short)
        }
        return json
    }

    /// Encrypts (RFC 8291) and POSTs one push with VAPID (RFC 8292); the push service's status,
    /// or nil when it could not be reached. A subscription with unreadable keys answers 400.
    func send(_ push: PushMessage) async -> Int? {
        let now = clock.now
        let subscription = push.subscription
        guard let json = try? Self.json(push.payload), let endpoint = URL(string: subscription.endpoint),
            let p256dh = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth)
        else { return 400 }
        // Checked again at every send (the name may resolve elsewhere now), and sent to the address
        // checked: the name is not looked up a second time by the HTTP client (DNS rebinding
        // between the check and the connection, issue 52).
        let address: String
        do {
            address = try await PushEndpointPolicy.checkResolvingAddress(
                subscription.endpoint, allowInsecure: allowInsecure, resolve: resolve
            )
            .address
        } catch {
            logger.warning("push: \(endpoint.host ?? "?") refused at sending: \(error)")
            return nil
        }
        do {
            let body = try WebPushEncryption.encrypt(json, p256dh: p256dh, auth: auth)
            let request = HTTPRequest(
                url: endpoint, method: "POST",
                headers: [
                    "Authorization": try vapid.authorization(for: endpoint, now: now), "Content-Encoding": "aes128gcm",
                    "Content-Type": "application/octet-stream", "TTL": String(push.ttl(now: now)), "Urgency": push.urgency,
                    "Topic": push.topic,
                ], timeout: Self.sendTimeout, body: body, connectTo: address)
            return try await transport.send(request).status
        } catch {
            logger.info("push: \(endpoint.host ?? "?") unreachable: \(error)")
            return nil
        }
    }
}
