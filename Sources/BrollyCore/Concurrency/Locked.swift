import Foundation

/// A value guarded by a lock: the one lock primitive of the package. (Swift 6's
/// `Synchronization.Mutex` needs iOS 18 / macOS 15, above this package's platforms.)
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, while holding `lock`.
    // `@usableFromInline` (not private) so that `withLock` is inlined and specialized in the modules
    // that call it: the memos on the server's hot path are read through it on every request.
    @usableFromInline var value: Value
    @usableFromInline let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value while holding the lock.
    @inlinable @discardableResult
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

extension Locked where Value == Bool {
    /// True for the first caller only.
    public func claim() -> Bool {
        withLock { claimed in
            if claimed { return false }
            claimed = true
            return true
        }
    }
}
