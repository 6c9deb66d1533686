import BrollyCore
import BrollyTestSupport
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
        let id = DeviceTokens.id(forToken: "secret")
        #expect(id == "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b")
        #expect(!id.contains("secret"))
    }

    @Test func tokensAre43Base64URLCharactersSignedByTheServer() async {
        let tokens = DeviceTokens(secret: Array(repeating: 7, count: 32))
        let token = tokens.make()
        #expect(DeviceTokens.isWellFormed(token) && token != tokens.make())
        #expect(await tokens.isValid(token))
        #expect(!DeviceTokens.isWellFormed("short") && !DeviceTokens.isWellFormed(String(repeating: "+", count: 43)))
        // Another server's token, a self-made one, and one with a changed character are refused.
        #expect(await !DeviceTokens(secret: Array(repeating: 8, count: 32)).isValid(token))
        #expect(await !tokens.isValid(String(repeating: "A", count: 43)))
        var flipped = Array(token)
        flipped[40] = flipped[40] == "A" ? "B" : "A"
        #expect(await !tokens.isValid(String(flipped)))
    }

    @Test func aTokenFromBeforeTheHMACIsHonouredOnlyWhenItsDeviceExists() async {
        let legacy = String(repeating: "x", count: 43)
        let known = DeviceTokens.id(forToken: legacy)
        let tokens = DeviceTokens(secret: Array(repeating: 7, count: 32), isKnownDevice: { $0 == known })
        #expect(await tokens.isValid(legacy))
        #expect(await !tokens.isValid(String(repeating: "y", count: 43)))
    }

    @Test func theCookieIsFoundAmongOthers() {
        #expect(DeviceTokens.cookie(inHeader: "brolly_device=abc") == "abc")
        #expect(DeviceTokens.cookie(inHeader: "a=1; brolly_device=abc ; b=2") == "abc")
        #expect(DeviceTokens.cookie(inHeader: "xbrolly_device=no; brolly_device=yes") == "yes")
        #expect(DeviceTokens.cookie(inHeader: "a=1;b=2") == nil && DeviceTokens.cookie(inHeader: "brolly_device=") == nil)
    }

    @Test func theSecretIsMadeOnceWithMode0600() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-secret-\(UUID().uuidString)")
        let url = dir.appendingPathComponent("device-secret")
        let first = try DeviceSecret.load(at: url)
        let second = try DeviceSecret.load(at: url)
        #expect(first.count == 32 && second == first)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

@Suite struct ServingSettingsTests {
    @Test func proxiesOriginsAndLimitsAreRead() throws {
        let s = try ServerSettings.fromEnvironment([
            "BROLLY_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2", "BROLLY_PUBLIC_ORIGIN": "https://Weather.example.com",
            "BROLLY_CLIENT_CALLS_PER_MINUTE": "5", "BROLLY_NEW_DEVICES_PER_MINUTE": "2", "BROLLY_METRICS_TOKEN": "t",
        ])
        #expect(s.trustedProxies == ["10.0.0.1", "10.0.0.2"] && s.allowedOrigins == ["https://weather.example.com:443"])
        #expect(s.clientCallsPerMinute == 5 && s.newDevicesPerMinute == 2 && s.metricsToken == "t")
        #expect(try ServerSettings.fromEnvironment([:], port: 9000).allowedOrigins.contains("http://localhost:9000"))
    }

    @Test(arguments: [
        ["BROLLY_PUBLIC_ORIGIN": "weather.example.com"], ["BROLLY_PUBLIC_ORIGIN": "https://x.example/app"],
        ["BROLLY_CLIENT_CALLS_PER_MINUTE": "0"], ["BROLLY_NEW_DEVICES_PER_MINUTE": "many"],
    ])
    func badServingSettingsAreInputErrors(_ env: [String: String]) {
        #expect(throws: BrollyServerError.self) { try ServerSettings.fromEnvironment(env) }
    }

    @Test func theClientIsThePeerUnlessATrustedProxySaysOtherwise() {
        #expect(ClientMiddleware.clientIP(peer: "1.2.3.4", forwardedFor: "5.6.7.8", trusted: []) == "1.2.3.4")
        #expect(ClientMiddleware.clientIP(peer: "10.0.0.1", forwardedFor: "9.9.9.9, 5.6.7.8", trusted: ["10.0.0.1"]) == "5.6.7.8")
        #expect(
            ClientMiddleware.clientIP(peer: "10.0.0.1", forwardedFor: "5.6.7.8, 10.0.0.2", trusted: ["10.0.0.1", "10.0.0.2"]) == "5.6.7.8")
    }

    @Test func pathsWithControlBytesAreRecognised() {
        #expect(ProblemMiddleware<AppRequestContext>.hasControlBytes("/app.js%00.html"))
        #expect(ProblemMiddleware<AppRequestContext>.hasControlBytes("/a%0Ab"))
        #expect(ProblemMiddleware<AppRequestContext>.hasControlBytes("/a%7f"))
        #expect(!ProblemMiddleware<AppRequestContext>.hasControlBytes("/Z%C3%BCrich"))
        #expect(!ProblemMiddleware<AppRequestContext>.hasControlBytes("/api/v1/weather"))
    }
}
