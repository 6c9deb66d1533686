/// Every `code` a problem document can carry: the one list from which the server's answers and
/// the OpenAPI document's `Problem.code` enum both come (a test checks the document).
public enum ProblemCode: String, CaseIterable, Sendable {
    /// The request is malformed: a parameter, a body, a path with a control byte. `400`.
    case invalidInput = "invalid-input"
    /// No such place, saved place, history entry or subscription. `404`.
    case notFound = "not-found"
    /// No route has this path. `404`.
    case noRoute = "no-route"
    /// A route has this path, not this method (`Allow` lists those it has). `405`.
    case methodNotAllowed = "method-not-allowed"
    /// The upstream did not answer in time. `504`, `Retry-After`.
    case timeout
    /// The upstream cannot be reached, or nothing is cached offline. `502`/`503`, `Retry-After`.
    case offline
    /// The upstream's own limit or Brolly's budget for it. `503`, `Retry-After`.
    case rateLimited = "rate-limited"
    /// This client's allowance of upstream calls is spent. `429`, `Retry-After`.
    case tooManyRequests = "too-many-requests"
    /// The upstream answered something that could not be read. `502`.
    case unreadable
    /// The upstream failed or refused the server's key. `502`.
    case provider
    /// The database cannot be reached; nothing was written. `503`, `Retry-After`.
    case storeUnavailable = "store-unavailable"
    /// The request body is larger than the server accepts. `413`.
    case tooLarge = "too-large"
    /// A write from a page of another origin. `403`.
    case crossOrigin = "cross-origin"
    /// `/metrics` without its bearer token. `401`.
    case unauthorized
    /// `/metrics` from a client that is not on loopback. `403`.
    case forbidden
    /// Web Push without a VAPID key. `503`.
    case pushDisabled = "push-disabled"
    /// A failure inside Hummingbird that is not the client's. `5xx`.
    case `internal`
}
