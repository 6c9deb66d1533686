import Foundation
import Hummingbird

/// The request context: Hummingbird's core storage, the device the request comes from, and the
/// JSON coding every response uses (sorted keys, so bodies and their ETags are stable).
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The stored (hashed) id of the browser's device; set by `DeviceMiddleware`.
    public var deviceID: String = ""
    /// Whether the request came with the device's cookie: a client that keeps no cookies gets a
    /// new device each time, and no history is recorded for it.
    public var isReturningDevice = false
    /// The address of the connection's peer ("" when unknown, as in router tests).
    public var peerIP: String
    /// The client's address: the peer, or what a trusted proxy says; set by `ClientMiddleware`.
    public var clientIP: String = ""

    public init(source: Source) {
        coreContext = .init(source: source)
        peerIP = source.channel.remoteAddress?.ipAddress ?? ""
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
