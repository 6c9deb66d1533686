import Foundation

extension DarkSkyDocument {
    /// Which block a data point is in: each has Pirate Weather's own list of fields, and every one
    /// of them is written — a value Brolly does not have as `-999`, as Pirate Weather writes it,
    /// never left out (clients such as Home Assistant's integration read every field unchecked).
    public enum Block: String, Codable, Sendable, Hashable {
        case currently, minutely, hourly, daily, dayNight

        /// The numeric fields, in Pirate Weather's order (API v2; `version2` adds the rest).
        func fields(version2: Bool) -> [String] {
            switch self {
            case .currently:
                return [
                    "nearestStormDistance", "nearestStormBearing", "precipIntensity", "precipProbability", "precipIntensityError",
                    "temperature", "apparentTemperature", "dewPoint", "humidity", "pressure", "windSpeed", "windGust", "windBearing",
                    "cloudCover", "uvIndex", "visibility", "ozone",
                ]
                    + (version2
                        ? [
                            "smoke", "fireIndex", "feelsLike", "currentDayIce", "currentDayLiquid", "currentDaySnow", "rainIntensity",
                            "snowIntensity",
                        ] : [])
            case .minutely:
                return ["precipIntensity", "precipProbability", "precipIntensityError"]
            case .hourly, .dayNight:
                return [
                    "precipIntensity", "precipProbability", "precipIntensityError", "precipAccumulation", "temperature",
                    "apparentTemperature", "dewPoint", "humidity", "pressure", "windSpeed", "windGust", "windBearing", "cloudCover",
                    "uvIndex", "visibility", "ozone",
                ]
                    + (version2
                        ? [
                            "smoke", "liquidAccumulation", "snowAccumulation", "iceAccumulation", "nearestStormDistance",
                            "nearestStormBearing", "fireIndex", "feelsLike",
                        ] : [])
            case .daily:
                return [
                    "dawnTime", "sunriseTime", "sunsetTime", "duskTime", "moonPhase", "precipIntensity", "precipIntensityMax",
                    "precipIntensityMaxTime", "precipProbability", "precipAccumulation", "temperatureHigh", "temperatureHighTime",
                    "temperatureLow", "temperatureLowTime", "apparentTemperatureHigh", "apparentTemperatureHighTime",
                    "apparentTemperatureLow", "apparentTemperatureLowTime", "dewPoint", "humidity", "pressure", "windSpeed", "windGust",
                    "windGustTime", "windBearing", "cloudCover", "uvIndex", "uvIndexTime", "visibility", "temperatureMin",
                    "temperatureMinTime", "temperatureMax", "temperatureMaxTime", "apparentTemperatureMin",
                    "apparentTemperatureMinTime", "apparentTemperatureMax", "apparentTemperatureMaxTime",
                ]
                    + (version2
                        ? [
                            "smokeMax", "smokeMaxTime", "liquidAccumulation", "snowAccumulation", "iceAccumulation", "fireIndexMax",
                            "fireIndexMaxTime",
                        ] : [])
            }
        }

        /// Whether the block's points carry a summary and an icon (the minutely block's do not).
        var hasTexts: Bool { self != .minutely }
    }

    /// Pirate Weather's value for "unknown".
    public static let unknown = -999.0

    /// One data point: its time, texts and numbers (by their API names; whole numbers — times,
    /// bearings — written without a fraction).
    public struct DataPoint: Codable, Sendable, Hashable {
        public var time: Int
        public var summary: String?
        public var icon: String?
        public var precipType: String?
        /// The numbers Brolly has, by field name; the block's other fields are written as `-999`.
        public var values: [String: Double] = [:]
        /// The block it is written in.
        public var block: Block
        /// Whether API version 2's fields are written too.
        public var version2 = false

        init(time: Int, block: Block) {
            self.time = time
            self.block = block
        }

        public subscript(_ field: String) -> Double? {
            get { values[field] }
            set { values[field] = newValue }
        }

        public var precipIntensity: Double? {
            get { values["precipIntensity"] }
            set { values["precipIntensity"] = newValue }
        }
        public var precipProbability: Double? {
            get { values["precipProbability"] }
            set { values["precipProbability"] = newValue }
        }
        public var temperature: Double? {
            get { values["temperature"] }
            set { values["temperature"] = newValue }
        }
        public var windSpeed: Double? {
            get { values["windSpeed"] }
            set { values["windSpeed"] = newValue }
        }
        public var humidity: Double? {
            get { values["humidity"] }
            set { values["humidity"] = newValue }
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ s: String) { stringValue = s }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(time, forKey: Key("time"))
            if block.hasTexts {
                try c.encode(summary ?? "", forKey: Key("summary"))
                try c.encode(icon ?? "", forKey: Key("icon"))
            }
            try c.encode(precipType ?? "none", forKey: Key("precipType"))
            for field in block.fields(version2: version2) {
                let v = values[field] ?? DarkSkyDocument.unknown
                if v == v.rounded(), abs(v) < 1e15 { try c.encode(Int(v), forKey: Key(field)) } else { try c.encode(v, forKey: Key(field)) }
            }
        }

        /// Read back as Brolly writes it (`-999`: not known); the block is taken to be `hourly`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            time = try c.decode(Int.self, forKey: Key("time"))
            block = .hourly
            for key in c.allKeys where key.stringValue != "time" {
                if let s = try? c.decode(String.self, forKey: key) {
                    switch key.stringValue {
                    case "summary": summary = s
                    case "icon": icon = s
                    case "precipType": precipType = s
                    default: break
                    }
                } else if let v = try? c.decode(Double.self, forKey: key), v != DarkSkyDocument.unknown {
                    values[key.stringValue] = v
                }
            }
        }
    }
}
