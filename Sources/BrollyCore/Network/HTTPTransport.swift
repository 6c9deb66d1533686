import Foundation

/// An HTTP request as BrollyCore sees it: a GET (or a POST with a body) with headers and a time-out.
public struct HTTPRequest: Sendable, Hashable {
    public var url: URL
    public var method: String
    public var headers: [String: String]
    /// The overall time-out for this one attempt.
    public var timeout: TimeInterval
    public var body: Data?

    public init(url: URL, method: String = "GET", headers: [String: String] = [:], timeout: TimeInterval = 10, body: Data? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.timeout = timeout
        self.body = body
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
}
