import BrollyCore
import Foundation

/// One value as the terminal writes it, in the reader's units and language.
extension TextRenderer {
    /// A temperature in °C, in the reader's unit.
    public func temp(_ c: Double) -> String { temp(Measure(c, in: choice.temperature)) }

    /// `3°C`, `37°F`, `276 K`: rounded first, so that -0.3 °C prints as 0°C, never -0°C.
    func temp(_ t: Measure<TemperatureUnit>) -> String { "\(Rounding.whole(t.value))\(symbolAfterNumber)" }

    /// The temperature's symbol as written after a number: `°C`, `°F`, ` K`.
    var symbolAfterNumber: String { choice.temperature == .kelvin ? " K" : choice.temperature.symbol }

    /// wttr.in's colour ramp: 256-colour codes from deep blue (cold) to red (hot), by °C.
    static let temperatureColours: [(upTo: Double, code: Int)] = [
        (-15, 21), (-12, 27), (-9, 33), (-6, 39), (-3, 45), (0, 51), (2, 50), (4, 49), (6, 48), (8, 47), (10, 46), (13, 82),
        (16, 118), (19, 154), (22, 190), (25, 226), (28, 220), (31, 214), (34, 208), (37, 202),
    ]

    /// A temperature coloured by its value (only when colour is on).
    func colouredTemp(_ c: Double) -> String { colouredTemp(Measure(c, in: choice.temperature)) }

    func colouredTemp(_ t: Measure<TemperatureUnit>) -> String {
        let s = temp(t)
        guard color else { return s }
        let code = Self.temperatureColours.first { t.base <= $0.upTo }?.code ?? 196
        return paint(s, "38;5;\(code)")
    }

    /// A number with its unit's decimals and name, in the language: "4.2 m/s", "1012 hPa", "0.5 cm".
    func measure<U: MeasureUnit>(_ m: Measure<U>) -> String {
        language.number(String(format: "%.\(m.unit.decimals)f ", m.value)) + language.text("unit_" + m.unit.rawValue)
    }

    /// What else the station reports, in the reader's units and language: "dew point 3°C ·
    /// visibility 10 km · slight rain · overcast at 0.8 km · gusts 9 m/s".
    func measuredDetails(_ o: Observation) -> String {
        let l = language
        var parts: [String] = []
        if let d = o.dewPoint { parts.append(l.text("measuredDewPoint", ["value": temp(d)])) }
        if let v = o.visibility { parts.append(l.text("measuredVisibility", ["value": measure(Measure(v, in: choice.distance))])) }
        if let w = o.weather { parts.append(WeatherDocument.reportedText(w, language: l) ?? w) }
        if let cover = o.cover, let text = WeatherDocument.coverText(cover, language: l) {
            parts.append(
                o.cloudBase.map { l.text("measuredCloudBase", ["cover": text, "height": measure(Measure($0, in: choice.distance))]) }
                    ?? text)
        }
        if let g = o.windGust { parts.append(l.text("measuredGusts", ["value": speed(Measure(g, in: choice.wind))])) }
        return parts.joined(separator: " · ")
    }

    /// "4.2 m/s", "15.1 km/h", "3 Bft, gentle breeze".
    func speed(_ w: Measure<WindUnit>) -> String {
        guard w.unit == .bft else { return measure(w) }
        let force = Int(w.value)
        return "\(force) \(language.plural("unit_bft", Double(force))), \(language.beaufortName(force))"
    }

    /// "1012 hPa", "759 mmHg", "29.89 inHg" (a point whatever the language, as barometers write it).
    func pressure(_ p: Measure<PressureUnit>) -> String {
        String(format: "%.\(p.unit.decimals)f ", p.value) + language.text("unit_" + p.unit.rawValue)
    }

    /// "just now", "4 min ago", "2 h ago" (in `language`).
    public static func age(_ seconds: TimeInterval, language: LanguagePack = Localization.english) -> String {
        let s = Int(max(0, seconds))
        if s < 60 { return language.text("justNow") }
        if s < 3600 { return language.text("minutesAgo", ["n": String(s / 60)]) }
        if s < 172_800 { return language.text("hoursAgo", ["n": String(s / 3600)]) }
        return language.plural("daysAgo", Double(s / 86_400), ["n": String(s / 86_400)])
    }

    /// An air-quality band's name ("Moderate") in the language.
    func band(_ b: AirQualityBand) -> String { language.bandName(b.category) }

    /// A date's short weekday ("Fri", "пт", "金") in the language.
    func weekday(_ date: String) -> String { language.weekday(ofDate: date) }
}
