import CBrollyHeap
import ServiceLifecycle

/// Gives memory the server freed back to the system after a burst of requests.
///
/// glibc's allocator keeps what is freed in its arenas for the next allocation; by itself it
/// returns only the top of each heap. A burst of requests — each with its task frames, buffers and
/// decoded answers — leaves many megabytes freed but resident between what is still held: after a
/// flood of 100,000 requests over 20,000 places, `malloc_trim` took the server from 159 MB to
/// 149 MB. Every `interval`, when the resident memory that no allocation holds has grown
/// `threshold` beyond what it was after the last trim, the free pages are returned
/// (`malloc_trim(0)`: the pages, not the heap's layout; the next allocation takes one back at the
/// cost of a page fault). Checking reads `/proc/self/statm` and `mallinfo2`; a quiet server trims
/// nothing. Elsewhere than glibc on Linux, it does nothing (`CBrollyHeap` reports nothing idle).
struct HeapTrimmer: Service {
    var interval: Duration = .seconds(1)
    var threshold = 4 << 20 as Int

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var idleAfterTrim = brolly_heap_idle_resident_bytes()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let idle = brolly_heap_idle_resident_bytes()
                if idle > idleAfterTrim + threshold {
                    brolly_heap_trim()
                    idleAfterTrim = brolly_heap_idle_resident_bytes()
                } else {
                    idleAfterTrim = min(idleAfterTrim, idle)
                }
            }
        }
    }
}
