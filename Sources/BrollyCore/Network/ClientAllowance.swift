import Foundation

/// Who an upstream call is made for, so that one client cannot spend everybody's budget. The
/// server sets one per request (a task-local value, inherited by the tasks the request starts);
/// the CLI sets none.
public struct ClientAllowance: Sendable {
    /// Takes one of the client's calls; returns nil when allowed, else the seconds to wait.
    public let take: @Sendable () -> TimeInterval?
    /// The client's allowance for what comes with the weather (air quality, warnings, names and
    /// street addresses), kept apart so that it never uses up the weather's; nil: the same as `take`.
    public let takeAuxiliary: (@Sendable () -> TimeInterval?)?
    /// The client's name in the cluster's shared buckets (`d:<device>`, `i:<address>`) and its
    /// allowance there; nil: the process's own buckets only.
    public let sharedKey: (@Sendable () -> String)?
    public let sharedLimit: RateLimit?
    /// True for the allowance `auxiliary` made (asking it for `auxiliary` again gives itself).
    public let isAuxiliary: Bool
    /// Set by `once()`: the first call made under it is charged, the others are not.
    let charged: Locked<Bool>?
    /// The client's allowance for each helper that has its own (news, accuracy, radar tiles); nil:
    /// the same as this one.
    public var lanes: (@Sendable (Lane) -> ClientAllowance)?

    /// The helpers that spend an allowance of their own, never the weather's: what a person asks
    /// for beside the forecast (a page of news, a look at accuracy, a map full of radar tiles).
    public enum Lane: String, Sendable, CaseIterable {
        case news, accuracy
        case radarTiles = "tiles"
        /// OpenWeatherMap's city ids named with the server's key (its 60 a minute are everyone's).
        case cityLookups = "cities"
    }

    /// The client's allowance for `lane`: a helper's calls and everything they name or look up.
    public func lane(_ lane: Lane) -> ClientAllowance {
        guard let made = lanes?(lane) else { return self }
        return ClientAllowance(
            take: made.take, auxiliary: nil, sharedKey: made.sharedKey, sharedLimit: made.sharedLimit, isAuxiliary: true, charged: nil)
    }

    /// Runs `body` with the client's allowance for `lane`.
    public static func inLane<T>(_ lane: Lane, _ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(current?.lane(lane), operation: body)
    }

    public init(
        take: @escaping @Sendable () -> TimeInterval?, auxiliary: (@Sendable () -> TimeInterval?)? = nil,
        sharedKey: (@Sendable () -> String)? = nil, sharedLimit: RateLimit? = nil
    ) {
        self.init(take: take, auxiliary: auxiliary, sharedKey: sharedKey, sharedLimit: sharedLimit, isAuxiliary: false, charged: nil)
    }

    init(
        take: @escaping @Sendable () -> TimeInterval?, auxiliary: (@Sendable () -> TimeInterval?)?, sharedKey: (@Sendable () -> String)?,
        sharedLimit: RateLimit?, isAuxiliary: Bool, charged: Locked<Bool>?
    ) {
        self.take = take
        self.takeAuxiliary = auxiliary
        self.sharedKey = sharedKey
        self.sharedLimit = sharedLimit
        self.isAuxiliary = isAuxiliary
        self.charged = charged
    }

    /// The allowance for auxiliary lookups.
    public var auxiliary: ClientAllowance {
        if isAuxiliary { return self }
        var auxiliaryKey: (@Sendable () -> String)?
        if let key = sharedKey { auxiliaryKey = { "x" + key() } }
        var made = ClientAllowance(
            take: takeAuxiliary ?? take, auxiliary: nil, sharedKey: auxiliaryKey, sharedLimit: sharedLimit, isAuxiliary: true,
            charged: charged)
        made.lanes = lanes
        return made
    }

    /// This allowance for one operation that may make several calls (naming a place: the
    /// provider's reverse geocoding, then the address service and its fallback): only the first
    /// call that is let through is charged. Already such an allowance: itself.
    public func once() -> ClientAllowance {
        if charged != nil { return self }
        var made = ClientAllowance(
            take: take, auxiliary: takeAuxiliary, sharedKey: sharedKey, sharedLimit: sharedLimit, isAuxiliary: isAuxiliary,
            charged: Locked(false))
        made.lanes = lanes
        return made
    }

    /// True when a call made now must be charged (not yet charged for this operation).
    public var needsCharge: Bool { charged.map { !$0.current } ?? true }

    /// Notes that this operation's call was charged.
    public func markCharged() { charged?.withLock { $0 = true } }

    /// Runs `body` with the client's auxiliary allowance, charged once for the whole of it: what
    /// helpers (naming, addresses, air quality, warnings) do for a request.
    public static func auxiliaryOnce<T>(_ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(current?.auxiliary.once(), operation: body)
    }

    @TaskLocal public static var current: ClientAllowance?
}

/// The latest moment by which a whole operation (retries included) must be done: the CLI's
/// `--timeout`. Task-local, so every upstream call of a command shares it.
public enum RequestDeadline {
    @TaskLocal public static var current: Date?
}
