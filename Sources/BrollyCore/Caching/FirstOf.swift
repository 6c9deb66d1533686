import Foundation

/// Waits for a task's value, or for a deadline, whichever comes first, without cancelling the task
/// (a slow helper's answer is still cached for the next request).
public enum FirstOf {
    /// The value, or nil when `seconds` pass first.
    public static func value<T: Sendable>(_ task: Task<T?, Never>, orNilAfter seconds: Double) async -> T? {
        await value(task, orNilBy: Date().addingTimeInterval(seconds)) ?? nil
    }

    /// The value, or nil when the task fails or `deadline` comes first.
    public static func value<T: Sendable, Failure: Error>(_ task: Task<T, Failure>, orNilBy deadline: Date) async -> T? {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return nil }
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Locked(false)
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if once.claim() { continuation.resume(returning: nil) }
            }
            Task {
                let value = try? await task.value
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
