import BrollyCore
import BrollyHTTP
import BrollyStore
import BrollyTestSupport
import BrollyUseCases
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import BrollyServer

/// Issue 52, item 2: a push is sent to the address its check found, never to what a second lookup
/// of the name answers (DNS rebinding between the check and the connection: before, the server
/// connected to 127.0.0.1 3.9 s after a subscription whose name answered a public address first).
@Suite struct PushPinningTests {
    /// A transport that records what it was asked and answers 201.
    final class Recording: HTTPTransport {
        let requests = Locked<[BrollyCore.HTTPRequest]>([])
        func send(_ request: BrollyCore.HTTPRequest) async throws -> BrollyCore.HTTPResponse {
            requests.withLock { $0.append(request) }
            return BrollyCore.HTTPResponse(status: 201, headers: [:], body: Data())
        }
    }

    /// A name that answers a public address the first time and loopback after (the rebinding
    /// resolver of the issue's probe).
    final class Rebinding: Sendable {
        let lookups = Locked<Int>(0)
        func resolve(_ host: String) -> [[UInt8]] {
            lookups.withLock { n in
                n += 1
                return n == 1 ? [[93, 184, 216, 34]] : [[127, 0, 0, 1]]
            }
        }
    }

    static func push(to endpoint: String) throws -> PushMessage {
        let browser = P256.KeyAgreement.PrivateKey()
        let subscription = PushSubscription(
            id: "s1", deviceId: "d1", endpoint: endpoint, p256dh: Base64URL.encode(browser.publicKey.x963Representation),
            auth: Base64URL.encode(Data(count: 16)), minimumSeverity: .moderate, createdAt: Date(timeIntervalSince1970: 0))
        let payload = PushPayload(
            type: "test", title: "Test", body: "A push",
            place: try JSONDecoder().decode(PushPlace.self, from: Data(#"{"name":"Berlin","latitude":52.52,"longitude":13.41}"#.utf8)),
            url: "/")
        return PushMessage(
            subscription: subscription, payload: payload, topic: "test", usefulUntil: Date().addingTimeInterval(3600), urgent: false,
            record: .alert(key: "k"))
    }

    @Test func theSendConnectsToTheAddressItsCheckFound() async throws {
        let transport = Recording()
        let rebinding = Rebinding()
        var sender = PushSender(
            useCases: try makeUseCases(transport), vapid: VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:ops@example.com"),
            transport: transport, allowInsecure: false, logger: Logger(label: "test"))
        sender.resolve = { rebinding.resolve($0) }
        let status = await sender.send(try Self.push(to: "https://push.rebind.example/send/abc"))
        #expect(status == 201)
        let sent = transport.requests.withLock { $0 }
        #expect(sent.count == 1)
        #expect(sent.first?.url.host == "push.rebind.example")
        #expect(sent.first?.connectTo == "93.184.216.34", "the address checked, not a second lookup's")
        #expect(rebinding.lookups.withLock { $0 } == 1, "the name is looked up once per send")
        // The next send checks again: the name now answers loopback, and nothing is sent.
        #expect(await sender.send(try Self.push(to: "https://push.rebind.example/send/abc")) == nil)
        #expect(transport.requests.withLock { $0.count } == 1)
    }

    @Test func theCheckedAddressIsAnIPLiteralIPv4First() throws {
        let both: (String) -> [[UInt8]] = { _ in [PushEndpointPolicyTests.v6("2606:4700::1111"), [8, 8, 4, 4]] }
        #expect(try PushEndpointPolicy.checkedAddress("https://push.example/x", allowInsecure: false, resolve: both).address == "8.8.4.4")
        let v6: (String) -> [[UInt8]] = { _ in [PushEndpointPolicyTests.v6("2606:4700::1111")] }
        #expect(
            try PushEndpointPolicy.checkedAddress("https://push.example/x", allowInsecure: false, resolve: v6).address == "2606:4700::1111")
    }

    /// AsyncHTTPClient, the real push client, connects to the pinned address and does not resolve
    /// the name: a name that resolves nowhere (`.invalid`, RFC 6761) still reaches the server at
    /// the pinned 127.0.0.1, and the server sees the name in Host.
    @Test func theRealClientConnectsToThePinnedAddressWithoutResolvingTheName() async throws {
        let hosts = Locked<[String]>([])
        let router = Router()
        router.post("/send") { request, _ -> Response in
            hosts.withLock { $0.append(request.head.authority ?? "") }
            return Response(status: .created)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let transport = AsyncHTTPTransport(connectTimeout: 3, maxBodyBytes: 64 << 10, followsRedirects: false)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://push.rebound.invalid:\(port)/send"))
            let request = BrollyCore.HTTPRequest(url: url, method: "POST", body: Data("x".utf8), connectTo: "127.0.0.1")
            let pinned = try await transport.send(request)
            #expect(pinned.status == 201)
            #expect(hosts.withLock { $0 } == ["push.rebound.invalid:\(port)"], "the name is still the request's host")
            // Unpinned, the same name resolves nowhere: the client could only have used the address.
            let unpinned = BrollyCore.HTTPRequest(url: url, method: "POST", timeout: 1)
            await #expect(throws: (any Error).self) { try await transport.send(unpinned) }
        }
        await transport.shutdown()
    }
}
