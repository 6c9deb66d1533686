import BrollyCore
import BrollyStore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyUseCases

/// One TTL and urgency rule for every push: kept by the push service until it stops being worth
/// showing, never a day more; urgent when it must wake the phone.
@Suite struct PushMessageTests {
    let now = utc("2026-11-26T07:00:00Z")
    let subscription = PushSubscription(
        id: "s", deviceId: "d", endpoint: "https://push.example/x", p256dh: "k", auth: "a", minimumSeverity: .moderate,
        createdAt: utc("2026-11-01T00:00:00Z"))
    let place = PushPlace(
        SavedPlace(
            place: Place(name: "Home", country: "", latitude: 1, longitude: 2), customName: nil, deviceId: "d", orderIndex: 0,
            createdAt: utc("2026-11-01T00:00:00Z")))

    func message(until: Date, urgent: Bool) -> PushMessage {
        PushMessage(
            subscription: subscription, payload: PushPayload(type: "rain", place: place, url: "/"), topic: "rain-1", usefulUntil: until,
            urgent: urgent, record: .watchState(key: "rain|1", value: "{}"))
    }

    @Test func aRainPushLivesUntilTheRainIsDueAndALateOneNotAtAll() {
        #expect(message(until: now.addingTimeInterval(20 * 60), urgent: true).ttl(now: now) == 1200)
        #expect(message(until: now.addingTimeInterval(-60), urgent: true).ttl(now: now) == 0)
        #expect(message(until: now.addingTimeInterval(9 * 86_400), urgent: false).ttl(now: now) == 86_400)
        #expect(message(until: now, urgent: true).urgency == "high" && message(until: now, urgent: false).urgency == "normal")
    }

    @Test func theOnePayloadTypeLeavesOutWhatAPushHasNot() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(
            decoding: try encoder.encode(PushPayload(type: "morning", title: "T", body: "B", place: place, url: "/")), as: UTF8.self)
        #expect(!json.contains("alert") && !json.contains("start") && json.contains(#""type":"morning""#))
    }
}
