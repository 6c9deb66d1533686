import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads each source's format into ``CAPMessage``s.
public enum CAPDecoding {
    /// The largest CAP document or feed read (MeteoAlarm's and NWS's largest are a few hundred KB).
    public static let maxXMLBytes = 8 << 20

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
                    let polygons = (area["polygon"]?.array ?? (area["polygon"].map { [$0] } ?? [])).compactMap(\.string).map(
                        CAPArea.polygon)
                    let circles = (area["circle"]?.array ?? (area["circle"].map { [$0] } ?? [])).compactMap(\.string).compactMap(
                        CAPArea.circle)
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
            let start = a["start"]?.epoch
            let end = a["end"]?.epoch
            let sender = a["sender_name"]?.string ?? ""
            let description = a["description"]?.string ?? ""
            let id = "owm-" + Checksum.hex(Data("\(sender)|\(event)|\(start?.timeIntervalSince1970 ?? 0)".utf8))
            let tags = (a["tags"]?.array ?? []).compactMap(\.string)
            return CAPMessage(
                identifier: id, sender: sender, sent: start,
                infos: [
                    CAPInfo(
                        event: event, severity: "Unknown", headline: event, description: description, onset: start, expires: end,
                        senderName: sender, parameters: tags.isEmpty ? [:] : ["tags": tags.joined(separator: ", ")])
                ], source: "openweathermap")
        }
    }

    /// Every CAP 1.2 `<alert>` in an XML document — a CAP message itself, or an Atom/RSS feed that
    /// embeds them — and the links of the feed's entries (CAP documents to fetch).
    public static func xml(_ data: Data) throws -> (messages: [CAPMessage], links: [URL]) {
        // Bounded in size, and so in time: a feed larger than any real one is refused, and
        // parsing stops at `CAPXMLDelegate.maxElements` elements.
        guard data.count <= maxXMLBytes else {
            throw BrollyError.unreadableResponse("CAP: the feed is larger than \(maxXMLBytes >> 20) MB")
        }
        let parser = XMLParser(data: XMLInput.sanitized(data))
        let delegate = CAPXMLDelegate()
        parser.delegate = delegate
        guard parser.parse() || !delegate.messages.isEmpty || delegate.stopped else {
            throw BrollyError.unreadableResponse("CAP: not XML (\(parser.parserError.map { "\($0)" } ?? "unknown error"))")
        }
        return (delegate.messages, delegate.links)
    }
}

/// Collects CAP elements by their local names (namespaced or not).
private final class CAPXMLDelegate: NSObject, XMLParserDelegate {
    /// The most elements read from one document (a real feed has a few thousand); past it the
    /// parse stops and what was read so far is kept.
    static let maxElements = 200_000
    var elements = 0
    var stopped = false
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
        elements += 1
        if elements > Self.maxElements {
            stopped = true
            parser.abortParsing()
            return
        }
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
        if stopped || path.isEmpty { return }
        let n = Self.local(name)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        defer {
            path.removeLast()
            text = ""
        }
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        if !inAlert {
            if n == "link", inEntry, !value.isEmpty, let url = URL(string: value), url.scheme?.hasPrefix("http") == true {
                links.append(url)
            }
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
