import Foundation

/// A report's hours as they are stored (the file cache, the history's snapshots, the cluster's
/// shared cache): one array per quantity, and each distinct condition once with an index per hour,
/// instead of one object of 13 keys per hour. Sixteen days are 384 hours; read back column by
/// column they decode without a keyed container per hour (`brolly now --offline` reads one on
/// every run). The older form, an array of hour objects, is still read, so caches and history
/// written before stay readable.
///
/// `time` is seconds since 1970 whatever the coder's date strategy; a quantity no hour has is left
/// out, and a column of another length than `time` is unreadable data, not hours made up.
@propertyWrapper
public struct HourColumns: Codable, Sendable, Hashable {
    public var wrappedValue: [HourForecast]

    public init(wrappedValue: [HourForecast]) { self.wrappedValue = wrappedValue }

    enum Column: String, CodingKey {
        case time, temperature, conditions, condition
        case precipitationProbability, precipitation, windSpeed, feelsLike, humidity, pressure, clouds, windDirection, windGust, uvIndex
    }

    /// The quantities an hour may lack, each with where it is in an hour.
    private static var optionals: [(Column, WritableKeyPath<HourForecast, Double?>)] {
        [
            (.precipitationProbability, \.precipitationProbability), (.precipitation, \.precipitation), (.windSpeed, \.windSpeed),
            (.feelsLike, \.feelsLike), (.humidity, \.humidity), (.pressure, \.pressure), (.clouds, \.clouds),
            (.windDirection, \.windDirection), (.windGust, \.windGust), (.uvIndex, \.uvIndex),
        ]
    }

    public init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: Column.self) else {
            wrappedValue = try [HourForecast](from: decoder)
            return
        }
        let times = try c.decode([Double].self, forKey: .time)
        let temperatures = try c.decode([Double].self, forKey: .temperature)
        let conditions = try c.decode([Condition].self, forKey: .conditions)
        let which = try c.decode([Int].self, forKey: .condition)
        func unreadable(_ column: Column) -> DecodingError {
            .dataCorruptedError(
                forKey: column, in: c, debugDescription: "\(times.count) hours, but not as many \(column.stringValue) values")
        }
        guard temperatures.count == times.count else { throw unreadable(.temperature) }
        guard which.count == times.count, which.allSatisfy(conditions.indices.contains) else { throw unreadable(.condition) }
        var hours = times.indices.map { i in
            HourForecast(time: Date(timeIntervalSince1970: times[i]), temperature: temperatures[i], condition: conditions[which[i]])
        }
        for (column, path) in Self.optionals {
            guard let values = try c.decodeIfPresent([Double?].self, forKey: column) else { continue }
            guard values.count == hours.count else { throw unreadable(column) }
            for i in hours.indices { hours[i][keyPath: path] = values[i] }
        }
        wrappedValue = hours
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Column.self)
        try c.encode(wrappedValue.map(\.time.timeIntervalSince1970), forKey: .time)
        try c.encode(wrappedValue.map(\.temperature), forKey: .temperature)
        var distinct: [Condition] = []
        var index: [Condition: Int] = [:]
        let which = wrappedValue.map { hour in
            if let i = index[hour.condition] { return i }
            index[hour.condition] = distinct.count
            distinct.append(hour.condition)
            return distinct.count - 1
        }
        try c.encode(distinct, forKey: .conditions)
        try c.encode(which, forKey: .condition)
        for (column, path) in Self.optionals {
            let values = wrappedValue.map { $0[keyPath: path] }
            if values.contains(where: { $0 != nil }) { try c.encode(values, forKey: column) }
        }
    }
}
