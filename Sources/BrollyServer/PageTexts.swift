import BrollyCore
import Foundation

/// The page's HTML with its texts filled in from a language file. `index.html` carries keys only
/// (`data-i18n` for an element's text, `data-i18n-label` its `aria-label`, `data-i18n-title`,
/// `data-i18n-placeholder`, `data-i18n-minutes`), so English is written once, in en.json; the
/// server fills them when it starts, and the page's script fills them again in another language.
enum PageTexts {
    /// A language file's page texts over its shared ones (`page` wins, as in the page's `t()`).
    static func texts(code: String) -> [String: Any] {
        guard let data = Localization.file(code), let file = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return [:]
        }
        var out = file["text"] as? [String: Any] ?? [:]
        for (k, v) in file["page"] as? [String: Any] ?? [:] { out[k] = v }
        return out
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `html` with every keyed text and attribute filled from `texts`.
    static func fill(_ html: String, texts: [String: Any]) -> String {
        func text(_ key: String, _ values: [String: String] = [:]) -> String? {
            guard var s = texts[key] as? String else { return nil }
            for (k, v) in values { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
            return escaped(s)
        }
        func attribute(_ name: String, in tag: Substring) -> String? {
            guard let start = tag.range(of: " \(name)=\"") else { return nil }
            let rest = tag[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        var out = ""
        out.reserveCapacity(html.utf8.count + 8192)
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            var tag = String(rest[open...close])
            rest = rest[rest.index(after: close)...]
            guard tag.contains(" data-i18n") else {
                out += tag
                continue
            }
            let t = tag[...]
            for (keyAttribute, target) in [
                ("data-i18n-label", "aria-label"), ("data-i18n-title", "title"), ("data-i18n-placeholder", "placeholder"),
                ("data-i18n-content", "content"),
            ] {
                if let key = attribute(keyAttribute, in: t), let value = text(key) {
                    tag.insert(contentsOf: " \(target)=\"\(value)\"", at: tag.index(before: tag.endIndex))
                }
            }
            out += tag
            var content: String?
            if let key = attribute("data-i18n", in: t) { content = text(key) }
            if let n = attribute("data-i18n-minutes", in: t) { content = text("minutesShort", ["n": n]) }
            if let content {
                // The element's own text (up to its first child or its end) is replaced.
                let end = rest.firstIndex(of: "<") ?? rest.endIndex
                out += content
                rest = rest[end...]
            }
        }
        out += rest
        if let weather = text("weather") {
            out = out.replacingOccurrences(of: "<title></title>", with: "<title>Brolly — \(weather)</title>")
        }
        return out
    }
}
