import BrollyCore
import Foundation

/// Open-Meteo's `format=flatbuffers` (what its official SDKs ask: Python's openmeteo-requests,
/// TypeScript, Swift): the `openmeteo_sdk` schema's `WeatherApiResponse`, size-prefixed, written
/// from the same answer as the JSON (`OpenMeteoFormat.document` in Unix time), so the two never
/// disagree. Each block's variables come in the order the query names them, which is how the SDKs
/// find them (`hourly.Variables(0)` is the first asked).
public enum OpenMeteoFlatBuffers {
    /// A variable as the schema names it: its `Variable`, `Unit`, altitude and `Aggregation`
    /// (the numbers are the schema's enum values).
    struct Meaning {
        var variable: UInt8
        var unit: UInt8
        var altitude: Int16 = 0
        var aggregation: UInt8 = 0
    }

    /// The schema's `Unit` for a unit as Open-Meteo's JSON writes it.
    static let units: [String: UInt8] = [
        "°C": 1, "cm": 2, "°F": 9, "%": 35, "hPa": 16, "inch": 18, "km/h": 24, "kn": 25, "m/s": 28, "m": 29, "mp/h": 31, "mm": 32,
        "unixtime": 37, "wmo code": 40, "°": 5, "": 6,
    ]

    /// The schema's `Variable` (and altitude, aggregation) of each variable name Brolly answers.
    static func meaning(_ name: String, unit: String) -> Meaning? {
        let u = units[unit] ?? 0
        let base = name.replacingOccurrences(of: "windspeed", with: "wind_speed").replacingOccurrences(
            of: "winddirection", with: "wind_direction"
        ).replacingOccurrences(of: "windgusts", with: "wind_gusts").replacingOccurrences(of: "relativehumidity", with: "relative_humidity")
            .replacingOccurrences(of: "cloudcover", with: "cloud_cover").replacingOccurrences(of: "weathercode", with: "weather_code")
        return switch base {
        case "temperature_2m": Meaning(variable: 47, unit: u, altitude: 2)
        case "temperature_2m_max": Meaning(variable: 47, unit: u, altitude: 2, aggregation: 2)
        case "temperature_2m_min": Meaning(variable: 47, unit: u, altitude: 2, aggregation: 1)
        case "apparent_temperature": Meaning(variable: 1, unit: u)
        case "relative_humidity_2m": Meaning(variable: 29, unit: u, altitude: 2)
        case "is_day": Meaning(variable: 19, unit: 6)
        case "precipitation": Meaning(variable: 24, unit: u)
        case "precipitation_sum": Meaning(variable: 24, unit: u, aggregation: 10)
        case "precipitation_probability": Meaning(variable: 26, unit: u)
        case "precipitation_probability_max": Meaning(variable: 26, unit: u, aggregation: 2)
        case "rain": Meaning(variable: 28, unit: u)
        case "snowfall": Meaning(variable: 37, unit: u)
        case "weather_code": Meaning(variable: 56, unit: 40)
        case "cloud_cover": Meaning(variable: 3, unit: u)
        case "pressure_msl": Meaning(variable: 27, unit: u)
        case "wind_speed_10m": Meaning(variable: 59, unit: u, altitude: 10)
        case "wind_direction_10m": Meaning(variable: 57, unit: u, altitude: 10)
        case "wind_gusts_10m": Meaning(variable: 58, unit: u, altitude: 10)
        case "visibility": Meaning(variable: 55, unit: u)
        case "uv_index": Meaning(variable: 52, unit: 7)
        case "uv_index_max": Meaning(variable: 52, unit: 7, aggregation: 2)
        case "sunrise": Meaning(variable: 40, unit: 37)
        case "sunset": Meaning(variable: 41, unit: 37)
        default: nil
        }
    }

    /// The message for `document` (`OpenMeteoFormat.document` of `q` in Unix time).
    public static func message(_ document: JSONValue, query q: OpenMeteoQuery) -> [UInt8] {
        var scalars: [Int: FlatBuffer.Scalar] = [
            0: .float32(Float(document["latitude"]?.double ?? 0)), 1: .float32(Float(document["longitude"]?.double ?? 0)),
            2: .float32(Float(document["elevation"]?.double ?? .nan)), 3: .float32(Float(document["generationtime_ms"]?.double ?? 0)),
            6: .int32(Int32(document["utc_offset_seconds"]?.double ?? 0)),
        ]
        scalars[4] = .int64(0)  // location_id: the one location asked
        var children: [Int: FlatBuffer.Node] = [
            7: .string(document["timezone"]?.string ?? "GMT"), 8: .string(document["timezone_abbreviation"]?.string ?? "GMT"),
        ]
        // WeatherApiResponse's fields 9–12: current, daily, hourly, minutely_15.
        for (field, block, names, interval) in [
            (9, "current", q.current, 900.0), (10, "daily", q.daily, 86_400), (11, "hourly", q.hourly, 3600),
            (12, "minutely_15", q.minutely15, 900),
        ] where !names.isEmpty {
            if let node = Self.block(document[block], units: document[block + "_units"], names: names, interval: interval) {
                children[field] = node
            }
        }
        return FlatBuffer.sizePrefixed(.table(scalars: scalars, children: children))
    }

    /// A `VariablesWithTime`: the block's start, end and step, and its variables in the order asked.
    static func block(_ block: JSONValue?, units: JSONValue?, names: [String], interval: Double) -> FlatBuffer.Node? {
        guard let block else { return nil }
        let times = block["time"]?.array?.compactMap(\.double) ?? [block["time"]?.double].compactMap { $0 }
        guard let first = times.first, let last = times.last else { return nil }
        let single = block["time"]?.array == nil  // `current`: one value a variable
        let step = block["interval"]?.double ?? interval
        var variables: [FlatBuffer.Node] = []
        for name in names {
            guard let meaning = meaning(name, unit: units?[name]?.string ?? "") else { continue }
            var scalars: [Int: FlatBuffer.Scalar] = [0: .uint8(meaning.variable), 1: .uint8(meaning.unit)]
            if meaning.altitude != 0 { scalars[5] = .int16(meaning.altitude) }
            if meaning.aggregation != 0 { scalars[6] = .uint8(meaning.aggregation) }
            var children: [Int: FlatBuffer.Node] = [:]
            if single {
                scalars[2] = .float32(Float(block[name]?.double ?? .nan))
            } else if meaning.variable == 40 || meaning.variable == 41 {
                // Sunrise and sunset: Unix seconds, as 64-bit integers.
                children[4] = .int64s((block[name]?.array ?? []).map { Int64($0.double ?? 0) })
            } else {
                children[3] = .floats((block[name]?.array ?? []).map { Float($0.double ?? .nan) })
            }
            variables.append(.table(scalars: scalars, children: children))
        }
        return .table(
            scalars: [0: .int64(Int64(first)), 1: .int64(Int64(last + step)), 2: .int32(Int32(step))],
            children: [3: .tables(variables)])
    }
}
