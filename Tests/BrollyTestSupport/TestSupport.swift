import BrollyStore
import BrollyUseCases
import Foundation

@testable import BrollyCore

// The doubles and helpers the Swift suites share: transports that answer from a script, by
// route or in each provider's real format, a fake provider, a hand-moved clock, sample data, and
// use cases built by the real factory over a double.

public func utc(_ iso: String) -> Date {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime]
    return f.date(from: iso)!
}

/// A clock tests move by hand.
public typealias TestClock = ManualClock

/// Lets other tasks run until `done` holds (at most `rounds` yields): how a test waits for work in
/// the background without sleeping.
public func yieldUntil(_ rounds: Int = 100_000, _ done: () -> Bool) async {
    for _ in 0..<rounds where !done() { await Task.yield() }
}

/// A transport that answers from a script and records what it was asked.
public final class ScriptedTransport: HTTPTransport {
    public enum Step: Sendable {
        case respond(Int, [String: String], String)
        case fail(TransportError)
    }
    private let steps: Locked<[Step]>
    public let requests = Locked<[HTTPRequest]>([])

    public init(_ steps: [Step]) { self.steps = Locked(steps) }

    public var count: Int { requests.withLock { $0.count } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        let step = steps.withLock { s -> Step in s.count > 1 ? s.removeFirst() : s[0] }
        switch step {
        case .respond(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }
}

/// A transport that answers by the request's URL: the first route whose text the URL contains.
public final class RoutedTransport: HTTPTransport {
    private let routes: [(String, ScriptedTransport.Step)]
    public let requests = Locked<[HTTPRequest]>([])

    public init(_ routes: [(String, ScriptedTransport.Step)]) { self.routes = routes }

    public var count: Int { requests.withLock { $0.count } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.withLock { $0.append(request) }
        guard let step = routes.first(where: { request.url.absoluteString.contains($0.0) })?.1 else {
            throw TransportError.cannotConnect("no route")
        }
        switch step {
        case .respond(let status, let headers, let body):
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        case .fail(let error):
            throw error
        }
    }
}

/// A provider that counts calls and answers from a closure.
public final class FakeProvider: WeatherProvider {
    public let id: ProviderID
    public let calls = Locked(0)
    public let answer: Locked<Result<WeatherReport, BrollyError>>

    public init(id: ProviderID = .openMeteo, answer: Result<WeatherReport, BrollyError>) {
        self.id = id
        self.answer = Locked(answer)
    }

    public var callCount: Int { calls.withLock { $0 } }
    public func set(_ result: Result<WeatherReport, BrollyError>) { answer.withLock { $0 = result } }

    public func weather(for place: Place) async throws -> WeatherReport {
        calls.withLock { $0 += 1 }
        return try answer.withLock { $0 }.get()
    }
    public func search(_ query: String, limit: Int) async throws -> [Place] { [] }
    public func reverse(_ coordinate: Coordinate) async throws -> Place? { nil }
}

public func sampleReport(temperature: Double = 10, at time: Date = utc("2026-11-21T12:00:00Z")) -> WeatherReport {
    let condition = Conditions.wmo(3)
    return WeatherReport(
        place: Place(name: "Berlin", country: "Germany", countryCode: "DE", latitude: 52.52, longitude: 13.41, timezone: "Europe/Berlin"),
        current: CurrentConditions(
            time: time, temperature: temperature, temperatureMin: temperature - 3, temperatureMax: temperature + 2,
            humidity: 70, pressure: 1012, windSpeed: 3, windDirection: 200, condition: condition),
        days: [DayForecast(date: "2026-11-21", temperatureMin: 7, temperatureMax: 12, condition: condition)],
        hours: [], provider: .openMeteo, fetchedAt: time)
}

/// Midnight of `now`'s local day in `zone`: where a test's week of hours starts.
public func localMidnight(of now: Date, in zone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar.startOfDay(for: now)
}

public func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A transport double that answers each provider path with a body in that provider's real
/// format, and counts the calls per path. A path can be made to fail.
public final class ProviderDouble: HTTPTransport {
    private struct State {
        var calls: [String: Int] = [:]
        var failing: Set<String> = []
    }
    private let state = Locked(State())

    public init() {}

    public func count(_ path: String) -> Int { state.withLock { $0.calls[path, default: 0] } }
    public func fail(_ path: String) { state.withLock { _ = $0.failing.insert(path) } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        let fails = state.withLock { s -> Bool in
            s.calls[path, default: 0] += 1
            return s.failing.contains(path)
        }
        if fails { throw TransportError.cannotConnect("refused") }
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func q(_ name: String) -> String? { query.first { $0.name == name }?.value }
        switch path {
        case "/v1/forecast": return HTTPResponse(status: 200, body: Data(Self.forecast.utf8))
        case "/v1/search":
            let name = q("name") ?? ""
            return HTTPResponse(status: 200, body: Data((name == "Nowhere" ? #"{"generationtime_ms":0.3}"# : Self.search).utf8))
        case "/reverse": return HTTPResponse(status: 200, body: Data(Self.nominatim.utf8))
        case let p where p.hasPrefix("/news/"): return HTTPResponse(status: 200, body: Data(Self.rss().utf8))
        case "/json": return HTTPResponse(status: 200, body: Data(Self.ipLocation.utf8))
        default: return HTTPResponse(status: 404, body: Data(#"{"error":true,"reason":"Not Found"}"#.utf8))
        }
    }

    /// Open-Meteo `/v1/forecast`: Berlin, with 0.25 mm of rain now.
    static let forecast = """
        {"latitude":52.52,"longitude":13.419998,"generationtime_ms":0.1,"utc_offset_seconds":3600,"timezone":"Europe/Berlin",
        "timezone_abbreviation":"GMT+1","elevation":38,
        "current_units":{"time":"iso8601","interval":"seconds","temperature_2m":"°C","relative_humidity_2m":"%","apparent_temperature":"°C",
        "is_day":"","rain":"mm","showers":"mm","snowfall":"cm","weather_code":"wmo code","cloud_cover":"%","pressure_msl":"hPa",
        "wind_speed_10m":"km/h","wind_direction_10m":"°","wind_gusts_10m":"km/h"},
        "current":{"time":"2026-11-23T12:00","interval":900,"temperature_2m":-0.3,"relative_humidity_2m":88,"apparent_temperature":-3.1,
        "is_day":1,"rain":0.25,"showers":0,"snowfall":0,"weather_code":61,"cloud_cover":100,"pressure_msl":1003.4,"wind_speed_10m":14.4,
        "wind_direction_10m":250,"wind_gusts_10m":30.2},
        "hourly_units":{"time":"iso8601","temperature_2m":"°C","precipitation_probability":"%","precipitation":"mm","weather_code":"wmo code","is_day":""},
        "hourly":{"time":["2026-11-23T12:00","2026-11-23T13:00"],"temperature_2m":[-0.3,0.1],"precipitation_probability":[80,60],
        "precipitation":[0.25,0.12],"weather_code":[61,61],"is_day":[1,1]},
        "daily_units":{"time":"iso8601","weather_code":"wmo code","temperature_2m_max":"°C","temperature_2m_min":"°C","precipitation_sum":"mm"},
        "daily":{"time":["2026-11-23","2026-11-24","2026-11-25","2026-11-26","2026-11-27"],"weather_code":[61,3,71,0,2],
        "temperature_2m_max":[2,3,1,4,5],"temperature_2m_min":[-2,-1,-3,0,1],"precipitation_sum":[1.37,0,2.5,0,0]}}
        """

    /// Open-Meteo geocoding `/v1/search`: two places called Paris.
    static let search = """
        {"results":[{"id":2988507,"name":"Paris","latitude":48.85341,"longitude":2.3488,"elevation":42,"feature_code":"PPLC",
        "country_code":"FR","timezone":"Europe/Paris","country":"France","admin1":"Île-de-France"},
        {"id":4717560,"name":"Paris","latitude":33.66094,"longitude":-95.55551,"country_code":"US","timezone":"America/Chicago",
        "country":"United States","admin1":"Texas"}],"generationtime_ms":0.5}
        """

    /// Nominatim `/reverse?format=jsonv2`: a Berlin street address.
    static let nominatim = """
        {"place_id":1,"licence":"Data © OpenStreetMap contributors, ODbL 1.0.","osm_type":"way","osm_id":2,"lat":"52.5200","lon":"13.4100",
        "category":"highway","type":"residential","place_rank":26,"importance":0.1,"addresstype":"road","name":"Hauptstraße",
        "display_name":"12, Hauptstraße, Mitte, Berlin, 10178, Deutschland",
        "address":{"house_number":"12","road":"Hauptstraße","suburb":"Mitte","city":"Berlin","state":"Berlin","postcode":"10178",
        "country":"Deutschland","country_code":"de"}}
        """

    /// ip-api.com `/json`.
    static let ipLocation = """
        {"status":"success","country":"Nepal","countryCode":"NP","regionName":"Bagmati","city":"Kathmandu","lat":27.7172,"lon":85.324,
        "timezone":"Asia/Kathmandu"}
        """

    /// BBC News RSS: one item from today (an hour ago) that mentions Berlin, one from two days ago.
    static func rss(now: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(secondsFromGMT: 0)
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let recent = now.addingTimeInterval(-60)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title><![CDATA[BBC News - Europe]]></title><link>https://www.bbc.co.uk/news/world/europe</link>
            <item><title><![CDATA[Snow closes schools in Berlin]]></title><description><![CDATA[<p>Classes resume on Monday.</p>]]></description>
            <link>https://www.bbc.co.uk/news/articles/berlin-snow</link><pubDate>\(f.string(from: recent))</pubDate></item>
            <item><title><![CDATA[Old news]]></title><description>Two days ago</description>
            <link>https://www.bbc.co.uk/news/articles/old</link><pubDate>\(f.string(from: now.addingTimeInterval(-2 * 86_400)))</pubDate></item>
            </channel></rss>
            """
    }
}

/// Use cases over the double and a fresh in-memory database, built by the real service factory.
public func makeUseCases(
    _ double: any HTTPTransport, store: AppDatabase? = nil, clock: any WallClock = SystemClock()
) throws -> UseCases {
    let base = "http://127.0.0.1:9"
    let env = [
        "BROLLY_OPEN_METEO_URL": base, "BROLLY_OPEN_METEO_GEOCODING_URL": base, "BROLLY_NOMINATIM_URL": base,
        "BROLLY_BBC_FEEDS_URL": base, "BROLLY_IP_LOCATION_URL": base + "/json",
    ]
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-usecases-\(UUID().uuidString)")
    let configuration = try BrollyConfiguration(provider: nil, cacheDirectory: dir, environment: env)
    let services = Services.make(
        configuration: configuration, transport: double, store: try store ?? AppDatabase.inMemory(),
        options: Services.Options(clock: clock))
    return UseCases(services: services)
}
