import BrollyCore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

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
    /// Seconds a connection (or an HTTP/2 stream) may stay unwritable — its answer waiting on a
    /// client that reads none of it — before it is closed.
    let writeTimeout: Double
    private let open = Locked<[String: Int]>([:])
    /// Connections closed because their address had too many (for metrics and tests).
    let refused = Locked<Int>(0)

    init(perAddress: Int, exempt: Set<String>, writeTimeout: Double = 30) {
        self.perAddress = perAddress
        self.exempt = exempt
        self.writeTimeout = writeTimeout
    }

    /// Counts a connection from `ip` (under its /64 when IPv6); false when that already holds `perAddress`.
    func opened(_ ip: String) -> Bool {
        if exempt.contains(ip) { return true }
        let address = ClientAddress.limitKey(ip)
        let ok = open.withLock { open in
            let n = open[address, default: 0]
            guard n < perAddress else { return false }
            open[address] = n + 1
            return true
        }
        if !ok { refused.withLock { $0 += 1 } }
        return ok
    }

    func closed(_ ip: String) {
        if exempt.contains(ip) { return }
        let address = ClientAddress.limitKey(ip)
        open.withLock { open in
            let n = open[address, default: 0] - 1
            open[address] = n > 0 ? n : nil
        }
    }

    var openConnections: Int { open.withLock { $0.values.reduce(0, +) } }

    /// The HTTP/1 server: the idle (request head) time-out and this guard on every connection.
    /// Plain HTTP/1.1; with `tls`, HTTPS: HTTP/2 for the clients that offer it (ALPN), HTTP/1.1 over
    /// TLS for the others.
    ///
    /// Over TLS the connection is counted at accept, before the TLS handler sees a byte, and must
    /// finish its handshake within `idleTimeout` (issue 52: 900 connections from one address that
    /// never finished the handshake were all held past +130 s and another address's cached weather
    /// got no answer; nothing counted or timed a connection until ALPN had chosen HTTP/1 or HTTP/2).
    /// An HTTP/2 connection is one of its address's connections, and each of its streams counts too
    /// (the cap is then on the requests an address has open at once); an idle HTTP/2 connection is
    /// sent GOAWAY after `idleTimeout` and closed `gracefulClose` later whatever the client does.
    func serverBuilder(idleTimeout: Double, tls: TLSConfiguration? = nil, gracefulClose: Double = 10) -> HTTPServerBuilder {
        let milliseconds = Int64(idleTimeout * 1000)
        guard let tls else {
            let http1 = HTTP1Channel.Configuration(
                additionalChannelHandlers: [PerAddressHandler(guard: self)], idleTimeout: .milliseconds(milliseconds))
            // Hummingbird's HTTP/1.1 pipeline with Brolly's codec (`BrollyHTTP1Channel`).
            return HTTPServerBuilder { responder in BrollyHTTP1Channel(responder: responder, configuration: http1) }
        }
        // The connection is counted by `AdmittedTLSChannel`; a stream's handler counts only HTTP/2
        // streams (a channel with a parent), not HTTP/1 over TLS a second time.
        let streams = HTTP1Channel.Configuration(
            additionalChannelHandlers: [PerAddressHandler(guard: self, streamsOnly: true)], idleTimeout: .milliseconds(milliseconds))
        let http2 = HTTP2ChannelConfiguration(
            idleTimeout: .milliseconds(milliseconds), gracefulCloseTimeout: .milliseconds(Int64(gracefulClose * 1000)),
            streamConfiguration: streams)
        // The certificate and key were read and checked when the settings were made
        // (`ServerSettings.tls(certificate:key:)`); a failure here stops the server with its reason.
        return HTTPServerBuilder { responder in
            AdmittedTLSChannel(
                connectionGuard: self, handshakeTimeout: .milliseconds(milliseconds),
                gracefulClose: .milliseconds(Int64(gracefulClose * 1000)),
                inner: try HTTP2UpgradeChannel(tlsConfiguration: tls, configuration: http2, responder: responder))
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
/// has too many; and closes its channel when it has stayed unwritable for the guard's
/// `writeTimeout` — answers a client never reads (HTTP/1.1 requests pipelined and never read, an
/// HTTP/2 stream whose data is never taken) were held indefinitely (issue 52: 6 of 64 pipelining
/// connections still held at 130 s). Everything read passes through untouched.
final class PerAddressHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let connectionGuard: ConnectionGuard
    /// Counts only HTTP/2 streams (channels with a parent connection), for a pipeline whose
    /// connection is already counted at accept (`AdmittedTLSChannel`).
    let streamsOnly: Bool
    var address: String?

    init(guard: ConnectionGuard, streamsOnly: Bool = false) {
        connectionGuard = `guard`
        self.streamsOnly = streamsOnly
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { count(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        count(context)
        context.fireChannelActive()
    }

    func count(_ context: ChannelHandlerContext) {
        guard address == nil, !streamsOnly || context.channel.parent != nil,
            let ip = context.channel.remoteAddress.flatMap(ClientAddress.text(of:))
        else { return }
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
        stalled?.cancel()
        stalled = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
        stalled?.cancel()
        stalled = nil
    }

    /// The close scheduled while the channel is unwritable.
    var stalled: Scheduled<Void>?

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stalled?.cancel()
            stalled = nil
        } else if stalled == nil {
            let channel = context.channel
            stalled = context.eventLoop.scheduleTask(in: .milliseconds(Int64(connectionGuard.writeTimeout * 1000))) {
                channel.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func release() {
        if let address { connectionGuard.closed(address) }
        address = nil
    }
}

/// The TLS port's connection before anything of TLS runs: counted against its address at accept
/// (closed at once when the address holds its cap), and closed when its handshake has not finished
/// within `handshakeTimeout`; then Hummingbird's HTTP/2-or-HTTP/1 channel as it is.
struct AdmittedTLSChannel: ServerChildChannel {
    typealias Value = HTTP2UpgradeChannel.Value
    let connectionGuard: ConnectionGuard
    let handshakeTimeout: TimeAmount
    let gracefulClose: TimeAmount
    let inner: HTTP2UpgradeChannel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(PerAddressHandler(guard: connectionGuard), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let value = inner.setup(channel: channel, logger: logger)
        do {
            // Right after the TLS handler: it sees the handshake's end (a user event) and then leaves.
            let tls = try channel.pipeline.syncOperations.handler(type: NIOSSLServerHandler.self)
            try channel.pipeline.syncOperations.addHandler(
                HandshakeDeadline(timeout: handshakeTimeout, gracefulClose: gracefulClose), position: .after(tls))
        } catch {
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(error)
        }
        return value
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Closes its connection when the TLS handshake has not completed within `timeout`; removes itself
/// once it has, leaving a `GoAwayDeadline` on an HTTP/2 connection.
final class HandshakeDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let timeout: TimeAmount
    let gracefulClose: TimeAmount
    var timer: Scheduled<Void>?

    init(timeout: TimeAmount, gracefulClose: TimeAmount) {
        self.timeout = timeout
        self.gracefulClose = gracefulClose
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent {
            timer?.cancel()
            timer = nil
            context.fireUserInboundEventTriggered(event)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            // ALPN has now set up HTTP/1.1 or HTTP/2 (on this loop, before the next task runs).
            let channel = context.channel
            let gracefulClose = gracefulClose
            channel.eventLoop.execute {
                guard let http2 = try? channel.pipeline.syncOperations.handler(type: NIOHTTP2Handler.self) else { return }
                try? channel.pipeline.syncOperations.addHandler(GoAwayDeadline(gracefulClose: gracefulClose), position: .after(http2))
            }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

/// Closes an HTTP/2 connection `gracefulClose` after the server sent it GOAWAY. Hummingbird's
/// connection manager sends GOAWAY and a PING when the connection has been idle, and starts its own
/// graceful-close timer only when the PING is acknowledged: a client that never answers kept the
/// connection open indefinitely (issue 52: still open at 70 s). Sits between NIOHTTP2's handler
/// and the manager, so it sees the frames the manager writes.
final class GoAwayDeadline: ChannelOutboundHandler {
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame
    let gracefulClose: TimeAmount
    var timer: Scheduled<Void>?

    init(gracefulClose: TimeAmount) { self.gracefulClose = gracefulClose }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if timer == nil, case .goAway = unwrapOutboundIn(data).payload {
            let channel = context.channel
            timer = context.eventLoop.scheduleTask(in: gracefulClose) { channel.close(promise: nil) }
        }
        context.write(data, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
