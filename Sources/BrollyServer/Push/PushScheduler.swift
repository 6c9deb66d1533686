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
/// `BROLLY_WATCH_SECONDS` when shorter; a cell is asked upstream once per `BROLLY_WATCH_SECONDS`).
/// What a round finds goes to the `sender`. Stops cleanly on SIGTERM. Its time is the services'
/// clock.
struct PushScheduler: Service {
    let useCases: UseCases
    /// Rain alerts and morning summaries; nil: none.
    let watcher: PushWatcher?
    /// Seconds between the alert rounds.
    let interval: Double
    /// Where the next warnings round goes on among the places beyond every device's first.
    let alertCursor = Locked(0)
    /// Where what a round finds goes (Web Push).
    let sender: PushSender
    /// Several servers on one PostgreSQL push once for the cluster: the rounds run while this holds.
    let lease: ClusterLease
    let logger: Logger
    var clock: any WallClock { useCases.services.clock }

    func run() async throws {
        logger.info("alert poller: every \(interval) s (as \(lease.holder))")
        await cancelWhenGracefulShutdown {
            var lastPoll: Date?
            var lastWatch: Date?
            var held = false
            while !Task.isCancelled {
                let holds = await lease.renew()
                if holds != held {
                    logger.info(holds ? "alert poller: this instance (\(lease.holder)) polls" : "alert poller: another instance polls")
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
                try? await clock.sleep(min(interval, lease.check, watcher?.tick ?? .infinity))
            }
        }
    }

    /// The warnings round: what is pending, pushed as each turn of lookups finds it, and each
    /// delivery recorded. Every device's first place is looked up each round; the others, in
    /// turns going round from where the last round stopped, for at most `roundSeconds`.
    func alertRound() async {
        let now = clock.now
        let store = useCases.services.store
        do {
            let next = try await useCases.pendingPushes(
                from: alertCursor.current, until: now.addingTimeInterval(Self.roundSeconds)
            ) { pending in
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
                await sender.deliver(messages, keepsLease: lease.keep) { push, status in
                    guard case .alert(let key) = push.record else { return }
                    try? await store.recordDelivery(subscription: push.subscription.id, alertKey: key, status: status ?? 0, now: clock.now)
                }
            }
            alertCursor.withLock { $0 = next }
        } catch {
            logger.error("alert poller: \(error)")
        }
    }

    /// The longest a warnings round looks up places beyond every device's first (the rest wait for
    /// the next round), so that a new subscriber's place is looked up within about this long.
    static let roundSeconds: Double = 15
    /// The rain and morning round: what is due, pushed; what was delivered (or given up on) remembered.
    func watchRound(_ watcher: PushWatcher) async {
        let messages: [PushMessage]
        do { messages = try await watcher.round() } catch {
            logger.error("watcher: \(error)")
            return
        }
        await sender.deliver(messages, keepsLease: lease.keep) { push, status in
            try? await watcher.delivered(push)
            if (200..<300).contains(status ?? 0) { sender.watchPushes.withLock { $0[push.payload.type, default: 0] += 1 } }
        }
    }
}
