import Foundation

/// A value converted once into a reader's unit, kept with that unit (as open-meteo's server keeps
/// `DataAndUnit`): writers format `value`, they never convert.
public struct Measure<Unit: MeasureUnit>: Sendable, Hashable {
    /// The value in `unit`.
    public let value: Double
    public let unit: Unit
    /// The value in the base unit (°C, m/s, hPa, mm, m): what scales by the base unit read (a
    /// colour ramp by °C, the Beaufort force).
    public let base: Double

    /// `base` (°C, m/s, hPa, mm, m) in `unit`.
    public init(_ base: Double, in unit: Unit) {
        value = unit.convert(base)
        self.unit = unit
        self.base = base
    }

    /// Rounded to `decimals` (the unit's own by default).
    public func rounded(_ decimals: Int? = nil) -> Double { Rounding.round(value, decimals ?? unit.decimals) }
}

/// One view of the weather: everything a reader is shown, derived once per answer from the report,
/// the place, the reader's units and language and the moment — the current reading, the hours from
/// now (the first is the current reading), the days with their worst condition, day or night and
/// snow or rain per hour, sun and moon, today's highest UV, how old the answer is. The JSON
/// document, the terminal's views, the one-line format (and Waybar), and the morning push are
/// writers over it: they format its values and derive nothing.
public struct WeatherView: Sendable {
    /// A condition with its texts in the reader's language.
    public struct ConditionView: Sendable, Hashable {
        public let condition: Condition
        public let title: String
        public let description: String
        public var kind: ConditionKind { condition.kind }
        public var isSnow: Bool { condition.kind.isSnow }

        /// `condition`, one of `report`'s, named in `language` (the provider's own text when it
        /// wrote it in that language).
        public init(_ condition: Condition, of report: WeatherReport, in language: LanguagePack) {
            self.condition = condition
            (title, description) = language.localized(condition, provider: report.provider, textLanguage: report.language)
        }
    }

    public struct Reading: Sendable {
        public let time: Date
        public let temperature: Measure<TemperatureUnit>
        public let feelsLike: Measure<TemperatureUnit>?
        public let low: Measure<TemperatureUnit>
        public let high: Measure<TemperatureUnit>
        public let yesterday: Measure<TemperatureUnit>?
        /// %.
        public let humidity: Double?
        /// The view's fields (`ViewField.all`).
        public let fields: FieldValues
        public let pressure: Measure<PressureUnit>?
        public let wind: Measure<WindUnit>?
        public let gust: Measure<WindUnit>?
        /// Where the wind comes from, degrees.
        public let windDirection: Double?
        /// The wind's Beaufort force.
        public let windForce: Int?
        /// %.
        public let clouds: Double?
        public let visibility: Measure<DistanceUnit>?
        public let rain: Measure<PrecipitationUnit>?
        /// Fresh snow as a depth (cm where rain is in mm, else inches).
        public let snow: Measure<SnowUnit>?
        /// The fresh snow's water (what OpenWeatherMap and One Call call `snow.1h`): the provider's
        /// precipitation less the rain when it gives both, else worked out from the depth.
        public let snowWater: Measure<PrecipitationUnit>?
        /// Everything that fell in the latest hour as water: rain and the snow's water.
        public let precipitation: Measure<PrecipitationUnit>?
        public let condition: ConditionView
        public let isDay: Bool
    }

    public struct Hour: Sendable {
        public let time: Date
        public let temperature: Measure<TemperatureUnit>
        /// %.
        public let chance: Double?
        public let precipitation: Measure<PrecipitationUnit>?
        public let wind: Measure<WindUnit>?
        public let condition: ConditionView
        public let isDay: Bool
        /// The hour under way, showing the current reading.
        public let isNow: Bool
        public let feelsLike: Measure<TemperatureUnit>?
        /// %.
        public let humidity: Double?
        /// The view's fields (`ViewField.all`).
        public let fields: FieldValues
        public let pressure: Measure<PressureUnit>?
        /// %.
        public let clouds: Double?
        /// Where the wind comes from, degrees.
        public let windDirection: Double?
        public let gust: Measure<WindUnit>?
        public let uvIndex: Double?

        init(_ h: HourForecast, units u: UnitChoice, condition: ConditionView, isDay: Bool, isNow: Bool) {
            time = h.time
            temperature = Measure(h.temperature, in: u.temperature)
            chance = h.precipitationProbability
            precipitation = h.precipitation.map { Measure($0, in: u.precipitation) }
            wind = h.windSpeed.map { Measure($0, in: u.wind) }
            self.condition = condition
            self.isDay = isDay
            self.isNow = isNow
            feelsLike = h.feelsLike.map { Measure($0, in: u.temperature) }
            humidity = h.humidity
            fields = FieldValues(units: u) { $0.hour(h) }
            pressure = h.pressure.map { Measure($0, in: u.pressure) }
            clouds = h.clouds
            windDirection = h.windDirection
            gust = h.windGust.map { Measure($0, in: u.wind) }
            uvIndex = h.uvIndex
        }
    }

    public struct Day: Sendable {
        /// The local date, `2026-11-26`.
        public let date: String
        public let low: Measure<TemperatureUnit>
        public let high: Measure<TemperatureUnit>
        /// The high's and the low's 80 % range (10th, 90th percentile), where the day has one.
        public let highRange: [Measure<TemperatureUnit>]?
        public let lowRange: [Measure<TemperatureUnit>]?
        public let precipitation: Measure<PrecipitationUnit>?
        /// %.
        public let chance: Double?
        /// What the day is labelled by: the condition of most of its daylight hours (the more severe
        /// of equals), where Brolly has them; else the provider's day.
        public let condition: ConditionView
        /// The day's worst condition (the provider's day, as Open-Meteo's `weather_code`): kept for
        /// what warns.
        public let worst: ConditionView
        /// The provider's sunrise and sunset, else worked out for the place.
        public let sunrise: Date?
        public let sunset: Date?
        /// Civil dawn and dusk, worked out for the place.
        public let dawn: Date?
        public let dusk: Date?
        /// The moon's age at the day's noon, days since the new moon.
        public let moonAge: Double
        /// What the day's hours say, where Brolly has them (the first eight days): their mean
        /// humidity, cloud cover and pressure, the strongest wind and gust, the wind's prevailing
        /// direction (the mean of the hours' wind vectors, as Open-Meteo's `_dominant`), the
        /// highest UV index and the feels-like range.
        public let hourly: HourlySummary?
    }

    /// A day's (or half-day's) hours summed up (`Day.hourly`), each extreme with the hour it comes in.
    public struct HourlySummary: Sendable {
        /// A value and the hour it comes in.
        public struct Extreme<Value: Sendable>: Sendable {
            public let value: Value
            public let time: Date
        }

        public let humidity: Double?
        /// The table's fields (`ViewField.all`), each summed up as its `summary` says.
        public let fields: FieldValues
        public let clouds: Double?
        public let pressure: Measure<PressureUnit>?
        public let windMax: Measure<WindUnit>?
        public let gustMax: Measure<WindUnit>?
        /// The hour of the strongest gust.
        public let gustMaxTime: Date?
        public let windDirection: Double?
        public let uvMax: Double?
        public let uvMaxTime: Date?
        public let feelsLikeLow: Measure<TemperatureUnit>?
        public let feelsLikeHigh: Measure<TemperatureUnit>?
        public let feelsLikeLowTime: Date?
        public let feelsLikeHighTime: Date?
        /// The hours' lowest and highest temperatures (the day's own low and high may come from the
        /// provider's days), each with its hour.
        public let temperatureLow: Extreme<Measure<TemperatureUnit>>?
        public let temperatureHigh: Extreme<Measure<TemperatureUnit>>?
        /// The wettest hour's precipitation, with its hour.
        public let precipitationMax: Extreme<Measure<PrecipitationUnit>>?

        /// One hour's values in base units (°C, %, hPa, m/s, mm).
        struct Sample {
            var time: Date
            var temperature: Double
            var feelsLike, humidity, pressure, wind, gust, direction, clouds, uv, precipitation: Double?
            /// The table's fields, in the order of `ViewField.all`.
            var fields: [Double?]
            /// The temperature, read like the values an hour may not have.
            var measuredTemperature: Double? { temperature }
        }

        /// From the report's hours (a day of the place).
        init?(_ hours: [HourForecast], units u: UnitChoice) {
            self.init(
                hours.map { h in
                    Sample(
                        time: h.time, temperature: h.temperature, feelsLike: h.feelsLike, humidity: h.humidity,
                        pressure: h.pressure, wind: h.windSpeed, gust: h.windGust, direction: h.windDirection, clouds: h.clouds,
                        uv: h.uvIndex, precipitation: h.precipitation, fields: ViewField.all.map { $0.hour(h) })
                }, units: u)
        }

        /// From the view's hours (a day of another zone than the place's, or half a day: a compatible API's).
        public init?(_ hours: [Hour], units u: UnitChoice) {
            self.init(
                hours.map {
                    Sample(
                        time: $0.time, temperature: $0.temperature.base, feelsLike: $0.feelsLike?.base, humidity: $0.humidity,
                        pressure: $0.pressure?.base, wind: $0.wind?.base, gust: $0.gust?.base, direction: $0.windDirection,
                        clouds: $0.clouds, uv: $0.uvIndex, precipitation: $0.precipitation?.base, fields: $0.fields.bases)
                }, units: u)
        }

        init?(_ hours: [Sample], units u: UnitChoice) {
            guard !hours.isEmpty else { return nil }
            func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
            func values(_ key: KeyPath<Sample, Double?>) -> [Double] { hours.compactMap { $0[keyPath: key] } }
            // The first hour holding the highest (or lowest) value.
            func extreme(_ key: KeyPath<Sample, Double?>, highest: Bool) -> (value: Double, time: Date)? {
                var best: (value: Double, time: Date)?
                for h in hours {
                    guard let v = h[keyPath: key] else { continue }
                    if best == nil || (highest ? v > best!.value : v < best!.value) { best = (v, h.time) }
                }
                return best
            }
            humidity = mean(values(\.humidity))
            fields = FieldValues(
                units: u,
                bases: ViewField.all.enumerated().map { i, f in
                    let known = hours.compactMap { $0.fields[i] }
                    return switch f.summary {
                    case .mean: mean(known)
                    }
                })
            clouds = mean(values(\.clouds))
            pressure = mean(values(\.pressure)).map { Measure($0, in: u.pressure) }
            windMax = values(\.wind).max().map { Measure($0, in: u.wind) }
            let gust = extreme(\.gust, highest: true)
            gustMax = gust.map { Measure($0.value, in: u.wind) }
            gustMaxTime = gust?.time
            let directions = hours.compactMap { h in h.direction.map { ($0, h.wind ?? 1) } }
            let x = directions.reduce(0) { $0 + $1.1 * sin($1.0 * .pi / 180) }
            let y = directions.reduce(0) { $0 + $1.1 * cos($1.0 * .pi / 180) }
            windDirection = directions.isEmpty ? nil : ((atan2(x, y) * 180 / .pi + 360).rounded()).truncatingRemainder(dividingBy: 360)
            let uv = extreme(\.uv, highest: true)
            uvMax = uv?.value
            uvMaxTime = uv?.time
            let feelsLow = extreme(\.feelsLike, highest: false), feelsHigh = extreme(\.feelsLike, highest: true)
            feelsLikeLow = feelsLow.map { Measure($0.value, in: u.temperature) }
            feelsLikeHigh = feelsHigh.map { Measure($0.value, in: u.temperature) }
            feelsLikeLowTime = feelsLow?.time
            feelsLikeHighTime = feelsHigh?.time
            temperatureLow = extreme(\.measuredTemperature, highest: false).map {
                Extreme(value: Measure($0.value, in: u.temperature), time: $0.time)
            }
            temperatureHigh = extreme(\.measuredTemperature, highest: true).map {
                Extreme(value: Measure($0.value, in: u.temperature), time: $0.time)
            }
            precipitationMax = extreme(\.precipitation, highest: true).map {
                Extreme(value: Measure($0.value, in: u.precipitation), time: $0.time)
            }
        }
    }

    public struct Sky: Sendable {
        public let sunrise: Date?
        public let sunset: Date?
        public let dawn: Date?
        public let dusk: Date?
        public let noon: Date
        public let moonPhase: String
        public let moonSymbol: String
        /// 0…1.
        public let moonIllumination: Double
        /// Days since the new moon.
        public let moonAge: Double
    }

    /// The report the view is derived from: Core's own (the writers outside Core see only the
    /// view's values, so none of them can derive a value of its own).
    let report: WeatherReport
    public var place: Place { report.place }
    /// Who answered: the provider, its model, where its grid point is, the provider that failed
    /// over to it, and when it answered.
    public var provider: ProviderID { report.provider }
    public var model: String? { report.model }
    public var gridPoint: Coordinate? { report.gridPoint }
    public var elevation: Double? { report.elevation }
    public var fetchedAt: Date { report.fetchedAt }
    public let fallbackFrom: ProviderID?
    /// What the model choice means, in the reader's language ("DWD ICON (auto, best here)").
    public var modelNote: String? { WeatherDocument.modelNote(report, language: language) }
    /// What the days' ranges are made of; nil when no day has one.
    public var ranges: RangeNote? { report.ranges }
    /// The next two hours' 15-minute slots, when the provider gave them.
    public var nowcast: [NowcastSlot]? { report.nowcast }
    /// The official warnings for the place; nil when none were looked up.
    public let alerts: [Alert]?
    /// The air-quality answer (with UV), when there is one, and whether it is old.
    public let airQuality: AirQuality?
    public let airQualityIsStale: Bool
    /// What the nearest station measured, when one did.
    public let measured: MeasuredWeather?
    /// The UV index now: the air-quality answer's, else the hour under way's.
    public var uvNow: Double? { airQuality?.uvIndex ?? hours.first?.uvIndex }
    public var zone: TimeZone { report.place.timeZone }
    public let units: UnitChoice
    public let language: LanguagePack
    public let now: Date
    public let current: Reading
    /// Whether the sun is up now.
    public let isDayNow: Bool
    /// From the hour under way; the first shows the current reading.
    public let hours: [Hour]
    public let days: [Day]
    public let sky: Sky
    /// Today's highest UV index (from the air-quality answer), nil when it is not known.
    public let uvMax: Double?
    /// Seconds since the answer was fetched, and whether it is not current.
    public let age: TimeInterval
    public let isStale: Bool

    public init(_ result: WeatherResult, units: UnitChoice, language: LanguagePack = Localization.english, now: Date) {
        self.init(
            result.report, units: units, language: language, now: now, age: result.age, stale: result.isStale,
            uvMax: result.airQuality?.airQuality.uvIndexMax, fallbackFrom: result.fallbackFrom, alerts: result.alerts?.here,
            airQuality: result.airQuality?.airQuality, airQualityIsStale: result.airQuality?.isStale ?? false, measured: result.measured)
    }

    public init(
        _ report: WeatherReport, units u: UnitChoice, language l: LanguagePack = Localization.english, now: Date,
        age: TimeInterval = 0, stale: Bool = false, uvMax: Double? = nil, fallbackFrom: ProviderID? = nil, alerts: [Alert]? = nil,
        airQuality: AirQuality? = nil, airQualityIsStale: Bool = false, measured: MeasuredWeather? = nil
    ) {
        self.report = report
        self.fallbackFrom = fallbackFrom
        self.alerts = alerts
        self.airQuality = airQuality
        self.airQualityIsStale = airQualityIsStale
        self.measured = measured
        units = u
        language = l
        self.now = now
        self.age = age
        isStale = stale
        self.uvMax = uvMax
        func t(_ c: Double) -> Measure<TemperatureUnit> { Measure(c, in: u.temperature) }
        func p(_ mm: Double?) -> Measure<PrecipitationUnit>? { mm.map { Measure($0, in: u.precipitation) } }
        func w(_ ms: Double?) -> Measure<WindUnit>? { ms.map { Measure($0, in: u.wind) } }
        func c(_ condition: Condition) -> ConditionView { ConditionView(condition, of: report, in: l) }
        var daylight = Daylight(place: report.place)
        let cur = report.current
        // The snow's water: the provider's precipitation less the rain when it gives it, else from the depth.
        let snowWater = cur.snow.map { depth in
            cur.precipitation.map { max(0, $0 - (cur.rain ?? 0)) } ?? SnowUnit.water(ofDepth: depth)
        }
        let fallen = cur.precipitation ?? (cur.rain == nil && snowWater == nil ? nil : (cur.rain ?? 0) + (snowWater ?? 0))
        current = Reading(
            time: cur.time, temperature: t(cur.temperature), feelsLike: cur.feelsLike.map(t), low: t(cur.temperatureMin),
            high: t(cur.temperatureMax), yesterday: cur.temperatureYesterday.map(t), humidity: cur.humidity,
            fields: FieldValues(units: u) { $0.now(cur) },
            pressure: cur.pressure.map { Measure($0, in: u.pressure) }, wind: w(cur.windSpeed), gust: w(cur.windGust),
            windDirection: cur.windDirection, windForce: cur.windSpeed.map(WindUnit.beaufort), clouds: cur.clouds,
            visibility: cur.visibility.map { Measure($0, in: u.distance) }, rain: p(cur.rain),
            snow: cur.snow.map { Measure($0, in: u.precipitation.snow) }, snowWater: p(snowWater), precipitation: p(fallen),
            condition: c(cur.condition), isDay: daylight.isDay(cur.time))
        let underWay = report.hoursFromNow
        hours = report.hoursFromNowReading.enumerated().map { i, h in
            Hour(
                h, units: u, condition: c(h.condition), isDay: daylight.isDay(h.time),
                isNow: i == 0 && (underWay.first.map { $0.time <= cur.time } ?? false))
        }
        let zone = report.place.timeZone
        let hoursByDay = Dictionary(grouping: report.hours) { LocalTime.dateString($0.time, in: zone) }
        days = report.days.map { d in
            let noon = LocalTime.parse(d.date + "T12:00", in: report.place.timeZone) ?? cur.time
            let sun = daylight.sun(on: noon)
            let dayHours = hoursByDay[d.date] ?? []
            let daylit = dayHours.filter { daylight.isDay($0.time) }
            return Day(
                date: d.date, low: t(d.temperatureMin), high: t(d.temperatureMax), highRange: d.temperatureMaxRange?.map(t),
                lowRange: d.temperatureMinRange?.map(t), precipitation: p(d.precipitation),
                chance: d.precipitationProbability, condition: c(Self.dominant(daylit) ?? d.condition), worst: c(d.condition),
                sunrise: d.sunrise ?? sun.sunrise,
                sunset: d.sunset ?? sun.sunset, dawn: sun.dawn, dusk: sun.dusk, moonAge: SkyCalculator.moonAge(at: noon),
                hourly: HourlySummary(dayHours, units: u))
        }
        isDayNow = daylight.isDay(now)
        let sun = daylight.sun(on: cur.time)
        sky = Sky(
            sunrise: cur.sunrise ?? sun.sunrise, sunset: cur.sunset ?? sun.sunset, dawn: sun.dawn, dusk: sun.dusk, noon: sun.zenith,
            moonPhase: SkyCalculator.moonPhaseName(at: cur.time), moonSymbol: SkyCalculator.moonSymbol(at: cur.time),
            moonIllumination: SkyCalculator.moonIllumination(at: cur.time), moonAge: SkyCalculator.moonAge(at: cur.time))
    }

    /// The condition of most of `hours` (the more severe of equals), when there are enough of them
    /// to say (four daylight hours); nil otherwise.
    static func dominant(_ hours: [HourForecast]) -> Condition? {
        guard hours.count >= 4 else { return nil }
        var counts: [ConditionKind: (count: Int, first: Condition)] = [:]
        for h in hours { counts[h.condition.kind, default: (0, h.condition)].count += 1 }
        return counts.values.max { a, b in a.count != b.count ? a.count < b.count : a.first.severity < b.first.severity }?.first
    }

    /// The same weather seen at another moment (Dark Sky's time machine).
    public func at(_ moment: Date) -> WeatherView {
        WeatherView(
            report, units: units, language: language, now: moment, age: age, stale: isStale, uvMax: uvMax,
            fallbackFrom: fallbackFrom, alerts: alerts, airQuality: airQuality, airQualityIsStale: airQualityIsStale, measured: measured)
    }

    /// The hours from the hour under way for `count` hours, each its own forecast (not the current
    /// reading): a tooltip's next hours.
    public func upcomingHours(_ count: Int) -> [Hour] { forecastHours(report.upcomingHours(count)) }

    /// Every hour of the forecast, past ones too, each its own forecast (the hour under way not
    /// replaced by the current reading): for writers of timelines (the compatible APIs).
    public func timeline() -> [Hour] { forecastHours(report.hours) }

    /// Some of the report's hours, each its own forecast, in the view's units and language.
    func forecastHours(_ hours: [HourForecast]) -> [Hour] {
        var daylight = Daylight(place: report.place)
        let u = units, l = language, report = report
        return hours.map { h in
            Hour(h, units: u, condition: ConditionView(h.condition, of: report, in: l), isDay: daylight.isDay(h.time), isNow: false)
        }
    }

    /// The hours of the local day `date` (from now on).
    public func hours(on date: String) -> [Hour] { hours.filter { LocalTime.dateString($0.time, in: zone) == date } }

    /// Today's local date at the place.
    public var today: String { LocalTime.dateString(now, in: zone) }

    /// "3° warmer than yesterday" (nil without yesterday's temperature), in the reader's unit.
    public var comparedWithYesterday: String? {
        WeatherDocument.comparedWithYesterday(now: current.temperature.value, yesterday: current.yesterday?.value, language: language)
    }
}
