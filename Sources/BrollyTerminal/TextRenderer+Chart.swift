import BrollyCore
import Foundation

extension TextRenderer {
    static let eighths = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Rows of a bar chart of `values` (one column each) from `low` to `high`, `rows` high, top row
    /// first, drawn with eighth blocks; a column with no value stays blank.
    static func bars(_ values: [Double?], low: Double, high: Double, rows: Int) -> [String] {
        let span = max(high - low, .ulpOfOne)
        return (0..<rows).reversed().map { row in
            String(
                values.map { value -> Character in
                    guard let value else { return " " }
                    let fill = (value - low) / span * Double(rows) - Double(row)
                    if fill >= 1 { return "█" }
                    if fill <= 0 { return row == 0 && value > low ? "▁" : " " }
                    return Character(eighths[min(7, max(0, Int(fill * 8)))])
                })
        }
    }

    /// `brolly forecast --chart`: the next `count` hours (48) as a temperature chart (6 rows) over
    /// a precipitation chart (3 rows), one column an hour, the hours marked every 6, within 80
    /// columns; in the renderer's units and language.
    public func chart(_ v: WeatherView, hours count: Int = 48) -> String {
        let zone = v.zone
        let hours = Array(v.hours.prefix(min(count, 72)))
        guard !hours.isEmpty else { return "" }
        let l = language
        let temps = hours.map(\.temperature.value)
        let low = temps.min()!.rounded(.down), high = temps.max()!.rounded(.up)
        let amounts = hours.map { $0.precipitation?.value }
        // At least a millimetre's height (its equal in inches), so a drizzle does not fill the chart.
        let wettest = max(amounts.compactMap { $0 }.max() ?? 0, Measure(1, in: choice.precipitation).value)
        let labelWidth = 8
        func label(_ s: String) -> String {
            s.truncated(toWidth: labelWidth).padded(toWidth: labelWidth)
        }
        let symbol = symbolAfterNumber
        var lines = [bold(l.text("chartTitle", ["hours": String(hours.count)]))]
        let tempRows = Self.bars(temps, low: low, high: high, rows: 6)
        for (i, row) in tempRows.enumerated() {
            let side = i == 0 ? "\(Int(high))\(symbol)" : i == tempRows.count - 1 ? "\(Int(low))\(symbol)" : ""
            lines.append(label(side) + paint(row, "33"))
        }
        let unit = l.text("unit_" + choice.precipitation.rawValue)
        let rainRows = Self.bars(amounts, low: 0, high: wettest, rows: 3)
        for (i, row) in rainRows.enumerated() {
            let side =
                i == 0 ? l.number(String(format: "%.\(choice.precipitation.decimals)f", wettest)) + " " + unit : i == 2 ? "0" : ""
            lines.append(label(side) + paint(row, "34"))
        }
        // The hours every 6, under their column.
        var axis = Array(repeating: Character(" "), count: hours.count + 2)
        for (i, h) in hours.enumerated() where LocalTime.hour(h.time, in: zone) % 6 == 0 {
            for (k, ch) in LocalTime.clock(h.time, in: zone).prefix(2).enumerated() where i + k < axis.count { axis[i + k] = ch }
        }
        lines.append(label("") + String(axis))
        lines.append(dim(l.text("chartKey", ["unit": unit])))
        return lines.map { Self.fit($0, width: width) }.joined(separator: "\n")
    }
}
