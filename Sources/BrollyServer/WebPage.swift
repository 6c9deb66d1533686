import BrollyCore
import Crypto
import Foundation

/// The page (`index.html`) as the server writes it, so that the weather needs one round trip:
/// in each language, its texts filled in (`PageTexts`), its stylesheet inline, the first paint's
/// data inline (`#brolly-boot`: that language's texts over English's, the languages, BrollyCore's
/// conversion table), the bundle's shared chunk preloaded beside its entry (scripts/bundle.sh), and
/// the inline first lines (which ask for the weather before any module) allowed by their hash.
/// What every language shares is read at start; a language's page is made the first time it is
/// asked for and kept (making all fourteen took 0.3 s of CPU at every start, 85 % of a server's
/// start: the suite starts a few hundred). A request only picks a language and fills in its device
/// and card.
struct WebPage: Sendable {
    /// `'sha256-…'` of every inline script the page may carry, for the Content-Security-Policy.
    let scriptHashes: [String]
    private let shared: Shared

    /// One language's page, first-paint data (the widget's page carries it too) and the words a
    /// card drawn by the server needs (`min`, `max`, `feelsLike`).
    struct Language: Sendable {
        let page: String
        let boot: String
        let cardTexts: [String: String]
    }

    /// What the languages' pages are made from, and the pages made so far.
    final class Shared: Sendable {
        let template: String
        let style: String?
        let preloads: String
        let webDirectory: String
        /// `languages` and `units` of the first paint's data, as JSON.
        let languagesJSON: String
        let unitsJSON: String
        /// The texts the page's code uses (read from the bundle once, when the first page is made).
        let used = Locked<(@Sendable (String) -> Bool)??>(nil)
        let made = Locked<[String: Language]>([:])

        init(template: String, style: String?, preloads: String, webDirectory: String, languagesJSON: String, unitsJSON: String) {
            self.template = template
            self.style = style
            self.preloads = preloads
            self.webDirectory = webDirectory
            self.languagesJSON = languagesJSON
            self.unitsJSON = unitsJSON
        }
    }

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
        var hashes = [Self.hash(Self.shownMark)]
        if let start = Self.inlineScript(in: template) { hashes.append(Self.hash(start)) }
        scriptHashes = hashes
        let languages = Localization.codes.map { ["code": $0, "name": Localization.pack(code: $0)?.name ?? $0] }
        // The entry's shared chunk, asked for beside the entry (not a round trip after it).
        let preloads = Self.chunks(importedBy: entry).map { "\n  <link rel=\"modulepreload\" href=\"/app/\($0)\">" }.joined()
        shared = Shared(
            template: template, style: style, preloads: preloads, webDirectory: webDirectory, languagesJSON: Self.json(languages),
            unitsJSON: Self.json((try? JSONSerialization.jsonObject(with: UnitTable.json)) ?? [String: Any]()))
    }

    /// `object` as JSON with its keys sorted (`{}` when it cannot be written).
    static func json(_ object: Any) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The page in `code` (nil for a language Brolly does not have).
    func page(_ code: String) -> String? { language(code)?.page }
    /// The first paint's data in `code`, as its `<script>` element.
    func boot(_ code: String) -> String? { language(code)?.boot }
    /// The words a card drawn by the server needs, in `code`.
    func cardTexts(_ code: String) -> [String: String]? { language(code)?.cardTexts }

    /// The language `code`'s page and data: made the first time, then kept.
    func language(_ code: String) -> Language? {
        guard Localization.codes.contains(code) else { return nil }
        if let made = shared.made.withLock({ $0[code] }) { return made }
        let made = make(code)
        shared.made.withLock { $0[code] = made }
        return made
    }

    private func make(_ code: String) -> Language {
        let s = shared
        let used =
            s.used.withLock { $0 }
            ?? {
                let read = Self.usedKeys(webDirectory: s.webDirectory)
                s.used.withLock { $0 = .some(read) }
                return read
            }()
        let texts = PageTexts.texts(code: code)
        let cardTexts = ["min", "max", "feelsLike"].reduce(into: [String: String]()) { $0[$1] = texts[$1] as? String }
        var html = Self.withoutComments(PageTexts.fill(s.template, texts: texts))
        let dir = ["ar", "fa", "he", "ur"].contains(code) ? "rtl" : "ltr"  // as i18n.js mirrors the page
        html = html.replacingOccurrences(of: "<html lang=\"en\">", with: "<html lang=\"\(code)\" dir=\"\(dir)\">")
        html = html.replacingOccurrences(
            of: "<script data-languages=\"\">", with: "<script data-languages=\"\(Localization.codes.joined(separator: " "))\">")
        if let style = s.style {
            html = html.replacingOccurrences(of: "<link rel=\"stylesheet\" href=\"/style.css\">", with: "<style>\(style)</style>")
        }
        html = html.replacingOccurrences(
            of: "<script type=\"module\" src=\"/app/main.js\"></script>",
            with: "<script type=\"module\" src=\"/app/main.js\"></script>" + s.preloads)
        // The keys in order, as `.sortedKeys` writes them: languages, texts, units.
        let firstPaint = Self.json(Self.firstPaintTexts(code: code, used: used))
        let json = "{\"languages\":\(s.languagesJSON),\"texts\":\(firstPaint),\"units\":\(s.unitsJSON)}"
        // `</` cannot end the element early.
        let tag = Self.bootTag.replacingOccurrences(of: "{}", with: json.replacingOccurrences(of: "</", with: "<\\/"))
        html = html.replacingOccurrences(of: Self.bootTag, with: tag)
        return Language(page: html, boot: tag, cardTexts: cardTexts)
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
