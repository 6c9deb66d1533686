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
public final class HistoryWriter: @unchecked Sendable {
    // @unchecked Sendable: `pending`, `order`, `patches` and `written` are only read or written
    // while holding `lock`; the store is Sendable.
    let store: any DataStore
    /// Seconds between writes.
    public let interval: TimeInterval
    /// The most lookups buffered; past that the oldest are dropped (and reported), so a database
    /// that is gone cannot make the buffer grow without bound.
    public let capacity: Int
    let failed: @Sendable (any Error) -> Void
    private let lock = NSLock()
    /// Buffered lookups in the order they were made.
    private var pending: [LookupRecord] = []
    /// The index in `pending` of the latest lookup of each device and of each device and place.
    private var latestOfDevice: [String: Int] = [:]
    private var latestOfPlace: [String: Int] = [:]
    private var patches: [AddressPatch] = []
    private var written = 0

    public init(
        store: any DataStore, interval: TimeInterval = 1, capacity: Int = 50_000,
        failed: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.store = store
        self.interval = interval
        self.capacity = capacity
        self.failed = failed
    }

    /// Rows written so far (for metrics).
    public var rowsWritten: Int {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    /// Lookups waiting to be written.
    public var buffered: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count
    }

    static func key(_ device: String, _ c: Coordinate) -> String { device + "|" + c.cacheKey }

    /// Buffers one lookup. A repeat of the device's latest buffered lookup (same place) replaces
    /// it, keeping its address. Returns true when the entry still needs a street address.
    @discardableResult
    public func record(_ lookup: LookupRecord) -> Bool {
        let key = Self.key(lookup.device, lookup.coordinate)
        lock.lock()
        if let i = latestOfDevice[lookup.device], latestOfPlace[key] == i,
            StoreRules.repeats(lookup, coordinate: pending[i].coordinate, createdAt: pending[i].createdAt)
        {
            let address = lookup.address ?? pending[i].address
            pending[i] = lookup
            pending[i].address = address
            lock.unlock()
            return address == nil
        }
        guard pending.count < capacity else {
            lock.unlock()
            failed(BrollyError(.providerUnavailable, "the history buffer is full; a lookup was not recorded"))
            return false
        }
        pending.append(lookup)
        latestOfDevice[lookup.device] = pending.count - 1
        latestOfPlace[key] = pending.count - 1
        lock.unlock()
        return lookup.address == nil
    }

    /// Adds the street address to the device's latest lookup at `coordinate` made since `since`
    /// (in the buffer or already written).
    public func addAddress(_ address: Address, device: String, coordinate: Coordinate, since: Date) {
        let key = Self.key(device, coordinate)
        lock.lock()
        defer { lock.unlock() }
        if let i = latestOfPlace[key] {
            pending[i].address = address
        } else if patches.count < capacity {
            patches.append(AddressPatch(device: device, coordinate: coordinate, since: since, address: address))
        }
    }

    /// The flush being written, so that flushes run one after another: a flush returns only once
    /// everything buffered before it began is written (or put back).
    private var tail: Task<Int, Never>?

    /// Writes everything buffered in one transaction. Lookups that could not be written (the
    /// database is unreachable) are reported and put back (up to the capacity) for the next
    /// attempt.
    @discardableResult
    public func flush() async -> Int {
        let task = lock.withLock {
            let previous = tail
            let task = Task { [self] in
                _ = await previous?.value
                return await writeBuffered()
            }
            tail = task
            return task
        }
        return await task.value
    }

    private func writeBuffered() async -> Int {
        let (batch, batchPatches) = takeBuffered()
        guard !batch.isEmpty || !batchPatches.isEmpty else { return 0 }
        do {
            try await store.recordLookups(batch, addresses: batchPatches)
            lock.withLock { written += batch.count }
            return batch.count
        } catch {
            failed(error)
            putBack(batch, batchPatches)
            return 0
        }
    }

    private func takeBuffered() -> ([LookupRecord], [AddressPatch]) {
        lock.withLock {
            let taken = (pending, patches)
            pending.removeAll(keepingCapacity: true)
            latestOfDevice.removeAll(keepingCapacity: true)
            latestOfPlace.removeAll(keepingCapacity: true)
            patches.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Puts a batch that could not be written back in front of what arrived meanwhile, for the
    /// next attempt.
    private func putBack(_ batch: [LookupRecord], _ batchPatches: [AddressPatch]) {
        lock.withLock {
            let newer = pending
            pending = Array((batch + newer).suffix(capacity))
            latestOfDevice.removeAll(keepingCapacity: true)
            latestOfPlace.removeAll(keepingCapacity: true)
            for (i, lookup) in pending.enumerated() {
                latestOfDevice[lookup.device] = i
                latestOfPlace[Self.key(lookup.device, lookup.coordinate)] = i
            }
            patches = Array((batchPatches + patches).suffix(capacity))
        }
    }

    /// Writes every `interval` until cancelled, then writes what is left.
    public func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            await flush()
        }
        await flush()
    }
}
