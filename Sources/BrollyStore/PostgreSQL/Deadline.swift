import BrollyCore
import Foundation

struct DeadlineExceeded: Error {}

enum Deadline {
    /// The operation's result, or `DeadlineExceeded` after `seconds` (unless `unless` was set by
    /// then: the limit no longer applies). The caller is answered at the deadline even if the
    /// operation does not stop at once (it is cancelled, and its result dropped).
    static func race<T: Sendable>(
        _ seconds: TimeInterval, unless flag: Locked<Bool>? = nil, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let once = Once<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set(continuation)
                let work = Task {
                    do { once.resume(.success(try await operation())) } catch { once.resume(.failure(error)) }
                }
                once.setWork(work)
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                    if flag?.current == true { return }
                    if once.resume(.failure(DeadlineExceeded())) { work.cancel() }
                }
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

        func cancel() {
            state.withLock { $0.work }?.cancel()
            resume(.failure(CancellationError()))
        }
    }
}
