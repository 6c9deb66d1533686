import Foundation
import Testing

@testable import BrollyServer

/// The page's module list is the files in `Public/js`: the preload tags of `index.html` and the
/// service worker's offline shell must name each of them (a module missing from the shell is a
/// page that breaks offline), and no script writes HTML (`innerHTML`).
@Suite struct PageModulesTests {
    let web = URL(fileURLWithPath: ServerSettings.bundledWebDirectory)

    func modules() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: web.appendingPathComponent("js").path)
                .filter { $0.hasSuffix(".js") }.map { "/js/" + $0 })
    }

    func matches(_ pattern: String, in text: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    @Test func theIndexPreloadsEveryModule() throws {
        let index = try String(contentsOf: web.appendingPathComponent("index.html"), encoding: .utf8)
        let preloaded = try matches(#"<link rel="modulepreload" href="(/js/[a-z0-9-]+\.js)">"#, in: index)
        #expect(preloaded == (try modules()))
    }

    @Test func theServiceWorkerKeepsEveryModule() throws {
        let worker = try String(contentsOf: web.appendingPathComponent("sw.js"), encoding: .utf8)
        let shell = try matches(#"'(/js/[a-z0-9-]+\.js)'"#, in: worker)
        #expect(shell == (try modules()))
        #expect(worker.contains("'/widget.js'"))
    }

    @Test func noScriptWritesHTML() throws {
        let scripts = try modules().map { web.appendingPathComponent(String($0.dropFirst())) } + [web.appendingPathComponent("widget.js")]
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
}
