import BrollyCore
import Foundation

/// Waybar's custom-module JSON (`"return-type": "json"`): the one-line text, a tooltip with the
/// next hours, and a CSS class by condition (and alert severity once alerts exist).
public struct WaybarDocument: Codable, Sendable, Hashable {
    public var text: String
    public var tooltip: String
    /// The condition kind (`clear`, `rain`, `snow`, …), and `stale` when the answer is old.
    public var `class`: [String]
    /// The condition's icon name, for Waybar's `format-icons`.
    public var alt: String

    public init(_ result: WeatherResult, units: UnitChoice, format: String = "%c %t", now: Date = Date()) {
        let f = OneLineFormat(units: units)
        let r = result.report, zone = r.place.timeZone
        text = f.render(format, r, now: now)
        var lines = [
            r.place.displayName,
            f.render("%c %C, %t (feels like %f), wind %w, humidity %h", r, now: now),
        ]
        for h in r.upcomingHours(6) {
            let chance = h.precipitationProbability.map { " \(Int($0.rounded()))%" } ?? ""
            lines.append(
                "\(LocalTime.clock(h.time, in: zone))  \(OneLineFormat.symbol(h.condition)) \(f.temperature(h.temperature))\(chance)")
        }
        if result.isStale { lines.append("(not current: \(r.provider.rawValue) answered \(Int(result.age / 60)) min ago)") }
        tooltip = lines.joined(separator: "\n")
        `class` = [r.current.condition.kind.rawValue] + (result.isStale ? ["stale"] : [])
        alt = r.current.condition.icon
    }
}
