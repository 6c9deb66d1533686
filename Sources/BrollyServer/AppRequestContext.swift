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

    public init(source: Source) {
        coreContext = .init(source: source)
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
