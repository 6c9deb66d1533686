import BrollyCore
import BrollyStore
import Foundation

/// Writes the server's lookups to the history in batches, so that recording a lookup never holds
/// a request up and many lookups cost one transaction.
///
/// A lookup is taken at once, with the place's name, into a buffer that is written every
/// `interval` (one second) in one transaction; the street address, when it arrives later, is
/// added to the same entry without holding it back. Repeats by one device for one place within a
/// batch are coalesced into one entry by the store's own rule (`StoreRules.repeats`), which the
/// store applies again across batches. `flush()` writes everything buffered: the server calls it on
/// SIGTERM, and before any history is read, so a device always reads its own lookups. A process
/// killed with SIGKILL loses at most the lookups of the last `interval`.
public final class HistoryWriter: Sendable {
    let store: any DataStore
    /// Seconds between writes.
    public let interval: TimeInterval
    /// The most lookups buffered; past that the oldest are dropped (and reported), so a database
    /// that is gone cannot make the buffer grow without bound.
    public let capacity: Int
    let failed: @Sendable (any Error) -> Void

    /// What is buffered, and the flush being written.
    struct Buffer {
        /// Buffered lookups in the order they were made.
        var pending: [LookupRecord] = []
        /// The index in `pending` of the latest lookup of each device and of each device and place.
        var latestOfDevice: [String: Int] = [:]
        var latestOfPlace: [String: Int] = [:]
        var patches: [AddressPatch] = []
        var written = 0
        /// The flush being written, so that flushes run one after another: a flush returns only
        /// once everything buffered before it began is written (or put back).
        var tail: Task<Int, Never>?

        mutating func index() {
            latestOfDevice.removeAll(keepingCapacity: true)
            latestOfPlace.removeAll(keepingCapacity: true)
            for (i, lookup) in pending.enumerated() {
                latestOfDevice[lookup.device] = i
                latestOfPlace[HistoryWriter.key(lookup.device, lookup.coordinate)] = i
            }
        }
    }
    private let buffer = Locked(Buffer())

    /// The injected clock the writer waits `interval` on.
    let clock: any WallClock

    public init(
        store: any DataStore, interval: TimeInterval = 1, capacity: Int = 50_000, clock: any WallClock,
        failed: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.store = store
        self.clock = clock
        self.interval = interval
        self.capacity = capacity
        self.failed = failed
    }

    /// Rows written so far (for metrics).
    public var rowsWritten: Int { buffer.withLock { $0.written } }

    /// Lookups waiting to be written.
    public var buffered: Int { buffer.withLock { $0.pending.count } }

    static func key(_ device: String, _ c: Coordinate) -> String { device + "|" + c.cacheKey }

    /// Buffers one lookup. A repeat of the device's latest buffered lookup (same place, by the
    /// store's own rule) replaces it, keeping its address. Returns true when the entry still needs
    /// a street address.
    @discardableResult
    public func record(_ lookup: LookupRecord) -> Bool {
        let key = Self.key(lookup.device, lookup.coordinate)
        let outcome: Bool? = buffer.withLock { b in
            // The same place (the key is the device and the place's cache key) within the window.
            if let i = b.latestOfDevice[lookup.device], b.latestOfPlace[key] == i,
                StoreRules.isWithinRepeatWindow(lookup.createdAt, since: b.pending[i].createdAt)
            {
                let address = lookup.address ?? b.pending[i].address
                b.pending[i] = lookup
                b.pending[i].address = address
                return address == nil
            }
            guard b.pending.count < capacity else { return nil }
            b.pending.append(lookup)
            b.latestOfDevice[lookup.device] = b.pending.count - 1
            b.latestOfPlace[key] = b.pending.count - 1
            return lookup.address == nil
        }
        guard let outcome else {
            failed(BrollyError(.providerUnavailable, "the history buffer is full; a lookup was not recorded"))
            return false
        }
        return outcome
    }

    /// Adds the street address to the device's latest lookup at `coordinate` made since `since`
    /// (in the buffer or already written).
    public func addAddress(_ address: Address, device: String, coordinate: Coordinate, since: Date) {
        let key = Self.key(device, coordinate)
        buffer.withLock { b in
            if let i = b.latestOfPlace[key] {
                b.pending[i].address = address
            } else if b.patches.count < capacity {
                b.patches.append(AddressPatch(device: device, coordinate: coordinate, since: since, address: address))
            }
        }
    }

    /// Writes everything buffered in one transaction. Lookups that could not be written (the
    /// database is unreachable) are reported and put back (up to the capacity) for the next
    /// attempt.
    @discardableResult
    public func flush() async -> Int {
        let task = buffer.withLock { b in
            let previous = b.tail
            let task = Task { [self] in
                _ = await previous?.value
                return await writeBuffered()
            }
            b.tail = task
            return task
        }
        return await task.value
    }

    private func writeBuffered() async -> Int {
        let (batch, batchPatches) = takeBuffered()
        guard !batch.isEmpty || !batchPatches.isEmpty else { return 0 }
        do {
            try await store.recordLookups(batch, addresses: batchPatches)
            buffer.withLock { $0.written += batch.count }
            return batch.count
        } catch {
            failed(error)
            putBack(batch, batchPatches)
            return 0
        }
    }

    private func takeBuffered() -> ([LookupRecord], [AddressPatch]) {
        buffer.withLock { b in
            let taken = (b.pending, b.patches)
            b.pending.removeAll(keepingCapacity: true)
            b.latestOfDevice.removeAll(keepingCapacity: true)
            b.latestOfPlace.removeAll(keepingCapacity: true)
            b.patches.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Puts a batch that could not be written back in front of what arrived meanwhile, for the
    /// next attempt.
    private func putBack(_ batch: [LookupRecord], _ batchPatches: [AddressPatch]) {
        buffer.withLock { b in
            b.pending = Array((batch + b.pending).suffix(capacity))
            b.index()
            b.patches = Array((batchPatches + b.patches).suffix(capacity))
        }
    }

    /// Writes every `interval` until cancelled, then writes what is left.
    public func run() async {
        while !Task.isCancelled {
            try? await clock.sleep(interval)
            await flush()
        }
        await flush()
    }
}
