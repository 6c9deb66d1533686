import Foundation

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
                expires: info.expires, areas: info.areas.map(\.description).filter { !$0.isEmpty }, url: info.web, sent: m.sent,
                language: info.language.isEmpty ? nil : info.language)
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
