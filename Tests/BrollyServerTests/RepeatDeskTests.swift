import BrollyTestSupport
import BrollyUseCases
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import BrollyServer

/// `WeatherRepeatDesk` (issue 52): a repeat of a recent weather request is answered before the
/// router with what the middleware chain gives it — the same headers, body, device cookie, gzip
/// copy and history record — and everything it does not answer still goes down the chain.
@Suite struct RepeatDeskTests {
    static let url = "/api/v1/weather?lat=1&lon=2"

    /// The answer's headers without the ones that differ between two answers by nature: the date,
    /// and a new device's token (its name and attributes kept).
    static func comparable(_ headers: HTTPFields) -> [String] {
        headers.filter { $0.name != .date }.map { field in
            field.name == .setCookie
                ? "set-cookie: " + field.value.replacing(/brolly_device=[^;]*/, with: "brolly_device=…")
                : field.name.canonicalName + ": " + field.value
        }.sorted()
    }

    static func repeats(_ client: some TestClientProtocol) async throws -> Int {
        try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer t"]) { response in
            let text = String(buffer: response.body)
            let line = text.split(separator: "\n").first { $0.hasPrefix("brolly_repeat_desk_answers_total ") }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
        }
    }

    @Test func aRepeatGetsTheChainsAnswerBeforeTheRouter() async throws {
        var settings = testSettings()
        settings.metricsToken = "t"
        let app = buildApplication(
            useCases: makeServerUseCases(StubProvider(.success(report()))), settings: settings, logger: Logger(label: "test"))
        try await app.test(.router) { client in
            // A new browser: the chain answers (and keeps the answer), the repeat is the desk's,
            // each with a new device's cookie.
            let first = try await client.execute(uri: Self.url, method: .get)
            #expect(try await Self.repeats(client) == 0)
            let again = try await client.execute(uri: Self.url, method: .get)
            #expect(try await Self.repeats(client) == 1)
            #expect(first.status == .ok && again.status == .ok)
            #expect(Self.comparable(first.headers) == Self.comparable(again.headers))
            #expect(first.body == again.body)
            #expect(first.headers[.setCookie] != again.headers[.setCookie])
            #expect(Self.comparable(again.headers).contains("x-content-type-options: nosniff"))

            // gzip: the chain compresses the body once; its repeat is the desk's, byte for byte.
            let gzip: HTTPFields = [.acceptEncoding: "gzip, deflate, br"]
            let chainGzip = try await client.execute(uri: Self.url, method: .get, headers: gzip)
            #expect(try await Self.repeats(client) == 1)
            let deskGzip = try await client.execute(uri: Self.url, method: .get, headers: gzip)
            #expect(try await Self.repeats(client) == 2)
            #expect(deskGzip.headers[.contentEncoding] == "gzip" && deskGzip.headers[.eTag]?.hasSuffix("-gzip\"") == true)
            #expect(Self.comparable(chainGzip.headers) == Self.comparable(deskGzip.headers))
            #expect(chainGzip.body == deskGzip.body)

            // A returning browser: no new cookie, and the lookup goes to its history.
            let token = try #require(first.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let returning = try await client.execute(uri: Self.url, method: .get, headers: [.cookie: token])
            #expect(try await Self.repeats(client) == 3)
            #expect(returning.status == .ok && returning.headers[.setCookie] == nil && returning.body == first.body)
            try await Task.sleep(for: .milliseconds(1_200))
            let history = try await client.execute(uri: "/api/v1/history", method: .get, headers: [.cookie: token])
            #expect(String(buffer: history.body).contains("\"latitude\":1"))

            // A revalidation, another path and a HEAD go down the chain.
            let etag = try #require(first.headers[.eTag])
            let revalidated = try await client.execute(uri: Self.url, method: .get, headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified)
            _ = try await client.execute(uri: Self.url, method: .head)
            _ = try await client.execute(uri: "/api/v1/weather/now?lat=1&lon=2", method: .get)
            #expect(try await Self.repeats(client) == 3)
        }
    }
}
