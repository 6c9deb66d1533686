import Foundation

/// Waits for a task's value, or for a deadline, whichever comes first, without cancelling the task.
enum FirstOf {
    static func value<T: Sendable>(_ task: Task<T?, Never>, orNilAfter seconds: Double) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Once()
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if once.claim() { continuation.resume(returning: nil) }
            }
            Task {
                let value = await task.value
                if once.claim() {
                    // The timer is not left sleeping: under a flood of new places it would hold a
                    // task per request for the whole deadline.
                    timer.cancel()
                    continuation.resume(returning: value)
                }
            }
        }
    }
}

/// True for the first caller only.
final class Once: @unchecked Sendable {
    // @unchecked Sendable: `claimed` is only read or written while holding `lock`.
    private var claimed = false
    private let lock = NSLock()

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
