import BrollyCore
import Foundation

/// Renders weather for a terminal: aligned columns, condition symbols and a wind arrow; colour
/// only when asked (the CLI asks on a TTY without `NO_COLOR`).
public struct TextRenderer: Sendable {
    public var color: Bool
    /// The language of labels, sentences, conditions and numbers (English by default).
    public var language: LanguagePack = Localization.english

    /// The terminal's width in columns; lines longer than it are cut with `…`. Nil: no limit.
    public var width: Int?

    /// Each quantity's unit, as the reader chose it.
    public var choice: UnitChoice

    public init(choice: UnitChoice, color: Bool, width: Int? = nil) {
        self.choice = choice
        self.color = color
        self.width = width.map { max(20, $0) }
    }

    /// A preset's units.
    public init(units: UnitSystem, color: Bool, width: Int? = nil) { self.init(choice: UnitChoice(units), color: color, width: width) }

    /// `text` with each line longer than `width` cells broken at spaces (a word longer than a line
    /// is broken where the width ends), continuation lines indented like their first line plus
    /// two: for notes, errors and help, which must not be cut off mid-word or run past a 60-column
    /// terminal (issue 50).
    public static func wrapped(_ text: String, width: Int?) -> String {
        guard let width, width >= 20 else { return text }
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard visibleCount(line) > width else {
                out.append(String(line))
                continue
            }
            let indent = String(line.prefix { $0 == " " })
            let next = indent + "  "
            var current = indent
            for word in line.dropFirst(indent.count).split(separator: " ") {
                let candidate = current.trimmingCharacters(in: .whitespaces).isEmpty ? current + word : current + " " + word
                if visibleCount(candidate) <= width {
                    current = candidate
                    continue
                }
                if !current.trimmingCharacters(in: .whitespaces).isEmpty { out.append(current) }
                current = next + word
                // A word longer than a line (a Japanese sentence has no spaces) is broken where the
                // width ends.
                while visibleCount(current) > width {
                    let head = String(current.dropFirst(next.count)).truncated(toWidth: width - next.count)
                    guard !head.isEmpty else { break }
                    out.append(next + head)
                    current = next + String(current.dropFirst(next.count + head.count))
                }
            }
            if !current.trimmingCharacters(in: .whitespaces).isEmpty { out.append(current) }
        }
        return out.joined(separator: "\n")
    }

    /// `line` cut to `width` columns with `…` (ANSI escapes do not count).
    public static func fit(_ line: String, width: Int?) -> String {
        guard let width, visibleCount(line) > width else { return line }
        // Keep width - 1 visible columns (and the escapes among them), then the ellipsis.
        var out = ""
        var visible = 0
        var inEscape = false
        for ch in line {
            if ch == "\u{1B}" { inEscape = true }
            if inEscape {
                out.append(ch)
                if ch == "m" { inEscape = false }
                continue
            }
            let w = String(ch).displayWidth
            if visible + w > width - 1 { break }
            out.append(ch)
            visible += w
        }
        return out + "…" + (line.contains("\u{1B}") ? "\u{1B}[0m" : "")
    }

    /// The columns `s` takes in a terminal (a kanji two), ANSI escapes apart.
    static func visibleCount<S: StringProtocol>(_ s: S) -> Int {
        var n = 0
        var inEscape = false
        for ch in s {
            if ch == "\u{1B}" { inEscape = true }
            if inEscape {
                if ch == "m" { inEscape = false }
                continue
            }
            n += String(ch).displayWidth
        }
        return n
    }

    /// Lines joined, each fitted to the width.
    func joined(_ lines: [String]) -> String {
        lines.map { Self.fit($0, width: width) }.joined(separator: "\n")
    }

    /// A one-character symbol for a condition.
    public static func symbol(_ c: Condition) -> String {
        switch c.kind {
        case .clear: c.icon.hasSuffix("night") ? "☾" : "☀"
        case .mostlyClear, .partlyCloudy: "◐"
        case .overcast, .unknown: "☁"
        case .fog: "≡"
        case .drizzle, .rain, .showers: "☂"
        case .freezingRain, .sleet: "❆"
        case .snow, .snowShowers: "❄"
        case .thunderstorm: "ϟ"
        }
    }

    /// The symbol for one of the contract's icon names (`clear-day`, `rain`, …).
    public static func symbol(icon: String) -> String {
        switch icon {
        case "clear-day": "☀"
        case "clear-night": "☾"
        case "partly-cloudy-day", "partly-cloudy-night": "◐"
        case "fog": "≡"
        case "drizzle", "rain": "☂"
        case "sleet": "❆"
        case "snow": "❄"
        case "thunderstorm": "ϟ"
        default: "☁"
        }
    }

    /// `YYYY-MM-DD HH:mm` in this machine's time zone for an ISO 8601 instant.
    public static func localTime(isoUTC: String) -> String {
        guard let date = ISO8601DateFormatter().date(from: isoUTC) else { return isoUTC }
        return LocalTime.iso8601(date, in: .current).prefix(16).replacingOccurrences(of: "T", with: " ")
    }

    static let compass = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]

    /// An arrow pointing where the wind blows to, and the compass point it comes from: `↙ NE`.
    public static func wind(_ degrees: Double, compass names: [String]? = nil) -> String {
        let list = names?.count == 8 ? names! : compass
        return "\(OneLineFormat.arrow(degrees)) \(list[OneLineFormat.sector(degrees)])"
    }

    func paint(_ s: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { paint(s, "1") }
    func dim(_ s: String) -> String { paint(s, "2") }

    /// `brolly now`: the place, current conditions, today's range and a short outlook.
    public func now(_ v: WeatherView) -> String {
        let c = v.current, zone = v.zone, l = language, now = v.now
        var lines: [String] = []
        // Warnings come first, coloured by severity.
        if let here = v.alerts { lines += alertLines(here, in: zone) }
        lines.append(bold(v.place.displayName) + dim(String(format: "  (%.2f, %.2f)", v.place.latitude, v.place.longitude)))
        var headline = "\(Self.symbol(c.condition.condition))  \(colouredTemp(c.temperature))  \(c.condition.description.capitalizedFirst)"
        if let f = c.feelsLike { headline += dim("  \(l.text("feelsLike")) \(temp(f))") }
        lines.append(headline)
        // Today's line is padded with the rows' label column once that is known (below).
        var today = "\(temp(c.low)) … \(temp(c.high))"
        if let compared = v.comparedWithYesterday { today += " · " + compared }
        let todayLine = lines.count
        lines.append(today)
        var rows: [(String, String)] = []
        if let m = v.measured, let t = m.observation.temperature {
            rows.append(
                (
                    l.text("measured"),
                    l.text(
                        "measuredAt",
                        [
                            "temp": temp(t), "station": m.observation.stationName, "id": m.observation.stationID,
                            "distance": l.number(String(format: "%.0f", m.distanceKm)),
                            "ago": Self.age(now.timeIntervalSince(m.observation.time), language: l),
                        ])
                ))
            let details = measuredDetails(m.observation)
            if !details.isEmpty { rows.append(("", details)) }
        }
        if let h = c.humidity { rows.append((l.text("humidity"), String(format: "%.0f %%", h))) }
        // The view's fields (`ViewField.all`), each named by its key and written as its kind.
        for (f, m) in c.fields.present {
            switch m {
            case .temperature(let t): rows.append((l.text(f.key), temp(t)))
            }
        }
        if let p = c.pressure { rows.append((l.text("pressure"), pressure(p))) }
        if let w = c.wind {
            var s = speed(w)
            if let d = c.windDirection { s += " " + Self.wind(d, compass: l.compass) }
            if let g = c.gust { s += ", \(l.text("gusts")) \(speed(g))" }
            rows.append((l.text("wind"), s))
        }
        if let cl = c.clouds { rows.append((l.text("clouds"), String(format: "%.0f %%", cl))) }
        if let visibility = c.visibility { rows.append((l.text("visibility"), measure(visibility))) }
        if let rain = c.rain, rain.value > 0 { rows.append((l.text("rain"), measure(rain))) }
        if let snow = c.snow, snow.value > 0 { rows.append((l.text("snow"), measure(snow))) }
        let sky = v.sky
        if let sr = sky.sunrise, let ss = sky.sunset {
            var text = "↑ \(LocalTime.clock(sr, in: zone))  ↓ \(LocalTime.clock(ss, in: zone))"
            if let dawn = sky.dawn, let dusk = sky.dusk {
                text +=
                    "  (\(l.text("dawn")) \(LocalTime.clock(dawn, in: zone)), \(l.text("noon")) \(LocalTime.clock(sky.noon, in: zone)), \(l.text("dusk")) \(LocalTime.clock(dusk, in: zone)))"
            }
            rows.append((l.text("sun"), text))
        }
        if let slots = v.nowcast, let sentence = NowcastSummary.sentence(slots, now: now, language: l) {
            rows.append((l.text("nextHour"), sentence))
        }
        if let air = v.airQuality {
            var parts: [String] = []
            if let e = air.europeanAQI { parts.append("\(l.text("aqiEuropean")) \(Int(e.rounded())) (\(band(.european(e))))") }
            if let u = air.usAQI { parts.append("\(l.text("aqiUS")) \(Int(u.rounded())) (\(band(.us(u))))") }
            if let pm = air.pm2_5 { parts.append(String(format: "PM2.5 %.0f ", pm) + l.text("unit_ugm3")) }
            if !parts.isEmpty {
                let stale = v.airQualityIsStale ? dim(" (\(l.text("staleWord")))") : ""
                rows.append((l.text("air"), parts.joined(separator: " · ") + stale))
            }
            if let uv = air.uvIndex {
                var text = String(format: "%.0f (", uv) + band(.uv(uv)) + ")"
                if let max = air.uvIndexMax {
                    text += ", " + l.text("todaysHighest") + String(format: " %.0f (", max) + band(.uv(max)) + ")"
                }
                rows.append((l.text("uv"), text))
            }
            let pollen = AirQuality.plants.compactMap { plant in
                air.pollen[plant].map { "\(l.text("plant_" + plant)) \(Int($0.rounded()))" }
            }
            if !pollen.isEmpty { rows.append((l.text("pollen"), pollen.joined(separator: ", ") + " " + l.text("unit_grains"))) }
        }
        let lit = Int((sky.moonIllumination * 100).rounded())
        rows.append(
            (l.text("moon"), "\(sky.moonSymbol) " + l.moonPhaseName(sky.moonPhase) + ", " + l.text("litPercent", ["n": String(lit)])))
        let width = max(11, (rows.map(\.0) + [l.text("today"), l.text("outlook")]).map(\.displayWidth).max()! + 1)
        // A value longer than the terminal is wide goes on under itself (not cut: the Russian air
        // line keeps its US index at 80 columns).
        let room = self.width.map { max(20, $0 - 3 - width) } ?? Int.max
        // Today, the rows and the outlook in one label column (in Arabic and Russian the rows' labels
        // are wider than 11 cells: today's and the outlook's values sat left of the rows').
        func labelled(_ label: String, _ value: String) -> [String] {
            let parts = value.wrapped(toWidth: room)
            return ["   " + label.padded(toWidth: width) + parts[0]]
                + parts.dropFirst().map { String(repeating: " ", count: 3 + width) + $0 }
        }
        lines.replaceSubrange(todayLine...todayLine, with: labelled(l.text("today"), today))
        for (k, v) in rows { lines += labelled(k, l.number(v)) }
        let outlook = v.days.dropFirst().prefix(3).map {
            "\(weekday($0.date)) \(Self.symbol($0.condition.condition)) \(temp($0.low))…\(temp($0.high))"
        }
        // As many of the three days as the terminal has room for (cut, the last one read "-6°C……").
        var shown = outlook.isEmpty ? [] : [outlook[0]]
        for day in outlook.dropFirst() {
            guard (shown + [day]).joined(separator: "   ").displayWidth <= room else { break }
            shown.append(day)
        }
        if !shown.isEmpty {
            lines.append("   " + l.text("outlook").padded(toWidth: width) + shown.joined(separator: "   "))
        }
        if showsFooter { lines.append(footer(v)) }
        return joined(lines)
    }

    /// Whether `now` ends with the provider and the answer's age (a history snapshot says when it
    /// was looked up instead).
    public var showsFooter = true

    func footer(_ v: WeatherView) -> String {
        // "from OpenWeatherMap (Open-Meteo unavailable), updated 3 min ago", in the renderer's language.
        let failed = v.fallbackFrom.map { " (\($0.displayName) \(language.text("unavailable")))" } ?? ""
        var s =
            "   \(language.text("from")) \(v.provider.displayName)\(failed), \(language.text("updated")) \(Self.age(v.age, language: language))"
        if let note = v.modelNote { s += " · " + note }
        if v.isStale { s += " " + paint("[\(language.text("staleWord"))]", "33") }
        return dim(s)
    }

    /// `brolly forecast`: one row per local day, optionally followed by the next `hours` hourly slots.
    public func forecast(_ v: WeatherView, days count: Int, hours: Int?) -> String {
        let zone = v.zone
        var lines = [bold(v.place.displayName)]
        let rows = v.days.prefix(count).map { d -> [String] in
            [
                weekday(d.date), d.date, Self.symbol(d.condition.condition), temp(d.low), temp(d.high),
                d.highRange.map { "\(Rounding.whole($0[0].value))–\(temp($0[1]))" } ?? "",
                d.precipitation.map(measure) ?? "", d.chance.map { String(format: "%.0f%%", $0) } ?? "", d.condition.description,
            ]
        }
        lines += Self.table(rows, rightAligned: [3, 4, 5, 6, 7])
        // What the high's range means: right 8 times in 10 here, or the ensemble's own spread.
        // Wrapped to the terminal (cut, the Japanese note lost its end at 60 columns).
        if let r = v.ranges {
            let note = language.text(r.calibrated ? "rangesCalibrated" : "rangesUncalibrated")
            lines += note.wrapped(toWidth: self.width.map { max(20, $0 - 3) } ?? Int.max).map { dim("   " + $0) }
        }
        if let hours {
            // The next hours under the day they belong to, with the chance of rain, the amount and the wind.
            let slots = Array(v.hours.prefix(hours))
            let rows = slots.map { h -> [String] in
                [
                    "  " + LocalTime.clock(h.time, in: zone), Self.symbol(h.condition.condition), temp(h.temperature),
                    h.chance.map { String(format: "%.0f%%", $0) } ?? "", h.precipitation.map { $0.value > 0 ? measure($0) : "" } ?? "",
                    h.wind.map(speed) ?? "", h.condition.description,
                ]
            }
            let table = Self.table(rows, rightAligned: [2, 3, 4, 5])
            var previous = ""
            for (slot, row) in zip(slots, table) {
                let date = LocalTime.dateString(slot.time, in: zone)
                if date != previous {
                    lines.append("")
                    lines.append(bold("\(weekday(date)) \(date)"))
                    previous = date
                }
                lines.append(row)
            }
        }
        lines.append(footer(v))
        return joined(lines)
    }

    public func places(_ places: [Place]) -> String {
        let rows = places.enumerated().map { i, p in
            [
                "\(i + 1).", p.name, p.region ?? "", p.country,
                String(format: "%.4f", p.latitude), String(format: "%.4f", p.longitude),
            ]
        }
        return joined(Self.table(rows, rightAligned: [0, 4, 5]))
    }

    /// Pads columns to their widest cell (counting the columns a terminal gives each character).
    public static func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        guard let n = rows.map(\.count).max() else { return [] }
        let widths = (0..<n).map { i in rows.map { $0.indices.contains(i) ? $0[i].displayWidth : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.displayWidth)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
