import BrollyCore
import Crypto
import Foundation

/// The server's VAPID identity (RFC 8292): a P-256 key pair made once and kept in the data
/// directory (mode 0600), and the contact push services may use.
struct VAPID: Sendable {
    let key: P256.Signing.PrivateKey
    /// `mailto:` or `https:`.
    let subject: String

    /// The application server key browsers subscribe with: the uncompressed public point, base64url.
    var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }

    /// Loads the key at `url`, making it the first time.
    static func load(at url: URL, subject: String) throws -> VAPID {
        let fm = FileManager.default
        if let data = fm.contents(atPath: url.path) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let raw = Base64URL.decode(text), let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
                throw BrollyError.invalidInput(
                    "\(url.path) does not hold a VAPID key; remove it to make a new one (browsers will subscribe again)")
            }
            return VAPID(key: key, subject: subject)
        }
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        guard
            fm.createFile(
                atPath: url.path, contents: Data(Base64URL.encode(key.rawRepresentation).utf8), attributes: [.posixPermissions: 0o600])
        else { throw BrollyError.invalidInput("cannot write \(url.path)") }
        return VAPID(key: key, subject: subject)
    }

    /// `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 JWT for the endpoint's origin,
    /// valid 12 hours (push services refuse more than 24).
    func authorization(for endpoint: URL, now: Date) throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw BrollyError.invalidInput("bad push endpoint") }
        let port = endpoint.port.map { ":\($0)" } ?? ""
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims: [String: Any] = [
            "aud": "\(scheme)://\(host)\(port)", "exp": Int(now.timeIntervalSince1970) + 12 * 3600, "sub": subject,
        ]
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]))
        let input = Data("\(header).\(payload)".utf8)
        let signature = try key.signature(for: input).rawRepresentation  // r || s, 64 bytes: JWS's ES256 form
        return "vapid t=\(header).\(payload).\(Base64URL.encode(signature)), k=\(publicKey)"
    }
}

/// RFC 8291 message encryption with RFC 8188's `aes128gcm` content coding: one record.
enum WebPushEncryption {
    /// Encrypts `plaintext` for a subscription's `p256dh` (65-byte public point) and `auth` (16 bytes).
    /// `serverKey` and `salt` are random unless given (tests).
    static func encrypt(
        _ plaintext: Data, p256dh: Data, auth: Data, serverKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data? = nil
    ) throws -> Data {
        let userAgentKey = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        guard auth.count == 16 else { throw BrollyError.invalidInput("the subscription's auth secret must be 16 bytes") }
        let serverPublic = serverKey.publicKey.x963Representation
        let shared = try serverKey.sharedSecretFromKeyAgreement(with: userAgentKey)
        // IKM = HKDF(auth, ECDH secret, "WebPush: info" || 0 || ua_public || as_public, 32)
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(p256dh)
        keyInfo.append(serverPublic)
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: keyInfo, outputByteCount: 32)
        let salt = salt ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let cek = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record: the plaintext and the last-record delimiter 0x02, no padding.
        let sealed = try AES.GCM.seal(
            plaintext + [2], using: cek, nonce: try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        let recordSize = UInt32(4096)
        var body = salt
        body.append(contentsOf: withUnsafeBytes(of: recordSize.bigEndian) { Array($0) })
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}

/// Checks a push endpoint when it is subscribed and again before every send (a name may resolve
/// elsewhere later: DNS rebinding): `https` to a host whose every address is public — none in
/// IANA's special-purpose ranges (`SpecialAddresses`), embedded IPv4 unwrapped — so the server
/// cannot be used to reach internal hosts. `allowInsecure` (tests only) allows `http` to loopback.
enum PushEndpointPolicy {
    static func check(
        _ text: String, allowInsecure: Bool, resolve: (String) -> [[UInt8]] = PushEndpointPolicy.resolve
    ) throws -> URL {
        try checkedAddress(text, allowInsecure: allowInsecure, resolve: resolve).url
    }

    /// `check`, and the address to connect to: one of the addresses just checked (IPv4 first), as
    /// an IP literal. A send connects to it (`HTTPRequest.connectTo`) and never resolves the name
    /// a second time, so a name that answers a public address to the check and 127.0.0.1 to the
    /// connection (DNS rebinding between the two) reaches only the public one.
    static func checkedAddress(
        _ text: String, allowInsecure: Bool, resolve: (String) -> [[UInt8]] = PushEndpointPolicy.resolve
    ) throws -> (url: URL, address: String) {
        guard text.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil
        else { throw BrollyError.invalidInput("'endpoint' must be an absolute https URL") }
        let addresses = resolve(host)
        let isRefused = addresses.isEmpty || addresses.contains(where: SpecialAddresses.isRefused)
        let chosen = (addresses.first { $0.count == 4 } ?? addresses.first).flatMap(ClientAddress.literal)
        if scheme == "https" && !isRefused, let chosen { return (url, chosen) }
        if allowInsecure && (scheme == "http" || scheme == "https") && !addresses.isEmpty
            && addresses.allSatisfy(SpecialAddresses.isLoopback), let chosen
        {
            return (url, chosen)
        }
        if scheme != "https" { throw BrollyError.invalidInput("'endpoint' must be an https URL") }
        throw BrollyError.invalidInput(
            "'endpoint' must be a public push service, not a loopback, private, special-purpose or unresolvable address")
    }

    /// `check` with the name resolved on a thread of its own: getaddrinfo blocks (seconds, when DNS
    /// is slow), and 64 sends at once must not hold the cooperative threads that serve requests.
    static func checkResolving(_ text: String, allowInsecure: Bool) async throws -> URL {
        try await checkResolvingAddress(text, allowInsecure: allowInsecure).url
    }

    /// `checkedAddress` with the name resolved on a thread of its own (as `checkResolving`).
    static func checkResolvingAddress(
        _ text: String, allowInsecure: Bool, resolve: @escaping @Sendable (String) -> [[UInt8]] = PushEndpointPolicy.resolve
    ) async throws -> (url: URL, address: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try checkedAddress(text, allowInsecure: allowInsecure, resolve: resolve) })
            }
        }
    }

    /// The host's addresses (IPv4 and IPv6) as bytes.
    static func resolve(_ host: String) -> [[UInt8]] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &result) == 0, let first = result else { return [] }
        defer { freeaddrinfo(first) }
        var out: [[UInt8]] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            if info.pointee.ai_family == AF_INET, let sa = info.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    out.append(withUnsafeBytes(of: sin.pointee.sin_addr) { Array($0) })
                }
            } else if info.pointee.ai_family == AF_INET6, let sa = info.pointee.ai_addr {
                sa.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    out.append(withUnsafeBytes(of: sin6.pointee.sin6_addr) { Array($0) })
                }
            }
            next = info.pointee.ai_next
        }
        return out
    }

    /// A subscription's keys, checked: `p256dh` a point on P-256 (65 bytes, uncompressed) and
    /// `auth` 16 bytes, both base64url.
    static func checkKeys(p256dh: String, auth: String) throws {
        guard p256dh.count <= 200, let point = Base64URL.decode(p256dh), point.count == 65,
            (try? P256.KeyAgreement.PublicKey(x963Representation: point)) != nil
        else { throw BrollyError.invalidInput("'keys.p256dh' must be an uncompressed P-256 public key (65 bytes, base64url)") }
        guard auth.count <= 64, let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw BrollyError.invalidInput("'keys.auth' must be 16 bytes, base64url")
        }
    }
}
