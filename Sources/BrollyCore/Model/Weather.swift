import Foundation

/// The conditions now. The services keep them metric (°C, m/s, hPa, mm, m) with instants and a
/// condition (`CurrentConditions`); the weather document writes the same fields in the reader's
/// units, with local ISO 8601 times and the condition's texts (`WeatherDocument.Current`).
public struct CurrentOf<Time: Codable & Sendable & Hashable, Weather: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var time: Time
    public var temperature: Double
    public var feelsLike: Double?
    public var temperatureMin: Double
    public var temperatureMax: Double
    /// Relative humidity, %.
    public var humidity: Double?
    /// Sea-level pressure (hPa in `CurrentConditions`).
    public var pressure: Double?
    /// m/s in `CurrentConditions`.
    public var windSpeed: Double?
    /// Meteorological degrees: where the wind comes from.
    public var windDirection: Double?
    public var windGust: Double?
    /// Cloud cover, %.
    public var clouds: Double?
    /// Metres.
    public var visibility: Double?
    /// Latest rain volume (mm in `CurrentConditions`).
    public var rain: Double?
    /// Latest fresh snow as a depth (mm of snow in `CurrentConditions`: Open-Meteo's snowfall; a
    /// provider that gives the snow's water, as OpenWeatherMap does, converts it).
    public var snow: Double?
    public var condition: Weather
    public var sunrise: Time?
    public var sunset: Time?
    /// The temperature at this hour yesterday, when the provider gives it in the same answer
    /// (Open-Meteo's `past_days=1`); nil otherwise — never guessed.
    public var temperatureYesterday: Double?
    /// Everything that fell in the latest hour as water (mm in `CurrentConditions`): the rain and
    /// the snow's water, when the provider gives it (Open-Meteo's `precipitation`).
    public var precipitation: Double?
}

/// Current conditions, always stored in metric units (°C, m/s, hPa, mm, m).
public typealias CurrentConditions = CurrentOf<Date, Condition>

/// One local calendar day of forecast. The services keep it metric with instants and conditions
/// (`DayForecast`); the weather document writes the same fields in the reader's units, with local
/// ISO 8601 times and the condition's texts (`WeatherDocument.Day`).
public struct DayOf<Time: Codable & Sendable & Hashable, Weather: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    /// Local date, `YYYY-MM-DD`, in the place's time zone.
    public var date: String
    public var temperatureMin: Double
    public var temperatureMax: Double
    /// Total precipitation (mm in a `DayForecast`).
    public var precipitation: Double?
    public var precipitationProbability: Double?
    public var condition: Weather
    /// Nil in a polar day or night.
    public var sunrise: Time?
    public var sunset: Time?
    /// The day's high and low as an 80 % range, `[p10, p90]` (°C in a `DayForecast`): the
    /// ensemble's spread calibrated for the place (`WeatherReport.ranges` says whether it is);
    /// nil beyond the ensemble's days or without it.
    public var temperatureMaxRange: [Double]? = nil
    public var temperatureMinRange: [Double]? = nil
}

/// One local calendar day of forecast, metric.
public typealias DayForecast = DayOf<Date, Condition>

/// Identifies a weather provider.
public enum ProviderID: String, Codable, Sendable, CaseIterable {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"

    /// The provider's name as people write it.
    public var displayName: String {
        switch self {
        case .openMeteo: "Open-Meteo"
        case .openWeatherMap: "OpenWeatherMap"
        }
    }

    /// "from OpenWeatherMap (Open-Meteo unavailable)" when `fallbackFrom` failed, else "from Open-Meteo".
    public func attribution(fallbackFrom: ProviderID?) -> String {
        "from \(displayName)" + (fallbackFrom.map { " (\($0.displayName) unavailable)" } ?? "")
    }

    /// The shortest time a response is served without a new call. OpenWeatherMap asks for at
    /// least 10 minutes between calls for one place; Open-Meteo sets no such floor.
    public var minimumFreshness: TimeInterval {
        switch self {
        case .openWeatherMap: 600
        case .openMeteo: 0
        }
    }
}

/// Everything known about the weather at a place, as one provider answered, in metric units.
/// The model's values (this report, its conditions, days and nowcast) are made by the providers in
/// this module, so, like WeatherKit's, they have no public initializer: an app reads them.
public struct WeatherReport: Codable, Sendable, Hashable {
    public var place: Place
    public var current: CurrentConditions
    public var days: [DayForecast]
    /// Stored column by column (`HourColumns`).
    @HourColumns public var hours: [HourForecast]
    public var provider: ProviderID
    /// When the provider's answer was received.
    public var fetchedAt: Date
    /// Precipitation in 15-minute slots for the next two hours, from the slot under way (Open-Meteo's
    /// `minutely_15`, in the same call); nil when the provider gives none.
    public var nowcast: [NowcastSlot]?
    /// The language of the provider's own condition texts when it is not English (OpenWeatherMap's
    /// `lang=`); nil: English.
    public var language: String?
    /// The forecast model that answered (Open-Meteo's name: `best_match` is its own choice per
    /// place); nil for providers without a choice of models.
    public var model: String?
    /// Why that model: `auto` (the most accurate here lately), `named` (asked for), `default`,
    /// `corrected` (its forecast corrected for the place and blended with the others').
    public var modelSelection: String?
    /// The height of the model's grid point, metres, when the provider says (Open-Meteo).
    public var elevation: Double?
    /// The model's grid point that answered (Open-Meteo's `latitude`/`longitude`): places answered
    /// from one grid point get the same forecast, so the rain watcher asks once for all of them.
    public var gridPoint: Coordinate?
    /// What correcting the forecast for the place did (`modelSelection` `corrected`); nil when it
    /// is a model's own.
    public var correction: CorrectionNote?
    /// What the days' ranges are made of; nil when no day has one.
    public var ranges: RangeNote?
    /// Why the forecast is not corrected although the corrected one was asked for (`model=brolly`,
    /// the default); nil when it is, or was not asked for.
    public var notCorrected: NotCorrected?
}

/// What the days' 80 % ranges are made of.
public struct RangeNote: Codable, Sendable, Hashable {
    /// True: the ensemble's spread scaled so that the forecast shown's past errors here are covered
    /// 8 times in 10; false: the ensemble's own spread (the place's record is too thin).
    public var calibrated: Bool
    /// The ensemble's members.
    public var members: Int
    /// The days with a range.
    public var days: Int

    public init(calibrated: Bool, members: Int, days: Int) {
        self.calibrated = calibrated
        self.members = members
        self.days = days
    }
}

/// Why a forecast asked to be corrected for its place is a model's own (`auto`'s).
public struct NotCorrected: Codable, Sendable, Hashable {
    public enum Reason: String, Codable, Sendable {
        /// Another provider answered: only Open-Meteo's models are scored.
        case otherProvider
        /// The forecasts here have not been scored yet (or the scores could not be had).
        case notScored
        /// Too few days scored here (`days` of `ForecastScores.minimumDays`).
        case fewDays
    }
    public var reason: Reason
    /// The days scored, for `fewDays`.
    public var days: Int?

    public init(reason: Reason, days: Int? = nil) {
        self.reason = reason
        self.days = days
    }
}

/// One 15-minute slot of the next hours' precipitation: what falls in the quarter hour that ends at
/// `end` (Open-Meteo's convention: a value is the sum over the preceding 15 minutes).
public struct NowcastSlot: Codable, Sendable, Hashable {
    public var end: Date
    /// mm in the slot.
    public var precipitation: Double
    /// cm of snow in the slot, when the provider says.
    public var snowfall: Double?

    public var start: Date { end.addingTimeInterval(-900) }
    /// 0.1 mm in a quarter hour (0.4 mm/h) or more: rain a person notices.
    public var isWet: Bool { precipitation >= 0.1 }
    /// Falling as snow: at least half of it (1 mm of water is about 0.7 cm of snow).
    public var isSnow: Bool { (snowfall ?? 0) >= 0.35 * precipitation && precipitation > 0 }
}

extension WeatherReport {
    /// The slots from the one under way (the last that started at or before the current
    /// conditions' time) on: the report also keeps today's earlier hours.
    public var hoursFromNow: ArraySlice<HourForecast> {
        let start = hours.lastIndex { $0.time <= current.time } ?? hours.startIndex
        return hours[start...]
    }

    /// The slots of the next `count` hours from the current hour on (hourly for Open-Meteo,
    /// 3-hourly for OpenWeatherMap).
    public func upcomingHours(_ count: Int) -> [HourForecast] {
        let start = current.time.addingTimeInterval(-3599)
        let end = current.time.addingTimeInterval(TimeInterval(count) * 3600)
        return hours.filter { $0.time >= start && $0.time < end }
    }
}
