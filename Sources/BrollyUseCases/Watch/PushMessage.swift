import BrollyCore
import BrollyStore
import Foundation

/// The place a push is about, as its payload names it.
public struct PushPlace: Codable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(_ saved: SavedPlace) {
        id = saved.id
        name = saved.displayName
        latitude = saved.latitude
        longitude = saved.longitude
    }
}

/// Every push's payload, one type: `type` `alert` (an official warning, `alert`), `rain` (with
/// `start`, `end`, `precipitation`, `kind`, `status`) or `morning` (with the warnings in force,
/// `alerts`); the texts to show (`title`, `body`: the server writes them in the reader's language
/// and units; an alert's are the service worker's, from `alert`), the place and a `url` that opens
/// it. Absent fields are left out of the JSON.
public struct PushPayload: Codable, Sendable, Hashable {
    public var type: String
    public var title: String?
    public var body: String?
    public var place: PushPlace
    public var url: String
    /// Rain: when it starts and stops (the place's local time, ISO 8601; no `end` when it goes on
    /// past the two hours the forecast covers).
    public var start: String?
    public var end: String?
    /// Rain: the spell's amount in the reader's unit (`precipitationUnit`).
    public var precipitation: Double?
    public var precipitationUnit: String?
    public var intensity: String?
    public var kind: String?
    public var status: String?
    /// Morning: the official warnings in force, by name.
    public var alerts: [String]?
    /// An official warning.
    public var alert: WeatherDocument.AlertInfo?

    public init(
        type: String, title: String? = nil, body: String? = nil, place: PushPlace, url: String, start: String? = nil, end: String? = nil,
        precipitation: Double? = nil, precipitationUnit: String? = nil, intensity: String? = nil, kind: String? = nil,
        status: String? = nil, alerts: [String]? = nil, alert: WeatherDocument.AlertInfo? = nil
    ) {
        self.type = type
        self.title = title
        self.body = body
        self.place = place
        self.url = url
        self.start = start
        self.end = end
        self.precipitation = precipitation
        self.precipitationUnit = precipitationUnit
        self.intensity = intensity
        self.kind = kind
        self.status = status
        self.alerts = alerts
        self.alert = alert
    }
}

/// One push to send: to whom, what, its Web Push `Topic` (one per kind and place, so a newer push
/// replaces an undelivered one), until when it is worth showing and whether it is urgent (the one
/// TTL and urgency rule, `PushMessage.ttl` and `urgency`), and what to remember once it has been
/// delivered or given up on.
public struct PushMessage: Sendable {
    public var subscription: PushSubscription
    public var payload: PushPayload
    public var topic: String
    public var usefulUntil: Date
    public var urgent: Bool
    public var record: Record

    public enum Record: Sendable, Hashable {
        /// A warning: delivered once per subscription (`alertKey`).
        case alert(key: String)
        /// A rain or morning push: the watcher's remembered state for the place.
        case watchState(key: String, value: String)
    }

    public init(subscription: PushSubscription, payload: PushPayload, topic: String, usefulUntil: Date, urgent: Bool, record: Record) {
        self.subscription = subscription
        self.payload = payload
        self.topic = topic
        self.usefulUntil = usefulUntil
        self.urgent = urgent
        self.record = record
    }

    /// The push service keeps it until it stops being worth showing (a day at most; 0: now or never).
    public func ttl(now: Date) -> Int { max(0, min(86_400, Int(usefulUntil.timeIntervalSince(now).rounded(.down)))) }

    /// `high` wakes a sleeping phone; everything else waits for it.
    public var urgency: String { urgent ? "high" : "normal" }

    /// What the push is, for logs and retry counts (a new rain time is a new push).
    public var identity: String {
        switch record {
        case .alert(let key): key
        case .watchState: topic + "|" + (payload.status ?? "") + (payload.start ?? "")
        }
    }
}
