import BrollyCore
import BrollyTestSupport
import BrollyUseCases
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import BrollyServer

/// Each controller's routes through the router (`app.test(.router)`), with a device cookie the
/// server minted: parsing, the use case it calls, and how it renders — success and failure.
@Suite struct ControllerRouteTests {
    /// A client that keeps the device cookie the server gives it.
    final class Session: Sendable {
        let cookie = Locked<String?>(nil)

        func headers(_ more: HTTPFields = [:]) -> HTTPFields {
            var h = more
            if let c = cookie.current { h[.cookie] = c }
            return h
        }

        func keep(_ response: TestResponse) {
            if let set = response.headers[.setCookie], let first = set.split(separator: ";").first {
                cookie.withLock { $0 = String(first) }
            }
        }
    }

    func json(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(buffer: response.body), options: [.fragmentsAllowed])
    }

    func app() -> some ApplicationProtocol { makeApp(StubProvider(.success(report()))) }

    @Test func placesAreSavedRenamedMovedAndRemoved() async throws {
        let s = Session()
        try await app().test(.router) { client in
            let body = #"{"latitude": 1, "longitude": 2, "name": "Home"}"#
            var ids: [Int] = []
            for name in ["Home", "Work"] {
                let b = body.replacingOccurrences(of: "Home", with: name).replacingOccurrences(
                    of: "\"latitude\": 1", with: "\"latitude\": \(ids.count + 1)")
                try await client.execute(
                    uri: "/api/v1/places", method: .post, headers: s.headers([.contentType: "application/json"]),
                    body: ByteBuffer(string: b)
                ) { response in
                    s.keep(response)
                    #expect(response.status == .created)
                    ids.append(try #require((try json(response) as? [String: Any])?["id"] as? Int))
                }
            }
            // Rename and move in one request: one atomic change.
            try await client.execute(
                uri: "/api/v1/places/\(ids[1])", method: .patch, headers: s.headers([.contentType: "application/json"]),
                body: ByteBuffer(string: #"{"customName": "Office", "position": 0}"#)
            ) { response in
                #expect(response.status == .ok)
                let place = try #require(try json(response) as? [String: Any])
                #expect(place["displayName"] as? String == "Office" && (place["position"] as? Int) == 0)
            }
            try await client.execute(uri: "/api/v1/places", method: .get, headers: s.headers()) { response in
                let list = try #require(try json(response) as? [[String: Any]])
                #expect(list.map { $0["displayName"] as? String } == ["Office", "Home"])
            }
            try await client.execute(
                uri: "/api/v1/places/\(ids[1])", method: .patch, headers: s.headers([.contentType: "application/json"]),
                body: ByteBuffer(string: #"{}"#)
            ) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/places/\(ids[0])", method: .delete, headers: s.headers()) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/places/\(ids[0])", method: .delete, headers: s.headers()) { response in
                #expect(response.status == .notFound && response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func historyIsListedOpenedAndDeleted() async throws {
        let s = Session()
        try await app().test(.router) { client in
            try await client.execute(uri: "/api/v1/history", method: .get, headers: s.headers()) { response in
                s.keep(response)
                #expect(response.status == .ok)
            }
            // A returning device's lookup is recorded.
            try await client.execute(uri: "/api/v1/weather?lat=5&lon=6", method: .get, headers: s.headers()) { #expect($0.status == .ok) }
            var id = 0
            for _ in 0..<50 where id == 0 {
                try await client.execute(uri: "/api/v1/history", method: .get, headers: s.headers()) { response in
                    let items = (try json(response) as? [String: Any])?["items"] as? [[String: Any]] ?? []
                    id = items.first?["id"] as? Int ?? 0
                }
                if id == 0 { for _ in 0..<1_000 { await Task.yield() } }
            }
            #expect(id != 0)
            try await client.execute(uri: "/api/v1/history/\(id)", method: .get, headers: s.headers()) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/history/\(id)", method: .delete, headers: s.headers()) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/history/\(id)", method: .get, headers: s.headers()) { #expect($0.status == .notFound) }
        }
    }

    @Test func addressNewsAndAlertsDegradeWithoutTheWeather() async throws {
        // Every helper refuses in these tests: address and news are problems of their own; the
        // alerts answer with their sources failed; the weather is unaffected.
        try await app().test(.router) { client in
            try await client.execute(uri: "/api/v1/address?lat=1&lon=2", method: .get) { response in
                #expect([502, 503, 504].contains(Int(response.status.code)) && response.headers[.retryAfter] != nil)
            }
            try await client.execute(uri: "/api/v1/news?lat=1&lon=2", method: .get) { response in
                #expect((400..<600).contains(Int(response.status.code)) && response.status != .internalServerError)
            }
            try await client.execute(uri: "/api/v1/alerts?lat=40.7&lon=-74", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/alerts?lat=400&lon=-74", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/weather?lat=40.7&lon=-74", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func pushWithoutAKeyIsAProblemNotACrash() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/api/v1/push/key", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let problem = try json(response) as? [String: Any]
                #expect(problem?["code"] as? String == "push-disabled")
            }
        }
    }

    @Test func theTerminalViewsWidgetAndManifestAreServed() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/52.52,13.41?format=3", method: .get, headers: [.userAgent: "curl/8.0"]) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("°C"))
            }
            try await client.execute(uri: "/widget?lat=1&lon=2", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/manifest.webmanifest", method: .get) { response in
                #expect(response.status == .ok)
                let manifest = try json(response) as? [String: Any]
                #expect(manifest?["name"] != nil)
            }
            try await client.execute(uri: "/api/v1/weather/now?lat=1&lon=2", method: .get) { response in
                #expect(response.status == .ok)
                let now = try json(response) as? [String: Any]
                #expect(now?["temperature"] != nil)
            }
        }
    }
}
