import AsyncHTTPClient
import BrollyCore
import Foundation
import NIOCore
import NIOHTTP1

/// The live `HTTPTransport` on AsyncHTTPClient: a connect time-out, an overall time-out per
/// request, and transport failures mapped to `TransportError`.
public final class AsyncHTTPTransport: HTTPTransport {
    let configuration: HTTPClient.Configuration
    /// The client, made at the first request: a command that makes none (`brolly now --offline`,
    /// `--version`) never starts an event loop or its threads.
    let made = Locked<HTTPClient?>(nil)
    /// The most bytes accepted in one response body.
    let maxBodyBytes: Int

    /// - Parameters:
    ///   - connectTimeout: seconds allowed to establish a connection (TLS included).
    ///   - followsRedirects: false for requests to addresses a client gave (push endpoints): a 3xx
    ///     is then answered as it is, never followed to wherever it points.
    public init(connectTimeout: TimeInterval = 5, maxBodyBytes: Int = 8 << 20, followsRedirects: Bool = true) {
        var config = HTTPClient.Configuration()
        config.timeout = .init(connect: .milliseconds(Int64(connectTimeout * 1000)))
        config.redirectConfiguration = followsRedirects ? .follow(max: 3, allowCycles: false) : .disallow
        config.decompression = .enabled(limit: .ratio(20))
        // A connection that cannot be made fails its request at once. AsyncHTTPClient would keep
        // trying with a growing back-off until the request's time-out: a helper whose host refuses
        // connections (air quality, warnings) then held every request waiting for it for its whole
        // grace (~1 s: the aux-down bench row's p99 of 0.9 s each time the failure was tried again).
        // `NetworkService` decides the retries (a refused connection is not retried).
        config.connectionPool.retryConnectionEstablishment = false
        configuration = config
        self.maxBodyBytes = maxBodyBytes
    }

    var client: HTTPClient {
        made.withLock { made in
            if let made { return made }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            made = client
            return client
        }
    }

    public func shutdown() async {
        guard let client = made.withLock({ $0 }) else { return }
        try? await client.shutdown()
    }

    public func send(_ request: BrollyCore.HTTPRequest) async throws -> BrollyCore.HTTPResponse {
        var req = HTTPClientRequest(url: request.url.absoluteString)
        req.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { req.headers.add(name: name, value: value) }
        if let body = request.body { req.body = .bytes(ByteBuffer(bytes: body)) }
        let timeout = TimeAmount.milliseconds(Int64(max(0.05, request.timeout) * 1000))
        // Pinned to a checked address: a client of its own whose only name maps the host to that
        // address (AsyncHTTPClient's dnsOverride: it connects there and still sends the host as
        // TLS's name and checks the certificate for it); no second lookup of the name.
        var pinned: HTTPClient?
        if let address = request.connectTo {
            guard let host = request.url.host, !host.isEmpty else { throw TransportError.other("a pinned request needs a host") }
            var config = configuration
            config.dnsOverride = [host: address]
            pinned = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        }
        defer {
            if let pinned { Task { try? await pinned.shutdown() } }
        }
        do {
            let response = try await (pinned ?? client).execute(req, timeout: timeout)
            let body = try await response.body.collect(upTo: maxBodyBytes)
            var headers: [String: String] = [:]
            for h in response.headers { headers[h.name.lowercased()] = h.value }
            return BrollyCore.HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch let error as HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                throw TransportError.timedOut
            case .remoteConnectionClosed, .bodyLengthMismatch, .invalidProxyResponse:
                throw TransportError.connectionLost(String(describing: error))
            default:
                throw TransportError.other(String(describing: error))
            }
        } catch is NIOTooManyBytesError {
            throw TransportError.other("response too large")
        } catch let error as ChannelError {
            switch error {
            case .connectTimeout: throw TransportError.timedOut
            case .ioOnClosedChannel, .eof, .outputClosed, .alreadyClosed: throw TransportError.connectionLost(String(describing: error))
            default: throw TransportError.other(String(describing: error))
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Connection refused, DNS failures and TLS errors arrive as NIO errors of many types.
            let text = String(describing: error)
            if text.contains("Timeout") || text.contains("timedOut") { throw TransportError.timedOut }
            if text.lowercased().contains("eof") || text.contains("closed") { throw TransportError.connectionLost(text) }
            throw TransportError.cannotConnect(text)
        }
    }
}
