import BrollyCore
import Foundation

// The warnings in a terminal: under the current conditions and `brolly alerts`.
extension TextRenderer {
    /// One line per warning: `⚠ SEVERE  Flood Warning until Tue 23:00 — headline (NWS Melbourne FL)`.
    public func alertLines(_ alerts: [Alert], in zone: TimeZone) -> [String] {
        alerts.map { a in
            let label = language.text("sev_" + a.severity.rawValue).uppercased()
            var text = "\(a.event)"
            if let expires = a.expires {
                let iso = LocalTime.iso8601(expires, in: zone)
                let time = "\(language.weekday(ofDate: String(iso.prefix(10)))) \(LocalTime.clock(expires, in: zone))"
                text += " " + language.text("alertUntil", ["time": time])
            }
            if a.headline != a.event { text += " — \(a.headline)" }
            // The source's own text, in its language when that is not the reader's: marked so.
            if let lang = a.language?.lowercased().prefix(2), lang != language.code.prefix(2) { text += " [\(lang)]" }
            return paint("⚠ \(label)", Self.severityColour(a.severity)) + "  " + text + dim("  (\(a.sender))")
        }
    }

    /// ANSI colours: extreme bold magenta, severe bold red, moderate yellow, minor cyan.
    static func severityColour(_ s: AlertSeverity) -> String {
        switch s {
        case .extreme: "1;35"
        case .severe: "1;31"
        case .moderate: "33"
        case .minor: "36"
        case .unknown: "1"
        }
    }

    /// `brolly alerts`: each warning with its times, areas, description and instruction.
    public func alerts(_ set: AlertSet, place: Place) -> String {
        let zone = place.timeZone
        var lines: [String] = [bold(place.displayName)]
        if set.here.isEmpty {
            lines.append(
                "   " + language.text("noWarnings") + (set.sources.isEmpty ? " (\(language.text("noAlertSource")))" : "."))
        }
        for a in set.here {
            lines += alertLines([a], in: zone)
            var times: [String] = []
            if let onset = a.onset {
                times.append(
                    language.text(
                        "alertStarts", ["time": LocalTime.iso8601(onset, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")]))
            }
            if let expires = a.expires {
                times.append(
                    language.text(
                        "alertUntil", ["time": LocalTime.iso8601(expires, in: zone).prefix(16).replacingOccurrences(of: "T", with: " ")]))
            }
            if !times.isEmpty { lines.append("   " + times.joined(separator: " ")) }
            if !a.areas.isEmpty {
                let areas = a.areas.prefix(8).joined(separator: "; ") + (a.areas.count > 8 ? " …" : "")
                lines.append("   " + language.text("alertAreas", ["areas": areas]).capitalizedFirst)
            }
            for paragraph in a.description.split(separator: "\n", omittingEmptySubsequences: true).prefix(12) {
                lines.append("   " + paragraph.trimmingCharacters(in: .whitespaces))
            }
            if let i = a.instruction {
                lines.append("   " + bold(language.text("whatToDo") + " ") + i.replacingOccurrences(of: "\n", with: " "))
            }
            if let url = a.url { lines.append("   " + dim(url)) }
        }
        if let country = set.elsewhereCountry, !set.elsewhere.isEmpty {
            lines.append(dim(language.text("alertsNotMatched", ["country": country])))
            for a in set.elsewhere.prefix(10) {
                lines.append(
                    "   " + paint(language.text("sev_" + a.severity.rawValue), Self.severityColour(a.severity))
                        + "  \(a.event) — \(a.areas.joined(separator: ", "))")
            }
            if set.elsewhere.count > 10 { lines.append(dim("   " + language.text("andMore", ["n": String(set.elsewhere.count - 10)]))) }
        }
        if !set.failedSources.isEmpty {
            lines.append(dim("   " + language.text("couldNotReach", ["sources": set.failedSources.joined(separator: ", ")])))
        }
        return joined(lines)
    }
}
