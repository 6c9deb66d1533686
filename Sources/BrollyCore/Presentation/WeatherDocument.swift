import Foundation

/// The JSON contract served by `brolly now --json` and `GET /api/v1/weather`, in one unit system.
public struct WeatherDocument: Codable, Sendable, Hashable {
    /// The conditions now in the document's units (local ISO 8601 times), and beside them, in the
    /// same JSON object, what the document adds (`Beside`).
    public typealias Current = SideBySide<CurrentOf<String, ConditionDocument>, Beside>
    /// What the document writes beside the conditions now: the station's measurement and the
    /// Beaufort force.
    public struct Beside: Codable, Sendable, Hashable {
        /// What the nearest station within 25 km measured in the last 90 minutes.
        public var measured: Measured?
        /// The wind on the Beaufort scale (0–12) and its name in the document's language.
        public var windForce: Int?
        public var windForceName: String?
        /// The view's fields (`ViewField.all`) in the document's units, by their keys.
        public var fields: FieldsDocument<BrollyFieldNames>

        enum CodingKeys: String, CodingKey {
            case measured, windForce, windForceName
        }

        public init(fields: FieldsDocument<BrollyFieldNames>) {
            self.fields = fields
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            measured = try c.decodeIfPresent(Measured.self, forKey: .measured)
            windForce = try c.decodeIfPresent(Int.self, forKey: .windForce)
            windForceName = try c.decodeIfPresent(String.self, forKey: .windForceName)
            fields = try FieldsDocument(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(measured, forKey: .measured)
            try c.encodeIfPresent(windForce, forKey: .windForce)
            try c.encodeIfPresent(windForceName, forKey: .windForceName)
            try fields.encode(to: encoder)
        }
    }
    /// One of the table's fields (`ViewField`) that `current` carries: its key (also its name's
    /// key in the language files) and what it measures, so that a reader lists them all.
    public struct FieldInfo: Codable, Sendable, Hashable {
        public var key: String
        public var kind: ViewField.Kind
    }
    /// A station's latest observation, in the document's units.
    public struct Measured: Codable, Sendable, Hashable {
        public var time: String
        public var temperature: Double?
        public var dewPoint: Double?
        public var windSpeed: Double?
        public var windGust: Double?
        public var windDirection: Double?
        public var pressure: Double?
        /// In the document's distance unit (km, mi).
        public var visibility: Double?
        /// Present weather: the report's group (`-RA`) and its text in the document's language.
        public var weather: Reported?
        /// The most covering cloud layer (`OVC`), its text, and its base in the distance unit.
        public var clouds: Clouds?
        public var station: StationInfo

        public struct Reported: Codable, Sendable, Hashable {
            public var code: String
            public var text: String?
        }
        public struct Clouds: Codable, Sendable, Hashable {
            public var cover: String
            public var text: String?
            public var base: Double?
        }
    }
    /// A day in the document's units; local ISO 8601 times.
    public typealias Day = DayOf<String, ConditionDocument>
    public struct Hour: Codable, Sendable, Hashable {
        public var time: String
        public var temperature: Double
        public var precipitationProbability: Double?
        public var precipitation: Double?
        /// In the document's wind unit.
        public var windSpeed: Double?
        public var condition: ConditionDocument
        /// Whether rain or snow falls this hour as a person notices it (`RainRule`: the one rule
        /// of the page, the terminal and the pushes); absent in documents written before it.
        public var wet: Bool?
    }
    /// What the next 24 hours bring (`WeatherView.Story`), for the line over the hours.
    public struct Summary: Codable, Sendable, Hashable {
        /// `dry` (nothing in 24 hours), `now` (falling now, until `time` when it stops) or `from`
        /// (starting at `time`).
        public var fall: String
        /// Whether what falls is snow.
        public var snow: Bool
        /// Local ISO 8601: when it starts (`from`) or stops (`now`).
        public var time: String?
        /// Today's high before 15:00, tonight's low after it (`temperatureIs`).
        public var temperature: Double
        /// `todayHigh` or `tonightLow`.
        public var temperatureIs: String
    }
    public struct Units: Codable, Sendable, Hashable {
        public var temperature: String
        public var windSpeed: String
        public var pressure: String
        public var precipitation: String
    }
    /// The sun's and the moon's day at the place: sunrise and sunset from the provider (computed
    /// when it has none), dawn, solar noon and dusk (civil twilight) and the moon computed locally.
    public struct Sky: Codable, Sendable, Hashable {
        public var dawn: String?
        public var sunrise: String?
        public var solarNoon: String
        public var sunset: String?
        public var dusk: String?
        public var moon: Moon
    }
    public struct Moon: Codable, Sendable, Hashable {
        /// "new moon", "waxing crescent", "first quarter", … "waning crescent" (a stable token).
        public var phase: String
        /// The phase in the document's language ("полнолуние"); absent in English.
        public var phaseName: String?
        public var symbol: String
        /// The lit fraction of the disc, 0 … 1.
        public var illumination: Double
        /// Days since the new moon.
        public var age: Double
    }
    public struct Source: Codable, Sendable, Hashable {
        /// Who answered.
        public var provider: String
        public var fetchedAt: String
        public var stale: Bool
        /// The configured provider, when it failed and `provider` answered instead.
        public var fallbackFrom: String?
        /// What the answer lacks because a helper failed or is slow: "name", "airQuality",
        /// "alerts", "ranges"; nil when nothing is.
        public var lacking: [String]?
        /// The forecast model that answered (Open-Meteo's name; `best_match`: its own choice).
        public var model: String?
        /// Why that model, for people: "ECMWF IFS — more accurate here than Open-Meteo's choice".
        public var modelNote: String?
        /// Why the forecast is not corrected for the place although that was asked (`model=brolly`,
        /// the default): another provider answered, the place is not scored yet, or too few days
        /// are; in the reader's language. Absent when it is corrected, or another model was asked.
        public var note: String?
        /// What the days' `temperatureMaxRange` and `temperatureMinRange` (80 %: the 10th to the
        /// 90th percentile) are made of; absent when no day has one.
        public var ranges: Ranges?
        /// The forecast corrected for the place (`model=brolly`): the models blended, the days
        /// corrected and how far tomorrow's high and low moved, in the document's unit.
        public var correction: Correction?
        /// How many days ahead the provider forecasts here (Open-Meteo 16, OpenWeatherMap's free
        /// answers 5 or 6): `days` has that many.
        public var days: Int?
    }
    /// The days' ranges: calibrated for the place (the ensemble's spread scaled so that the
    /// forecast shown's past errors here are covered 8 times in 10), or the ensemble's own.
    public struct Ranges: Codable, Sendable, Hashable {
        public var calibrated: Bool
        /// The ensemble's members.
        public var members: Int
        /// The days with a range.
        public var days: Int
        /// Why the ranges are the ensemble's own, for people; absent when calibrated.
        public var note: String?
    }
    /// What correcting the forecast for the place did.
    public struct Correction: Codable, Sendable, Hashable {
        public var models: [String]
        public var days: Int
        public var tomorrowHigh: Double?
        public var tomorrowLow: Double?
    }
    /// The next two hours' precipitation (Open-Meteo's 15-minute slots).
    public struct Nowcast: Codable, Sendable, Hashable {
        /// "Rain starting in about 30 min, for about 45 min", "Rain stopping in about 15 min";
        /// absent when it stays dry.
        public var summary: String?
        public var slots: [Slot]
        public struct Slot: Codable, Sendable, Hashable {
            public var start: String
            public var end: String
            /// In the slot, in the document's precipitation unit.
            public var precipitation: Double
        }
    }
    /// A value on a published scale, with its category name and the scale's colour.
    public struct Index: Codable, Sendable, Hashable {
        public var value: Double
        /// The scale's category as published (English, a stable token: "Fair").
        public var category: String
        public var colour: String
        /// The category in the document's language ("удовлетворительно"); absent in English.
        public var label: String?
    }
    /// Air quality, UV and pollen (Open-Meteo's air-quality API, refreshed hourly).
    public struct AirQualityInfo: Codable, Sendable, Hashable {
        public var time: String
        public var fetchedAt: String
        public var stale: Bool
        public var europeanAqi: Index?
        public var usAqi: Index?
        /// μg/m³.
        public var pm2_5: Double?
        public var pm10: Double?
        public var ozone: Double?
        public var nitrogenDioxide: Double?
        public var uvIndex: Index?
        public var uvIndexMax: Index?
        /// Grains/m³ by plant, where the pollen model covers the place; absent elsewhere.
        public var pollen: [String: Double]?
    }

    public var place: PlaceDocument
    public var current: Current
    public var days: [Day]
    public var hours: [Hour]
    public var units: Units
    public var source: Source
    /// Absent only in documents written before it existed.
    public var sky: Sky?
    /// Absent when the provider gives no 15-minute precipitation (OpenWeatherMap).
    public var nowcast: Nowcast?
    /// What the next 24 hours bring; absent in documents written before it (and with fewer than
    /// two hours).
    public var summary: Summary?
    /// Absent when air quality could not be had (it never hides the weather).
    public var airQuality: AirQualityInfo?
    /// The table's fields `current` carries, in the order to list them; absent in documents
    /// written before it.
    public var fields: [FieldInfo]?
    /// Official warnings covering the place, most severe first; absent when alerts were not
    /// asked for or could not be had in time, empty when there are none.
    public var alerts: [AlertInfo]?
    /// Warnings in the place's country that could not be matched to it (MeteoAlarm's regions).
    public var alertsElsewhere: AlertsElsewhere?

    /// A warning with its times in the place's local ISO 8601 (`sent` too).
    public typealias AlertInfo = AlertOf<String>
    public struct AlertsElsewhere: Codable, Sendable, Hashable {
        public var country: String
        public var alerts: [AlertInfo]

        public init(country: String, alerts: [AlertInfo]) {
            self.country = country
            self.alerts = alerts
        }
    }
}

extension WeatherDocument.AlertInfo {
    /// `a` with its times in `zone`.
    public init(_ a: Alert, in zone: TimeZone) { self = a.withTimes { LocalTime.iso8601($0, in: zone) } }
}
