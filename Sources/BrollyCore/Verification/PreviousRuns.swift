import Foundation

/// What forecast models said, days before, about each hour at one place: Open-Meteo's Previous
/// Runs API (`/v1/forecast` on `previous-runs-api.open-meteo.com`, the forecast API's parameters),
/// asked with `timezone=auto` for `temperature_2m` and `precipitation` with their
/// `_previous_day1` … `_previous_day7` variants. Lead 0 is the run closest to the hour (the model's
/// own latest analysis of it). With several `models=`, every variable carries the model's name as a
/// suffix (`temperature_2m_previous_day1_ecmwf_ifs025`); with one, it may not.
public struct PreviousRuns: Sendable, Hashable {
    /// The hours, as the place's local `YYYY-MM-DDTHH:MM` (so a day is the first 10 characters).
    public var hours: [String]
    /// Model → lead in days (0…7) → °C per hour (nil: the model has none for that hour).
    public var temperature: [String: [Int: [Double?]]]
    /// Model → lead → mm per hour.
    public var precipitation: [String: [Int: [Double?]]]
    /// The place's time zone (asked with `timezone=auto`), whose days the hours are in.
    public var timezone: String = "GMT"
    public var utcOffsetSeconds: Int = 0

    /// The zone of `timezone`, else of the offset.
    public var zone: TimeZone {
        (timezone != "GMT" && timezone != "UTC" ? TimeZone(identifier: timezone) : nil)
            ?? TimeZone(secondsFromGMT: utcOffsetSeconds) ?? TimeZone(secondsFromGMT: 0)!
    }

    public static let leads = 0...7
    public static let variables = ["temperature_2m", "precipitation"]

    /// The `hourly=` list to ask for: each variable at every lead.
    public static var hourlyParameter: String {
        variables.flatMap { v in leads.map { $0 == 0 ? v : "\(v)_previous_day\($0)" } }.joined(separator: ",")
    }

    /// Decodes an answer for `models`. A model the answer has nothing for (no such variable, or
    /// only nulls: it does not cover the place) is left out.
    public static func decode(_ data: Data, models: [String]) throws -> PreviousRuns {
        let json = try JSONValue.parse(data, provider: "Open-Meteo Previous Runs")
        if json["error"]?.bool == true {
            throw BrollyError.invalidInput("Open-Meteo Previous Runs: \(json["reason"]?.string ?? "refused the request")")
        }
        guard let hourly = json["hourly"], let times = hourly["time"]?.array else {
            throw BrollyError.unreadableResponse("Open-Meteo Previous Runs sent no hourly times")
        }
        let hours = times.compactMap(\.string)
        guard hours.count == times.count else { throw BrollyError.unreadableResponse("Open-Meteo Previous Runs sent unreadable times") }

        func series(_ name: String, model: String) -> [Double?]? {
            let keys = [name + "_" + model] + (models.count == 1 ? [name] : [])
            guard let values = keys.lazy.compactMap({ hourly[$0]?.array }).first, values.count == hours.count else { return nil }
            let numbers = values.map(\.double)
            return numbers.contains { $0 != nil } ? numbers : nil
        }
        var temperature: [String: [Int: [Double?]]] = [:]
        var precipitation: [String: [Int: [Double?]]] = [:]
        for model in models {
            for lead in leads {
                let suffix = lead == 0 ? "" : "_previous_day\(lead)"
                if let t = series("temperature_2m" + suffix, model: model) { temperature[model, default: [:]][lead] = t }
                if let p = series("precipitation" + suffix, model: model) { precipitation[model, default: [:]][lead] = p }
            }
        }
        var runs = PreviousRuns(hours: hours, temperature: temperature, precipitation: precipitation)
        runs.timezone = json["timezone"]?.string ?? "GMT"
        runs.utcOffsetSeconds = json["utc_offset_seconds"]?.int ?? 0
        return runs
    }
}
