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

    public init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: Column.self) else {
            wrappedValue = try [HourForecast](from: decoder)
            return
        }
        // Numbers are read one by one with the container's own `Double` call: `[Double?]`'s generic
        // decoding goes through the decoder's generic path for every value (a third of this
        // decoding's time when measured).
        func numbers(_ key: Column) throws -> [Double?]? {
            guard c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
            var list = try c.nestedUnkeyedContainer(forKey: key)
            var values: [Double?] = []
            values.reserveCapacity(list.count ?? 0)
            while !list.isAtEnd { values.append(try list.decodeNil() ? nil : try list.decode(Double.self)) }
            return values
        }
        /// A column every hour has: a missing column or a null in it is a decoding error.
        func required(_ key: Column) throws -> [Double] {
            var list = try c.nestedUnkeyedContainer(forKey: key)
            var values: [Double] = []
            values.reserveCapacity(list.count ?? 0)
            while !list.isAtEnd { values.append(try list.decode(Double.self)) }
            return values
        }
        let times = try required(.time)
        let temperatures = try required(.temperature)
        let conditions = try c.decode([Condition].self, forKey: .conditions)
        let which = try c.decode([Int].self, forKey: .condition)
        func unreadable(_ column: Column) -> DecodingError {
            .dataCorruptedError(
                forKey: column, in: c, debugDescription: "\(times.count) hours, but not as many \(column.stringValue) values")
        }
        guard temperatures.count == times.count else { throw unreadable(.temperature) }
        guard which.count == times.count, which.allSatisfy(conditions.indices.contains) else { throw unreadable(.condition) }
        /// A quantity's column; all nil when no hour has it.
        func column(_ key: Column) throws -> [Double?] {
            guard let values = try numbers(key) else { return Array(repeating: nil, count: times.count) }
            guard values.count == times.count else { throw unreadable(key) }
            return values
        }
        let (probability, amount, wind) = (try column(.precipitationProbability), try column(.precipitation), try column(.windSpeed))
        let (feels, humidity, pressure) = (try column(.feelsLike), try column(.humidity), try column(.pressure))
        let (clouds, direction, gust, uv) = (try column(.clouds), try column(.windDirection), try column(.windGust), try column(.uvIndex))
        // One pass, the full initializer: no key path or keyed container per hour.
        wrappedValue = times.indices.map { i in
            HourForecast(
                time: Date(timeIntervalSince1970: times[i]), temperature: temperatures[i], precipitationProbability: probability[i],
                precipitation: amount[i], windSpeed: wind[i], condition: conditions[which[i]], feelsLike: feels[i], humidity: humidity[i],
                pressure: pressure[i], clouds: clouds[i], windDirection: direction[i], windGust: gust[i], uvIndex: uv[i])
        }
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
        func write(_ values: [Double?], _ key: Column) throws {
            if values.contains(where: { $0 != nil }) { try c.encode(values, forKey: key) }
        }
        let hours = wrappedValue
        try write(hours.map(\.precipitationProbability), .precipitationProbability)
        try write(hours.map(\.precipitation), .precipitation)
        try write(hours.map(\.windSpeed), .windSpeed)
        try write(hours.map(\.feelsLike), .feelsLike)
        try write(hours.map(\.humidity), .humidity)
        try write(hours.map(\.pressure), .pressure)
        try write(hours.map(\.clouds), .clouds)
        try write(hours.map(\.windDirection), .windDirection)
        try write(hours.map(\.windGust), .windGust)
        try write(hours.map(\.uvIndex), .uvIndex)
    }
}
