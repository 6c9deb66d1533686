import Foundation

/// A small in-process map of decoded entries in front of a `FileCache`, so that a long-running
/// server does not read and decode the same file for every request. The file stays the source of
/// truth between processes.
public final class MemoryCache<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only read or written while holding `lock`.
    private var entries: [String: CacheEntry<Value>] = [:]
    private let lock = NSLock()
    /// The most entries kept; past that the map starts afresh.
    public let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    public func get(_ key: String) -> CacheEntry<Value>? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    public func set(_ key: String, _ entry: CacheEntry<Value>) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        entries[key] = entry
    }

}

extension FileCache {
    /// Reads through a memory cache: the decoded entry when this process has it, else the file.
    func read<Value: Codable & Sendable>(_ type: Value.Type, key: String, memory: MemoryCache<Value>?) -> CacheEntry<Value>? {
        if let hit = memory?.get(key) { return hit }
        guard let entry = read(type, key: key) else { return nil }
        memory?.set(key, entry)
        return entry
    }

    /// Writes the file and the memory cache.
    func write<Value: Codable & Sendable>(_ value: Value, key: String, receivedAt: Date, memory: MemoryCache<Value>?) throws {
        memory?.set(key, CacheEntry(value: value, receivedAt: receivedAt))
        try write(value, key: key, receivedAt: receivedAt)
    }
}
