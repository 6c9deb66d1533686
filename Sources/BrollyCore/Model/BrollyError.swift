import Foundation

/// The small set of failures a user is told about. Every lower-level error is mapped to one.
public struct BrollyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in terms a user understands.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The network could not be reached.
        case offline
        /// The provider did not answer in time.
        case timedOut = "timeout"
        /// The provider refused the API key.
        case invalidAPIKey = "invalid-api-key"
        /// No place matched.
        case placeNotFound = "not-found"
        /// The provider asked us to slow down, or the server's budget for it is spent.
        case rateLimited = "rate-limited"
        /// This client has caused its share of upstream calls for now (HTTP 429).
        case clientLimited = "too-many-requests"
        /// The provider failed (5xx or an unexpected status).
        case providerUnavailable = "provider"
        /// The provider's answer could not be read.
        case unreadableResponse = "unreadable"
        /// The user's input was invalid.
        case invalidInput = "invalid-input"
        /// Nothing cached and the network was not allowed.
        case notCached = "not-cached"
        /// The user named a saved place or a history entry that does not exist (for them).
        case noSuchItem = "no-such-item"
    }

    public let kind: Kind
    /// A one-line, log-safe explanation.
    public let message: String
    /// Seconds the provider asked us to wait, for `rateLimited`.
    public let retryAfter: TimeInterval?

    public init(_ kind: Kind, _ message: String, retryAfter: TimeInterval? = nil) {
        self.kind = kind
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }

    public static func offline(_ detail: String = "") -> BrollyError {
        BrollyError(.offline, "cannot reach the weather service; check the network connection" + suffix(detail))
    }
    public static func timedOut(_ detail: String = "") -> BrollyError {
        BrollyError(.timedOut, "the weather service did not answer in time" + suffix(detail))
    }
    public static func invalidAPIKey(_ provider: String) -> BrollyError {
        BrollyError(.invalidAPIKey, "\(provider) rejected the API key; check it is set correctly")
    }
    public static func placeNotFound(_ what: String) -> BrollyError {
        BrollyError(.placeNotFound, "no place found for \(what)")
    }
    public static func rateLimited(retryAfter: TimeInterval?) -> BrollyError {
        let wait = retryAfter.map { "; try again in \(Int($0.rounded(.up))) s" } ?? "; try again later"
        return BrollyError(.rateLimited, "the weather service is rate limiting requests" + wait, retryAfter: retryAfter)
    }
    public static func budgetSpent(_ provider: String, retryAfter: TimeInterval) -> BrollyError {
        BrollyError(
            .rateLimited,
            "the request budget for \(provider) is spent for now; try again in \(Int(retryAfter.rounded(.up))) s",
            retryAfter: retryAfter)
    }
    public static func clientLimited(retryAfter: TimeInterval) -> BrollyError {
        BrollyError(
            .clientLimited,
            "too many new lookups from this client; cached places still answer; try again in \(Int(retryAfter.rounded(.up))) s",
            retryAfter: retryAfter)
    }
    public static func providerUnavailable(_ detail: String = "") -> BrollyError {
        BrollyError(.providerUnavailable, "the weather service is unavailable" + suffix(detail))
    }
    public static func unreadableResponse(_ detail: String = "") -> BrollyError {
        BrollyError(.unreadableResponse, "the weather service sent data that could not be read" + suffix(detail))
    }
    public static func invalidInput(_ message: String) -> BrollyError {
        BrollyError(.invalidInput, message)
    }
    public static func notCached(_ what: String) -> BrollyError {
        BrollyError(.notCached, "no cached weather for \(what) and the network is off (--offline)")
    }

    public static func noSuchItem(_ message: String) -> BrollyError {
        BrollyError(.noSuchItem, message)
    }

    private static func suffix(_ detail: String) -> String { detail.isEmpty ? "" : " (\(detail))" }
}
