import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird
import Logging

/// The returning browser's hot path (issue 52): a repeat of a recent `GET /api/v1/weather` is
/// answered before the router and its middleware — the memoised body with the very headers the
/// chain would give it (security headers, `Vary`, the gzip copy the compression keeps, a new
/// device's cookie), the same device decision (`DeviceMiddleware.reader`), the same history record,
/// request log line and metrics. Anything else (a revalidation, a first request, a body not yet
/// compressed, another path or method) goes down the chain, which fills what the desk reads. Under
/// wrk the middleware chain made cached weather 0.72-0.76× a bare Hummingbird route.
struct WeatherRepeatDesk: Sendable {
    static let path = "/api/v1/weather"
    static let pathBytes = Array(path.utf8)
    let documents: WeatherAnswerMemo<EncodedJSON>
    let devices: DeviceMiddleware
    /// The compression middleware of the API's router: its cache of compressed bodies.
    let compression: CompressionMiddleware
    let metrics: ServerMetrics
    let trustedProxies: Set<String>
    /// The level requests are logged at (nil: not logged), as `RequestLogMiddleware`.
    let logLevel: Logger.Level?
    /// The route's request count and latency, as `MetricsAndSecurityHeadersMiddleware` counts them.
    let series: ServerMetrics.RequestMetrics

    init(
        documents: WeatherAnswerMemo<EncodedJSON>, devices: DeviceMiddleware, compression: CompressionMiddleware, metrics: ServerMetrics,
        trustedProxies: Set<String>, logLevel: Logger.Level?
    ) {
        self.documents = documents
        self.devices = devices
        self.compression = compression
        self.metrics = metrics
        self.trustedProxies = trustedProxies
        self.logLevel = logLevel
        series = metrics.series(route: Self.path, method: "GET", status: 200)
    }

    func answer(_ request: Request, context: AppRequestContext) async -> Response? {
        guard request.method == .get, RequestTarget.path(of: request, is: Self.pathBytes), request.headers[.ifNoneMatch] == nil else {
            return nil
        }
        let start = DispatchTime.now().uptimeNanoseconds
        guard let recent = documents.recent(requestKey: WeatherController.requestKey(request)) else { return nil }
        let json = recent.encoded
        var headers = json.repeatHeaders
        var body = json.body
        if CompressionMiddleware.acceptsGzip(request.headers[.acceptEncoding]), body.readableBytes >= CompressionMiddleware.minimumBytes {
            // Compressed by the chain's first answer; until then the chain answers.
            guard let compressed = compression.compressed.get(CompressionMiddleware.key(path: Self.path, etag: json.etag))?.value
            else { return nil }
            body = compressed
            CompressionMiddleware.markGzipped(&headers, bytes: body.readableBytes)
        }
        // From here on the request is answered here: whatever it costs is spent once.
        var context = context
        context.trust(trustedProxies, forwardedFor: request)
        if let logLevel { RequestLogMiddleware<AppRequestContext>.log(request, to: context.logger, level: logLevel) }
        let client = context
        let reader = await devices.reader(of: request, clientKey: { client.clientKey })
        if reader.isReturning { documents.record(recent, device: reader.id) }
        if let token = reader.newToken { headers[values: .setCookie].append(DeviceMiddleware.setCookie(token, for: request)) }
        metrics.weatherAnswerFromCache(byRepeatDesk: true)
        series.counter.increment()
        series.timer.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
