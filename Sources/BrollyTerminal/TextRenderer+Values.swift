import BrollyCore
import Foundation

/// One value as the terminal writes it, in the reader's units and language.
extension TextRenderer {
    public func temp(_ c: Double) -> String {
        // Rounded first, so that -0.3 °C prints as 0°C, never -0°C.
        "\(Rounding.whole(choice.temperature.convert(c)))\(symbolAfterNumber)"
    }

    /// The temperature's symbol as written after a number: `°C`, `°F`, ` K`.
    var symbolAfterNumber: String { choice.temperature == .kelvin ? " K" : choice.temperature.symbol }

    /// wttr.in's colour ramp: 256-colour codes from deep blue (cold) to red (hot), by °C.
    static let temperatureColours: [(upTo: Double, code: Int)] = [
        (-15, 21), (-12, 27), (-9, 33), (-6, 39), (-3, 45), (0, 51), (2, 50), (4, 49), (6, 48), (8, 47), (10, 46), (13, 82),
        (16, 118), (19, 154), (22, 190), (25, 226), (28, 220), (31, 214), (34, 208), (37, 202),
    ]

    /// A temperature coloured by its value (only when colour is on).
    func colouredTemp(_ c: Double) -> String {
        let s = temp(c)
        guard color else { return s }
        let code = Self.temperatureColours.first { c <= $0.upTo }?.code ?? 196
        return paint(s, "38;5;\(code)")
    }

    /// "4.2 m/s", "15.1 km/h", "3 Bft, gentle breeze".
    func speed(_ ms: Double) -> String {
        let wind = choice.wind
        if wind == .bft {
            let force = WindUnit.beaufort(ms)
            return "\(force) \(language.plural("unit_bft", Double(force))), \(language.beaufortName(force))"
        }
        return language.number(String(format: "%.1f ", wind.convert(ms))) + language.text("unit_" + wind.rawValue)
    }

    func amount(_ mm: Double) -> String {
        let p = choice.precipitation
        return language.number(String(format: "%.\(p.decimals)f ", p.convert(mm))) + language.text("unit_" + p.rawValue)
    }

    /// Fresh snow (mm of depth): centimetres where rain is in millimetres, as metric readers count
    /// snow; else inches.
    func snowDepth(_ mm: Double) -> String {
        let s = choice.precipitation.snow
        return language.number(String(format: "%.\(s.decimals)f ", s.convert(mm))) + language.text("unit_" + s.rawValue)
    }

    /// "1012 hPa", "759 mmHg", "29.89 inHg".
    func pressure(_ hpa: Double) -> String {
        let p = choice.pressure
        return String(format: "%.\(p.decimals)f ", p.convert(hpa)) + language.text("unit_" + p.rawValue)
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
