import Foundation

/// The one conversion table. Every quantity is kept in one base unit (°C, m/s, hPa, mm, m) and
/// converted to a reader's unit here and nowhere else: a value in a unit is
/// `base × factor ÷ divisor + offset`, shown with `decimals` decimals (a factor and a divisor so
/// that each constant is written as it is defined, exactly: 1 in = 25.4 mm, 1 mph = 0.44704 m/s). The page gets this same table
/// (`UnitTable.document`, served as `/js/unit-table.js`), so JavaScript restates no constant.
public protocol MeasureUnit: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {
    /// Multiplies a base value.
    var factor: Double { get }
    /// Divides a base value: how many base units make one of this unit.
    var divisor: Double { get }
    /// Added after scaling (only temperatures have one).
    var offset: Double { get }
    /// Decimals a reader is shown.
    var decimals: Int { get }
    /// As people write it (`°C`, `km/h`, `inHg`).
    var symbol: String { get }
    /// A value in the base unit, in this unit.
    func convert(_ base: Double) -> Double
}

extension MeasureUnit {
    public var factor: Double { 1 }
    public var divisor: Double { 1 }
    public var offset: Double { 0 }
    public func convert(_ base: Double) -> Double { base * factor / divisor + offset }
    /// A value in this unit, in the base unit.
    public func base(of value: Double) -> Double { (value - offset) * divisor / factor }
    /// A difference (an error, a change) in the base unit, in this unit: no offset.
    public func difference(_ base: Double) -> Double { base * factor / divisor }
    /// Converted and rounded to `decimals` (this unit's by default).
    public func rounded(_ base: Double, decimals: Int? = nil) -> Double { Rounding.round(convert(base), decimals ?? self.decimals) }
}

/// Rounding, once.
public enum Rounding {
    static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// `value` rounded to `decimals` decimals (halves away from zero), never `-0`.
    public static func round(_ value: Double, _ decimals: Int) -> Double {
        // The scale from a table, not `pow` (a report's hours read their values through here).
        let scale = decimals >= 0 && decimals < scales.count ? scales[decimals] : pow(10, Double(decimals))
        let r = (value * scale).rounded() / scale
        return r == 0 ? 0 : r
    }

    /// A whole number for display (halves away from zero: -21.5 → -22), never `-0`.
    public static func whole(_ value: Double) -> Int {
        let r = value.rounded()
        return r == 0 ? 0 : Int(r)
    }
}

/// Temperature (base: °C).
public enum TemperatureUnit: String, MeasureUnit {
    case celsius = "C", fahrenheit = "F", kelvin = "K"

    public var factor: Double { self == .fahrenheit ? 9 : 1 }
    public var divisor: Double { self == .fahrenheit ? 5 : 1 }
    public var offset: Double {
        switch self {
        case .celsius: 0
        case .fahrenheit: 32
        case .kelvin: 273.15
        }
    }
    public var decimals: Int { 0 }
    public var symbol: String {
        switch self {
        case .celsius: "°C"
        case .fahrenheit: "°F"
        case .kelvin: "K"
        }
    }

    /// Parses `C`, `F`, `K`, their names, or a preset's name (`metric`, `imperial`, `standard`).
    public init?(userInput: String) {
        switch userInput.lowercased() {
        case "c", "celsius", "°c", "metric": self = .celsius
        case "f", "fahrenheit", "°f", "imperial": self = .fahrenheit
        case "k", "kelvin", "standard": self = .kelvin
        default: return nil
        }
    }

    public init(from decoder: Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let unit = TemperatureUnit(userInput: raw) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a temperature unit: \(raw)"))
        }
        self = unit
    }
}

/// Wind speed (base: m/s), by the tokens used everywhere (API, CLI, page).
public enum WindUnit: String, MeasureUnit {
    case ms, kmh, mph, kn, bft

    public var factor: Double {
        switch self {
        case .ms, .bft, .mph: 1
        case .kmh: 3.6
        case .kn: 3600
        }
    }
    public var divisor: Double {
        switch self {
        case .ms, .bft, .kmh: 1
        case .mph: 0.447_04
        case .kn: 1852
        }
    }
    /// Decimals shown.
    public var decimals: Int { self == .bft ? 0 : 1 }
    public var symbol: String {
        switch self {
        case .ms: "m/s"
        case .kmh: "km/h"
        case .mph: "mph"
        case .kn: "kn"
        case .bft: "Bft"
        }
    }

    /// Converts m/s (Beaufort: the force, a whole number).
    public func convert(_ base: Double) -> Double { self == .bft ? Double(Self.beaufort(base)) : base * factor / divisor }

    /// A unit as providers write it (`km/h`, `kph`, `mp/h`, `knots`, `kt`, `m/s`).
    public init?(named name: String) {
        switch name.lowercased() {
        case "km/h", "kmh", "kph": self = .kmh
        case "mph", "mp/h": self = .mph
        case "kn", "knots", "kt": self = .kn
        case "m/s", "ms", "mps": self = .ms
        default: return nil
        }
    }

    /// The WMO Beaufort scale's lower limits (m/s, 10 m, rounded to 0.1) of forces 1 to 12.
    public static let beaufortLimits: [Double] = [0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]

    /// The Beaufort force (0–12) of a speed in m/s.
    public static func beaufort(_ ms: Double) -> Int {
        let speed = Rounding.round(ms, 1)
        return beaufortLimits.filter { speed >= $0 }.count
    }
}

/// Pressure (base: hPa).
public enum PressureUnit: String, MeasureUnit {
    case hpa, mbar, mmhg, inhg, kpa

    /// 1 mmHg = 1.333224 hPa, 1 inHg = 33.86389 hPa.
    public var divisor: Double {
        switch self {
        case .hpa, .mbar: 1
        case .mmhg: 1.333_224
        case .inhg: 33.863_89
        case .kpa: 10
        }
    }
    public var decimals: Int {
        switch self {
        case .hpa, .mbar, .mmhg: 0
        case .kpa: 1
        case .inhg: 2
        }
    }
    public var symbol: String {
        switch self {
        case .hpa: "hPa"
        case .mbar: "mbar"
        case .mmhg: "mmHg"
        case .inhg: "inHg"
        case .kpa: "kPa"
        }
    }
}

/// Precipitation (base: mm of water). Fresh snow is a depth, shown in centimetres where rain is in
/// millimetres (as metric readers count snow) and in inches where rain is in inches: `snow`.
public enum PrecipitationUnit: String, MeasureUnit {
    case mm
    case inch = "in"

    public var divisor: Double { self == .inch ? 25.4 : 1 }
    public var decimals: Int { self == .inch ? 2 : 1 }
    public var symbol: String { rawValue }
    /// The unit of a snow depth that goes with this one.
    public var snow: SnowUnit { self == .inch ? .inch : .cm }
    /// A unit as providers write it (`mm`, `cm`, `inch`, `in`, `inches`); `cm` is read by `SnowUnit`.
    public init?(named name: String) {
        switch name.lowercased() {
        case "mm": self = .mm
        case "inch", "in", "inches": self = .inch
        default: return nil
        }
    }
}

/// A depth of fresh snow (base: mm of snow).
public enum SnowUnit: String, MeasureUnit {
    case mm, cm
    case inch = "in"

    public var divisor: Double {
        switch self {
        case .mm: 1
        case .cm: 10
        case .inch: 25.4
        }
    }
    public var decimals: Int { 1 }
    public var symbol: String { rawValue }

    /// Water (mm) from a depth of fresh snow in mm, as Open-Meteo counts it: its
    /// `snowfall (cm) = precipitation (mm) × 0.7`, so 7 cm of snow are 10 mm of water.
    public static func water(ofDepth mm: Double) -> Double { SnowUnit.cm.convert(mm) / 0.7 }
    /// The depth (mm of snow) that `water` mm of water makes, the inverse of `water(ofDepth:)`.
    public static func depth(ofWater water: Double) -> Double { SnowUnit.cm.base(of: water * 0.7) }
}

/// Distance, visibility (base: metres).
public enum DistanceUnit: String, MeasureUnit {
    case km, mi
    /// Metres, as providers give visibility.
    case m

    public var divisor: Double {
        switch self {
        case .km: 1000
        case .mi: 1609.344
        case .m: 1
        }
    }
    public var decimals: Int { self == .m ? 0 : 1 }
    public var symbol: String { rawValue }
}

/// Unit conversions to the base units, for decoding providers that answer in other units.
public enum Metric {
    public static func celsius(fromFahrenheit f: Double) -> Double { TemperatureUnit.fahrenheit.base(of: f) }
    public static func celsius(fromKelvin k: Double) -> Double { TemperatureUnit.kelvin.base(of: k) }

    /// Converts a speed in a named unit (`km/h`, `m/s`, `mph`, `kn`) to m/s.
    public static func metresPerSecond(_ value: Double, unit: String?) -> Double {
        unit.flatMap(WindUnit.init(named:))?.base(of: value) ?? value
    }

    /// Converts a temperature in a named unit (`°C`, `°F`, `K`) to °C.
    public static func celsius(_ value: Double, unit: String?) -> Double {
        unit.flatMap(TemperatureUnit.init(userInput:))?.base(of: value) ?? value
    }

    /// Metres from statute miles (a METAR's visibility).
    public static func metres(fromMiles mi: Double) -> Double { DistanceUnit.mi.base(of: mi) }

    /// Metres from feet (a METAR's cloud base): a foot is 0.3048 m.
    public static func metres(fromFeet ft: Double) -> Double { ft * 0.3048 }

    /// Converts a length of precipitation in `mm`, `cm` or `inch` to mm.
    public static func millimetres(_ value: Double, unit: String?) -> Double {
        guard let unit else { return value }
        if unit.lowercased() == "cm" { return SnowUnit.cm.base(of: value) }
        return PrecipitationUnit(named: unit)?.base(of: value) ?? value
    }
}

/// The table as the page reads it: for each quantity, each unit's factor, divisor, offset, decimals and
/// symbol, and the Beaufort limits.
public enum UnitTable {
    static func entries<U: MeasureUnit>(_: U.Type) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for u in U.allCases {
            out[u.rawValue] = ["factor": u.factor, "divisor": u.divisor, "offset": u.offset, "decimals": u.decimals, "symbol": u.symbol]
        }
        return out
    }

    /// The JSON of the table.
    public static let json: Data = {
        let table: [String: Any] = [
            "temperature": entries(TemperatureUnit.self), "wind": entries(WindUnit.self), "pressure": entries(PressureUnit.self),
            "precipitation": entries(PrecipitationUnit.self), "snow": entries(SnowUnit.self), "distance": entries(DistanceUnit.self),
            "snowFor": Dictionary(uniqueKeysWithValues: PrecipitationUnit.allCases.map { ($0.rawValue, $0.snow.rawValue) }),
            "beaufortLimits": WindUnit.beaufortLimits,
        ]
        return (try? JSONSerialization.data(withJSONObject: table, options: [.sortedKeys])) ?? Data("{}".utf8)
    }()

}

extension SnowUnit {
    /// Water from a depth of fresh snow in cm.
    public static func water(ofCentimetres cm: Double) -> Double { water(ofDepth: SnowUnit.cm.base(of: cm)) }
}
