import Foundation

/// A value of the view that every surface writes the same way, from one row of one table: Brolly's
/// name for it (its key in Brolly's JSON and in the language files), what it measures, how a day's
/// hours sum it up, each compatible API's name for it, and how it is read from the report. The
/// view works each field out once (`FieldValues`: for the reading now, each hour, each day's and
/// half-day's hours); Brolly's JSON, the page's details, the terminal's `now`, Dark Sky, One Call and
/// Open-Meteo (JSON and FlatBuffers) walk `ViewField.all`, so a field added here reaches all of them
/// without a writer naming it.
public struct ViewField: Sendable, Hashable {
    /// What a field measures: which unit of the reader's it is converted into, and how surfaces
    /// round and label it.
    public enum Kind: String, Sendable, Hashable, Codable {
        case temperature
    }

    /// How a day's (or half-day's) hours sum a field up.
    public enum Summary: Sendable, Hashable {
        case mean
    }

    /// Open-Meteo's names for a field and what it is in the `openmeteo_sdk` schema.
    public struct OpenMeteoName: Sendable, Hashable {
        /// The current and hourly variable names, the current one first, then the legacy ones.
        public let names: [String]
        /// The daily variable (the hours summed up as `summary`), if Open-Meteo has one.
        public let daily: String?
        /// The schema's `Variable` and altitude.
        public let variable: UInt8
        public let altitude: Int16
    }

    /// Brolly's name: the key in Brolly's JSON and in the language files.
    public let key: String
    public let kind: Kind
    public let summary: Summary
    /// Pirate Weather's (Dark Sky's) key in `currently`, `hourly`, `daily` and `day_night`.
    public let darkSky: String?
    /// OpenWeatherMap One Call's key in `current`, `hourly` and `daily`.
    public let oneCall: String?
    public let openMeteo: OpenMeteoName?
    /// The value in the kind's base unit (°C) for the report's reading now and for one of its hours.
    let now: @Sendable (CurrentConditions) -> Double?
    let hour: @Sendable (HourForecast) -> Double?

    public static func == (a: ViewField, b: ViewField) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The dew point: the provider's none, so Magnus from the temperature and humidity.
    public static let dewPoint = ViewField(
        key: "dewPoint", kind: .temperature, summary: .mean, darkSky: "dewPoint", oneCall: "dew_point",
        openMeteo: OpenMeteoName(names: ["dew_point_2m", "dewpoint_2m"], daily: "dew_point_2m_mean", variable: 8, altitude: 2),
        now: { Dew.point(celsius: $0.temperature, humidity: $0.humidity) },
        hour: { Dew.point(celsius: $0.temperature, humidity: $0.humidity) })

    /// Every field, in the order surfaces list them.
    public static let all: [ViewField] = [.dewPoint]
}

/// A field's value in the reader's unit, as its kind measures it.
public enum FieldMeasure: Sendable, Hashable {
    case temperature(Measure<TemperatureUnit>)

    /// `base` (the kind's base unit) in the reader's unit for `kind`.
    init(_ kind: ViewField.Kind, base: Double, units: UnitChoice) {
        switch kind {
        case .temperature: self = .temperature(Measure(base, in: units.temperature))
        }
    }

    /// The value in the reader's unit.
    public var value: Double {
        switch self {
        case .temperature(let m): m.value
        }
    }

    /// The value in the base unit.
    public var base: Double {
        switch self {
        case .temperature(let m): m.base
        }
    }
}

/// The view's fields (`ViewField.all`) worked out for one reading, hour, day or half-day.
public struct FieldValues: Sendable {
    /// Each field's value, in the order of `ViewField.all`.
    let measures: [FieldMeasure?]

    /// Each field's value from its base value (`base`), in `units`.
    init(units: UnitChoice, base: (ViewField) -> Double?) {
        self.init(units: units, bases: ViewField.all.map(base))
    }

    /// Each field's value from its base value, in the order of `ViewField.all`.
    init(units: UnitChoice, bases: [Double?]) {
        measures = zip(ViewField.all, bases).map { f, b in b.map { FieldMeasure(f.kind, base: $0, units: units) } }
    }

    /// `field`'s value, nil when the inputs do not give it.
    public subscript(field: ViewField) -> FieldMeasure? {
        guard let i = ViewField.all.firstIndex(of: field) else { return nil }
        return measures[i]
    }

    /// Every field that has a value, in the table's order.
    public var present: [(field: ViewField, measure: FieldMeasure)] {
        zip(ViewField.all, measures).compactMap { f, m in m.map { (f, $0) } }
    }

    /// The base values, in the table's order (what a day's summary is made of).
    var bases: [Double?] { measures.map { $0?.base } }
}

/// A surface's names for the view's fields (nil: the surface does not write the field).
public protocol FieldNames: Sendable {
    static func name(of field: ViewField) -> String?
}

/// Brolly's own names: the fields' keys.
public enum BrollyFieldNames: FieldNames {
    public static func name(of field: ViewField) -> String? { field.key }
}

/// The view's fields as a surface writes them, in the same JSON object as the rest of the point
/// (beside it, as `SideBySide` writes two parts): each by the surface's name, a field without a
/// value left out.
public struct FieldsDocument<Names: FieldNames>: Codable, Sendable, Hashable {
    /// Each field's written value, by the field's key.
    public var values: [String: Double]

    /// `fields` written by `write` (the surface's rounding for each kind).
    public init(_ fields: FieldValues?, write: (FieldMeasure) -> Double) {
        var values: [String: Double] = [:]
        for (f, m) in fields?.present ?? [] where Names.name(of: f) != nil { values[f.key] = write(m) }
        self.values = values
    }

    /// The value written for `field`.
    public subscript(field: ViewField) -> Double? { values[field.key] }

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var values: [String: Double] = [:]
        for f in ViewField.all {
            guard let name = Names.name(of: f), let v = try c.decodeIfPresent(Double.self, forKey: Key(stringValue: name)) else {
                continue
            }
            values[f.key] = v
        }
        self.values = values
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for f in ViewField.all {
            guard let name = Names.name(of: f), let v = values[f.key] else { continue }
            try c.encode(v, forKey: Key(stringValue: name))
        }
    }
}

/// The dew point, the view's field `ViewField.dewPoint` (every surface writes it; Pirate Weather and
/// One Call name it in their formats).
public enum Dew {
    /// The dew point (°C) from the temperature (°C) and relative humidity (%) (Magnus, over water).
    public static func point(celsius t: Double, humidity: Double) -> Double? {
        guard humidity > 0, humidity <= 100 else { return nil }
        let gamma = log(humidity / 100) + 17.62 * t / (243.12 + t)
        return 243.12 * gamma / (17.62 - gamma)
    }

    /// The dew point (°C), nil when the humidity is not known.
    public static func point(celsius t: Double, humidity: Double?) -> Double? { humidity.flatMap { point(celsius: t, humidity: $0) } }
}
