import BrollyCore
import Foundation
import PostgresNIO

extension PostgresDatabase {
    enum TLSMode {
        case disable
        case prefer(TLSConfiguration)
        case require(TLSConfiguration)
    }

    /// The client configuration for a `postgres://` or `postgresql://` URL. `sslmode` as libpq
    /// reads it: `disable` (the default, for a database on the same machine or network) and
    /// `allow` no TLS; `prefer` TLS when the server offers it; `require` TLS always (the
    /// certificate not checked, as libpq does unless a root certificate is given); `verify-ca` TLS
    /// with the certificate checked against `sslrootcert` (a PEM file; else the system's roots);
    /// `verify-full` the same and the host name too. `pool=N` sets the connections per pool
    /// (default 10; each instance has two pools).
    static func configuration(from text: String) throws -> (PostgresClient.Configuration, Int, TLSMode) {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw BrollyError.invalidInput("the database URL must look like postgres://user:password@host:5432/database")
        }
        let user = url.user?.removingPercentEncoding ?? "postgres"
        let password = url.password?.removingPercentEncoding
        var database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        database = database.removingPercentEncoding ?? database
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        if let root = query["sslrootcert"], !root.isEmpty {
            guard FileManager.default.isReadableFile(atPath: root) else {
                throw BrollyError.invalidInput("the database URL's sslrootcert \(root) cannot be read")
            }
            tlsConfiguration.trustRoots = .file(root)
        }
        let mode: TLSMode
        switch query["sslmode"] ?? "disable" {
        case "disable", "allow": mode = .disable
        case "prefer":
            tlsConfiguration.certificateVerification = .none
            mode = .prefer(tlsConfiguration)
        case "require":
            if query["sslrootcert"] == nil { tlsConfiguration.certificateVerification = .none }
            mode = .require(tlsConfiguration)
        case "verify-ca":
            tlsConfiguration.certificateVerification = .noHostnameVerification
            mode = .require(tlsConfiguration)
        case "verify-full": mode = .require(tlsConfiguration)
        case let other:
            throw BrollyError.invalidInput(
                "the database URL's sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full")
        }
        let tls: PostgresClient.Configuration.TLS =
            switch mode {
            case .disable: .disable
            case .prefer(let c): .prefer(c)
            case .require(let c): .require(c)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user, password: password, database: database.isEmpty ? nil : database,
            tls: tls)
        configuration.options.connectTimeout = .seconds(3)
        let pool = query["pool"].flatMap(Int.init) ?? 10
        guard (1...200).contains(pool) else { throw BrollyError.invalidInput("the database URL's pool must be 1 to 200") }
        return (configuration, pool, mode)
    }
}
