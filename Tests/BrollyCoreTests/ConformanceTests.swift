import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// Decodes every real provider response under `$BROLLY_CONFORMANCE_DIR` (set by `.ci/run` to
/// `../shared/fixtures` when it exists) and checks the values are sane.
@Suite struct ConformanceTests {
    static let directory = ProcessInfo.processInfo.environment["BROLLY_CONFORMANCE_DIR"].flatMap { $0.isEmpty ? nil : $0 }

    /// Celsius from a value in the units the file was requested in: imperial files say so in
    /// their name; anything above 100 can only be kelvin (standard units).
    static func celsius(_ value: Double, file: String) -> Double {
        if file.contains("imperial") { return Metric.celsius(fromFahrenheit: value) }
        return value > 100 ? Metric.celsius(fromKelvin: value) : value
    }

    static func checkTemperature(_ t: Double, _ file: String) {
        let c = celsius(t, file: file)
        #expect((-90...60).contains(c), "\(file): temperature \(t) is \(c) °C")
    }

    static func checkHumidity(_ h: Double?, _ file: String) {
        if let h { #expect((0...100).contains(h), "\(file): humidity \(h)") }
    }

    static func checkCoordinate(_ lat: Double?, _ lon: Double?, _ file: String) {
        if let lat, let lon { #expect(Coordinate(latitude: lat, longitude: lon).isValid, "\(file): \(lat), \(lon)") }
    }

    static func checkCurrent(_ c: CurrentConditions?, _ file: String) {
        guard let c else { return }
        checkTemperature(c.temperature, file)
        checkHumidity(c.humidity, file)
        if let p = c.pressure { #expect((850...1090).contains(p), "\(file): pressure \(p)") }
    }

    @Test(.enabled(if: directory != nil, "BROLLY_CONFORMANCE_DIR is not set: conformance test skipped"))
    func everyResponseDecodesToSaneValues() throws {
        let root = URL(fileURLWithPath: Self.directory!)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { ["json", "xml"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        var checked = 0
        var skipped: [String] = []
        for url in files {
            let provider = url.deletingLastPathComponent().lastPathComponent
            let name = url.lastPathComponent
            let file = "\(provider)/\(name)"
            let data = try Data(contentsOf: url)
            do {
                switch (provider, name) {
                case ("open-meteo", let n) where n.hasPrefix("forecast"):
                    let d = try OpenMeteoProvider.decode(data, receivedAt: Date())
                    Self.checkCurrent(d.current, file)
                    d.hours.forEach { Self.checkTemperature($0.temperature, file) }
                    for day in d.days {
                        Self.checkTemperature(day.temperatureMin, file)
                        Self.checkTemperature(day.temperatureMax, file)
                        #expect(day.temperatureMin <= day.temperatureMax, "\(file): \(day.date)")
                    }
                    Self.checkCoordinate(d.latitude, d.longitude, file)
                    for slot in d.minutely {
                        #expect((0...100).contains(slot.precipitation), "\(file): 15-minute precipitation \(slot.precipitation)")
                    }
                    if n.contains("minutely_15") { #expect(!d.minutely.isEmpty, "\(file): no minutely_15 slots") }
                case ("open-meteo", let n) where n.hasPrefix("air-quality"):
                    let a = try OpenMeteoAirQuality.decode(data, fetchedAt: Date())
                    #expect(!a.isEmpty, "\(file): no values")
                    if let e = a.europeanAQI { #expect((0...500).contains(e), "\(file): European AQI \(e)") }
                    if let u = a.usAQI { #expect((0...500).contains(u), "\(file): US AQI \(u)") }
                    if let uv = a.uvIndex { #expect((0...20).contains(uv), "\(file): UV \(uv)") }
                    a.pollen.values.forEach { #expect($0 >= 0, "\(file): pollen") }
                case ("open-meteo", let n) where n.hasPrefix("geocoding"):
                    try OpenMeteoProvider.places(from: data).forEach { Self.checkCoordinate($0.latitude, $0.longitude, file) }
                case ("openweathermap", let n) where n.hasPrefix("current"):
                    let (c, place, _) = try OpenWeatherMapProvider.current(from: data)
                    Self.checkCurrent(c, file)
                    Self.checkCoordinate(place.latitude, place.longitude, file)
                    #expect(!c.condition.description.isEmpty, "\(file): condition")
                case ("openweathermap", let n) where n.hasPrefix("forecast"):
                    let (slots, city, zone) = try OpenWeatherMapProvider.forecast(from: data)
                    #expect(!slots.isEmpty, "\(file): no slots")
                    slots.forEach { Self.checkTemperature($0.temperature, file) }
                    Self.checkCoordinate(city.latitude, city.longitude, file)
                    #expect(DayGrouping.days(from: slots, in: zone).count >= 5, "\(file): fewer than 5 local days")
                case ("openweathermap", let n) where n.hasPrefix("onecall"):
                    let d = try OpenWeatherMapProvider.oneCall(from: data)
                    Self.checkCurrent(d.current, file)
                    d.hours.forEach { Self.checkTemperature($0.temperature, file) }
                    d.days.forEach { Self.checkTemperature($0.temperatureMax, file) }
                    Self.checkCoordinate(d.latitude, d.longitude, file)
                case ("openweathermap", let n) where n.hasPrefix("geo"):
                    let places = try OpenWeatherMapProvider.places(from: data)
                    #expect(!places.isEmpty, "\(file): no places")
                    places.forEach { Self.checkCoordinate($0.latitude, $0.longitude, file) }
                case ("openweathermap", let n) where n.hasPrefix("error"):
                    let status = Int(n.split(separator: "-")[1])!
                    let error = OpenWeatherMapProvider.classifyError(HTTPResponse(status: status, body: data))
                    let expected: [Int: BrollyError.Kind] = [401: .invalidAPIKey, 404: .placeNotFound, 429: .rateLimited]
                    #expect(error?.kind == expected[status], "\(file): \(String(describing: error))")
                case ("nws", let n) where n.contains("400-problem"):
                    let json = try JSONValue.parse(data, provider: "NWS")
                    #expect(json["status"]?.int == 400, "\(file): not a 400 problem")
                case ("nws", let n):
                    let messages = try CAPDecoding.nws(data)
                    for m in messages {
                        #expect(!m.infos.isEmpty && !m.infos[0].event.isEmpty, "\(file): \(m.identifier) has no event")
                        #expect(m.sent != nil, "\(file): \(m.identifier) has no sent time")
                    }
                    if !n.contains("empty") { #expect(!messages.isEmpty, "\(file): no alerts") }
                case ("meteoalarm", let n) where n.hasSuffix(".json"):
                    let messages = try CAPDecoding.meteoAlarm(data)
                    #expect(!messages.isEmpty, "\(file): no warnings")
                    for m in messages {
                        #expect(!m.infos.isEmpty, "\(file): \(m.identifier) has no info")
                        #expect(m.infos.allSatisfy { !$0.areas.isEmpty }, "\(file): \(m.identifier) has no area")
                        // An English info is chosen for English readers when there is one.
                        if m.infos.contains(where: { $0.language.hasPrefix("en") }) {
                            #expect(AlertFilter.choose(m.infos, language: "en")?.language.hasPrefix("en") == true, "\(file)")
                        }
                    }
                case ("meteoalarm", _), ("cap", _):
                    let (messages, links) = try CAPDecoding.xml(data)
                    #expect(!messages.isEmpty || !links.isEmpty, "\(file): no CAP alert and no entry links")
                    for m in messages {
                        #expect(!m.infos.isEmpty && m.sent != nil, "\(file): \(m.identifier)")
                        #expect(m.infos.allSatisfy { AlertSeverity(cap: $0.severity) != .unknown }, "\(file): severity")
                    }
                case ("aviationweather", _):
                    let observations = try METAR.decode(data)
                    #expect(!observations.isEmpty, "\(file): no reports")
                    for o in observations {
                        Self.checkCoordinate(o.latitude, o.longitude, file)
                        if let t = o.temperature { Self.checkTemperature(t, file) }
                        if let p = o.pressure { #expect((850...1090).contains(p), "\(file): altimeter \(p)") }
                        if let w = o.windSpeed { #expect((0...120).contains(w), "\(file): wind \(w)") }
                    }
                case ("nominatim", _):
                    let a = try NominatimGeocoder.address(from: data)
                    Self.checkCoordinate(a.latitude, a.longitude, file)
                    #expect(a.city != nil && a.country != nil, "\(file): no city or country")
                case ("google", _):
                    let a = try GoogleGeocoding.address(from: data)
                    Self.checkCoordinate(a.latitude, a.longitude, file)
                    #expect(a.city != nil && a.country != nil, "\(file): no city or country")
                case ("bbc", _):
                    let items = try NewsDecoding.rss(data)
                    #expect(!items.isEmpty, "\(file): no items")
                    for item in items {
                        #expect(!item.title.isEmpty && !item.title.contains("<![CDATA["), "\(file): title \(item.title)")
                        #expect(item.url.hasPrefix("http"), "\(file): link \(item.url)")
                    }
                case ("newsapi", _):
                    let items = try NewsDecoding.newsAPI(data)
                    #expect(!items.isEmpty, "\(file): no articles")
                    items.forEach { #expect($0.url.hasPrefix("http") && $0.publishedAt.timeIntervalSince1970 > 1e9, "\(file)") }
                default:
                    skipped.append(file)
                    continue
                }
                checked += 1
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
        print("conformance: \(checked) responses checked; skipped: \(skipped.isEmpty ? "none" : skipped.joined(separator: ", "))")
        #expect(checked > 0)
    }
}
