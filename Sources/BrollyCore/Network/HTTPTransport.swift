import Foundation

/// An HTTP request as BrollyCore sees it: a GET (or a POST with a body) with headers and a time-out.
public struct HTTPRequest: Sendable, Hashable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    /// The overall time-out for this one attempt.
    public var timeout: TimeInterval
    public var body: Data?
    /// The address (an IP literal) to connect to, already checked, instead of resolving the URL's
    /// host again; the host still names the server (Host, TLS's name and its certificate check).
    /// A push is sent to the address its policy checked, so that a name answering differently the
    /// second time (DNS rebinding) cannot turn it to an internal host. A transport that cannot
    /// connect to a given address must refuse such a request, never resolve the name.
    public var connectTo: String?

    public init(
        url: URL, method: String = "GET", headers: [String: String] = [:], timeout: TimeInterval = 10, body: Data? = nil,
        connectTo: String? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.timeout = timeout
        self.body = body
        self.connectTo = connectTo
    }

    /// The URL with secret query items (`appid`, `key`, `apiKey`) replaced by `REDACTED`, for logs.
    public var redactedURL: String { URLRedaction.redact(url) }
}

/// An HTTP response: status, headers (lower-cased names) and body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        var lower: [String: String] = [:]
        for (k, v) in headers { lower[k.lowercased()] = v }
        self.headers = lower
        self.body = body
    }
}

/// Failures of the transport itself, before any HTTP status.
public enum TransportError: Error, Sendable, Equatable {
    /// The connect or the overall time-out expired.
    case timedOut
    /// The host could not be resolved or refused the connection.
    case cannotConnect(String)
    /// The connection broke before a whole response arrived.
    case connectionLost(String)
    /// Any other transport failure.
    case other(String)
}

/// Sends one HTTP request. The live implementation is on AsyncHTTPClient (BrollyHTTP); tests
/// inject their own.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Removes API keys from URLs before they are logged or shown.
public enum URLRedaction {
    static let secretNames: Set<String> = ["appid", "key", "apikey", "api_key", "token"]

    public static func redact(_ url: URL) -> String {
        guard var comps = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = comps.queryItems
        else { return url.absoluteString }
        comps.queryItems = items.map {
            secretNames.contains($0.name.lowercased()) ? URLQueryItem(name: $0.name, value: "REDACTED") : $0
        }
        return comps.url?.absoluteString ?? url.absoluteString
    }

    /// A request target as a server received it (`/forecast/KEY/52.5,13.4?units=si&APPID=…`), with
    /// the Dark Sky / Pirate Weather key in the path and every secret parameter replaced by
    /// `REDACTED`, for request logs — routed or not (issue 52: `/Forecast/KEY`, `//forecast/KEY`,
    /// `/forecast%2FKEY`, `;appid=` and `apikey+=` were logged as they came). The path's `forecast`
    /// segment is found in any letter case, among empty segments and behind percent escapes (the
    /// path is then logged decoded, control characters escaped); parameters are split at `&` and
    /// `;`, in the query and in path segments, and their names read decoded (`+` a space, spaces
    /// trimmed, any case). Otherwise what is logged is what came.
    public static func redactTarget(_ target: String) -> String {
        var bytes = target
        return bytes.withUTF8(isPlain) ? target : redactedTarget(target)
    }

    /// The secret parameters' names, lowercased, as bytes (`isPlain`).
    static let secretNameBytes = secretNames.map { Array($0.utf8) }

    /// Whether `redactTarget` leaves a target as it came, read on its bytes without Foundation: all
    /// printable ASCII without `%`, `+` or `;`, no path segment after one that starts with
    /// `forecast` (any case), and no parameter named as a secret. A browser's request
    /// (`/api/v1/weather?lat=…&lon=…`) is; anything else is given to `redactedTarget`, whose
    /// answer this never changes (`Tests/BrollyServerTests/HardeningTests.swift` compares them).
    /// The full redaction was 18 % of a cached answer's time at the default log level (`perf`,
    /// issue 52).
    static func isPlain(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var inQuery = false, afterForecast = false
        var segmentStart = 0
        var nameStart: Int? = nil  // in the query: where the name being read starts
        func lower(_ c: UInt8) -> UInt8 { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c }
        func isSecret(_ range: Range<Int>) -> Bool {
            secretNameBytes.contains { name in name.count == range.count && zip(name, b[range]).allSatisfy { $0 == lower($1) } }
        }
        for i in 0..<b.count {
            let c = b[i]
            if c <= 0x20 || c >= 0x7f || c == UInt8(ascii: "%") || c == UInt8(ascii: "+") || c == UInt8(ascii: ";") { return false }
            if inQuery {
                if c == UInt8(ascii: "=") || c == UInt8(ascii: "&") {
                    if let start = nameStart, isSecret(start..<i) { return false }
                    nameStart = c == UInt8(ascii: "&") ? i + 1 : nil
                }
            } else if c == UInt8(ascii: "?") {
                inQuery = true
                nameStart = i + 1
            } else if c == UInt8(ascii: "/") {
                if afterForecast { return false }
                segmentStart = i + 1
            } else if i - segmentStart == 7 {
                afterForecast = afterForecast || zip("forecast".utf8, b[segmentStart...i]).allSatisfy { $0 == lower($1) }
            }
        }
        if inQuery, let start = nameStart, isSecret(start..<b.count) { return false }
        return true
    }

    /// `redactTarget`'s answer worked out in full.
    static func redactedTarget(_ target: String) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        let decoded = path.removingPercentEncoding ?? path
        var segments = decoded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let i = segments.firstIndex(where: { $0.lowercased().hasPrefix("forecast") }), i + 1 < segments.count {
            segments[i + 1] = "REDACTED"
            path = "/" + segments.joined(separator: "/")
            path = String(
                path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? "%" + String($0.value, radix: 16) : String($0) }
                    .joined())
        }
        if path.contains(";") { path = redactParameters(path, separators: [";"]) }
        guard parts.count == 2 else { return path }
        return path + "?" + redactParameters(String(parts[1]), separators: ["&", ";"])
    }

    /// `name=value` parameters separated by any of `separators`, each secret one's value replaced.
    static func redactParameters(_ text: String, separators: Set<Character>) -> String {
        var out = ""
        var item = ""
        func flush() {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]).replacingOccurrences(of: "+", with: " ")
            let plainName = (name.removingPercentEncoding ?? name).trimmingCharacters(in: .whitespaces).lowercased()
            out += secretNames.contains(plainName) && pair.count == 2 ? String(pair[0]) + "=REDACTED" : item
            item = ""
        }
        for c in text {
            if separators.contains(c) {
                flush()
                out.append(c)
            } else {
                item.append(c)
            }
        }
        flush()
        return out
    }
}
