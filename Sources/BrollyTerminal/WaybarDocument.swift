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

    /// Written from `v` (the view of one answer in the module's units: `OneLineFormat.view(_:)`).
    public init(_ v: WeatherView, format: String = "%c %t") {
        let f = OneLineFormat(units: v.units)
        let zone = v.zone
        text = f.render(format, v)
        var lines = [
            v.place.displayName,
            f.render("%c %C, %t (feels like %f), wind %w, humidity %h", v),
        ]
        for h in v.upcomingHours(6) {
            let chance = h.chance.map { " \(Int($0.rounded()))%" } ?? ""
            lines.append(
                "\(LocalTime.clock(h.time, in: zone))  \(OneLineFormat.symbol(h.condition.condition)) \(f.temperature(h.temperature))\(chance)"
            )
        }
        if v.isStale { lines.append("(not current: \(v.provider.rawValue) answered \(Int(v.age / 60)) min ago)") }
        tooltip = lines.joined(separator: "\n")
        `class` = [v.current.condition.kind.rawValue] + (v.isStale ? ["stale"] : [])
        alt = v.current.condition.condition.icon
    }
}
