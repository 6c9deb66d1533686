import BrollyCore
import Foundation

struct DeadlineExceeded: Error {}

enum Deadline {
    /// The operation's result, or `DeadlineExceeded` after `seconds` of `clock`'s time (unless
    /// `unless` was set by then: the limit no longer applies). The caller is answered at the
    /// deadline even if the operation does not stop at once (it is cancelled, and its result
    /// dropped).
    static func race<T: Sendable>(
        _ seconds: TimeInterval, on clock: any WallClock, unless flag: Locked<Bool>? = nil,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = Once<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
                let timer = Task {
                    // Cancelled: the operation came first.
                    guard (try? await clock.sleep(seconds)) != nil else { return }
                    if flag?.current == true { return }
                    if once.resume(.failure(DeadlineExceeded())) { once.cancelWork() }
                }
                let work = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await operation()) } catch { result = .failure(error) }
                    // The timer is not left waiting out the limit for every query.
                    timer.cancel()
                    once.resume(result)
                }
                once.setWork(work)
            }
        } onCancel: {
            once.cancel()
        }
    }

    /// A continuation resumed once, by whichever of the operation, the timer and a cancellation
    /// comes first.
    struct Once<T: Sendable>: Sendable {
        struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var work: Task<Void, Never>?
            var done = false
        }
        private let state = Locked(State())

        func set(_ c: CheckedContinuation<T, any Error>) {
            state.withLock { $0.continuation = c }
        }

        func setWork(_ task: Task<Void, Never>) {
            let cancelled = state.withLock { s in
                s.work = task
                return s.done
            }
            if cancelled { task.cancel() }
        }

        @discardableResult
        func resume(_ result: Result<T, any Error>) -> Bool {
            let continuation = state.withLock { s -> CheckedContinuation<T, any Error>? in
                guard !s.done, let c = s.continuation else { return nil }
                s.done = true
                s.continuation = nil
                return c
            }
            continuation?.resume(with: result)
            return continuation != nil
        }

        func cancelWork() { state.withLock { $0.work }?.cancel() }

        func cancel() {
            cancelWork()
            resume(.failure(CancellationError()))
        }
    }
}
