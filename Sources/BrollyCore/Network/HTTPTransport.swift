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
    /// the Dark Sky / Pirate Weather key in the path and every secret query item (any letter case)
    /// replaced by `REDACTED`, for request logs. Works on the raw text: nothing is decoded or
    /// re-encoded, so what is logged is otherwise what came.
    public static func redactTarget(_ target: String) -> String {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var path = String(parts[0])
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "forecast", KEY, … (Dark Sky and Pirate Weather put the key in the path).
        if segments.count >= 3, segments[1] == "forecast", !segments[2].isEmpty {
            var redacted = segments.map(String.init)
            redacted[2] = "REDACTED"
            path = redacted.joined(separator: "/")
        }
        guard parts.count == 2 else { return path }
        let items = parts[1].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let plainName = (name.removingPercentEncoding ?? name).lowercased()
            return secretNames.contains(plainName) && pair.count == 2 ? name + "=REDACTED" : String(item)
        }
        return path + "?" + items.joined(separator: "&")
    }
}
