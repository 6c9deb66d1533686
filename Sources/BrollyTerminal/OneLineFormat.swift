import BrollyCore
import Foundation

/// wttr.in's one-line format (`curl wttr.in/Paris?format="%l: %c %t"`), for status bars, tmux and
/// scripts, plus Brolly's own codes. Unknown codes are printed as they are; no format is an error.
///
/// | code | meaning | | code | meaning |
/// |---|---|---|---|---|
/// | `%c` | condition symbol (emoji) | | `%D` | dawn (civil) |
/// | `%C` | condition text | | `%S` | sunrise |
/// | `%x` | plain-text condition symbol | | `%z` | zenith (solar noon) |
/// | `%h` | humidity | | `%s` | sunset |
/// | `%t` | temperature | | `%d` | dusk (civil) |
/// | `%f` | feels like | | `%T` | local time |
/// | `%w` | wind (arrow and speed) | | `%Z` | time zone |
/// | `%l` | location | | `%%` | a percent sign |
/// | `%m` | moon phase symbol | | `%a` | the most severe active alert (Brolly) |
/// | `%M` | moon day | | `%y` | warmer or colder than yesterday (Brolly) |
/// | `%p` | precipitation now (mm, Brolly's latest reading, not wttr.in's 3 h) | | `%q` | air quality (Brolly) |
/// | `%P` | pressure | | `%r` | the next hour's precipitation and chance (Brolly) |
/// | `%u` | UV index (Brolly's air-quality answer) | | | |
///
/// Codes whose data the answer does not carry print nothing.
public struct OneLineFormat: Sendable {
    /// The reader's units, each on its own (temperature, wind, pressure, precipitation).
    public var units: UnitChoice
    /// The language of the condition text (`%C`).
    public var language: LanguagePack = Localization.english

    public init(units: UnitChoice) { self.units = units }

    /// A preset's units: m/s for metric and kelvin, mph for imperial.
    public init(units: UnitSystem) { self.init(units: UnitChoice(units)) }

    /// wttr.in's four layouts.
    public static let presets: [String: String] = [
        "1": "%c %t",
        "2": "%c 🌡️%t 🌬️%w",
        "3": "%l: %c %t",
        "4": "%l: %c 🌡️%t 🌬️%w",
    ]

    /// The format for a preset name, else the format itself.
    public static func expanding(_ format: String) -> String { presets[format] ?? format }

    /// The format filled in from the view of one answer (in this format's units and language: `view(_:)`).
    public func render(_ format: String, _ view: WeatherView) -> String {
        var out = ""
        var sun: SkyCalculator.SunTimes?  // computed once, and only for a format that asks for it
        var chars = Self.expanding(format).makeIterator()
        while let ch = chars.next() {
            guard ch == "%" else {
                out.append(ch)
                continue
            }
            guard let code = chars.next() else {
                out.append("%")
                break
            }
            if let value = value(for: code, view, sun: &sun) {
                out += value
            } else {
                out += "%\(code)"
            }
        }
        return out
    }

    /// The text for one code; nil for codes it does not know (printed as they are).
    func value(for code: Character, _ v: WeatherView, sun cached: inout SkyCalculator.SunTimes?) -> String? {
        let c = v.current, zone = v.zone, now = v.now, air = v.airQuality, measured = v.measured
        func sun() -> SkyCalculator.SunTimes {
            if let cached { return cached }
            let times = SkyCalculator.sunTimes(on: now, in: zone, at: v.place.coordinate)
            cached = times
            return times
        }
        func clock(_ date: Date?) -> String {
            guard let date else { return "" }
            return LocalTime.iso8601(date, in: zone).dropFirst(11).prefix(8).description
        }
        switch code {
        case "c": return Self.symbol(c.condition.condition)
        case "C": return c.condition.description.prefix(1).uppercased() + c.condition.description.dropFirst()
        case "x": return Self.plainSymbol(c.condition.kind)
        case "h": return c.humidity.map { "\(Int($0.rounded()))%" } ?? ""
        case "t": return temperature(c.temperature)
        case "f": return c.feelsLike.map(temperature) ?? ""
        case "w": return c.wind.map { wind($0, from: c.windDirection) } ?? ""
        case "l": return v.place.displayName
        case "m": return SkyCalculator.moonSymbol(at: now)
        case "M": return String(Int(SkyCalculator.moonAge(at: now)))
        case "p":
            // The latest reading's rain and snow's water together, as wttr.in's precipitation.
            return amount(c.precipitation ?? Measure(0, in: units.precipitation))
        case "P": return c.pressure.map { "\(Self.number($0.rounded(), $0.unit.decimals))\($0.unit.symbol)" } ?? ""
        case "u": return air?.uvIndex.map { String(Int($0.rounded())) } ?? ""
        case "D": return clock(sun().dawn)
        case "S": return clock(v.sky.sunrise)
        case "z": return clock(sun().zenith)
        case "s": return clock(v.sky.sunset)
        case "d": return clock(sun().dusk)
        case "T":
            let iso = LocalTime.iso8601(now, in: zone)
            return iso.dropFirst(11).prefix(8) + iso.suffix(6).replacingOccurrences(of: ":", with: "")
        case "Z": return zone.identifier
        case "%": return "%"
        case "a": return v.alerts?.first.map { "⚠ \($0.event)" } ?? ""
        case "o":
            guard let m = measured, let t = m.observation.temperature else { return "" }
            return "\(temperature(t)) @\(m.observation.stationID)"
        case "y": return v.comparedWithYesterday ?? ""
        case "q":
            // The band in the format's language (issue 50: English in every language before).
            func band(_ b: AirQualityBand) -> String {
                language.code == "en" ? b.category.lowercased() : language.bandName(b.category)
            }
            if let e = air?.europeanAQI { return "AQI \(Int(e.rounded())) \(band(AirQualityBand.european(e)))" }
            if let u = air?.usAQI { return "US AQI \(Int(u.rounded())) \(band(AirQualityBand.us(u)))" }
            return ""
        case "r": return nextHour(v)
        default: return nil
        }
    }

    /// `+5°C`, `-3°F`, `0°C`, `278K`: whole degrees, rounded as the JSON's value is.
    public func temperature(_ celsius: Double) -> String { temperature(Measure(celsius, in: units.temperature)) }

    func temperature(_ t: Measure<TemperatureUnit>) -> String {
        let whole = Rounding.whole(t.value)
        if t.unit == .kelvin { return "\(whole)K" }
        return (whole > 0 ? "+" : "") + "\(whole)\(t.unit.symbol)"
    }

    /// `↗4.2m/s`, `↗15km/h`, `↗9mph`: m/s with a decimal, the others whole, as wttr.in writes them.
    func wind(_ w: Measure<WindUnit>, from direction: Double?) -> String {
        let arrow = direction.map { Self.arrow($0) } ?? ""
        let decimals = w.unit == .ms ? 1 : 0
        return arrow + Self.number(w.rounded(decimals), decimals) + w.unit.symbol
    }

    func amount(_ p: Measure<PrecipitationUnit>) -> String { Self.number(p.rounded(), p.unit.decimals) + p.unit.symbol }

    /// A number with exactly `decimals` decimals (a point, as scripts read it).
    static func number(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }

    /// The next hour's slot: amount and chance, e.g. `0.4mm 60%`.
    func nextHour(_ v: WeatherView) -> String {
        let now = v.now
        guard let slot = v.hours.first(where: { $0.time > now.addingTimeInterval(-3600) && $0.time <= now.addingTimeInterval(3600) })
        else { return "" }
        let amountText = slot.precipitation.map(amount) ?? ""
        let chance = slot.chance.map { "\(Int($0.rounded()))%" } ?? ""
        return [amountText, chance].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Which of the eight compass sectors (0 = N, 1 = NE, …) a direction in degrees falls in.
    public static func sector(_ degrees: Double) -> Int {
        Int(((degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 45).rounded()) % 8
    }

    /// An arrow pointing where the wind blows to (wind from the north: ↓), as wttr.in draws it.
    public static func arrow(_ degrees: Double) -> String {
        ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"][sector(degrees)]
    }

    /// wttr.in's emoji for a condition; a moon for a clear night.
    public static func symbol(_ c: Condition) -> String {
        switch c.kind {
        case .clear: c.icon.hasSuffix("night") ? "🌙" : "☀️"
        case .mostlyClear, .partlyCloudy: "⛅️"
        case .overcast, .unknown: "☁️"
        case .fog: "🌫"
        case .drizzle, .showers: "🌦"
        case .rain, .freezingRain, .sleet: "🌧"
        case .snow: "❄️"
        case .snowShowers: "🌨"
        case .thunderstorm: "⛈"
        }
    }

    /// wttr.in's plain-text symbols (`o` sunny, `m` partly cloudy, `mmm` very cloudy, `/` rain, …).
    public static func plainSymbol(_ kind: ConditionKind) -> String {
        switch kind {
        case .clear: "o"
        case .mostlyClear, .partlyCloudy: "m"
        case .overcast: "mmm"
        case .fog: "="
        case .drizzle, .showers: "."
        case .rain: "/"
        case .freezingRain, .sleet: "x"
        case .snow: "*"
        case .snowShowers: "*/"
        case .thunderstorm: "!/"
        case .unknown: "?"
        }
    }
}
