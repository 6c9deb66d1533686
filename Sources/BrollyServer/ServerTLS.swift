import Foundation
import NIOSSL

extension ServerSettings {
    /// The TLS configuration for a certificate chain and its private key (PEM files), read and
    /// checked now (the key must be the certificate's), so that a bad file is one clear line when
    /// `brolly serve` starts, not a failed handshake later; nil when neither is given.
    static func tls(certificate: String?, key: String?) throws -> TLSConfiguration? {
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw BrollyServerError.invalidSetting("--tls-cert needs --tls-key (or BROLLY_TLS_KEY): the certificate's private key, PEM")
        case (nil, _?):
            throw BrollyServerError.invalidSetting("--tls-key needs --tls-cert (or BROLLY_TLS_CERT): the certificate chain, PEM")
        case (let certificate?, let key?):
            for (what, path) in [("certificate", certificate), ("key", key)] where !FileManager.default.isReadableFile(atPath: path) {
                throw BrollyServerError.invalidSetting("cannot read the TLS \(what) \(path): no such readable file")
            }
            let chain: [NIOSSLCertificate]
            do { chain = try NIOSSLCertificate.fromPEMFile(certificate) } catch {
                throw BrollyServerError.invalidSetting("the TLS certificate \(certificate) is not a PEM certificate")
            }
            guard !chain.isEmpty else { throw BrollyServerError.invalidSetting("the TLS certificate \(certificate) holds no certificate") }
            let privateKey: NIOSSLPrivateKey
            do { privateKey = try NIOSSLPrivateKey(file: key, format: .pem) } catch {
                throw BrollyServerError.invalidSetting("the TLS key \(key) is not a PEM private key")
            }
            let configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            do { _ = try NIOSSLContext(configuration: configuration) } catch {
                throw BrollyServerError.invalidSetting("the TLS key \(key) is not the key of the certificate \(certificate)")
            }
            return configuration
        }
    }
}
