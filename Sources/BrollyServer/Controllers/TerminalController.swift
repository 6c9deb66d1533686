import BrollyCore
import BrollyTerminal
import BrollyUseCases
import Foundation
import Hummingbird

/// Weather over plain HTTP, as wttr.in answers it: `curl HOST/Paris`, `/52.52,13.41`,
/// `/~Eiffel+Tower`; the `now` view (ANSI colour for terminal clients, plain with `?T`), one line
/// with `?format=`; `?m` metric, `?u` USCS, `?M` wind in m/s. Errors are one line of text with
/// the API's status codes; ETags as the JSON API.
struct TerminalController: Sendable {
    let useCases: UseCases
    /// The web app's files: a name that is one of them is left to the file middleware.
    let webDirectory: String
    let metrics: ServerMetrics

    /// Its routes, mounted once by `makeRouter`.
    var routes: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).add(middleware: ETagMiddleware()).get(":location", use: weather)
    }

    /// `GET /{location}`.
    @Sendable func weather(_ request: Request, context: AppRequestContext) async throws -> Response {
        let options = TextOptions(request)
        let location = context.parameters.get("location") ?? ""
        // Hummingbird's FileMiddleware serves a file when the router answers 404: `/sw.js` and
        // `/style.css` are the app's files, not places.
        if FileManager.default.fileExists(atPath: webDirectory + "/" + location) { throw HTTPError(.notFound) }
        do {
            let query = try Self.placeQuery(location)
            let place = try await useCases.resolve(query, device: "").place
            let result = try await useCases.weather(
                for: place, mode: .staleWhileRevalidate, withAirQualityAndStation: options.wantsAirQuality, withAlerts: options.wantsAlerts,
                language: options.language.code)
            metrics.weatherAnswer(result)
            return Self.text(options.render(result, now: useCases.services.clock.now), status: .ok)
        } catch let error as BrollyError {
            let problem = Problem(error)
            var response = Self.text(problem.title + ": " + problem.detail + "\n", status: problem.status)
            if let retry = problem.retryAfter { response.headers[.retryAfter] = String(retry) }
            return response
        }
    }

    /// What `/` answers a terminal client: how to ask (the server cannot know where the client is).
    static let usage = """
        Brolly: the weather in your terminal. The server cannot tell where you are; name a place:

            curl HOST/Paris                   the weather now, in colour
            curl HOST/52.52,13.41             coordinates
            curl HOST/~Eiffel+Tower           a place by name
            curl 'HOST/Berlin?format=3'       one line (presets 1-4, or wttr.in's %-codes)
            curl 'HOST/Berlin?u&T'            USCS units, no colour

        """

    /// A place from the path: `lat,lon`, else a name (`~` prefix, `+` and `_` for spaces).
    static func placeQuery(_ raw: String) throws -> PlaceQuery {
        var text = raw.removingPercentEncoding ?? raw
        if text.hasPrefix("~") { text.removeFirst() }
        // An escaped slash makes a path, not a place (`/forecast%2FKEY%2F52.5,13.4` is a Dark Sky
        // request gone wrong): never a search, so a key in it never goes to the geocoder or a log.
        if text.contains("/") { throw BrollyError.invalidInput("a place name has no '/': \(raw.count) characters that look like a path") }
        text = text.replacingOccurrences(of: "+", with: " ").replacingOccurrences(of: "_", with: " ")
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
        {
            return .coordinate(try Coordinate.validated(latitude: lat, longitude: lon))
        }
        return .name(try PlaceSearch.validated(text))
    }

    static func text(_ body: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "public, no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// wttr.in's query options: flags (`?T`, `?m`, `?u`, `?M`, combinable as `?mT`) and `format=`.
struct TextOptions {
    var format: String?
    /// wttr.in's: metric with m/s, `?m` km/h, `?u` imperial.
    var units = UnitChoice(.metric)
    var color: Bool
    /// `?lang=` or `Accept-Language` (English when there is no file for it).
    var language: LanguagePack

    init(_ request: Request) {
        var flags = Set<Character>()
        for item in (request.uri.query ?? "").split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2 {
                if pair[0] == "format" { format = String(Self.lenientlyDecoded(pair[1]).prefix(500)) }
            } else {
                flags.formUnion(item)
            }
        }
        if flags.contains("u") {
            units = UnitChoice(.imperial)
        } else if flags.contains("m") {
            units.wind = .kmh
        }
        if flags.contains("M") { units.wind = .ms }
        color = !flags.contains("T") && TerminalClient.isTerminal(request)
        language = Localization.pack(for: (try? Language.of(request)) ?? "en")
    }

    /// Percent-decodes `%XX` where XX is hex and leaves any other `%` as it is, so that both
    /// `format=%25l` and wttr.in's usual raw `format=%l:+%t` work; `+` is a space.
    static func lenientlyDecoded(_ raw: Substring) -> String {
        var bytes: [UInt8] = []
        let source = Array(raw.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while i < source.count {
            let b = source[i]
            if b == UInt8(ascii: "%"), i + 2 < source.count,
                let high = hex(source[i + 1]), let low = hex(source[i + 2])
            {
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The full view shows air quality; a one-line format only when it asks (`%q`, `%u`).
    var wantsAirQuality: Bool {
        guard let format, !format.isEmpty else { return true }
        return format.contains("%q") || format.contains("%u") || format.contains("%o")
    }

    /// The full view shows warnings; a one-line format only when it asks (`%a`).
    var wantsAlerts: Bool {
        guard let format, !format.isEmpty else { return true }
        return format.contains("%a")
    }

    func render(_ result: WeatherResult, now: Date) -> String {
        if let format, !format.isEmpty {
            var line = OneLineFormat(units: units)
            line.language = language
            return line.render(format, line.view(result, now: now)) + "\n"
        }
        var renderer = TextRenderer(choice: units, color: color)
        renderer.language = language
        return renderer.now(renderer.view(result, now: now)) + "\n"
    }
}

/// curl, Wget, HTTPie and other terminal clients, told apart from browsers by their User-Agent.
enum TerminalClient {
    static let agents = ["curl/", "wget/", "httpie/", "xh/", "powershell", "lwp-request", "fetch libfetch", "aria2", "go-http-client"]

    static func isTerminal(_ request: Request) -> Bool {
        let agent = (request.headers[.userAgent] ?? "").lowercased()
        return agents.contains { agent.hasPrefix($0) || agent.contains(" " + $0) }
    }
}

/// `/` for a terminal client is text (how to ask for a place); browsers get the web app.
struct TerminalRootMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get, request.uri.path == "/", TerminalClient.isTerminal(request) else {
            return try await next(request, context)
        }
        let host = request.head.authority ?? "localhost:8080"
        return TerminalController.text(TerminalController.usage.replacingOccurrences(of: "HOST", with: host), status: .ok)
    }
}
