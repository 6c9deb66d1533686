import BrollyCore
import Crypto
import Foundation

/// The page (`index.html`) as the server writes it, so that the weather needs one round trip:
/// in each language, its texts filled in (`PageTexts`), its stylesheet inline, the first paint's
/// data inline (`#brolly-boot`: that language's texts over English's, the languages, BrollyCore's
/// conversion table), the bundle's shared chunk preloaded beside its entry (scripts/bundle.sh), and
/// the inline first lines (which ask for the weather before any module) allowed by their hash.
/// Made once at start; a request only picks a language and fills in its device and card.
struct WebPage: Sendable {
    /// The page in each language, by code.
    let pages: [String: String]
    /// The first paint's data in each language (the widget's page carries it too).
    let boots: [String: String]
    /// `'sha256-…'` of every inline script the page may carry, for the Content-Security-Policy.
    let scriptHashes: [String]
    /// The words a card drawn by the server needs (`min`, `max`, `feelsLike`), in each language.
    let cardTexts: [String: [String: String]]

    /// The inline script that marks a card drawn by the server as the weather shown.
    static let shownMark = "performance.mark('brolly-weather-shown')"
    static let bootTag = "<script type=\"application/json\" id=\"brolly-boot\" data-device=\"false\">{}</script>"

    init?(webDirectory: String) {
        guard let data = FileManager.default.contents(atPath: webDirectory + "/index.html") else { return nil }
        let template = Self.withUnitChoices(String(decoding: data, as: UTF8.self))
        // The stylesheet as scripts/bundle.sh minified it (else as written).
        let style =
            (FileManager.default.contents(atPath: webDirectory + "/app/style.css")
            ?? FileManager.default.contents(atPath: webDirectory + "/style.css")).map { String(decoding: $0, as: UTF8.self) }
        let entry = FileManager.default.contents(atPath: webDirectory + "/app/main.js").map { String(decoding: $0, as: UTF8.self) } ?? ""
        let used = Self.usedKeys(webDirectory: webDirectory)
        var hashes = [Self.hash(Self.shownMark)]
        if let start = Self.inlineScript(in: template) { hashes.append(Self.hash(start)) }
        scriptHashes = hashes
        let languages = Localization.codes.map { ["code": $0, "name": Localization.pack(code: $0)?.name ?? $0] }
        let units = (try? JSONSerialization.jsonObject(with: UnitTable.json)) ?? [:]
        var pages: [String: String] = [:]
        var boots: [String: String] = [:]
        var cardTexts: [String: [String: String]] = [:]
        for code in Localization.codes {
            let texts = PageTexts.texts(code: code)
            cardTexts[code] = ["min", "max", "feelsLike"].reduce(into: [:]) { $0[$1] = texts[$1] as? String }
            var html = Self.withoutComments(PageTexts.fill(template, texts: texts))
            let dir = ["ar", "fa", "he", "ur"].contains(code) ? "rtl" : "ltr"  // as i18n.js mirrors the page
            html = html.replacingOccurrences(of: "<html lang=\"en\">", with: "<html lang=\"\(code)\" dir=\"\(dir)\">")
            html = html.replacingOccurrences(
                of: "<script data-languages=\"\">", with: "<script data-languages=\"\(Localization.codes.joined(separator: " "))\">")
            if let style {
                html = html.replacingOccurrences(of: "<link rel=\"stylesheet\" href=\"/style.css\">", with: "<style>\(style)</style>")
            }
            // The entry's shared chunk, asked for beside the entry (not a round trip after it).
            let preloads = Self.chunks(importedBy: entry).map { "\n  <link rel=\"modulepreload\" href=\"/app/\($0)\">" }.joined()
            html = html.replacingOccurrences(
                of: "<script type=\"module\" src=\"/app/main.js\"></script>",
                with: "<script type=\"module\" src=\"/app/main.js\"></script>" + preloads)
            let boot: [String: Any] = ["texts": Self.firstPaintTexts(code: code, used: used), "languages": languages, "units": units]
            let json =
                (try? JSONSerialization.data(withJSONObject: boot, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
                ?? "{}"
            // `</` cannot end the element early.
            let tag = Self.bootTag.replacingOccurrences(of: "{}", with: json.replacingOccurrences(of: "</", with: "<\\/"))
            html = html.replacingOccurrences(of: Self.bootTag, with: tag)
            pages[code] = html
            boots[code] = tag
        }
        self.pages = pages
        self.boots = boots
        self.cardTexts = cardTexts
    }

    /// The unit choices' options (`<select data-units="wind">`), one per unit of Core's table: the page
    /// lists no unit of its own. Their names are keys (`unit_kmh`), filled in each language.
    static func withUnitChoices(_ html: String) -> String {
        func options<U: MeasureUnit>(_: U.Type) -> String {
            U.allCases.map { u in
                "<option value=\"\(u.rawValue)\" data-i18n=\"\(u.rawValue == "bft" ? "beaufortScale" : "unit_" + u.rawValue)\"></option>"
            }.joined()
        }
        return [
            ("wind", options(WindUnit.self)), ("pressure", options(PressureUnit.self)), ("precipitation", options(PrecipitationUnit.self)),
        ]
        .reduce(html) { html, choice in
            html.replacingOccurrences(of: "data-units=\"\(choice.0)\"></select>", with: "data-units=\"\(choice.0)\">\(choice.1)</select>")
        }
    }

    /// Whether the page's code uses a text: its key is a word of the bundle or the widget's script
    /// (`"key"`), or starts with a template's start (`` `moon_${`` for `moon_…`). Nil (no
    /// bundle): every text.
    static func usedKeys(webDirectory: String) -> (@Sendable (String) -> Bool)? {
        let app = URL(fileURLWithPath: webDirectory).appendingPathComponent("app")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: app.path), names.contains("main.js") else { return nil }
        var code = ""
        for name in names where name.hasSuffix(".js") {
            code += (try? String(contentsOf: app.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        code += (try? String(contentsOfFile: webDirectory + "/widget.js", encoding: .utf8)) ?? ""
        // Every word of the code (a key is used when it is one: "feelsLike", 'unit_kmh'; a word that
        // is only a property's name keeps a text it need not, never the reverse), and the starts of
        // templates that make keys (`moon_${…}`): read once, in one pass.
        var words: Set<String> = []
        var prefixes: [String] = []
        var word = ""
        var before: Character = " "
        var previous: Character = " "
        for c in code {
            if c.isLetter || c.isNumber || c == "_" || c == "#" {
                if word.isEmpty { before = previous }
                word.append(c)
            } else {
                if !word.isEmpty {
                    words.insert(word)
                    if c == "$" && before == "`" { prefixes.append(word) }
                    word = ""
                }
            }
            previous = c
        }
        if !word.isEmpty { words.insert(word) }
        return { [words, prefixes] key in words.contains(key) || prefixes.contains { key.hasPrefix($0) } }
    }

    /// A language's texts over English's (`page`, `text`, `conditions`), with its code: what the
    /// page's `t()` reads before any other file arrives. Left out: the shared texts the page's own
    /// override (`t()` reads `page` first), and those the page's code does not use (`used`: the
    /// HTML's own the server wrote in, pushes' and the CLI's).
    static func firstPaintTexts(code: String, used: ((String) -> Bool)? = nil) -> [String: Any] {
        func file(_ code: String) -> [String: Any] {
            guard let data = Localization.file(code), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                return [:]
            }
            return object
        }
        let english = file("en")
        let own = code == "en" ? english : file(code)
        var out: [String: Any] = ["code": code]
        for section in ["page", "text", "conditions"] {
            var merged = english[section] as? [String: Any] ?? [:]
            for (k, v) in own[section] as? [String: Any] ?? [:] { merged[k] = v }
            out[section] = merged
        }
        if let page = out["page"] as? [String: Any], let text = out["text"] as? [String: Any] {
            out["text"] = text.filter { page[$0.key] == nil && used?($0.key) ?? !$0.key.hasPrefix("push") }
            if let used { out["page"] = page.filter { used($0.key) } }
        }
        return out
    }

    /// `html` without its `<!-- … -->` comments (they explain the file to its readers, not to browsers).
    static func withoutComments(_ html: String) -> String {
        var out = ""
        var rest = html[...]
        while let open = rest.range(of: "<!--") {
            out += rest[..<open.lowerBound]
            guard let close = rest.range(of: "-->", range: open.upperBound..<rest.endIndex) else { return out }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The text of the page's first inline script (the one without a `type` or `src`).
    static func inlineScript(in html: String) -> String? {
        guard let open = html.range(of: "<script data-languages=\"\">"),
            let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
    }

    /// The chunks an esbuild entry imports (`from"./chunk-ABC.js"`).
    static func chunks(importedBy entry: String) -> [String] {
        var out: [String] = []
        var rest = entry[...]
        while let r = rest.range(of: "\"./chunk-") {
            let name = rest[rest.index(r.lowerBound, offsetBy: 3)...].prefix { $0 != "\"" }
            if !out.contains(String(name)) { out.append(String(name)) }
            rest = rest[r.upperBound...]
        }
        return out
    }

    static func hash(_ script: String) -> String {
        "'sha256-" + Data(SHA256.hash(data: Data(script.utf8))).base64EncodedString() + "'"
    }
}
