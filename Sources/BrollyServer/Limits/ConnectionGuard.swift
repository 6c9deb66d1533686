import BrollyCore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import NIOCore

/// What keeps a slow or greedy client from holding the server's connections (issue 35's slowloris:
/// 1,100 half-sent requests from one address had the cached weather time out for everyone):
/// - each connection must send a whole request head within `idleTimeout` (Hummingbird's idle
///   timer runs from the connection's start and after each answer; bytes that never make a
///   request do not reset it);
/// - one address holds at most `perAddress` connections (trusted proxies excepted); more are
///   closed as soon as they open;
/// - all connections together stay below the process's open-files limit (raised to its hard
///   limit at start), so a flood queues in the listen backlog instead of exhausting descriptors.
final class ConnectionGuard: Sendable {
    let perAddress: Int
    let exempt: Set<String>
    private let open = Locked<[String: Int]>([:])
    /// Connections closed because their address had too many (for metrics and tests).
    let refused = Locked<Int>(0)

    init(perAddress: Int, exempt: Set<String>) {
        self.perAddress = perAddress
        self.exempt = exempt
    }

    /// Counts a connection from `address`; false when the address already holds `perAddress`.
    func opened(_ address: String) -> Bool {
        if exempt.contains(address) { return true }
        let ok = open.withLock { open in
            let n = open[address, default: 0]
            guard n < perAddress else { return false }
            open[address] = n + 1
            return true
        }
        if !ok { refused.withLock { $0 += 1 } }
        return ok
    }

    func closed(_ address: String) {
        if exempt.contains(address) { return }
        open.withLock { open in
            let n = open[address, default: 0] - 1
            open[address] = n > 0 ? n : nil
        }
    }

    var openConnections: Int { open.withLock { $0.values.reduce(0, +) } }

    /// The HTTP/1 server: the idle (request head) time-out and this guard on every connection.
    /// Plain HTTP/1.1; with `tls`, HTTPS: HTTP/2 for the clients that offer it (ALPN), HTTP/1.1 over
    /// TLS for the others. An HTTP/2 stream passes the per-address count as a connection does (its
    /// remote address is its connection's): the cap is then on the requests an address has open at once.
    func serverBuilder(idleTimeout: Double, tls: TLSConfiguration? = nil) -> HTTPServerBuilder {
        let milliseconds = Int64(idleTimeout * 1000)
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [PerAddressHandler(guard: self)], idleTimeout: .milliseconds(milliseconds))
        guard let tls else { return .http1(configuration: http1) }
        // The certificate and key were read and checked when the settings were made
        // (`ServerSettings.tls(certificate:key:)`); a failure here stops the server with its reason.
        return HTTPServerBuilder { responder in
            try HTTP2UpgradeChannel(
                tlsConfiguration: tls, configuration: .init(idleTimeout: .milliseconds(milliseconds), streamConfiguration: http1),
                responder: responder)
        }
    }

    /// The most connections the process may hold: its open-files limit less room for the database,
    /// the cache files and upstream calls.
    static func maxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 768 }
        return max(64, min(Int(clamping: limit.rlim_cur) - 256, 60_000))
    }

    /// Raises the soft open-files limit to the hard limit (the default 1,024 is a few hundred
    /// slow clients); returns the limit in force.
    @discardableResult
    static func raiseOpenFilesLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}

/// Counts its connection against its address in a `ConnectionGuard`, closing it when the address
/// has too many; everything read passes through untouched.
final class PerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let connectionGuard: ConnectionGuard
    var address: String?

    init(guard: ConnectionGuard) { connectionGuard = `guard` }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    func count(_ context: ChannelHandlerContext) {
        guard address == nil, let ip = context.channel.remoteAddress?.ipAddress else { return }
        if connectionGuard.opened(ip) {
            address = ip
        } else {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func release() {
        if let address { connectionGuard.closed(address) }
        address = nil
    }
}
