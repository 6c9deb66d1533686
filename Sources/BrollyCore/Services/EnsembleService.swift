import Foundation

/// The ensemble's spread around each 0.1° cell (Open-Meteo's Ensemble API): one call per cell per
/// 6 hours (the ensembles run every 6 to 12 hours), shared by every client and, through the shared
/// tier, every instance, within Open-Meteo's budget. It never throws and never hides the weather:
/// ranges that cannot be had are absent.
public final class EnsembleService: Sendable {
    public let source: OpenMeteoEnsemble
    let fetcher: CachedFetcher<EnsembleDays>

    public init(
        source: OpenMeteoEnsemble, cache: FileCache, freshFor: TimeInterval = 6 * 3600, keepsEntriesInMemory: Bool = false,
        memoryEntries: Int = 2048, clock: any WallClock
    ) {
        self.source = source
        // A failing cell is not asked again for five minutes, doubled up to an hour.
        fetcher = CachedFetcher(
            cache: cache, freshFor: freshFor, usableFor: 24 * 3600, failures: FailureMemory(base: 300, max: 3600),
            keepsEntriesInMemory: keepsEntriesInMemory, memoryEntries: memoryEntries, shared: true, clock: clock)
    }

    public func key(for c: Coordinate) -> String { AccuracyService.cellKey("ensemble-", c) }

    /// The members' spread by local day at `c`'s cell: cached 6 hours; else one call (concurrent
    /// callers share it), waited for at most `grace` after it started (it goes on and is cached);
    /// `offline`: the cache only. Nil when none can be had.
    public func spread(at c: Coordinate, offline: Bool = false, grace: TimeInterval? = nil) async -> EnsembleDays? {
        let cell = AccuracyService.cell(c)
        return await fetcher.answer(key(for: c), offline: offline, grace: grace, stamp: { $0.fetchedAt }) { [source] in
            try await source.members(at: cell)
        }?.value
    }
}
