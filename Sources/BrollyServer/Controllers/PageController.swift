import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation
import Hummingbird

/// `GET /` and `/index.html`: the page (`WebPage`) in the reader's language — `?lang=`, else the
/// language the page last chose (its `brolly_lang` cookie), else the first of `Accept-Language`
/// that Brolly speaks — with this browser's device cookie (so that its first weather request is
/// already its own and lands in its history), and, for a returning browser, its last place's card
/// drawn in: the place its `brolly_place` cookie names, from the server's cache only (no upstream
/// call; nothing is drawn when the cache has nothing), in its `brolly_units`. The temperature then
/// shows before any script has run.
struct PageController: Sendable {
    let page: WebPage
    let useCases: UseCases

    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("/", use: answer).get("/index.html", use: answer)
    }

    @Sendable func answer(_ request: Request, context: AppRequestContext) async throws -> Response {
        let cookies = Self.cookies(request)
        let code = Self.language(request, cookies: cookies)
        var html = page.page(code) ?? page.page("en") ?? ""
        if context.deviceID != DeviceTokens.anonymous {
            html = html.replacingOccurrences(
                of: "id=\"brolly-boot\" data-device=\"false\"", with: "id=\"brolly-boot\" data-device=\"true\"")
        }
        if let card = await card(cookies: cookies, language: code) { html = card.drawn(into: html) }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "private, no-cache", .vary: "Accept-Language, Cookie",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The card of the place the cookies name, from the cache only.
    func card(cookies: [String: String], language: String) async -> ServerCard? {
        guard let raw = cookies["brolly_place"] else { return nil }
        let parts = raw.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else { return nil }
        let coordinate = Coordinate(latitude: parts[0], longitude: parts[1])
        let unit = TemperatureUnit(rawValue: cookies["brolly_units"] ?? "") ?? .celsius
        do {
            let place = try await useCases.resolve(
                .coordinate(coordinate), device: DeviceTokens.anonymous, offline: true, language: language
            ).place
            let result = try await useCases.weather(for: place, mode: .offline, language: language)
            let pack = Localization.pack(for: language)
            return ServerCard(
                document: WeatherDocument(result, units: .metric, now: useCases.services.clock.now, language: pack), unit: unit,
                language: page.cardTexts(language) ?? [:])
        } catch {
            return nil
        }
    }

    static func language(_ request: Request, cookies: [String: String]) -> String {
        var asked: [String] = []
        if let q = request.uri.queryParameters.get("lang") { asked.append(q) }
        if let c = cookies["brolly_lang"] { asked.append(c) }
        asked += Language.accepted(request)
        return asked.map { Localization.baseCode($0) }.first { Localization.codes.contains($0) } ?? "en"
    }

    static func cookies(_ request: Request) -> [String: String] {
        var out: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { continue }
                let name = kv[0].trimmingCharacters(in: .whitespaces)
                guard name.hasPrefix("brolly_"), name != DeviceMiddleware.cookieName else { continue }
                out[name] = String(kv[1]).removingPercentEncoding ?? String(kv[1])
            }
        }
        return out
    }
}

/// The card's first lines drawn by the server: the place, the temperature, the condition, the
/// day's range, as card.js writes them; the page's script redraws all of it.
struct ServerCard {
    let document: WeatherDocument
    let unit: TemperatureUnit
    let language: [String: String]

    /// `3°C`, `37°F`, `276 K`, rounded as the terminal writes them (never `-0°`): the same writer.
    func temperature(_ celsius: Double) -> String {
        var choice = UnitChoice(.metric)
        choice.temperature = unit
        return TextRenderer(choice: choice, color: false).temp(celsius)
    }

    func drawn(into html: String) -> String {
        let c = document.current
        let min = language["min"] ?? ""
        let max = language["max"] ?? ""
        let feels = c.feelsLike.map { "\(language["feelsLike"] ?? "") \(temperature($0)) · " } ?? ""
        let fills: [(String, String)] = [
            ("id=\"place-name\"></h3>", "id=\"place-name\">\(PageTexts.escaped(document.place.name))</h3>"),
            ("id=\"temperature\"></p>", "id=\"temperature\">\(temperature(c.temperature))</p>"),
            ("id=\"description\"></p>", "id=\"description\">\(PageTexts.escaped(c.condition.description))</p>"),
            ("<span id=\"feels\"></span>", "<span id=\"feels\">\(PageTexts.escaped(feels))</span>"),
            (
                "<span id=\"minmax\"></span>",
                "<span id=\"minmax\">\(PageTexts.escaped("\(min) \(temperature(c.temperatureMin)) · \(max) \(temperature(c.temperatureMax))"))</span>"
            ),
            ("data-state=\"loading\"", "data-state=\"ready\" data-drawn=\"server\""),
            ("aria-busy=\"true\"", "aria-busy=\"false\""),
            ("<div id=\"loading\" class=\"panel loading-panel\">", "<div id=\"loading\" class=\"panel loading-panel\" hidden>"),
            ("<article id=\"card\" class=\"card\" hidden>", "<article id=\"card\" class=\"card\">"),
            ("</article>", "</article>\n        <script>\(WebPage.shownMark)</script>"),
        ]
        var out = html
        for (from, to) in fills {
            guard let r = out.range(of: from) else { continue }
            out.replaceSubrange(r, with: to)
        }
        return out
    }
}
