import Foundation
import Hummingbird
import NIOCore

/// The request context: Hummingbird's core storage, the device the request comes from, and the
/// JSON coding every response uses (sorted keys, so bodies and their ETags are stable).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The stored (hashed) id of the browser's device; set by `DeviceMiddleware`.
    public var deviceID: String = ""
    /// Whether the request came with the device's cookie: a client that keeps no cookies gets a
    /// new device each time, and no history is recorded for it.
    public var isReturningDevice = false
    /// The connection the request came on: its peer is asked only when a limit needs the client's
    /// address (NIO reads it under the channel's lock; a returning browser's cached answer never does).
    let channel: any Channel
    /// The connection's peer (nil when unknown, as in router tests).
    public var remoteAddress: SocketAddress? { channel.remoteAddress }
    /// Proxies whose `X-Forwarded-For` is believed; set by the middleware that needs the client.
    var trustedProxies: Set<String> = []
    /// The request's `X-Forwarded-For`, kept when the peer may be a trusted proxy.
    var forwardedFor: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Believes `X-Forwarded-For` when the peer is one of `proxies` (none: the peer is the client).
    mutating func trust(_ proxies: Set<String>, forwardedFor request: Request) {
        guard !proxies.isEmpty else { return }
        trustedProxies = proxies
        forwardedFor = request.headers[.init("X-Forwarded-For")!]
    }

    /// The address of the connection's peer ("" when unknown). Worked out only when asked: most
    /// requests never need it.
    public var peerIP: String { remoteAddress.flatMap(ClientAddress.text(of:)) ?? "" }

    /// The client's address: the peer, or what a trusted proxy says it forwarded.
    /// What the client's address is counted under in every per-address limit (an IPv6 /64).
    public var clientKey: String { ClientAddress.limitKey(clientIP) }

    public var clientIP: String {
        trustedProxies.isEmpty ? peerIP : ClientMiddleware.clientIP(peer: peerIP, forwardedFor: forwardedFor, trusted: trustedProxies)
    }

    /// Request bodies are small JSON documents.
    public var maxUploadSize: Int { 64 * 1024 }

    public var responseEncoder: JSONEncoder { Self.encoder }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
