import Foundation

/// CAP's severity scale, most severe first when sorted.
public enum AlertSeverity: String, Codable, Sendable, CaseIterable, Comparable {
    case extreme, severe, moderate, minor, unknown

    /// 4 for extreme … 0 for unknown.
    public var rank: Int {
        switch self {
        case .extreme: 4
        case .severe: 3
        case .moderate: 2
        case .minor: 1
        case .unknown: 0
        }
    }

    public static func < (a: AlertSeverity, b: AlertSeverity) -> Bool { a.rank < b.rank }

    /// CAP's `Extreme`, `Severe`, `Moderate`, `Minor`, `Unknown` (any case); anything else is unknown.
    public init(cap: String?) {
        self = cap.flatMap { AlertSeverity(rawValue: $0.lowercased().trimmingCharacters(in: .whitespaces)) } ?? .unknown
    }
}

/// An official weather warning, from whichever source, as one model. Its times are `Time`: a
/// `Date` in the model (`Alert`), the place's local ISO 8601 in the documents
/// (`WeatherDocument.AlertInfo`); the rest is the same warning, written once.
public struct AlertOf<Time: Codable & Sendable & Hashable>: Codable, Sendable, Hashable, Identifiable {
    /// The source's identifier of the message (CAP `identifier`, NWS `id`, …).
    public var id: String
    /// `nws`, `meteoalarm`, `openweathermap` or `cap`.
    public var source: String
    /// Who issued it (CAP `senderName`, else `sender`).
    public var sender: String
    public var event: String
    public var severity: AlertSeverity
    /// CAP's `Immediate`, `Expected`, `Future`, `Past`, `Unknown`, lower-cased.
    public var urgency: String
    /// CAP's `Observed`, `Likely`, `Possible`, `Unlikely`, `Unknown`, lower-cased.
    public var certainty: String
    public var headline: String
    public var description: String
    public var instruction: String?
    public var onset: Time?
    public var expires: Time?
    /// The names of the areas it covers.
    public var areas: [String]
    public var url: String?
    /// When the message was sent (an update is newer than what it replaces).
    public var sent: Time?
    /// The language of its texts (CAP's `language`): the reader's where the source offers it, else
    /// the source's own, marked so.
    public var language: String?

    public init(
        id: String, source: String, sender: String, event: String, severity: AlertSeverity, urgency: String = "unknown",
        certainty: String = "unknown", headline: String, description: String, instruction: String? = nil, onset: Time? = nil,
        expires: Time? = nil, areas: [String] = [], url: String? = nil, sent: Time? = nil, language: String? = nil
    ) {
        self.id = id
        self.source = source
        self.sender = sender
        self.event = event
        self.severity = severity
        self.urgency = urgency
        self.certainty = certainty
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.onset = onset
        self.expires = expires
        self.areas = areas
        self.url = url
        self.sent = sent
        self.language = language
    }

    /// The same warning with each of its times written by `write`.
    public func withTimes<Other>(_ write: (Time) -> Other) -> AlertOf<Other> {
        AlertOf<Other>(
            id: id, source: source, sender: sender, event: event, severity: severity, urgency: urgency, certainty: certainty,
            headline: headline, description: description, instruction: instruction, onset: onset.map(write),
            expires: expires.map(write), areas: areas, url: url, sent: sent.map(write), language: language)
    }
}

/// A warning as the services keep it.
public typealias Alert = AlertOf<Date>

extension Alert {
    /// Most severe first; then the most urgent onset first; then by event.
    public static func ordered(_ a: Alert, _ b: Alert) -> Bool {
        if a.severity != b.severity { return a.severity > b.severity }
        let ao = a.onset ?? .distantPast, bo = b.onset ?? .distantPast
        if ao != bo { return ao < bo }
        return a.event < b.event
    }
}

/// The alerts for a place: those that cover it, and those of its country that could not be
/// matched to it (MeteoAlarm's regions), which are never shown as "here".
public struct AlertSet: Codable, Sendable, Hashable {
    public var here: [Alert] = []
    public var elsewhere: [Alert] = []
    /// The country `elsewhere` is in.
    public var elsewhereCountry: String?
    /// The sources that were asked and answered, and those that failed (the weather is shown anyway).
    public var sources: [String] = []
    public var failedSources: [String] = []

    /// The most severe alert here.
    public var mostSevere: Alert? { here.first }
}
