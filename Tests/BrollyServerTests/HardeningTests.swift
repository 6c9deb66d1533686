import Foundation
import Hummingbird
import NIOCore
import Testing

@testable import BrollyCore
@testable import BrollyServer

/// Issue 35: where a push may go, and what a request log line may show.
@Suite struct PushEndpointPolicyTests {
    static func v6(_ text: String) -> [UInt8] {
        var addr = in6_addr()
        precondition(inet_pton(AF_INET6, text, &addr) == 1, text)
        return withUnsafeBytes(of: &addr) { Array($0) }
    }

    @Test func everySpecialPurposeRangeIsRefused() {
        let refused4: [[UInt8]] = [
            [0, 1, 2, 3], [10, 0, 0, 1], [100, 64, 0, 1], [100, 127, 255, 254], [127, 0, 0, 1], [169, 254, 1, 1], [172, 16, 0, 1],
            [172, 31, 255, 255], [192, 0, 0, 8], [192, 0, 2, 1], [192, 31, 196, 1], [192, 52, 193, 1], [192, 88, 99, 1],
            [192, 168, 1, 1], [192, 175, 48, 1], [198, 18, 0, 1], [198, 19, 255, 255], [198, 51, 100, 7], [203, 0, 113, 9],
            [224, 0, 0, 1], [239, 255, 255, 250], [240, 0, 0, 1], [255, 255, 255, 255],
        ]
        for a in refused4 { #expect(SpecialAddresses.isRefused(a), "\(a)") }
        let public4: [[UInt8]] = [
            [8, 8, 8, 8], [1, 1, 1, 1], [100, 63, 255, 255], [100, 128, 0, 1], [172, 15, 0, 1], [172, 32, 0, 1], [198, 20, 0, 1],
            [223, 255, 255, 255],
        ]
        for a in public4 { #expect(!SpecialAddresses.isRefused(a), "\(a)") }
        let refused6 = [
            "::", "::1", "::7f00:1", "::ffff:7f00:1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::1",
            "2002:7f00:1::1", "2002:c0a8:101::1", "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:2::1", "2001:10::1",
            "2001:db8::1", "2620:4f:8000::1", "3fff::1", "5f00::1", "100::1", "fc00::1", "fd00::2", "fe80::1", "fec0::1", "ff02::1",
        ]
        for a in refused6 { #expect(SpecialAddresses.isRefused(Self.v6(a)), "\(a)") }
        // Public IPv6, and public IPv4 carried in IPv6, are allowed.
        for a in [
            "2606:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:4860::8888",
        ] {
            #expect(!SpecialAddresses.isRefused(Self.v6(a)), "\(a)")
        }
        #expect(SpecialAddresses.isRefused([1, 2, 3]))
    }

    @Test func theNameIsResolvedAndEveryAddressMustBePublic() throws {
        let publicOnly: (String) -> [[UInt8]] = { _ in [[8, 8, 8, 8]] }
        let mixed: (String) -> [[UInt8]] = { _ in [[8, 8, 8, 8], [127, 0, 0, 1]] }
        #expect(try PushEndpointPolicy.check("https://push.example/x", allowInsecure: false, resolve: publicOnly).host == "push.example")
        #expect(throws: BrollyError.self) { try PushEndpointPolicy.check("https://push.example/x", allowInsecure: false, resolve: mixed) }
        #expect(throws: BrollyError.self) {
            try PushEndpointPolicy.check("http://push.example/x", allowInsecure: false, resolve: publicOnly)
        }
        // A name that later resolves to loopback (DNS rebinding) is refused at that later check.
        let rebound: (String) -> [[UInt8]] = { _ in [Self.v6("::ffff:127.0.0.1")] }
        #expect(throws: BrollyError.self) { try PushEndpointPolicy.check("https://push.example/x", allowInsecure: false, resolve: rebound) }
        #expect(throws: BrollyError.self) {
            try PushEndpointPolicy.check("https://push.example/x", allowInsecure: false, resolve: { _ in [] })
        }
        // Tests only: http to loopback.
        let loopback: (String) -> [[UInt8]] = { _ in [[127, 0, 0, 1]] }
        #expect(try PushEndpointPolicy.check("http://127.0.0.1:9/x", allowInsecure: true, resolve: loopback).port == 9)
    }

    @Test func keysMustBeAPointOnTheCurveAndSixteenBytes() throws {
        let good = Base64URL.encode(
            Data(
                [4] + [UInt8](repeating: 0, count: 64)))  // (0, 0) is not on P-256
        #expect(throws: BrollyError.self) { try PushEndpointPolicy.checkKeys(p256dh: good, auth: Base64URL.encode(Data(count: 16))) }
        let point = Crypto256.samplePoint
        try PushEndpointPolicy.checkKeys(p256dh: point, auth: Base64URL.encode(Data(count: 16)))
        #expect(throws: BrollyError.self) { try PushEndpointPolicy.checkKeys(p256dh: point, auth: Base64URL.encode(Data(count: 15))) }
    }
}

/// A valid uncompressed P-256 point: the generator.
enum Crypto256 {
    static let samplePoint = Base64URL.encode(
        Data(
            [4]
                + hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
                + hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")))

    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            out.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return out
    }
}

@Suite struct ClientAddressTests {
    /// Issue 52: per-address limits by /64 for IPv6 (an IPv6 host may use any of its /64's
    /// addresses), IPv4-mapped addresses as their IPv4 address.
    @Test func ipv6AddressesCountUnderTheirSlash64() {
        #expect(ClientAddress.limitKey("203.0.113.7") == "203.0.113.7")
        #expect(ClientAddress.limitKey("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("2001:db8:1:2:ffff:ffff:ffff:ffff") == ClientAddress.limitKey("2001:db8:1:2::7"))
        #expect(ClientAddress.limitKey("2001:db8:1:3::7") != ClientAddress.limitKey("2001:db8:1:2::7"))
        #expect(ClientAddress.limitKey("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.limitKey("fe80::1%eth0") == "fe80::/64")
        let connections = ConnectionGuard(perAddress: 2, exempt: [])
        #expect(connections.opened("2001:db8::1") && connections.opened("2001:db8::2"))
        #expect(!connections.opened("2001:db8::3"), "a third address of the same /64 is over the cap")
        #expect(connections.opened("2001:db8:0:1::3"))
        connections.closed("2001:db8::1")
        #expect(connections.opened("2001:db8::4"))
    }

    /// The peer's text, written from an IPv4 address's bytes (glibc's `inet_ntop` formats them with
    /// `sprintf`), is NIO's `ipAddress` for every kind of byte (one, two and three digits, 0 and
    /// 255), and NIO's own for IPv6.
    @Test func anIPv4PeerIsWrittenAsNIOWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        let fixed: [[UInt8]] = [[0, 0, 0, 0], [255, 255, 255, 255], [127, 0, 0, 1], [10, 99, 100, 9], [192, 168, 1, 254]]
        let random = (0..<20_000).map { _ in (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        for bytes in fixed + random {
            let text = bytes.map(String.init).joined(separator: ".")
            let address = try SocketAddress(ipAddress: text, port: 443)
            #expect(ClientAddress.text(of: address) == address.ipAddress, "\(text)")
            #expect(ClientAddress.text(of: address) == text)
        }
        let v6 = try SocketAddress(ipAddress: "2001:db8::7", port: 443)
        #expect(ClientAddress.text(of: v6) == v6.ipAddress)
    }
}

@Suite struct RequestTargetTests {
    /// The byte checks every request passes through (`RequestTarget`) answer as Hummingbird's
    /// `URI.path` would, for origin-form targets with and without queries, near misses and
    /// absolute-form targets (left to `URI`).
    @Test func theByteChecksAnswerAsURIPath() {
        let prefixes = TwoLaneResponder.apiPrefixes
        let weather = WeatherRepeatDesk.pathBytes
        let targets = [
            "/api/v1/weather", "/api/v1/weather?lat=1&lon=2", "/api/v1/weatherx", "/api/v1/weather/", "/api/v1/weathe",
            "/api/v1/", "/api/v1", "/api/v2/weather", "/api?x=/api/v1/weather", "/", "/index.html", "/forecast/k/1,2",
            "/v1/forecast?latitude=1", "http://example.org/api/v1/weather?lat=1", "http://example.org/index.html", "*", "",
            "/API/V1/WEATHER", "/api/v1/weather#x", "/data/2.5/weather?q=x",
        ]
        for target in targets {
            let request = Request(
                head: .init(method: .get, scheme: nil, authority: nil, path: target),
                body: .init(buffer: .init()))
            let path = request.uri.path.utf8
            #expect(RequestTarget.path(of: request, startsWithAnyOf: prefixes) == prefixes.contains { path.starts(with: $0) }, "\(target)")
            #expect(RequestTarget.path(of: request, is: weather) == (request.uri.path == WeatherRepeatDesk.path), "\(target)")
        }
    }
}

@Suite struct RequestLogRedactionTests {
    /// The byte check that lets a plain target through as it came (`URLRedaction.isPlain`) never
    /// changes what the full redaction answers: 50,000 targets made of the pieces that matter
    /// (separators, escapes, `forecast` and the secret names in any case, spaces, non-ASCII).
    @Test func theFastPathAnswersAsTheFullRedaction() {
        let pieces = [
            "/", "/", "?", "&", "=", "=", "%", "%5F", "+", ";", "forecast", "Forecast", "FORECAST", "forecasts", "appid", "APPID",
            "api_key",
            "apikey", "Key", "token", "lat", "lon", "52.5", "x", " ", "\t", "é", "\u{212A}ey", "api", "_", "v1", "weather",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var plain = 0
        for _ in 0..<50_000 {
            let target = "/" + (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined()
            var bytes = target
            if bytes.withUTF8(URLRedaction.isPlain) { plain += 1 }
            let fast = URLRedaction.redactTarget(target), full = URLRedaction.redactedTarget(target)
            if fast != full { Issue.record("\(target): \(fast) against \(full)") }
        }
        #expect(plain > 2_000, "the fast path was taken \(plain) times")
        #expect(URLRedaction.redactTarget("/api/v1/weather?lat=52.52&lon=13.41") == "/api/v1/weather?lat=52.52&lon=13.41")
        var browser = "/api/v1/weather?lat=52.52&lon=13.41", keyed = "/data/2.5/weather?lat=1&Api_Key=s"
        let (browserIsPlain, keyedIsPlain) = (browser.withUTF8(URLRedaction.isPlain), keyed.withUTF8(URLRedaction.isPlain))
        #expect(browserIsPlain && !keyedIsPlain)
    }

    @Test func keysInPathsAndQueriesAreRedacted() {
        #expect(URLRedaction.redactTarget("/forecast/abc123/52.5,13.4?units=si") == "/forecast/REDACTED/52.5,13.4?units=si")
        #expect(
            URLRedaction.redactTarget("/data/2.5/weather?lat=1&APPID=s3cret&lon=2") == "/data/2.5/weather?lat=1&APPID=REDACTED&lon=2")
        #expect(
            URLRedaction.redactTarget("/v1/forecast?apikey=x&Key=y&api%5Fkey=z")
                == "/v1/forecast?apikey=REDACTED&Key=REDACTED&api%5Fkey=REDACTED")
        #expect(URLRedaction.redactTarget("/api/v1/weather?lat=1&lon=2") == "/api/v1/weather?lat=1&lon=2")
        #expect(URLRedaction.redactTarget("/forecast/") == "/forecast/")
        #expect(URLRedaction.redactTarget("/") == "/")
    }

    /// Issue 52: the forms that match no route, where the key was logged as it came.
    @Test func keysInRequestsThatMatchNoRouteAreRedactedToo() {
        for target in [
            "/Forecast/s3cret/52.5,13.4", "//forecast/s3cret/52.5,13.4", "/forecast%2Fs3cret%2F52.5,13.4", "/FORECAST//s3cret",
            "/data/2.5/weather?lat=1;appid=s3cret", "/data/2.5/weather?apikey+=s3cret", "/data/2.5/weather;appid=s3cret?lat=1",
            "/data/2.5/weather?%20APPID=s3cret", "/forecast/s3cret%0A/1,2",
        ] {
            let logged = URLRedaction.redactTarget(target)
            #expect(!logged.contains("s3cret") && logged.contains("REDACTED"), "\(target) → \(logged)")
            #expect(!logged.contains("\n"))
        }
    }
}

/// Issue 35: a client's window is sized by the kind of request, never by whichever came first,
/// and the helpers' lanes never spend the weather's.
@Suite struct ClientLimitsTests {
    static func spend(_ take: () -> TimeInterval?) -> Int {
        var n = 0
        while take() == nil && n < 1_000 { n += 1 }
        return n
    }

    @Test func theSizeFollowsTheKindOfRequest() {
        let limits = ClientLimits(callsPerMinute: 30, clock: SystemClock())
        // A returning browser first: its device's 30, and its address's backstop of 120.
        let browser = limits.allowance(device: "d1", ip: { "203.0.113.5" })
        #expect(Self.spend(browser.take) == 30)
        // A cookie-less client from the same address then has the address's own 30, not 120 or 0.
        let keyless = limits.allowance(device: nil, ip: { "203.0.113.5" })
        #expect(Self.spend(keyless.take) == 30)
        // Four more browsers behind that address: 120 in all before the backstop holds.
        let others = (2...5).map { limits.allowance(device: "d\($0)", ip: { "203.0.113.5" }) }
        #expect(others.map { Self.spend($0.take) }.reduce(0, +) == 90)
    }

    @Test func newsAccuracyAndTilesHaveTheirOwn() {
        let limits = ClientLimits(callsPerMinute: 30, clock: SystemClock())
        let weather = limits.allowance(device: "d1", ip: { "198.51.100.1" })
        #expect(Self.spend(weather.lane(.news).take) == 30)
        #expect(Self.spend(weather.lane(.accuracy).take) == 30)
        #expect(Self.spend(weather.lane(.radarTiles).take) == 10)
        #expect(Self.spend(weather.take) == 30)
        // Three more cookies from that address share its tiles (a third of the server's 20 a
        // minute each before: the whole budget); the news keeps four devices' worth.
        let more = (2...4).map { limits.allowance(device: "d\($0)", ip: { "198.51.100.1" }) }
        #expect(more.map { Self.spend($0.lane(.radarTiles).take) }.reduce(0, +) == 0)
        #expect(more.map { Self.spend($0.lane(.news).take) }.reduce(0, +) == 90)
        // OpenWeatherMap's city ids: a third, one address's whatever its cookies.
        #expect(Self.spend(weather.lane(.cityLookups).take) == 10)
        #expect(more.map { Self.spend($0.lane(.cityLookups).take) }.reduce(0, +) == 0)
    }
}
