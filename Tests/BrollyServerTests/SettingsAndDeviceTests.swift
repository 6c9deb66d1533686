import BrollyCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import BrollyServer

@Suite struct ServerSettingsTests {
    @Test func defaultsWithAnEmptyEnvironment() throws {
        let s = try ServerSettings.fromEnvironment([:])
        #expect(s.host == "127.0.0.1" && s.port == 8080 && s.logLevel == .info)
        #expect(s.leafletDirectory == "/usr/share/javascript/leaflet" && s.webDirectory == ServerSettings.bundledWebDirectory)
    }

    @Test func environmentIsReadAndTheCommandLineWins() throws {
        let env = [
            "BROLLY_HOST": "0.0.0.0", "BROLLY_PORT": "9090", "BROLLY_LEAFLET_DIR": "/opt/leaflet", "BROLLY_WEB_DIR": "/srv/web",
            "BROLLY_LOG_LEVEL": "DEBUG",
        ]
        let s = try ServerSettings.fromEnvironment(env)
        #expect(s.host == "0.0.0.0" && s.port == 9090 && s.leafletDirectory == "/opt/leaflet" && s.webDirectory == "/srv/web")
        #expect(s.logLevel == .debug)
        let flags = try ServerSettings.fromEnvironment(env, host: "::1", port: 7070)
        #expect(flags.host == "::1" && flags.port == 7070)
        #expect(try ServerSettings.fromEnvironment(["BROLLY_PORT": "", "BROLLY_HOST": " "]).port == 8080)
    }

    @Test(arguments: [["BROLLY_PORT": "80a"], ["BROLLY_PORT": "70000"], ["BROLLY_LOG_LEVEL": "loud"]])
    func badSettingsAreInputErrors(_ env: [String: String]) {
        #expect(throws: BrollyServerError.self) { try ServerSettings.fromEnvironment(env) }
    }
}

@Suite struct DeviceTokenTests {
    @Test func deviceIDsAreHashedTokens() {
        let id = DeviceToken.id(forToken: "secret")
        #expect(id == "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b")
        #expect(!id.contains("secret"))
    }

    @Test func tokensAre43Base64URLCharacters() {
        let token = DeviceToken.make()
        #expect(DeviceToken.isWellFormed(token) && token != DeviceToken.make())
        #expect(!DeviceToken.isWellFormed("short") && !DeviceToken.isWellFormed(String(repeating: "+", count: 43)))
    }
}

@Suite struct SavedPlacesAPITests {
    @Test func aDevicesPlacesRoundTripAndUnknownIDsAreProblems() async throws {
        try await makeApp(StubProvider(.success(report()))).test(.router) { client in
            let cookie = try await client.execute(uri: "/api/v1/places", method: .get) { response -> String in
                #expect(response.status == .ok && String(buffer: response.body) == "[]")
                let set = try #require(response.headers[.setCookie])
                return String(set.split(separator: ";")[0])
            }
            let body = ByteBuffer(string: #"{"query": "Paris", "customName": "Work"}"#)
            try await client.execute(
                uri: "/api/v1/places", method: .post, headers: [.cookie: cookie, .contentType: "application/json"], body: body
            ) { response in
                #expect(response.status == .created)
                let saved = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(saved?["displayName"] as? String == "Work" && saved?["position"] as? Int == 0)
                #expect(saved?["deviceId"] == nil)  // the storage record never leaves the store
            }
            try await client.execute(uri: "/api/v1/places/999", method: .delete, headers: [.cookie: cookie]) { response in
                #expect(response.status == .notFound && response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(uri: "/api/v1/history/5", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .notFound)
                let problem = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(problem?["code"] as? String == "not-found")
            }
            try await client.execute(uri: "/api/v1/nowhere", method: .get) { response in
                #expect(response.status == .notFound && response.headers[.contentType] == "application/problem+json")
            }
        }
    }
}
