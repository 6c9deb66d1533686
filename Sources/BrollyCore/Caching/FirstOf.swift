import Foundation

/// Waits for a task's value, or for a deadline on the injected clock, whichever comes first,
/// without cancelling the task (a slow helper's answer is still cached for the next request).
public enum FirstOf {
    /// The value, or nil when `seconds` of `clock`'s time pass first.
    public static func value<T: Sendable>(_ task: Task<T?, Never>, orNilAfter seconds: Double, on clock: any WallClock) async -> T? {
        await value(task, orNilBy: clock.now.addingTimeInterval(seconds), on: clock) ?? nil
    }

    /// The value, or nil when the task fails or `deadline` comes first on `clock`.
    public static func value<T: Sendable, Failure: Error>(
        _ task: Task<T, Failure>, orNilBy deadline: Date, on clock: any WallClock
    ) async -> T? {
        let seconds = deadline.timeIntervalSince(clock.now)
        guard seconds > 0 else { return nil }
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let once = Locked(false)
            let timer = Task {
                // Cancelled (the value came first): the timer must not answer.
                guard (try? await clock.sleep(seconds)) != nil else { return }
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
