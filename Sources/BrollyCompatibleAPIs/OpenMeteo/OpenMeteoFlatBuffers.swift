import BrollyCore
import Foundation

/// Open-Meteo's `format=flatbuffers` (what its official SDKs ask: Python's openmeteo-requests,
/// TypeScript, Swift): the `openmeteo_sdk` schema's `WeatherApiResponse`, size-prefixed, written
/// from the same answer as the JSON (`OpenMeteoFormat.document` in Unix time), so the two never
/// disagree. Each block's variables come in the order the query names them, which is how the SDKs
/// find them (`hourly.Variables(0)` is the first asked).
public enum OpenMeteoFlatBuffers {
    /// A variable as the schema names it: its `Variable`, altitude and `Aggregation` (the numbers
    /// are the schema's enum values; its `Unit` follows from the unit the answer is in).
    struct Meaning: Sendable {
        var variable: UInt8
        var altitude: Int16 = 0
        var aggregation: UInt8 = 0
    }

    /// The schema's `Unit` for a unit as Open-Meteo's JSON writes it.
    static let units: [String: UInt8] = [
        "°C": 1, "cm": 2, "°F": 9, "%": 35, "hPa": 16, "inch": 18, "km/h": 24, "kn": 25, "m/s": 28, "m": 29, "mp/h": 31, "mm": 32,
        "unixtime": 37, "wmo code": 40, "°": 5,
    ]

    /// The schema's `Unit` of a variable written in `label`: a flag (`is_day`) is a whole number,
    /// an index (UV) a plain number.
    static func unit(_ quantity: OpenMeteoFormat.Quantity, label: String) -> UInt8 {
        switch quantity {
        case .flag: 6
        case .index: 7
        default: units[label] ?? 0
        }
    }

    /// The message for `document` (`OpenMeteoFormat.document` of `q` in Unix time).
    public static func message(_ document: JSONValue, query q: OpenMeteoQuery) -> [UInt8] {
        var scalars: [Int: FlatBuffer.Scalar] = [
            0: .float32(Float(document["latitude"]?.double ?? 0)), 1: .float32(Float(document["longitude"]?.double ?? 0)),
            2: .float32(Float(document["elevation"]?.double ?? .nan)), 3: .float32(Float(document["generationtime_ms"]?.double ?? 0)),
            6: .int32(Int32(document["utc_offset_seconds"]?.double ?? 0)),
        ]
        scalars[4] = .int64(Int64(q.locationID))  // location_id: its place in the locations asked
        var children: [Int: FlatBuffer.Node] = [
            7: .string(document["timezone"]?.string ?? "GMT"), 8: .string(document["timezone_abbreviation"]?.string ?? "GMT"),
        ]
        // WeatherApiResponse's fields 9–12: current, daily, hourly, minutely_15.
        for (field, block, names, interval) in [
            (9, "current", q.current, 900.0), (10, "daily", q.daily, 86_400), (11, "hourly", q.hourly, 3600),
            (12, "minutely_15", q.minutely15, 900),
        ] where !names.isEmpty {
            if let node = Self.block(
                document[block], units: document[block + "_units"], names: names, table: OpenMeteoFormat.names(of: block),
                interval: interval)
            {
                children[field] = node
            }
        }
        return FlatBuffer.sizePrefixed(.table(scalars: scalars, children: children))
    }

    /// A `VariablesWithTime`: the block's start, end and step, and its variables in the order asked.
    static func block(
        _ block: JSONValue?, units: JSONValue?, names: [String], table: [String: OpenMeteoFormat.Entry], interval: Double
    ) -> FlatBuffer.Node? {
        guard let block else { return nil }
        let times = block["time"]?.array?.compactMap(\.double) ?? [block["time"]?.double].compactMap { $0 }
        guard let first = times.first, let last = times.last else { return nil }
        let single = block["time"]?.array == nil  // `current`: one value a variable
        let step = block["interval"]?.double ?? interval
        var variables: [FlatBuffer.Node] = []
        for name in names {
            // The variables are the JSON answer's, from the one table: each is written, in the
            // order asked. (A name outside the table is never answered here — the query goes
            // upstream — and would be written as the schema's `undefined`, never skipped, so that no
            // variable after it moves.)
            let entry = table[name]
            let meaning = entry?.flat ?? Meaning(variable: 0)
            let unitCode = entry.map { Self.unit($0.quantity, label: units?[name]?.string ?? "") } ?? 0
            var scalars: [Int: FlatBuffer.Scalar] = [0: .uint8(meaning.variable), 1: .uint8(unitCode)]
            if meaning.altitude != 0 { scalars[5] = .int16(meaning.altitude) }
            if meaning.aggregation != 0 { scalars[6] = .uint8(meaning.aggregation) }
            var children: [Int: FlatBuffer.Node] = [:]
            if single {
                scalars[2] = .float32(Float(block[name]?.double ?? .nan))
            } else if entry?.quantity == .time {
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
