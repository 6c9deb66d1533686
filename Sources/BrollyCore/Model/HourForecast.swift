import Foundation

/// One forecast slot (hourly for Open-Meteo, 3-hourly for OpenWeatherMap), metric.
///
/// Kept compact (40 bytes) because eight days of hours are held for every place in the memory
/// cache: the time as whole seconds since 1970, the main values as 32-bit floats read back to a
/// thousandth (providers give one or two decimals), the others as tenths or whole numbers in 8 and
/// 16 bits (feels-like, gusts, pressure, wind direction, humidity, cloud cover, UV: what the apps
/// that read an hour's detail ask for), a missing value as NaN or the type's sentinel, the
/// condition shared.
public struct HourForecast: Decodable, Sendable, Hashable {
    private var seconds: UInt32
    private var celsius: Float
    private var probability: Float
    private var amount: Float
    private var wind: Float
    /// Tenths of a degree (°C); `Int16.min` when not known.
    private var feels: Int16 = .min
    /// Tenths of a m/s; `UInt16.max` when not known.
    private var gust: UInt16 = .max
    /// Tenths of a hPa.
    private var hectopascals: UInt16 = .max
    /// Degrees, where the wind comes from.
    private var bearing: UInt16 = .max
    private var relativeHumidity: UInt8 = .max
    private var cloudCover: UInt8 = .max
    /// Tenths of the UV index.
    private var uv: UInt8 = .max
    /// Last: the small fields above fill the space before its 8-byte alignment (40 bytes, not 48).
    public var condition: Condition

    /// A stored value as it was given (to a thousandth).
    private static func read(_ f: Float) -> Double? { f.isNaN ? nil : Rounding.round(Double(f), 3) }
    private static func store(_ d: Double?) -> Float { d.map { Float($0) } ?? .nan }
    /// A value kept as a whole number of `1/scale` in `T`, the sentinel `missing` when nil (a value
    /// out of `T`'s range is clamped to it, never taken for the sentinel).
    private static func pack<T: FixedWidthInteger>(_ d: Double?, scale: Double, missing: T) -> T {
        guard let d, d.isFinite else { return missing }
        let v = (d * scale).rounded()
        let lowest = Double(T.min == missing ? T.min + 1 : T.min), highest = Double(T.max == missing ? T.max - 1 : T.max)
        return T(max(lowest, min(highest, v)))
    }
    private static func unpack<T: FixedWidthInteger>(_ v: T, scale: Double, missing: T) -> Double? {
        v == missing ? nil : Double(v) / scale
    }

    public var time: Date {
        get { Date(timeIntervalSince1970: TimeInterval(seconds)) }
        set { seconds = Self.seconds(newValue) }
    }
    public var temperature: Double {
        get { Self.read(celsius) ?? 0 }
        set { celsius = Float(newValue) }
    }
    /// Probability of precipitation, %.
    public var precipitationProbability: Double? {
        get { Self.read(probability) }
        set { probability = Self.store(newValue) }
    }
    /// Precipitation in the slot, mm.
    public var precipitation: Double? {
        get { Self.read(amount) }
        set { amount = Self.store(newValue) }
    }
    public var windSpeed: Double? {
        get { Self.read(wind) }
        set { wind = Self.store(newValue) }
    }
    /// Feels-like temperature, °C.
    public var feelsLike: Double? {
        get { Self.unpack(feels, scale: 10, missing: .min) }
        set { feels = Self.pack(newValue, scale: 10, missing: .min) }
    }
    /// Gusts, m/s.
    public var windGust: Double? {
        get { Self.unpack(gust, scale: 10, missing: .max) }
        set { gust = Self.pack(newValue, scale: 10, missing: .max) }
    }
    /// Sea-level pressure, hPa.
    public var pressure: Double? {
        get { Self.unpack(hectopascals, scale: 10, missing: .max) }
        set { hectopascals = Self.pack(newValue, scale: 10, missing: .max) }
    }
    /// Where the wind comes from, degrees (0–359).
    public var windDirection: Double? {
        get { Self.unpack(bearing, scale: 1, missing: .max) }
        set {
            bearing = Self.pack(
                newValue.map { ($0.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) }, scale: 1,
                missing: .max)
        }
    }
    /// Relative humidity, %.
    public var humidity: Double? {
        get { Self.unpack(relativeHumidity, scale: 1, missing: .max) }
        set { relativeHumidity = Self.pack(newValue.map { min(100, max(0, $0)) }, scale: 1, missing: .max) }
    }
    /// Cloud cover, %.
    public var clouds: Double? {
        get { Self.unpack(cloudCover, scale: 1, missing: .max) }
        set { cloudCover = Self.pack(newValue.map { min(100, max(0, $0)) }, scale: 1, missing: .max) }
    }
    /// The UV index (to a tenth).
    public var uvIndex: Double? {
        get { Self.unpack(uv, scale: 10, missing: .max) }
        set { uv = Self.pack(newValue.map { max(0, $0) }, scale: 10, missing: .max) }
    }

    /// Seconds since 1970 as stored: clamped to what 32 bits hold (1970–2106), NaN as 0.
    static func seconds(_ time: Date) -> UInt32 {
        let s = time.timeIntervalSince1970.rounded()
        return s.isNaN ? 0 : UInt32(max(0, min(Double(UInt32.max), s)))
    }

    public init(
        time: Date, temperature: Double, precipitationProbability: Double? = nil,
        precipitation: Double? = nil, windSpeed: Double? = nil, condition: Condition, feelsLike: Double? = nil,
        humidity: Double? = nil, pressure: Double? = nil, clouds: Double? = nil, windDirection: Double? = nil,
        windGust: Double? = nil, uvIndex: Double? = nil
    ) {
        self.seconds = Self.seconds(time)
        self.celsius = Float(temperature)
        self.probability = Self.store(precipitationProbability)
        self.amount = Self.store(precipitation)
        self.wind = Self.store(windSpeed)
        self.condition = condition
        self.feelsLike = feelsLike
        self.humidity = humidity
        self.pressure = pressure
        self.clouds = clouds
        self.windDirection = windDirection
        self.windGust = windGust
        self.uvIndex = uvIndex
    }

    enum CodingKeys: String, CodingKey {
        case time, temperature, precipitationProbability, precipitation, windSpeed, condition, feelsLike, humidity, pressure, clouds
        case windDirection, windGust, uvIndex
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys) throws -> Double? { try c.decodeIfPresent(Double.self, forKey: key) }
        self.init(
            time: try c.decode(Date.self, forKey: .time), temperature: try c.decode(Double.self, forKey: .temperature),
            precipitationProbability: try optional(.precipitationProbability), precipitation: try optional(.precipitation),
            windSpeed: try optional(.windSpeed), condition: try c.decode(Condition.self, forKey: .condition),
            feelsLike: try optional(.feelsLike), humidity: try optional(.humidity), pressure: try optional(.pressure),
            clouds: try optional(.clouds), windDirection: try optional(.windDirection), windGust: try optional(.windGust),
            uvIndex: try optional(.uvIndex))
    }

    public static func == (a: HourForecast, b: HourForecast) -> Bool {
        a.seconds == b.seconds && a.temperature == b.temperature && a.precipitationProbability == b.precipitationProbability
            && a.precipitation == b.precipitation && a.windSpeed == b.windSpeed && a.condition == b.condition && a.feels == b.feels
            && a.gust == b.gust && a.hectopascals == b.hectopascals && a.bearing == b.bearing
            && a.relativeHumidity == b.relativeHumidity && a.cloudCover == b.cloudCover && a.uv == b.uv
    }

    public func hash(into h: inout Hasher) {
        h.combine(seconds)
        h.combine(temperature)
        h.combine(precipitationProbability)
        h.combine(precipitation)
        h.combine(windSpeed)
        h.combine(condition)
        h.combine(feels)
        h.combine(gust)
        h.combine(hectopascals)
        h.combine(bearing)
        h.combine(relativeHumidity)
        h.combine(cloudCover)
        h.combine(uv)
    }
}
