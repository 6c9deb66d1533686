import BrollyCore
import BrollyStore
import Crypto
import Foundation
import Hummingbird

/// Gives every browser a device of its own: a token minted by this server in an `HttpOnly`,
/// `SameSite=Strict` cookie. The token carries an HMAC made with the server's secret, so a
/// self-made token is not accepted (its client gets a fresh device); the database keeps only the
/// token's SHA-256, so places and history are found by a hash nobody can turn back into a cookie.
/// New devices per IP address are limited (`ClientLimits.mayMintDevice`): past the limit a
/// request is answered without a device, and a write gets `429`.
struct DeviceMiddleware: RouterMiddleware {
    static let cookieName = "brolly_device"
    let tokens: DeviceTokens
    let limits: ClientLimits

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws
        -> Response
    {
        var context = context
        var newToken: String?
        if request.method == .get || request.method == .head {
            let reader = await reader(of: request, clientKey: { context.clientKey })
            (context.deviceID, context.isReturningDevice, newToken) = (reader.id, reader.isReturning, reader.newToken)
        } else if let id = await tokens.deviceID(of: request) {
            context.deviceID = id
            context.isReturningDevice = true
        } else if let retryAfter = limits.mayMintDevice(ip: context.clientKey) {
            throw BrollyError.clientLimited(retryAfter: retryAfter)
        } else if let retryAfter = await limits.mayStoreNewDevice(ip: context.clientKey) {
            throw BrollyError.clientLimited(retryAfter: retryAfter)
        } else {
            let token = tokens.make()
            newToken = token
            context.deviceID = DeviceTokens.id(forToken: token)
        }
        var response: Response
        // The rest of the request runs with the client's allowance of upstream calls: the device's
        // when it came back with one (a device minted by this very request is not yet a client of
        // its own), else its IP address's.
        let client = context
        let allowance = limits.allowance(device: context.isReturningDevice ? context.deviceID : nil, ip: { client.clientKey })
        do {
            response = try await ClientAllowance.$current.withValue(allowance) { try await next(request, context) }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Answered here so that a first request that fails still gets its cookie.
            response = try Problem.answering(error, logger: context.logger).response(from: request, context: context)
        }
        if let newToken { response.headers[values: .setCookie].append(Self.setCookie(newToken, for: request)) }
        return response
    }

    /// Who a read (`GET`, `HEAD`) comes from: the device of its cookie, else a new device (its
    /// token to be set), else — past its address's new devices a minute — nobody
    /// (`DeviceTokens.anonymous`): reads are answered without a device. `handle` and the weather's
    /// repeat desk (`WeatherRepeatDesk`) both ask this, so both decide alike.
    /// `clientKey` is worked out only for a request without a device (a returning one needs no address).
    func reader(of request: Request, clientKey: () -> String) async -> Reader {
        if let id = await tokens.deviceID(of: request) { return Reader(id: id, isReturning: true, newToken: nil) }
        if limits.mayMintDevice(ip: clientKey()) != nil { return Reader(id: DeviceTokens.anonymous, isReturning: false, newToken: nil) }
        let token = tokens.make()
        return Reader(id: DeviceTokens.id(forToken: token), isReturning: false, newToken: token)
    }

    struct Reader {
        var id: String
        /// Came back with the device's cookie (its lookups are recorded in its history).
        var isReturning: Bool
        /// A device minted by this request: its cookie is set on the answer.
        var newToken: String?
    }

    /// The `Set-Cookie` value that gives a browser its new device (`Secure` behind an HTTPS proxy).
    static func setCookie(_ token: String, for request: Request) -> String {
        let secure = request.headers[.init("X-Forwarded-Proto")!] == "https" ? "; Secure" : ""
        return "\(cookieName)=\(token); Path=/; Max-Age=63072000; HttpOnly; SameSite=Strict\(secure)"
    }
}

/// Device tokens: 16 random bytes and the first 16 bytes of their HMAC-SHA256 under the
/// server's secret, base64url (43 characters). Tokens minted before the HMAC (43 random
/// characters) are still honoured when their device exists, so nobody loses their places.
struct DeviceTokens: Sendable {
    let key: SymmetricKey
    /// Asked whether a device id is known, for tokens minted before the HMAC.
    let isKnownDevice: @Sendable (String) async -> Bool
    /// Tokens found valid, with their device ids: a returning browser's token is checked (HMAC,
    /// SHA-256) once, not on every request. A plain dictionary under one lock, emptied when it
    /// holds 8,192 (the tokens then are checked again): every returning browser's request reads
    /// it, and the least-recently-used order a `MemoryCache` keeps cost more than the check saves.
    let verified = Locked<[String: String]>([:])
    static let verifiedCapacity = 8192

    /// The device id of requests that have none (a client past its new-device limit): it owns
    /// nothing and nothing is written for it.
    static let anonymous = ""

    init(secret: [UInt8], isKnownDevice: @escaping @Sendable (String) async -> Bool = { _ in false }) {
        key = SymmetricKey(data: secret)
        self.isKnownDevice = isKnownDevice
    }

    func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Self.base64url(nonce + mac(nonce))
    }

    private func mac(_ nonce: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: nonce, using: key)).prefix(16).map { $0 }
    }

    /// Whether the server minted `token` (or it is a known device from before the HMAC).
    func isValid(_ token: String) async -> Bool {
        guard Self.isWellFormed(token), let bytes = Self.bytes(base64url: token), bytes.count == 32 else { return false }
        if constantTimeEqual(mac(Array(bytes[0..<16])), Array(bytes[16..<32])) { return true }
        return await isKnownDevice(Self.id(forToken: token))
    }

    /// The stored id of the device whose valid cookie `request` carries; nil without one.
    func deviceID(of request: Request) async -> String? {
        guard let token = Self.cookie(in: request) else { return nil }
        if let hit = verified.withLock({ $0[token] }) { return hit }
        guard await isValid(token) else { return nil }
        let id = Self.id(forToken: token)
        verified.withLock { verified in
            if verified.count >= Self.verifiedCapacity { verified.removeAll(keepingCapacity: true) }
            verified[token] = id
        }
        return id
    }

    /// The value of the `brolly_device` cookie, read straight from the `Cookie` headers' bytes.
    static func cookie(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            if let value = cookie(inHeader: header) { return value }
        }
        return nil
    }

    static let cookiePrefix = Array((DeviceMiddleware.cookieName + "=").utf8)

    /// The `brolly_device` value in one `Cookie` header (`a=1; brolly_device=…; b=2`).
    static func cookie(inHeader header: String) -> String? {
        var header = header
        return header.withUTF8 { cookie(inBytes: $0) }
    }

    static func cookie(inBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let prefix = cookiePrefix
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while i < bytes.count {
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x3b) { i += 1 }  // spaces, ';'
            // The next ';' (memchr), and the name compared with memcmp: a returning browser's every request.
            var end = bytes.count
            if let semicolon = memchr(base + i, 0x3b, bytes.count - i) {
                end = UnsafeRawPointer(semicolon) - UnsafeRawPointer(base)
            }
            if end - i > prefix.count && memcmp(base + i, prefix, prefix.count) == 0 {
                var last = end
                while last > i + prefix.count && bytes[last - 1] == 0x20 { last -= 1 }
                return String(decoding: bytes[(i + prefix.count)..<last], as: UTF8.self)
            }
            i = end + 1
        }
        return nil
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 43
            && token.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x2d || c == 0x5f
            }
    }

    /// The stored id of a device: the SHA-256 of its secret token, so the database never holds a
    /// token that could be replayed.
    static func id(forToken token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func bytes(base64url text: String) -> [UInt8]? {
        var s = Array(text.utf8).map { $0 == 0x2d ? 0x2b : $0 == 0x5f ? 0x2f : $0 }
        while s.count % 4 != 0 { s.append(0x3d) }
        return Data(base64Encoded: Data(s)).map { Array($0) }
    }

    /// The server's secret: 32 random bytes in `secret` under the data directory, made once with
    /// mode 0600.
    static func loadSecret(at url: URL) throws -> [UInt8] {
        if let data = try? Data(contentsOf: url), data.count >= 32 { return Array(data) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let created = FileManager.default.createFile(atPath: url.path, contents: Data(secret), attributes: [.posixPermissions: 0o600])
        guard created else { throw BrollyServerError.invalidSetting("cannot write the device secret \(url.path)") }
        return secret
    }
}

/// The server's device secret, kept in the data directory with mode 0600.
public enum DeviceSecret {
    public static func load(at url: URL) throws -> [UInt8] { try DeviceTokens.loadSecret(at: url) }
}

/// Whether two byte strings are equal, in time that does not depend on where they differ (for
/// secrets: the device tokens' HMAC, the metrics token).
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
