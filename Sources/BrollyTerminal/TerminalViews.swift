import BrollyCore
import Foundation

// The one place in the terminal's writers that sees an answer's result or report: each is turned
// into the one view of the weather (in the writer's units and language), and every writer — the
// views of `now` and `forecast`, the chart, the one-line format, Waybar — writes that view only.

extension TextRenderer {
    /// The view of `result` this renderer writes, in its units and language.
    public func view(_ result: WeatherResult, now: Date) -> WeatherView {
        WeatherView(result, units: choice, language: language, now: now)
    }
}

extension OneLineFormat {
    /// The view of `result` this format fills in, in its units and language.
    public func view(_ result: WeatherResult, now: Date) -> WeatherView {
        WeatherView(result, units: units, language: language, now: now)
    }
}
