import BrollyCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An `HTTPTransport` on Foundation's `URLSession`, so that an iOS or macOS app can embed
/// BrollyCore with no other package (on Linux it uses FoundationNetworking). The server and the
/// CLI use AsyncHTTPClient (BrollyHTTP) instead.
///
/// Each request gets an overall time-out (`HTTPRequest.timeout`); transport failures are mapped
/// to `TransportError` like the other transports, and bodies over `maxBodyBytes` are refused.
public final class URLSessionTransport: HTTPTransport {
    let session: URLSession
    let maxBodyBytes: Int

    /// - Parameters:
    ///   - connectTimeout: seconds without progress before a request is given up.
    ///   - maxBodyBytes: the most bytes accepted in one response body.
    public init(connectTimeout: TimeInterval = 5, maxBodyBytes: Int = 8 << 20) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = connectTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        self.maxBodyBytes = maxBodyBytes
    }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        // URLSession resolves names itself: a request pinned to a checked address is refused.
        if request.connectTo != nil { throw TransportError.other("URLSession cannot connect to a fixed address") }
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let state = RequestState()
        let (data, response): (Data, URLResponse) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Self.transportError(error, timedOut: state.hasTimedOut))
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: TransportError.other("no response"))
                    }
                }
                state.start(task, timeout: request.timeout)
            }
        } onCancel: {
            state.cancel()
        }
        state.finish()
        guard let http = response as? HTTPURLResponse else { throw TransportError.other("not an HTTP response") }
        guard data.count <= maxBodyBytes else { throw TransportError.other("response too large") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    static func transportError(_ error: any Error, timedOut: Bool) -> any Error {
        if timedOut { return TransportError.timedOut }
        guard let urlError = error as? URLError else { return TransportError.other(String(describing: error)) }
        switch urlError.code {
        case .timedOut: return TransportError.timedOut
        case .cancelled: return CancellationError()
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet, .secureConnectionFailed:
            return TransportError.cannotConnect(urlError.localizedDescription)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return TransportError.connectionLost(urlError.localizedDescription)
        default:
            return TransportError.other(urlError.localizedDescription)
        }
    }
}

/// One request's task and its overall deadline. The URLSession callback, the deadline timer and
/// task cancellation may run on any thread: the state is one `Locked` value.
private final class RequestState: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var timer: DispatchWorkItem?
        var timedOut = false
        var cancelled = false
    }
    private let state = Locked(State())

    var hasTimedOut: Bool { state.withLock { $0.timedOut } }

    func start(_ task: URLSessionDataTask, timeout: TimeInterval) {
        let timer = DispatchWorkItem { [weak self] in self?.expire() }
        let alreadyCancelled = state.withLock { s in
            s.task = task
            s.timer = timer
            return s.cancelled
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0.05, timeout), execute: timer)
        task.resume()
        if alreadyCancelled { task.cancel() }
    }

    private func expire() {
        state.withLock { s in
            s.timedOut = true
            return s.task
        }?.cancel()
    }

    func cancel() {
        state.withLock { s in
            s.cancelled = true
            return s.task
        }?.cancel()
    }

    func finish() {
        state.withLock { $0.timer }?.cancel()
    }
}
