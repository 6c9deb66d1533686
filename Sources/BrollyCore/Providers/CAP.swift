import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A Common Alerting Protocol 1.2 message, the shape every alert source is read into (NWS's
/// GeoJSON, MeteoAlarm's JSON, CAP XML, OpenWeatherMap's alerts) before one filter turns the
/// current ones into ``Alert``s.
public struct CAPMessage: Codable, Sendable, Hashable {
    public var identifier: String
    public var sender: String
    public var sent: Date?
    /// `Actual`, `Exercise`, `System`, `Test`, `Draft`.
    public var status: String
    /// `Alert`, `Update`, `Cancel`, `Ack`, `Error`.
    public var msgType: String
    /// The identifiers of the messages this one updates or cancels.
    public var references: [String]
    public var infos: [CAPInfo]
    /// `nws`, `meteoalarm`, `cap`, `openweathermap`.
    public var source: String

    public init(
        identifier: String, sender: String, sent: Date?, status: String = "Actual", msgType: String = "Alert",
        references: [String] = [], infos: [CAPInfo], source: String
    ) {
        self.identifier = identifier
        self.sender = sender
        self.sent = sent
        self.status = status
        self.msgType = msgType
        self.references = references
        self.infos = infos
        self.source = source
    }

    /// The identifiers in CAP's `references` (`sender,identifier,sent` triples separated by spaces).
    public static func referencedIdentifiers(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).compactMap { triple in
            let parts = triple.split(separator: ",", omittingEmptySubsequences: false)
            return parts.count >= 2 ? String(parts[1]) : nil
        }
    }
}

public struct CAPInfo: Codable, Sendable, Hashable {
    public var language: String
    public var event: String
    public var severity: String
    public var urgency: String
    public var certainty: String
    public var headline: String
    public var description: String
    public var instruction: String?
    public var effective: Date?
    public var onset: Date?
    public var expires: Date?
    public var senderName: String?
    public var web: String?
    /// `valueName` → `value` (`awareness_level` → `2; yellow; Moderate`).
    public var parameters: [String: String]
    public var areas: [CAPArea]

    public init(
        language: String = "en", event: String, severity: String, urgency: String = "Unknown", certainty: String = "Unknown",
        headline: String, description: String, instruction: String? = nil, effective: Date? = nil, onset: Date? = nil,
        expires: Date? = nil, senderName: String? = nil, web: String? = nil, parameters: [String: String] = [:], areas: [CAPArea] = []
    ) {
        self.language = language
        self.event = event
        self.severity = severity
        self.urgency = urgency
        self.certainty = certainty
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.effective = effective
        self.onset = onset
        self.expires = expires
        self.senderName = senderName
        self.web = web
        self.parameters = parameters
        self.areas = areas
    }

    /// MeteoAlarm's "no warning" level: `awareness_level` 1 (green).
    public var isNoWarning: Bool {
        guard let level = parameters["awareness_level"] ?? parameters["awareness_level".uppercased()] else { return false }
        let first = level.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return first == "1" || level.lowercased().contains("green")
    }
}

public struct CAPArea: Codable, Sendable, Hashable {
    public var description: String
    /// Closed rings of points.
    public var polygons: [[Coordinate]]
    public var circles: [Circle]
    /// `valueName` → values (`EMMA_ID` → [`NL018`], `UGC` → [`FLC069`]).
    public var geocodes: [String: [String]]

    public struct Circle: Codable, Sendable, Hashable {
        public var center: Coordinate
        public var radiusKilometres: Double
    }

    public init(description: String, polygons: [[Coordinate]] = [], circles: [Circle] = [], geocodes: [String: [String]] = [:]) {
        self.description = description
        self.polygons = polygons
        self.circles = circles
        self.geocodes = geocodes
    }

    /// CAP's `polygon`: `lat,lon lat,lon …`.
    public static func polygon(_ text: String) -> [Coordinate] {
        text.split(whereSeparator: \.isWhitespace).compactMap { pair in
            let p = pair.split(separator: ",")
            guard p.count == 2, let lat = Double(p[0]), let lon = Double(p[1]) else { return nil }
            let c = Coordinate(latitude: lat, longitude: lon)
            return c.isValid ? c : nil
        }
    }

    /// CAP's `circle`: `lat,lon radius` (km).
    public static func circle(_ text: String) -> Circle? {
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let r = Double(parts[1]) else { return nil }
        let p = parts[0].split(separator: ",")
        guard p.count == 2, let lat = Double(p[0]), let lon = Double(p[1]) else { return nil }
        return Circle(center: Coordinate(latitude: lat, longitude: lon), radiusKilometres: r)
    }

    /// True when a polygon or circle of the area holds `c`.
    public func covers(_ c: Coordinate) -> Bool {
        polygons.contains { Self.polygon($0, contains: c) }
            || circles.contains { Self.kilometres($0.center, c) <= $0.radiusKilometres }
    }

    /// Ray casting in plain latitude/longitude (warning areas are small against the globe).
    static func polygon(_ ring: [Coordinate], contains c: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a.latitude > c.latitude) != (b.latitude > c.latitude),
                c.longitude < (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
            {
                inside.toggle()
            }
            j = i
        }
        return inside
    }

    static func kilometres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * r, dLon = (b.longitude - a.longitude) * r
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * r) * cos(b.latitude * r) * sin(dLon / 2) * sin(dLon / 2)
        return 6371 * 2 * atan2(sqrt(h), sqrt(1 - h))
    }
}

/// Reads each source's format into ``CAPMessage``s.
public enum CAPDecoding {
    static func date(_ v: JSONValue?) -> Date? { v?.string.flatMap(LocalTime.parseISO8601) }

    /// NWS `GET /alerts/active?point=…` (GeoJSON FeatureCollection of CAP-shaped properties).
    public static func nws(_ data: Data) throws -> [CAPMessage] {
        let json = try JSONValue.parse(data, provider: "NWS")
        guard let features = json["features"]?.array else {
            throw BrollyError.unreadableResponse("NWS: no features")
        }
        return features.compactMap { f in
            let p = f["properties"]
            guard let id = p?["id"].nonEmptyString ?? f["id"].nonEmptyString, let event = p?["event"].nonEmptyString else { return nil }
            var polygons: [[Coordinate]] = []
            if f["geometry"]?["type"]?.string == "Polygon", let rings = f["geometry"]?["coordinates"]?.array {
                for ring in rings {
                    let points = (ring.array ?? []).compactMap { pt -> Coordinate? in
                        guard let lon = pt[0]?.double, let lat = pt[1]?.double else { return nil }
                        return Coordinate(latitude: lat, longitude: lon)
                    }
                    if points.count >= 3 { polygons.append(points) }
                }
            }
            let areas = (p?["areaDesc"]?.string ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            var geocodes: [String: [String]] = [:]
            if let g = p?["geocode"]?.object {
                for (k, v) in g { geocodes[k] = (v.array ?? []).compactMap(\.string) }
            }
            var capAreas = areas.map { CAPArea(description: $0) }
            if capAreas.isEmpty { capAreas = [CAPArea(description: "")] }
            capAreas[0].polygons = polygons
            capAreas[0].geocodes = geocodes
            let refs = (p?["references"]?.array ?? []).compactMap { $0["identifier"].nonEmptyString }
            let nwsHeadline = p?["parameters"]?["NWSheadline"]?[0]?.string
            let info = CAPInfo(
                language: "en-US", event: event, severity: p?["severity"]?.string ?? "Unknown", urgency: p?["urgency"]?.string ?? "Unknown",
                certainty: p?["certainty"]?.string ?? "Unknown", headline: p?["headline"].nonEmptyString ?? nwsHeadline ?? event,
                description: p?["description"]?.string ?? "", instruction: p?["instruction"].nonEmptyString,
                effective: date(p?["effective"]), onset: date(p?["onset"]), expires: date(p?["ends"]) ?? date(p?["expires"]),
                senderName: p?["senderName"].nonEmptyString, web: p?["@id"].nonEmptyString ?? p?["web"].nonEmptyString,
                areas: capAreas)
            return CAPMessage(
                identifier: id, sender: p?["sender"]?.string ?? "NWS", sent: date(p?["sent"]), status: p?["status"]?.string ?? "Actual",
                msgType: p?["messageType"]?.string ?? "Alert", references: refs, infos: [info], source: "nws")
        }
    }

    /// MeteoAlarm `GET /api/v1/warnings/feeds-<country>`: `{"warnings": [{"alert": CAP in JSON, "uuid"}]}`.
    public static func meteoAlarm(_ data: Data) throws -> [CAPMessage] {
        let json = try JSONValue.parse(data, provider: "MeteoAlarm")
        guard let warnings = json["warnings"]?.array else { throw BrollyError.unreadableResponse("MeteoAlarm: no warnings") }
        return warnings.compactMap { w in
            guard let a = w["alert"], let id = a["identifier"].nonEmptyString ?? w["uuid"].nonEmptyString else { return nil }
            let infos = (a["info"]?.array ?? []).compactMap { i -> CAPInfo? in
                guard let event = i["event"].nonEmptyString else { return nil }
                var parameters: [String: String] = [:]
                for p in i["parameter"]?.array ?? [] {
                    if let n = p["valueName"].nonEmptyString, let v = p["value"]?.string { parameters[n] = v }
                }
                let areas = (i["area"]?.array ?? []).map { area -> CAPArea in
                    var geocodes: [String: [String]] = [:]
                    for g in area["geocode"]?.array ?? [] {
                        if let n = g["valueName"].nonEmptyString, let v = g["value"]?.string { geocodes[n, default: []].append(v) }
                    }
                    let polygons = (area["polygon"]?.array ?? (area["polygon"].map { [$0] } ?? [])).compactMap(\.string).map(CAPArea.polygon)
                    let circles = (area["circle"]?.array ?? (area["circle"].map { [$0] } ?? [])).compactMap(\.string).compactMap(CAPArea.circle)
                    return CAPArea(
                        description: area["areaDesc"]?.string ?? "", polygons: polygons.filter { $0.count >= 3 }, circles: circles,
                        geocodes: geocodes)
                }
                return CAPInfo(
                    language: i["language"]?.string ?? "en", event: event, severity: i["severity"]?.string ?? "Unknown",
                    urgency: i["urgency"]?.string ?? "Unknown", certainty: i["certainty"]?.string ?? "Unknown",
                    headline: i["headline"].nonEmptyString ?? event, description: i["description"]?.string ?? "",
                    instruction: i["instruction"].nonEmptyString, effective: date(i["effective"]), onset: date(i["onset"]),
                    expires: date(i["expires"]), senderName: i["senderName"].nonEmptyString, web: i["web"].nonEmptyString,
                    parameters: parameters, areas: areas)
            }
            return CAPMessage(
                identifier: id, sender: a["sender"]?.string ?? "", sent: date(a["sent"]), status: a["status"]?.string ?? "Actual",
                msgType: a["msgType"]?.string ?? "Alert", references: CAPMessage.referencedIdentifiers(a["references"]?.string ?? ""),
                infos: infos, source: "meteoalarm")
        }
    }

    /// OpenWeatherMap One Call 3.0 `alerts` (no severity in the source: `unknown`).
    public static func openWeatherMap(_ data: Data) throws -> [CAPMessage] {
        let json = try JSONValue.parse(data, provider: "OpenWeatherMap")
        guard json.object != nil else { throw BrollyError.unreadableResponse("OpenWeatherMap One Call: not an object") }
        return (json["alerts"]?.array ?? []).compactMap { a in
            guard let event = a["event"].nonEmptyString else { return nil }
            let start = a["start"]?.double.map { Date(timeIntervalSince1970: $0) }
            let end = a["end"]?.double.map { Date(timeIntervalSince1970: $0) }
            let sender = a["sender_name"]?.string ?? ""
            let description = a["description"]?.string ?? ""
            let id = "owm-" + Checksum.hex(Data("\(sender)|\(event)|\(start?.timeIntervalSince1970 ?? 0)".utf8))
            let tags = (a["tags"]?.array ?? []).compactMap(\.string)
            return CAPMessage(
                identifier: id, sender: sender, sent: start, infos: [
                    CAPInfo(
                        event: event, severity: "Unknown", headline: event, description: description, onset: start, expires: end,
                        senderName: sender, parameters: tags.isEmpty ? [:] : ["tags": tags.joined(separator: ", ")])
                ], source: "openweathermap")
        }
    }

    /// Every CAP 1.2 `<alert>` in an XML document — a CAP message itself, or an Atom/RSS feed that
    /// embeds them — and the links of the feed's entries (CAP documents to fetch).
    public static func xml(_ data: Data) throws -> (messages: [CAPMessage], links: [URL]) {
        let parser = XMLParser(data: data)
        let delegate = CAPXMLDelegate()
        parser.delegate = delegate
        guard parser.parse() || !delegate.messages.isEmpty else {
            throw BrollyError.unreadableResponse("CAP: not XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
        }
        return (delegate.messages, delegate.links)
    }
}

/// Collects CAP elements by their local names (namespaced or not).
private final class CAPXMLDelegate: NSObject, XMLParserDelegate {
    var messages: [CAPMessage] = []
    var links: [URL] = []
    private var path: [String] = []
    private var text = ""
    private var message: [String: String] = [:]
    private var info: CAPInfo?
    private var infos: [CAPInfo] = []
    private var area: CAPArea?
    private var valueName = ""
    private var inAlert = false
    private var inEntry = false

    static func local(_ name: String) -> String { name.split(separator: ":").last.map(String.init) ?? name }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        let n = Self.local(name)
        path.append(n)
        text = ""
        switch n {
        case "alert":
            inAlert = true
            message = [:]
            infos = []
        case "info" where inAlert:
            info = CAPInfo(language: "en-US", event: "", severity: "Unknown", headline: "", description: "")
        case "area" where info != nil:
            area = CAPArea(description: "")
        case "entry", "item":
            inEntry = true
        case "link" where inEntry && !inAlert:
            if let href = attributes["href"], let url = URL(string: href), url.scheme?.hasPrefix("http") == true {
                links.append(url)
            }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let n = Self.local(name)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        defer {
            path.removeLast()
            text = ""
        }
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        if !inAlert {
            if n == "link", inEntry, !value.isEmpty, let url = URL(string: value), url.scheme?.hasPrefix("http") == true { links.append(url) }
            if n == "entry" || n == "item" { inEntry = false }
            return
        }
        if area != nil {
            switch n {
            case "areaDesc": area!.description = value
            case "polygon": let p = CAPArea.polygon(value); if p.count >= 3 { area!.polygons.append(p) }
            case "circle": if let c = CAPArea.circle(value) { area!.circles.append(c) }
            case "valueName" where parent == "geocode": valueName = value
            case "value" where parent == "geocode": area!.geocodes[valueName, default: []].append(value)
            case "area":
                info?.areas.append(area!)
                area = nil
            default: break
            }
            return
        }
        if info != nil {
            switch n {
            case "language": info!.language = value
            case "event": info!.event = value
            case "severity": info!.severity = value
            case "urgency": info!.urgency = value
            case "certainty": info!.certainty = value
            case "headline": info!.headline = value
            case "description": info!.description = value
            case "instruction": info!.instruction = value.isEmpty ? nil : value
            case "effective": info!.effective = LocalTime.parseISO8601(value)
            case "onset": info!.onset = LocalTime.parseISO8601(value)
            case "expires": info!.expires = LocalTime.parseISO8601(value)
            case "senderName": info!.senderName = value
            case "web": info!.web = value
            case "valueName" where parent == "parameter": valueName = value
            case "value" where parent == "parameter": info!.parameters[valueName] = value
            case "info":
                if info!.headline.isEmpty { info!.headline = info!.event }
                infos.append(info!)
                info = nil
            default: break
            }
            return
        }
        switch n {
        case "identifier", "sender", "sent", "status", "msgType", "references": message[n] = value
        case "alert":
            inAlert = false
            if let id = message["identifier"], !id.isEmpty {
                messages.append(
                    CAPMessage(
                        identifier: id, sender: message["sender"] ?? "", sent: message["sent"].flatMap(LocalTime.parseISO8601),
                        status: message["status"] ?? "Actual", msgType: message["msgType"] ?? "Alert",
                        references: CAPMessage.referencedIdentifiers(message["references"] ?? ""), infos: infos, source: "cap"))
            }
        default: break
        }
    }
}

/// Turns messages into the alerts shown: only actual messages; cancelled and updated ones
/// removed; the info in the reader's language (else English, else the first); expired ones and
/// "no warning" (green, awareness level 1) entries dropped; most severe first.
public enum AlertFilter {
    public static func current(_ messages: [CAPMessage], language: String, now: Date) -> [(alert: Alert, info: CAPInfo)] {
        let actual = messages.filter { $0.status.lowercased() == "actual" }
        // An update or a cancellation replaces what it references.
        let replaced = Set(actual.filter { ["update", "cancel"].contains($0.msgType.lowercased()) }.flatMap(\.references))
        var out: [(Alert, CAPInfo)] = []
        var seen = Set<String>()
        for m in actual where !replaced.contains(m.identifier) && ["alert", "update"].contains(m.msgType.lowercased()) {
            guard let info = choose(m.infos, language: language), !info.isNoWarning else { continue }
            if let expires = info.expires, expires <= now { continue }
            guard seen.insert(m.source + m.identifier).inserted else { continue }
            let alert = Alert(
                id: m.identifier, source: m.source, sender: info.senderName ?? m.sender, event: info.event,
                severity: AlertSeverity(cap: info.severity), urgency: info.urgency.lowercased(), certainty: info.certainty.lowercased(),
                headline: info.headline, description: info.description, instruction: info.instruction, onset: info.onset ?? info.effective,
                expires: info.expires, areas: info.areas.map(\.description).filter { !$0.isEmpty }, url: info.web, sent: m.sent)
            out.append((alert, info))
        }
        return out.sorted { Alert.ordered($0.0, $1.0) }
    }

    /// The info in `language` (`ru` matches `ru-RU`), else English, else the first.
    public static func choose(_ infos: [CAPInfo], language: String) -> CAPInfo? {
        let want = language.lowercased().prefix(2)
        return infos.first { $0.language.lowercased().hasPrefix(want) }
            ?? infos.first { $0.language.lowercased().hasPrefix("en") } ?? infos.first
    }

    /// Whether an info's areas name the place: an area's name equals or contains one of `names`
    /// (or the other way round), ignoring case and accents.
    public static func names(_ info: CAPInfo, match names: [String]) -> Bool {
        let wanted = names.map(normalise).filter { $0.count >= 3 && !genericWords.contains($0) }
        guard !wanted.isEmpty else { return false }
        for area in info.areas {
            let desc = normalise(area.description)
            guard !desc.isEmpty else { continue }
            for name in wanted where desc == name || containsWord(desc, name) || containsWord(name, desc) {
                return true
            }
        }
        return false
    }

    /// Words that name a kind of area, not an area: never matched on their own.
    static let genericWords: Set<String> = [
        "land", "kreis", "landkreis", "county", "region", "province", "state", "city", "district", "department",
        "departement", "municipality", "stadt", "area",
    ]

    static func normalise(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
            .replacingOccurrences(of: "-", with: " ").trimmingCharacters(in: .whitespaces)
    }

    /// `word` occurs in `text` as whole words.
    static func containsWord(_ text: String, _ word: String) -> Bool {
        guard word.count >= 4, let r = text.range(of: word) else { return false }
        let before = r.lowerBound == text.startIndex || !text[text.index(before: r.lowerBound)].isLetter
        let after = r.upperBound == text.endIndex || !text[r.upperBound].isLetter
        return before && after
    }
}
