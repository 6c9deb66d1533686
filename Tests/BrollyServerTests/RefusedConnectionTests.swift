import BrollyCore
import BrollyHTTP
import Foundation
import Testing

/// A helper whose host refuses connections costs nothing to wait for: the live transport fails the
/// request as soon as the connection is refused, instead of AsyncHTTPClient's retries with back-off
/// until the request's time-out (the aux-down bench row had a p99 of 0.9 s each time the dead air
/// quality and warning hosts were tried again: every request waited out the helpers' 1 s grace).
@Suite struct RefusedConnectionTests {
    @Test func aRefusedConnectionFailsAtOnceNotAtItsTimeOut() async throws {
        // A port nothing listens on: bound, then closed.
        let port = FreePort.closed()
        // Connect and request time-outs of 60 s: with AsyncHTTPClient's retries the request would
        // fail only when they ran out; without, at once. The bound is half of that, not a speed: in
        // the whole suite, run in parallel, this task has waited up to 11 s for a thread.
        let transport = AsyncHTTPTransport(connectTimeout: 60)
        defer { Task { await transport.shutdown() } }
        for _ in 0..<3 {
            let started = Date()
            var failure: (any Error)?
            do {
                _ = try await transport.send(
                    BrollyCore.HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/air-quality")!, headers: [:], timeout: 60))
            } catch { failure = error }
            let waited = Date().timeIntervalSince(started)
            guard case .cannotConnect = failure as? TransportError else {
                Issue.record("expected cannotConnect, got \(String(describing: failure))")
                return
            }
            #expect(waited < 30, "a refused connection took \(waited) s to fail")
        }
    }
}

/// A free TCP port on 127.0.0.1 with nothing listening on it.
enum FreePort {
    static func closed() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
