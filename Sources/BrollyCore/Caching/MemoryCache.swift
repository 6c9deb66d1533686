import Foundation

/// A least-recently-used map with a fixed capacity, for decoded entries in front of a
/// `FileCache` (so a long-running server does not read and decode the same file for every
/// request) and for other per-key memos. The file stays the source of truth between processes.
/// Past its capacity the least recently used entry is dropped, so memory stays bounded whatever
/// the number of distinct keys.
public final class MemoryCache<Value: Sendable>: Sendable {
    @usableFromInline let lru: Locked<LRU<Value>>
    /// The most entries kept.
    public let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        lru = Locked(LRU(capacity: max(1, capacity)))
    }

    public var count: Int { lru.withLock { $0.index.count } }

    /// Inlinable, so a client module specializes it for its value (a hit is on the server's hot path).
    @inlinable public func get(_ key: String) -> CacheEntry<Value>? { lru.withLock { $0.get(key) } }

    public func set(_ key: String, _ entry: CacheEntry<Value>) { lru.withLock { $0.set(key, entry) } }

    public func remove(_ key: String) { lru.withLock { $0.remove(key) } }
}

/// The least-recently-used list itself: nodes in one array, linked by index, with a map from key
/// to slot. Not thread-safe on its own; `MemoryCache` keeps it under a lock.
@usableFromInline struct LRU<Value: Sendable> {
    @usableFromInline struct Node {
        @usableFromInline var key: String
        @usableFromInline var entry: CacheEntry<Value>
        @usableFromInline var newer: Int
        @usableFromInline var older: Int
    }
    @usableFromInline var index: [String: Int] = [:]
    @usableFromInline var nodes: [Node] = []
    /// Most recently used; -1 when empty.
    @usableFromInline var head = -1
    /// Least recently used; -1 when empty.
    @usableFromInline var tail = -1
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    @inlinable mutating func get(_ key: String) -> CacheEntry<Value>? {
        guard let i = index[key] else { return nil }
        moveToFront(i)
        return nodes[i].entry
    }

    mutating func set(_ key: String, _ entry: CacheEntry<Value>) {
        if let i = index[key] {
            nodes[i].entry = entry
            moveToFront(i)
            return
        }
        let i: Int
        if nodes.count < capacity {
            i = nodes.count
            nodes.append(Node(key: key, entry: entry, newer: -1, older: -1))
        } else {
            // Reuse the least recently used slot.
            i = tail
            unlink(i)
            index[nodes[i].key] = nil
            nodes[i] = Node(key: key, entry: entry, newer: -1, older: -1)
        }
        index[key] = i
        linkFront(i)
    }

    mutating func remove(_ key: String) {
        guard let i = index.removeValue(forKey: key) else { return }
        unlink(i)
        // Keep the slot array dense: move the last node into the freed slot.
        let last = nodes.count - 1
        if i != last {
            let moved = nodes[last]
            unlink(last)
            nodes[i] = moved
            nodes[i].newer = -1
            nodes[i].older = -1
            index[moved.key] = i
            linkFront(i)
        }
        nodes.removeLast()
    }

    @inlinable mutating func unlink(_ i: Int) {
        let (newer, older) = (nodes[i].newer, nodes[i].older)
        if newer >= 0 { nodes[newer].older = older } else { head = older }
        if older >= 0 { nodes[older].newer = newer } else { tail = newer }
        nodes[i].newer = -1
        nodes[i].older = -1
    }

    @inlinable mutating func linkFront(_ i: Int) {
        nodes[i].older = head
        nodes[i].newer = -1
        if head >= 0 { nodes[head].newer = i }
        head = i
        if tail < 0 { tail = i }
    }

    @inlinable mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        linkFront(i)
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
