import Foundation

/// A cached value and when the provider's answer arrived.
public struct CacheEntry<Value: Sendable>: Sendable {
    public var value: Value
    public var receivedAt: Date

    public init(value: Value, receivedAt: Date) {
        self.value = value
        self.receivedAt = receivedAt
    }
}

/// FNV-1a, 64 bit: a small, dependency-free checksum for cache integrity and ETags.
public enum Checksum {
    public static func fnv1a64(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    public static func hex(_ data: Data) -> String { String(format: "%016llx", fnv1a64(data)) }
}

/// The data caching service: one JSON file per key under a directory, each holding the payload,
/// the time it was received and a checksum. Writes are atomic (a temporary file renamed into
/// place), so a reader never sees half a file; an entry whose checksum does not match is deleted
/// and treated as absent.
public struct FileCache: Sendable {
    public let directory: URL
    /// The tier shared with other processes (PostgreSQL, for several servers), behind this one.
    public let shared: (any SharedCacheTier)?
    /// When this process last asked the shared tier about a key.
    let sharedChecks: MemoryCache<Bool>?
    /// The cap on the directory's size, enforced as entries are written (nil: none but the janitor's).
    let size: SizeCap?
    /// The injected clock: how old a file is, against its modification time.
    public let clock: any WallClock

    /// The bytes this process believes the directory holds, against `maxBytes`: counted once from
    /// the files, then by each write; past the cap, the least recently written files go at once.
    final class SizeCap: Sendable {
        let maxBytes: Int
        let total = Locked<Int?>(nil)
        init(maxBytes: Int) { self.maxBytes = maxBytes }
    }

    public init(directory: URL, shared: (any SharedCacheTier)? = nil, maxBytes: Int? = nil, clock: any WallClock) {
        self.directory = directory
        self.clock = clock
        self.shared = shared
        sharedChecks = shared == nil ? nil : MemoryCache(capacity: 8192)
        size = maxBytes.map(SizeCap.init)
    }

    /// One cached answer on disk.
    struct Envelope: Codable {
        /// The envelope's version (1): an entry of another is removed, never misread.
        var format: Int
        /// The cache key it was stored under: a file holding another key's answer is removed.
        var key: String
        /// When the provider's answer arrived: its age, and so fresh, stale or old.
        var receivedAt: Date
        /// FNV-1a of `payload` (`Checksum`): a corrupted file is removed, not read as weather.
        var checksum: String
        var payload: Data
    }

    /// The coders of cached payloads (dates as seconds since 1970), also used by other stores of them.
    public static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .secondsSince1970
        return e
    }()
    public static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }()

    /// The file for `key`; keys are made file-name safe.
    public func fileURL(for key: String) -> URL {
        let safe = String(key.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        return directory.appendingPathComponent(safe + ".json")
    }

    /// Reads `key`, or nil when absent. A corrupted or unreadable entry is removed.
    public func read<Value: Codable & Sendable>(_ type: Value.Type, key: String) -> CacheEntry<Value>? {
        let url = fileURL(for: key)
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let envelope = try? Self.decoder.decode(Envelope.self, from: data), envelope.format == 1,
            envelope.key == key, Checksum.hex(envelope.payload) == envelope.checksum,
            let value = try? Self.decoder.decode(Value.self, from: envelope.payload)
        else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return CacheEntry(value: value, receivedAt: envelope.receivedAt)
    }

    /// Stores `value` under `key` with the time it was received.
    public func write<Value: Codable & Sendable>(_ value: Value, key: String, receivedAt: Date) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let payload = try Self.encoder.encode(value)
        let envelope = Envelope(format: 1, key: key, receivedAt: receivedAt, checksum: Checksum.hex(payload), payload: payload)
        // `.atomic` writes a temporary file in the same directory and renames it over the target.
        let bytes = try Self.encoder.encode(envelope)
        try bytes.write(to: fileURL(for: key), options: .atomic)
        enforceCap(adding: bytes.count)
    }

    /// Keeps the directory within `maxBytes` as it is written, not only when the janitor passes
    /// (a crowd of large answers filled 3.2 GB against a 256 MB cap between two sweeps).
    func enforceCap(adding bytes: Int) {
        guard let size else { return }
        let over = size.total.withLock { total -> Bool in
            guard let known = total else { return true }  // not counted yet: count now
            total = known + bytes
            return known + bytes > size.maxBytes
        }
        guard over else { return }
        let left = evict(maxBytes: size.maxBytes, now: clock.now).bytes
        size.total.withLock { $0 = left }
    }

    /// Keeps the directory bounded: removes entries not written for `maxAge`, then the least
    /// recently written ones until the files take at most 90% of `maxBytes`. Returns how many
    /// files were removed and the bytes left.
    @discardableResult
    public func evict(maxBytes: Int, maxAge: TimeInterval = 30 * 86_400, now: Date) -> (removed: Int, bytes: Int) {
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard
            let urls = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return (0, 0) }
        var files: [(url: URL, date: Date, size: Int)] = []
        var removed = 0
        for url in urls where url.pathExtension == "json" {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            let date = values.contentModificationDate ?? .distantPast
            if now.timeIntervalSince(date) > maxAge {
                if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
                continue
            }
            files.append((url, date, values.fileSize ?? 0))
        }
        var total = files.reduce(0) { $0 + $1.size }
        if total > maxBytes {
            let target = maxBytes / 10 * 9
            for file in files.sorted(by: { $0.date < $1.date }) where total > target {
                if (try? FileManager.default.removeItem(at: file.url)) != nil {
                    removed += 1
                    total -= file.size
                }
            }
        }
        return (removed, total)
    }
}
