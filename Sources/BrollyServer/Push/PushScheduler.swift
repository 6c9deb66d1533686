import BrollyCore
import BrollyStore
import BrollyUseCases
import Foundation
import Logging
import ServiceLifecycle

/// When pushes are made: on the instance holding the cluster's `alert-poller` lease, a round of
/// warnings every `interval` seconds (every new or updated warning at or above a subscription's
/// severity, once: what was sent is stored, so a restart does not resend) and, with a `watcher`, a
/// round of rain alerts and morning summaries every `watcher.tick` (a minute, or
/// `BROLLY_WATCH_SECONDS` when shorter; a cell is asked upstream once per `BROLLY_WATCH_SECONDS`). What a round finds goes to the `sender`. Stops cleanly on SIGTERM.
///
/// Several servers on one PostgreSQL push once for the cluster: the holder renews the lease every
/// `leaseCheck` seconds (and during a long round); the others try to take it as often, so when the
/// holder dies its lease runs out after `leaseSeconds` and another instance takes over within
/// `leaseSeconds + leaseCheck` (under a minute). One server alone always holds it. Its time is the
/// services' clock.
struct PushScheduler: Service {
    let useCases: UseCases
    /// Where what a round finds goes (Web Push).
    let sender: PushSender
    /// Seconds between the alert rounds.
    let interval: Double
    let logger: Logger
    /// This instance's name in the lease (host, port and process).
    let holder: String
    static let leaseName = "alert-poller"
    let leaseSeconds: Double = 40
    let leaseCheck: Double = 10
    /// When the lease was last renewed during a round.
    let renewedAt = Locked<Date>(.distantPast)
    /// Rain alerts and morning summaries; nil: none.
    let watcher: PushWatcher?
    var clock: any WallClock { useCases.services.clock }

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
                if holds, lastPoll.map({ clock.now.timeIntervalSince($0) >= interval }) ?? true {
                    lastPoll = clock.now
                    await alertRound()
                    // One line a round (every 5 minutes by default): operators and tests see it poll.
                    logger.info("alert poller: round done")
                }
                if holds, let watcher, lastWatch.map({ clock.now.timeIntervalSince($0) >= watcher.tick }) ?? true {
                    lastWatch = clock.now
                    await watchRound(watcher)
                    let counts = watcher.lastRound.withLock { $0 }
                    logger.info(
                        "watcher: round done (\(counts.watched) places watched, \(counts.unwatched) not, \(counts.calls) calls, \(counts.pushes) pushes)"
                    )
                }
                try? await clock.sleep(min(interval, leaseCheck, watcher?.tick ?? .infinity))
            }
        }
    }

    /// Takes or renews the lease; false when another instance has it or the database is away.
    func renewLease() async -> Bool {
        let held = (try? await useCases.services.store.acquireLease(Self.leaseName, holder: holder, duration: leaseSeconds)) ?? false
        if held { renewedAt.withLock { $0 = clock.now } }
        return held
    }

    /// A long round keeps its lease; one that lost it stops (another instance pushes now).
    func keepsLease() async -> Bool {
        if clock.now.timeIntervalSince(renewedAt.withLock { $0 }) > leaseCheck { return await renewLease() }
        return true
    }

    /// The warnings round: what is pending, pushed, and each delivery recorded.
    func alertRound() async {
        let pending: [PendingPush]
        do { pending = try await useCases.pendingPushes() } catch {
            logger.error("alert poller: \(error)")
            return
        }
        let now = clock.now
        let messages = pending.map { push in
            PushMessage(
                subscription: push.subscription,
                payload: PushPayload(
                    type: "alert", place: PushPlace(push.place), url: "/?place=\(push.place.id ?? 0)",
                    alert: WeatherDocument.AlertInfo(push.alert, in: push.place.place.timeZone)),
                topic: push.topic, usefulUntil: push.alert.expires ?? now.addingTimeInterval(86_400),
                urgent: push.alert.severity >= .severe,
                record: .alert(key: push.alertKey))
        }
        let store = useCases.services.store
        await sender.deliver(messages, keepsLease: keepsLease) { push, status in
            guard case .alert(let key) = push.record else { return }
            try? await store.recordDelivery(subscription: push.subscription.id, alertKey: key, status: status ?? 0)
        }
    }

    /// The rain and morning round: what is due, pushed; what was delivered (or given up on) remembered.
    func watchRound(_ watcher: PushWatcher) async {
        let messages: [PushMessage]
        do { messages = try await watcher.round() } catch {
            logger.error("watcher: \(error)")
            return
        }
        await sender.deliver(messages, keepsLease: keepsLease) { push, status in
            try? await watcher.delivered(push)
            if (200..<300).contains(status ?? 0) { sender.watchPushes.withLock { $0[push.payload.type, default: 0] += 1 } }
        }
    }
}
