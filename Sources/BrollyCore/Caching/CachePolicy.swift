import Foundation

/// The caching policy of seeds 000 and 002.
public struct CachePolicy: Sendable, Hashable {
    /// Younger than this: served without a call. Never less than 10 minutes for OpenWeatherMap.
    public var freshFor: TimeInterval
    /// Younger than this (but not fresh): refreshed with a short time-out, the cache as fallback.
    public var usableFor: TimeInterval

    public init(freshFor: TimeInterval = 600, usableFor: TimeInterval = 3600) {
        self.freshFor = freshFor
        self.usableFor = max(usableFor, freshFor)
    }

    /// The policy with the provider's minimum freshness applied.
    public func enforcing(_ provider: ProviderID) -> CachePolicy {
        CachePolicy(freshFor: max(freshFor, provider.minimumFreshness), usableFor: usableFor)
    }
}

/// How a caller wants the cache used.
public enum FetchMode: Sendable, Hashable {
    /// The policy: fresh → cache; stale → quick refresh, cache as fallback; old → fetch first.
    case normal
    /// Fetch now; on failure fall back to the cache marked stale.
    case refresh
    /// Never touch the network.
    case offline
    /// For servers: fresh → cache; stale → the cache at once and a refresh in the background.
    case staleWhileRevalidate
}
