import BrollyCore
import Foundation

/// Open-Meteo's forecast API (`GET /v1/forecast`) as a client asks it (`OpenMeteoQuery`) and as
/// Brolly answers it from its cached weather (`OpenMeteoFormat.document`). A query for variables,
/// ranges or models Brolly does not hold is passed to the upstream Open-Meteo instead (by
/// `OpenMeteoPassthrough`), under its normalized form.
public struct OpenMeteoQuery: Sendable, Hashable {
    /// The (first) location asked.
    public var latitude: Double { locations[0].latitude }
    public var longitude: Double { locations[0].longitude }
    /// Every location asked (`latitude=40.71,52.52&longitude=-74.01,13.41`), in order; Open-Meteo
    /// answers one document each (a JSON list, or one FlatBuffers message each).
    public var locations: [Coordinate]
    /// This location's place in the list asked (the FlatBuffers message's `location_id`).
    public var locationID = 0
    /// At most this many locations in one call (each is a forecast of its own).
    public static let maxLocations = 20
    public var current: [String] = []
    public var hourly: [String] = []
    public var daily: [String] = []
    public var minutely15: [String] = []
    /// The legacy `current_weather=true` block.
    public var currentWeather = false
    public var timezone = "GMT"
    public var temperatureUnit = "celsius"
    public var windSpeedUnit = "kmh"
    public var precipitationUnit = "mm"
    public var timeformat = "iso8601"
    /// `json`, or `flatbuffers` (the official SDKs' format: written by Brolly when its weather holds
    /// the answer, else passed on as `csv` and `xlsx` are, and the upstream's answer given as it came).
    public var format = "json"
    public var forecastDays = 7
    public var pastDays = 0
    public var forecastMinutely15: Int?
    public var pastMinutely15: Int?
    public var models: [String] = []
    /// Any other parameter (forecast_hours, start_date, cell_selection…): passed upstream as given.
    public var other: [String: String] = [:]

    /// A request Open-Meteo itself would refuse, with its reason.
    public struct Refusal: Error, Sendable { public var reason: String }

    /// Parameters that identify the client, not the data (never part of the cache key).
    static let ignored: Set<String> = ["apikey", "appid", "key"]

    /// Reads the query items (each name once; lists comma separated, as Open-Meteo takes them).
    public init(_ items: [(String, String)]) throws(Refusal) {
        var seen: [String: String] = [:]
        for (name, value) in items {
            // An empty value is no value (`timezone=&hourly=`), as Open-Meteo reads it.
            if Self.ignored.contains(name) || value.isEmpty { continue }
            if let before = seen[name] {
                seen[name] = before + "," + value  // Open-Meteo also takes `hourly=a&hourly=b`
            } else {
                seen[name] = value
            }
        }
        /// The comma-separated numbers of `name` (one per location), each in `range`.
        func numbers(_ name: String, _ range: ClosedRange<Double>, label: String) throws(Refusal) -> [Double] {
            guard let raw = seen.removeValue(forKey: name) else { throw Refusal(reason: "Parameter '\(name)' is required") }
            var out: [Double] = []
            for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard let v = RequestRules.number(text) else {
                    throw Refusal(reason: "Cannot initialize Float from invalid String value \(text.prefix(40)) for key \(name)")
                }
                guard range.contains(v) else {
                    throw Refusal(
                        reason: "\(label) must be in range of \(Int(range.lowerBound)) to \(Int(range.upperBound))°. Given: \(v).")
                }
                out.append(v)
            }
            return out
        }
        func list(_ name: String) throws(Refusal) -> [String] {
            let names = (seen.removeValue(forKey: name) ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            for n in names where n.isEmpty || n.count > 60 || !n.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                throw Refusal(reason: "Cannot initialize WeatherVariable from invalid String value \(n.prefix(60)) for key \(name)")
            }
            return names
        }
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(Refusal) -> Int? {
            guard let raw = seen.removeValue(forKey: name) else { return nil }
            guard let v = Int(raw), range.contains(v) else {
                throw Refusal(reason: "Parameter '\(name)' must be between \(range.lowerBound) and \(range.upperBound)")
            }
            return v
        }
        func choice(_ name: String, _ allowed: [String: String], default d: String) throws(Refusal) -> String {
            guard let raw = seen.removeValue(forKey: name)?.lowercased() else { return d }
            guard let v = allowed[raw] else {
                throw Refusal(reason: "Cannot initialize \(name) from invalid String value \(raw.prefix(30))")
            }
            return v
        }
        let latitudes = try numbers("latitude", -90...90, label: "Latitude")
        let longitudes = try numbers("longitude", -180...180, label: "Longitude")
        guard latitudes.count == longitudes.count else {
            throw Refusal(reason: "Parameter 'latitude' and 'longitude' must have the same number of elements")
        }
        guard latitudes.count <= Self.maxLocations else {
            throw Refusal(reason: "This server answers at most \(Self.maxLocations) locations in one call")
        }
        locations = zip(latitudes, longitudes).map { Coordinate(latitude: $0, longitude: $1) }
        current = try list("current")
        hourly = try list("hourly")
        daily = try list("daily")
        minutely15 = try list("minutely_15")
        models = try list("models")
        currentWeather =
            try choice("current_weather", ["true": "true", "1": "true", "false": "false", "0": "false"], default: "false") == "true"
        let zone = seen.removeValue(forKey: "timezone") ?? "GMT"
        guard zone.lowercased() == "auto" || TimeZone(identifier: zone) != nil else {
            throw Refusal(reason: "Invalid timezone")
        }
        timezone = zone.lowercased() == "auto" ? "auto" : zone
        temperatureUnit = try choice("temperature_unit", ["celsius": "celsius", "fahrenheit": "fahrenheit"], default: "celsius")
        if let legacy = seen.removeValue(forKey: "windspeed_unit"), seen["wind_speed_unit"] == nil { seen["wind_speed_unit"] = legacy }
        windSpeedUnit = try choice("wind_speed_unit", ["kmh": "kmh", "ms": "ms", "mph": "mph", "kn": "kn"], default: "kmh")
        precipitationUnit = try choice("precipitation_unit", ["mm": "mm", "inch": "inch"], default: "mm")
        timeformat = try choice("timeformat", ["iso8601": "iso8601", "unixtime": "unixtime"], default: "iso8601")
        format = try choice(
            "format", ["json": "json", "flatbuffers": "flatbuffers", "csv": "csv", "xlsx": "xlsx"], default: "json")
        forecastDays = try integer("forecast_days", 0...16) ?? 7
        pastDays = try integer("past_days", 0...92) ?? 0
        forecastMinutely15 = try integer("forecast_minutely_15", 0...1536)
        pastMinutely15 = try integer("past_minutely_15", 0...1536)
        other = seen
    }

    /// The query in a stable order (the cache key of a passed-on request and its URL's query).
    public var normalized: [(String, String)] {
        var items: [(String, String)] = [
            ("latitude", locations.map { String(format: "%.4f", $0.latitude) }.joined(separator: ",")),
            ("longitude", locations.map { String(format: "%.4f", $0.longitude) }.joined(separator: ",")),
        ]
        for (name, values) in [("current", current), ("hourly", hourly), ("daily", daily), ("minutely_15", minutely15), ("models", models)]
        where !values.isEmpty {
            items.append((name, values.joined(separator: ",")))
        }
        if currentWeather { items.append(("current_weather", "true")) }
        items += [
            ("timezone", timezone), ("temperature_unit", temperatureUnit), ("wind_speed_unit", windSpeedUnit),
            ("precipitation_unit", precipitationUnit), ("timeformat", timeformat),
        ]
        // Open-Meteo refuses forecast_days or past_days beside a date or hour range: a range is
        // passed on as it came, without them.
        if !Self.rangeNames.contains(where: { other[$0] != nil }) {
            items += [("forecast_days", String(forecastDays)), ("past_days", String(pastDays))]
        }
        if let forecastMinutely15 { items.append(("forecast_minutely_15", String(forecastMinutely15))) }
        if let pastMinutely15 { items.append(("past_minutely_15", String(pastMinutely15))) }
        if format != "json" { items.append(("format", format)) }
        items += other.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return items
    }

    /// The query for the `index`th location asked alone (its `locationID` kept).
    public func location(_ index: Int) -> OpenMeteoQuery {
        var one = self
        one.locations = [locations[index]]
        one.locationID = index
        return one
    }

    /// Parameters that ask for a range of dates or hours instead of days from today.
    static let rangeNames = ["start_date", "end_date", "start_hour", "end_hour", "start_minutely_15", "end_minutely_15"]

    /// The units asked: Open-Meteo's wind tokens are Brolly's (kmh, ms, mph, kn); its `inch` is
    /// Brolly's `in`; pressure in hPa and visibility in metres, always.
    public var units: UnitChoice {
        UnitChoice(
            temperature: temperatureUnit == "fahrenheit" ? .fahrenheit : .celsius, wind: WindUnit(rawValue: windSpeedUnit) ?? .kmh,
            pressure: .hpa, precipitation: precipitationUnit == "inch" ? .inch : .mm, distance: .m)
    }

    /// The one model asked for, when one is (nil: Open-Meteo's or Brolly's choice).
    public var model: String? { models.count == 1 && models[0] != OpenMeteoProvider.defaultModel ? models[0] : nil }

    /// Whether Brolly's cached weather holds everything asked: the variables it keeps, up to a
    /// week ahead, today from midnight on, one model at most, the next two hours of 15-minute slots.
    public var isAnsweredFromCache: Bool {
        (format == "json" || format == "flatbuffers") && other.isEmpty && models.count <= 1 && pastDays == 0 && forecastDays <= 7
            && current.allSatisfy { OpenMeteoFormat.currentNames[$0] != nil }
            && hourly.allSatisfy { OpenMeteoFormat.hourlyNames[$0] != nil }
            && daily.allSatisfy { OpenMeteoFormat.dailyNames[$0] != nil }
            && (minutely15.isEmpty
                || (minutely15.allSatisfy { OpenMeteoFormat.minutelyNames[$0] != nil } && (pastMinutely15 ?? 0) == 0
                    && (forecastMinutely15 ?? 99) <= 8))
    }
}
