import Foundation
import Testing

@testable import BrollyServer

/// The page's module list is the files in `Public/js`, bundled by scripts/bundle.sh into two
/// entries: `main.js` (the card's code) and `later.js` (everything else, loaded after the card).
/// The service worker keeps the bundle (its `files.json`) and the widget's modules, and no script
/// writes HTML (`innerHTML`).
@Suite struct PageModulesTests {
    let web = URL(fileURLWithPath: ServerSettings.bundledWebDirectory)

    func files() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: web.appendingPathComponent("js").path)
                .filter { $0.hasSuffix(".js") }.map { "/js/" + $0 })
    }

    func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    func text(_ module: String) throws -> String {
        try String(contentsOf: web.appendingPathComponent(String(module.dropFirst())), encoding: .utf8)
    }

    /// The modules `start` imports statically, and those they import, and so on.
    func staticGraph(from start: String) throws -> Set<String> {
        var seen: Set<String> = [start]
        var queue = [start]
        while let module = queue.popLast() {
            for next in try matches(#"from '\./(?:js/)?([a-z0-9-]+\.js)'"#, in: try text(module)).map({ "/js/" + $0 })
            where !seen.contains(next) {
                seen.insert(next)
                queue.append(next)
            }
        }
        return seen
    }

    /// The card's code (main.js and what it imports) holds nothing that only the rest of the page
    /// needs; every other module comes through later.js, the one module imported after the card.
    @Test func theCardsCodeComesFirstAndTheRestAfter() throws {
        let card = try staticGraph(from: "/js/main.js")
        let rest = try staticGraph(from: "/js/later.js")
        #expect(card.union(rest) == (try files()))
        for module in [
            "places", "search", "layout", "alerts", "pushsettings", "radar", "chart", "history", "news", "accuracy", "address", "air",
        ] {
            #expect(!card.contains("/js/\(module).js"), "\(module).js holds up the card")
            #expect(rest.contains("/js/\(module).js"))
        }
        var dynamic: Set<String> = []
        for module in try files() { dynamic.formUnion(try matches(#"import\('\./([a-z0-9-]+\.js)'\)"#, in: try text(module))) }
        #expect(dynamic == ["later.js"])
        // The bundle has both entries and the page names its entry.
        for entry in ["main.js", "later.js", "files.json", "style.css"] {
            #expect(FileManager.default.fileExists(atPath: web.appendingPathComponent("app/" + entry).path), "app/\(entry)")
        }
        let index = try String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<script type="module" src="/app/main.js"></script>"#) && !index.contains("src=\"/js/"))
    }

    @Test func theServiceWorkerKeepsTheBundleAndTheWidgetsModules() throws {
        let worker = try String(contentsOf: web.appendingPathComponent("sw.js"), encoding: .utf8)
        let shell = try matches(#"'(/js/[a-z0-9-]+\.js)'"#, in: worker)
        #expect(shell == (try staticGraph(from: "/widget.js")).subtracting(["/widget.js"]))
        #expect(worker.contains("'/widget.js'") && worker.contains("'/app/files.json'"))
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
        let filled = try #require(WebPage(webDirectory: web.path)?.page("en"))
        #expect(filled.contains(##"<a class="skip" href="#weather" data-i18n="skip">Skip to the weather</a>"##))
        #expect(filled.contains(#"aria-label="Search for a city""#) && filled.contains("<title>Brolly — Weather</title>"))
    }
}
