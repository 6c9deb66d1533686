import Foundation
import Testing

@testable import BrollyServer

/// The page's module list is the files in `Public/js`: the preload tags of `index.html` and the
/// service worker's offline shell must name each of them (a module missing from the shell is a
/// page that breaks offline), and no script writes HTML (`innerHTML`).
@Suite struct PageModulesTests {
    let web = URL(fileURLWithPath: ServerSettings.bundledWebDirectory)

    /// Modules the server writes (the conversion table, the English texts), not files.
    static let generated: Set<String> = ["/js/unit-table.js", "/js/texts-en.js"]

    func files() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: web.appendingPathComponent("js").path)
                .filter { $0.hasSuffix(".js") }.map { "/js/" + $0 })
    }

    func modules() throws -> Set<String> { try files().union(Self.generated) }

    func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    /// Every module is either preloaded (what the card needs: one round trip for all of them) or
    /// imported only after the card (`import('./x.js')`, never statically), so that it never holds
    /// up the weather on a slow connection.
    @Test func theIndexPreloadsEveryModuleTheCardNeeds() throws {
        let index = try String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8)
        let preloaded = try matches(#"<link rel="modulepreload" href="(/js/[a-z0-9-]+\.js)">"#, in: index)
        var later: Set<String> = []
        var statically: Set<String> = []
        for module in try files() {
            let text = try String(contentsOf: web.appendingPathComponent(String(module.dropFirst())), encoding: .utf8)
            later.formUnion(try matches(#"import\('\./([a-z0-9-]+\.js)'\)"#, in: text).map { "/js/" + $0 })
            statically.formUnion(try matches(#"from '\./([a-z0-9-]+\.js)'"#, in: text).map { "/js/" + $0 })
        }
        #expect(preloaded.union(later) == (try modules()))
        #expect(preloaded.isDisjoint(with: later))
        #expect(later.isDisjoint(with: statically), "a module imported after the card is also imported statically")
        #expect(later.isSuperset(of: ["/js/radar.js", "/js/chart.js"]))
    }

    @Test func theServiceWorkerKeepsEveryModule() throws {
        let worker = try String(contentsOf: web.appendingPathComponent("sw.js"), encoding: .utf8)
        let shell = try matches(#"'(/js/[a-z0-9-]+\.js)'"#, in: worker)
        #expect(shell == (try modules()))
        #expect(worker.contains("'/widget.js'"))
    }

    @Test func noScriptWritesHTML() throws {
        let scripts = try files().map { web.appendingPathComponent(String($0.dropFirst())) } + [web.appendingPathComponent("widget.js")]
        for url in scripts {
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(!text.contains("innerHTML") && !text.contains("insertAdjacentHTML"), "\(url.lastPathComponent) writes HTML")
            if url.lastPathComponent != "api.js" {
                #expect(!text.contains("fetch("), "\(url.lastPathComponent) fetches by hand; use api.js")
            }
            if url.lastPathComponent != "storage.js" {
                #expect(!text.contains("localStorage"), "\(url.lastPathComponent) uses localStorage by hand; use storage.js")
            }
        }
    }

    /// English is written once, in en.json: no page text in a script (`t(key, vars)` has no English
    /// fallback) and none in the HTML, which the server fills from the file.
    @Test func englishIsWrittenOnceInTheLanguageFile() throws {
        let scripts = try files().map { web.appendingPathComponent(String($0.dropFirst())) } + [web.appendingPathComponent("widget.js")]
        let call = try NSRegularExpression(pattern: #"(?<![\w.$])t\(\s*[^,()]+,\s*(['"`])"#)
        for url in scripts {
            let text = try String(contentsOf: url, encoding: .utf8)
            let hits = call.matches(in: text, range: NSRange(text.startIndex..., in: text)).count
            #expect(hits == 0, "\(url.lastPathComponent) passes an English fallback to t()")
        }
        for page in ["index.html", "widget.html"] {
            let html = try String(contentsOf: web.appendingPathComponent(page), encoding: .utf8)
            let body = String(html[html.range(of: "<body")!.lowerBound...])
            // Text between tags: only proper names, symbols and the language switch's first entry.
            let words = try NSRegularExpression(pattern: #">([^<]*[A-Za-z]{2,}[^<]*)<"#)
            let texts = words.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
                Range($0.range(at: 1), in: body).map { body[$0].trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            let names: Set<String> = ["Brolly", "English", "RainViewer", "OpenWeatherMap", "Open-Meteo", "OpenStreetMap", "Leaflet"]
            #expect(texts.filter { !names.contains($0) }.isEmpty, "\(page): \(texts.filter { !names.contains($0) })")
            let attributes = try NSRegularExpression(pattern: #" (aria-label|title|placeholder)="[^"]*[A-Za-z]{2,}"#)
            #expect(
                attributes.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)) == nil, "\(page) has an English attribute")
        }
        let filled = String(decoding: try #require(PageTexts.index(webDirectory: web.path)), as: UTF8.self)
        #expect(filled.contains(##"<a class="skip" href="#weather" data-i18n="skip">Skip to the weather</a>"##))
        #expect(filled.contains(#"aria-label="Search for a city""#) && filled.contains("<title>Brolly — Weather</title>"))
    }
}
