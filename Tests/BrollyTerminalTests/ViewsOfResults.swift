import BrollyCore
import Foundation

@testable import BrollyTerminal

// The writers take the one view of the weather; these tests hand them answers as the CLI and the
// server do, through the view made in the writer's units and language (`view(_:now:)`).

extension TextRenderer {
    func now(_ result: WeatherResult, now: Date = Date()) -> String { self.now(view(result, now: now)) }
    func forecast(_ result: WeatherResult, days: Int, hours: Int?, now: Date = Date()) -> String {
        forecast(view(result, now: now), days: days, hours: hours)
    }
    func chart(_ result: WeatherResult, hours: Int = 48, now: Date = Date()) -> String { chart(view(result, now: now), hours: hours) }
}

extension OneLineFormat {
    func render(
        _ format: String, _ report: WeatherReport, airQuality: AirQuality? = nil, alerts: [Alert]? = nil,
        measured: MeasuredWeather? = nil, now: Date = Date()
    ) -> String {
        render(
            format,
            WeatherView(report, units: units, language: language, now: now, alerts: alerts, airQuality: airQuality, measured: measured))
    }
}

extension WaybarDocument {
    init(_ result: WeatherResult, units: UnitChoice, format: String = "%c %t", now: Date = Date()) {
        self.init(OneLineFormat(units: units).view(result, now: now), format: format)
    }
}
