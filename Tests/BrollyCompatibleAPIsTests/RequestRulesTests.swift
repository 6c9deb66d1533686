import BrollyCore
import Foundation
import Testing

@testable import BrollyCompatibleAPIs

/// The request rules, once for every API: the same input gets the same answer from Brolly's own
/// API (`QueryParameters` reads by these rules) and from each compatible surface.
@Suite struct RequestRulesTests {
    @Test func numbersAreDecimalNumbersOnly() {
        for good in ["52.52", "-13.4", "+1", "1e3", "0.5E-2", " 7 "] { #expect(RequestRules.number(good) != nil, "\(good)") }
        for bad in ["0x1p3", "nan", "inf", "-infinity", "1,5", "", ".", "1e", "٣"] { #expect(RequestRules.number(bad) == nil, "\(bad)") }
    }

    @Test func languageTagsHaveBCP47sShape() {
        for good in ["en", "pt-BR", "zh_tw", "zh-Hant-TW", "x-pig-latin", "RU"] {
            #expect(RequestRules.languageTag(good) != nil, "\(good)")
        }
        for bad in ["", "e n", "en--gb", "toolongprimary", "ру", "en-" + String(repeating: "a", count: 40)] {
            #expect(RequestRules.languageTag(bad) == nil, "\(bad)")
        }
    }

    @Test func everyErrorHasOneStatus() {
        #expect(RequestRules.status(of: .invalidInput("x")) == 400)
        #expect(RequestRules.status(of: .placeNotFound("x")) == 404)
        #expect(RequestRules.status(of: BrollyError(.clientLimited, "x")) == 429)
        #expect(RequestRules.status(of: BrollyError(.rateLimited, "x")) == 503)
        #expect(RequestRules.status(of: BrollyError(.notCached, "x")) == 503)
        #expect(RequestRules.status(of: BrollyError(.timedOut, "x")) == 504)
        #expect(RequestRules.status(of: BrollyError(.providerUnavailable, "x")) == 502)
    }

    func request(_ path: String, _ parameters: [String: String] = [:], _ query: [(String, String)] = []) -> CompatibleRequest {
        CompatibleRequest(path: path, parameters: parameters, query: query.map { (name: $0.0, value: $0.1) })
    }

    func refusal(_ body: () throws(CompatibleRefusal) -> CompatibleAsk) -> CompatibleRefusal? {
        do {
            _ = try body()
            return nil
        } catch { return error }
    }

    /// `0x1p3` is 8 to `Double(_:)`; no API takes it, nor `nan`, nor a latitude past the pole.
    @Test(arguments: ["0x1p3,13.4", "nan,13.4", "52.5,inf", "91,13.4", "52.5,181"])
    func darkSkyRefusesWhatBrollyRefuses(_ location: String) {
        let r = refusal { () throws(CompatibleRefusal) in
            try DarkSkySurface().read(request("/forecast/k/\(location)", ["location": location]), route: ":key/:location")
        }
        #expect(r?.status == 400)
    }

    @Test(arguments: [("0x1p3", "13.4"), ("nan", "13.4"), ("52.5", "1e999"), ("-91", "0")])
    func openWeatherMapRefusesWhatBrollyRefuses(_ lat: String, _ lon: String) {
        let r = refusal { () throws(CompatibleRefusal) in
            try OpenWeatherMapSurface().read(request("/data/2.5/weather", [:], [("lat", lat), ("lon", lon)]), route: "weather")
        }
        #expect(r?.status == 400)
    }

    @Test func openMeteoRefusesHexadecimalNumbers() {
        let r = refusal { () throws(CompatibleRefusal) in
            try OpenMeteoSurface().read(
                request("/v1/forecast", [:], [("latitude", "0x1p3"), ("longitude", "13"), ("current", "temperature_2m")]),
                route: "forecast")
        }
        #expect(r?.status == 400)
    }

    @Test func aRepeatedParameterAndABadLanguageAreRefusedAlike() {
        for surface in [DarkSkySurface() as any CompatibleSurface, OpenWeatherMapSurface()] {
            let path = surface.mount + "/k/52.5,13.4"
            let base = surface is DarkSkySurface ? [] : [("lat", "52.5"), ("lon", "13.4")]
            let repeated = refusal { () throws(CompatibleRefusal) in
                try surface.read(
                    request(path, ["location": "52.5,13.4"], base + [("lang", "en"), ("lang", "ru")]), route: surface.routes[0])
            }
            #expect(repeated?.status == 400)
            let badLanguage = refusal { () throws(CompatibleRefusal) in
                try surface.read(request(path, ["location": "52.5,13.4"], base + [("lang", "e n")]), route: surface.routes[0])
            }
            #expect(badLanguage?.status == 400)
        }
    }
}
