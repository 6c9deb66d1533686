import BrollyCore
import Foundation

/// The Dark Sky / Pirate Weather forecast format (`GET /forecast/{key}/{lat},{lon}`), written from
/// Brolly's cached weather so that clients made for those APIs (Home Assistant, Breezy Weather,
/// MagicMirror, libraries) work unchanged. Field names, units per unit system and icon names are
/// Pirate Weather's (its API reference and OpenAPI description); a field Brolly has no value for
/// is left out, never made up.
public struct DarkSkyDocument: Codable, Sendable, Hashable {
    /// `si`: °C, m/s, hPa, mm/h, cm, km; `us`: °F, mph, hPa, in/h, in, mi; `uk`: `si` with mph and
    /// mi; `ca`: `si` with km/h. `auto` is chosen by the place's country.
    public enum Units: String, Sendable, CaseIterable {
        case si, us, uk, ca

        /// `auto`: the United States `us`, the United Kingdom `uk`, Canada `ca`, elsewhere `si`.
        public static func auto(countryCode: String?) -> Units {
            switch countryCode?.uppercased() {
            case "US", "PR", "GU", "VI", "AS", "MP", "LR", "MM": .us
            case "GB": .uk
            case "CA": .ca
            default: .si
            }
        }

        /// The unit of each quantity.
        public var choice: UnitChoice {
            switch self {
            case .si: UnitChoice(temperature: .celsius, wind: .ms, pressure: .hpa, precipitation: .mm, distance: .km)
            case .us: UnitChoice(temperature: .fahrenheit, wind: .mph, pressure: .hpa, precipitation: .inch, distance: .mi)
            case .uk: UnitChoice(temperature: .celsius, wind: .mph, pressure: .hpa, precipitation: .mm, distance: .mi)
            case .ca: UnitChoice(temperature: .celsius, wind: .kmh, pressure: .hpa, precipitation: .mm, distance: .km)
            }
        }
    }

    public struct DataBlock: Codable, Sendable, Hashable {
        public var summary: String?
        public var icon: String?
        public var data: [DataPoint]
    }

    public struct AlertItem: Codable, Sendable, Hashable {
        public var title: String
        public var regions: [String]
        /// Pirate Weather's terms: `Extreme`, `Severe`, `Moderate`, `Minor`, `Unknown`.
        public var severity: String
        public var time: Int
        /// Always written (Breezy Weather reads it as a required number): -999 when the warning gives no end.
        public var expires: Int
        public var description: String
        public var uri: String
    }

    public struct Flags: Codable, Sendable, Hashable {
        /// Who really answered: `open-meteo`, `openweathermap` (and `metar` for a measured value).
        public var sources: [String]
        /// The distance to the station whose report is in `currently`, in the units' distance (0:
        /// none, as Pirate Weather writes it).
        public var nearestStation: Double
        public var units: String
        public var version: String
        /// Where each source's grid point is (`{"open-meteo": {"lat": …, "lon": …}}`): the model's
        /// grid point that answered, when the provider says.
        public var sourceIDX: [String: GridPoint]?

        public struct GridPoint: Codable, Sendable, Hashable {
            public var lat: Double
            public var lon: Double
        }

        enum CodingKeys: String, CodingKey {
            case sources, units, version, sourceIDX
            case nearestStation = "nearest-station"
        }
    }

    public var latitude: Double
    public var longitude: Double
    public var timezone: String
    /// Hours from UTC (may be fractional: +5.75).
    public var offset: Double
    public var currently: DataPoint?
    public var minutely: DataBlock?
    public var hourly: DataBlock?
    public var daily: DataBlock?
    public var alerts: [AlertItem]?
    public var flags: Flags?
    /// `include=day_night_forecast`: day (04:00–16:00) and night (16:00–04:00) in turn, from today's day.
    public var dayNight: DataBlock?

    enum CodingKeys: String, CodingKey {
        case latitude, longitude, timezone, offset, currently, minutely, hourly, daily, alerts, flags
        case dayNight = "day_night"
    }

    /// The blocks a request can leave out (`exclude=`).
    public static let blocks: Set<String> = ["currently", "minutely", "hourly", "daily", "alerts", "flags", "day_night"]

    /// Dark Sky's icon names (`drizzle` and `thunderstorm`, Brolly's own, are `rain`).
    static func icon(_ kind: ConditionKind, isDay: Bool) -> String {
        switch Condition.iconName(for: kind, isDay: isDay) {
        case "drizzle", "thunderstorm": "rain"
        case let name: name
        }
    }

    static func precipType(_ kind: ConditionKind, temperature: Double?) -> String? {
        switch kind {
        case .snow, .snowShowers: "snow"
        case .sleet, .freezingRain: "sleet"
        case .drizzle, .rain, .showers, .thunderstorm: "rain"
        default: temperature.map { $0 <= 0 ? "snow" : "rain" }
        }
    }

    static func r(_ v: Double, _ decimals: Int = 2) -> Double { Rounding.round(v, decimals) }

    /// The document written from `v` (in `units`' choice of units): `hourlyCount` hours from the one under
    /// way (48; with `extend=hourly` up to 168 of those the report has), every day Brolly has (up to 8), the next hour's
    /// minutes from the 15-minute nowcast, the official warnings; blocks in `exclude` left out;
    /// `version2` adds rain and snow intensities.
    public init(
        _ v: WeatherView, units u: Units, exclude: Set<String> = [], hourlyCount: Int = 48, version2: Bool = false,
        dayNight twiceDaily: Bool = false
    ) {
        // Written from the one view of the weather, in the API's units: nothing is derived here.
        let now = v.now, l = v.language
        let place = v.place
        let zone = v.zone
        latitude = place.latitude
        longitude = place.longitude
        timezone = place.timezone
        offset = Double(zone.secondsFromGMT(for: now)) / 3600
        let isDay = v.isDayNow
        let timeline = v.timeline()
        func depth(_ mm: Double) -> Double { Measure(mm, in: v.units.precipitation).value }

        let c = v.current
        let underWay = timeline.last { $0.time <= now } ?? timeline.first
        if !exclude.contains("currently") {
            var p = DataPoint(time: Int(now.timeIntervalSince1970), block: .currently)
            p.summary = c.condition.title
            p.icon = Self.icon(c.condition.kind, isDay: isDay)
            let slot = v.nowcast?.first { $0.end > now }
            // mm in the slot under way, as mm per hour; else the hour's amount.
            let intensity = slot.map { $0.precipitation * 4 } ?? underWay?.precipitation?.base
            p.precipIntensity = intensity.map { Self.r(depth($0), 3) }
            p.precipProbability = underWay?.chance.map { Self.r($0 / 100) }
            p.precipType = (intensity ?? 0) > 0 ? Self.precipType(c.condition.kind, temperature: c.temperature.base) : "none"
            p.temperature = Self.r(c.temperature.value)
            p.windSpeed = c.wind.map { Self.r($0.value) }
            Self.details(
                &p, feelsLike: c.feelsLike, fields: c.fields, humidity: c.humidity, pressure: c.pressure, gust: c.gust,
                direction: c.windDirection, clouds: c.clouds, uv: v.airQuality?.uvIndex ?? underWay?.uvIndex)
            p["visibility"] = c.visibility.map { Self.r($0.value) }
            p["feelsLike"] = p["apparentTemperature"]
            if version2, let slot {
                let snow = min(slot.snowfall.map(SnowUnit.water(ofCentimetres:)) ?? 0, slot.precipitation)
                p["snowIntensity"] = Self.r(depth(snow * 4), 3)
                p["rainIntensity"] = Self.r(depth((slot.precipitation - snow) * 4), 3)
            }
            currently = p
        }

        if !exclude.contains("minutely"), let slots = v.nowcast, !slots.isEmpty {
            // 61 minutes from this one, each with its 15-minute slot's rate.
            let start = Int(now.timeIntervalSince1970 / 60) * 60
            let points = (0...60).compactMap { i -> DataPoint? in
                let t = Date(timeIntervalSince1970: TimeInterval(start + i * 60))
                guard let slot = slots.first(where: { $0.end > t && $0.end.addingTimeInterval(-900) <= t }) else { return nil }
                var p = DataPoint(time: start + i * 60, block: .minutely)
                p.precipIntensity = Self.r(depth(slot.precipitation * 4), 3)
                p.precipType = slot.precipitation > 0 ? ((slot.snowfall ?? 0) > 0 ? "snow" : "rain") : "none"
                return p
            }
            if !points.isEmpty {
                minutely = DataBlock(
                    summary: NowcastSummary.sentence(slots.filter { $0.end > now }, now: now, language: l) ?? l.text("dryNextHour"),
                    icon: points.contains { ($0.precipIntensity ?? 0) > 0 } ? "rain" : Self.icon(c.condition.kind, isDay: isDay),
                    data: points)
            }
        }

        if !exclude.contains("hourly") {
            let from = underWay?.time ?? now
            let hours = timeline.filter { $0.time >= from }.prefix(hourlyCount)
            hourly = DataBlock(worstOf: hours.prefix(24).map(\.condition), data: hours.map(Self.point))
        }

        if !exclude.contains("daily") {
            let days = v.days.prefix(8)
            let points = days.compactMap { d -> DataPoint? in
                guard let midnight = LocalTime.parse(d.date + "T00:00", in: zone) else { return nil }
                var p = DataPoint(time: Int(midnight.timeIntervalSince1970), block: .daily)
                p.summary = d.condition.title
                p.icon = Self.icon(d.condition.kind, isDay: true)
                p["sunriseTime"] = d.sunrise.map { $0.timeIntervalSince1970.rounded() }
                p["sunsetTime"] = d.sunset.map { $0.timeIntervalSince1970.rounded() }
                // Dark Sky's lunation fraction: 0 new moon, 0.5 full.
                p["moonPhase"] = Self.r(d.moonAge / 29.530_588)
                p.precipIntensity = d.precipitation.map { Self.r($0.value / 24, 3) }
                // The day's fall as a depth of snow: cm where rain is in mm, else inches.
                p["precipAccumulation"] = d.precipitation.map { Self.r(Measure($0.base, in: v.units.precipitation.snow).value, 3) }
                p.precipProbability = d.chance.map { Self.r($0 / 100) }
                p.precipType = (d.precipitation?.base ?? 0) > 0 ? Self.precipType(d.condition.kind, temperature: d.high.base) : "none"
                // The day's extremes: Brolly has no separate day-time high and night-time low.
                p["temperatureMax"] = Self.r(d.high.value)
                p["temperatureMin"] = Self.r(d.low.value)
                p["temperatureHigh"] = p["temperatureMax"]
                p["temperatureLow"] = p["temperatureMin"]
                p["dawnTime"] = d.dawn.map { $0.timeIntervalSince1970.rounded() }
                p["duskTime"] = d.dusk.map { $0.timeIntervalSince1970.rounded() }
                if let h = d.hourly {
                    func time(_ t: Date?) -> Double? { t.map { $0.timeIntervalSince1970.rounded() } }
                    Self.write(h.fields, into: &p)
                    p["temperatureHighTime"] = time(h.temperatureHigh?.time)
                    p["temperatureLowTime"] = time(h.temperatureLow?.time)
                    p["temperatureMaxTime"] = p["temperatureHighTime"]
                    p["temperatureMinTime"] = p["temperatureLowTime"]
                    p["apparentTemperatureHighTime"] = time(h.feelsLikeHighTime)
                    p["apparentTemperatureLowTime"] = time(h.feelsLikeLowTime)
                    p["apparentTemperatureMaxTime"] = p["apparentTemperatureHighTime"]
                    p["apparentTemperatureMinTime"] = p["apparentTemperatureLowTime"]
                    p["windGustTime"] = time(h.gustMaxTime)
                    p["uvIndexTime"] = time(h.uvMaxTime)
                    p["precipIntensityMax"] = h.precipitationMax.map { Self.r($0.value.value, 3) }
                    p["precipIntensityMaxTime"] = time(h.precipitationMax?.time)
                    p.humidity = h.humidity.map { Self.r($0 / 100) }
                    p["cloudCover"] = h.clouds.map { Self.r($0 / 100) }
                    p["pressure"] = h.pressure.map { Self.r($0.base) }
                    p.windSpeed = h.windMax.map { Self.r($0.value) }
                    p["windGust"] = h.gustMax.map { Self.r($0.value) }
                    p["windBearing"] = h.windDirection
                    p["uvIndex"] = h.uvMax.map { Self.r($0) }
                    p["apparentTemperatureHigh"] = h.feelsLikeHigh.map { Self.r($0.value) }
                    p["apparentTemperatureLow"] = h.feelsLikeLow.map { Self.r($0.value) }
                    p["apparentTemperatureMax"] = p["apparentTemperatureHigh"]
                    p["apparentTemperatureMin"] = p["apparentTemperatureLow"]
                }
                return p
            }
            daily = DataBlock(worstOf: days.map(\.condition), data: points)
        }

        if !exclude.contains("alerts") {
            alerts = (v.alerts ?? []).map { a in
                AlertItem(
                    title: a.headline.isEmpty ? a.event : a.headline, regions: a.areas,
                    // Pirate Weather's terms (the CAP severities of its NWS alerts).
                    severity: a.severity.rawValue.prefix(1).uppercased() + a.severity.rawValue.dropFirst(),
                    time: Int((a.onset ?? a.sent ?? now).timeIntervalSince1970),
                    expires: Int(a.expires?.timeIntervalSince1970 ?? Self.unknown),
                    description: a.description, uri: a.url ?? "")
            }
        }

        if !exclude.contains("flags") {
            var sources = [v.provider.rawValue]
            if let model = v.model { sources.append(model) }
            flags = Flags(
                sources: sources,
                nearestStation: v.measured.map { Self.r(Measure($0.distanceKm * 1000, in: v.units.distance).value) } ?? 0,
                units: u.rawValue,
                version: "brolly-1",
                sourceIDX: v.gridPoint.map { [v.provider.rawValue: Flags.GridPoint(lat: $0.latitude, lon: $0.longitude)] })
        }

        if twiceDaily, !exclude.contains("day_night") {
            dayNight = Self.dayNight(timeline, zone: zone, units: v.units, now: now)
        }
        if version2 { markVersion2() }
    }

    /// Every data point writes API version 2's fields too.
    mutating func markVersion2() {
        currently?.version2 = true
        for i in minutely?.data.indices ?? 0..<0 { minutely?.data[i].version2 = true }
        for i in hourly?.data.indices ?? 0..<0 { hourly?.data[i].version2 = true }
        for i in daily?.data.indices ?? 0..<0 { daily?.data[i].version2 = true }
        for i in dayNight?.data.indices ?? 0..<0 { dayNight?.data[i].version2 = true }
    }

    /// An hour of the view as a data point.
    static func point(_ h: WeatherView.Hour) -> DataPoint {
        var p = DataPoint(time: Int(h.time.timeIntervalSince1970), block: .hourly)
        p.summary = h.condition.title
        p.icon = Self.icon(h.condition.kind, isDay: h.isDay)
        p.precipIntensity = h.precipitation.map { Self.r($0.value, 3) }
        // The hour's fall as Pirate Weather counts it: cm where rain is in mm, else inches.
        p["precipAccumulation"] = h.precipitation.map { Self.r(Measure($0.base, in: $0.unit.snow).value, 4) }
        p.precipProbability = h.chance.map { Self.r($0 / 100) }
        p.precipType = (h.precipitation?.base ?? 0) > 0 ? Self.precipType(h.condition.kind, temperature: h.temperature.base) : "none"
        p.temperature = Self.r(h.temperature.value)
        p.windSpeed = h.wind.map { Self.r($0.value) }
        details(
            &p, feelsLike: h.feelsLike, fields: h.fields, humidity: h.humidity, pressure: h.pressure, gust: h.gust,
            direction: h.windDirection, clouds: h.clouds, uv: h.uvIndex)
        return p
    }

    /// The view's fields (`ViewField.all`) by Pirate Weather's names, each rounded as
    /// it writes its kind.
    static func write(_ fields: FieldValues, into p: inout DataPoint) {
        for (f, m) in fields.present {
            guard let name = f.darkSky else { continue }
            p[name] =
                switch m {
                case .temperature(let t): r(t.value)
                }
        }
    }

    /// The fields `currently` and each hour share: feels-like, the view's fields, humidity and
    /// cloud cover as fractions, pressure in hPa, gusts, where the wind comes from, UV.
    static func details(
        _ p: inout DataPoint, feelsLike: Measure<TemperatureUnit>?, fields: FieldValues, humidity: Double?,
        pressure: Measure<PressureUnit>?, gust: Measure<WindUnit>?, direction: Double?, clouds: Double?, uv: Double?
    ) {
        p["apparentTemperature"] = feelsLike.map { r($0.value) }
        write(fields, into: &p)
        p.humidity = humidity.map { r($0 / 100) }
        p["pressure"] = pressure.map { r($0.base) }
        p["windGust"] = gust.map { r($0.value) }
        p["windBearing"] = direction.map { Double(Int($0.rounded()) % 360) }
        p["cloudCover"] = clouds.map { r($0 / 100) }
        p["uvIndex"] = uv.map { r($0) }
    }

    /// A time machine answer (`/forecast/{key}/{lat},{lon},{time}`) from what Brolly has: today's
    /// hours from midnight and the coming week. `currently` is the hour holding `at`, `hourly`
    /// that local day's hours, `daily` that day; no minutes and no warnings, as Dark Sky's time
    /// machine. Nil when Brolly has no hour for `at`.
    public static func timeMachine(
        _ view: WeatherView, at t: Date, units u: Units, exclude: Set<String> = [], version2: Bool = false
    ) -> DarkSkyDocument? {
        let v = view.at(t)
        let zone = v.zone
        let day = LocalTime.dateString(t, in: zone)
        let dayHours = v.timeline().filter { LocalTime.dateString($0.time, in: zone) == day }
        guard let hour = dayHours.last(where: { $0.time <= t }), t.timeIntervalSince(hour.time) < 3 * 3600 else { return nil }
        var d = DarkSkyDocument(v, units: u, exclude: exclude.union(["minutely", "alerts"]), hourlyCount: 0, version2: false)
        if d.currently != nil {
            var now = point(hour)
            now.block = .currently
            now.icon = Self.icon(hour.condition.kind, isDay: v.isDayNow)
            now.time = Int(t.timeIntervalSince1970)
            if version2 {
                let fallen = hour.precipitation?.value ?? 0
                let rain = hour.condition.isSnow ? 0 : fallen
                now["rainIntensity"] = Self.r(rain, 3)
                now["snowIntensity"] = Self.r(fallen - rain, 3)
            }
            d.currently = now
        }
        if d.hourly != nil {
            d.hourly = DataBlock(worstOf: dayHours.map(\.condition), data: dayHours.map(point))
        }
        if let daily = d.daily {
            let midnight = LocalTime.parse(day + "T00:00", in: zone).map { Int($0.timeIntervalSince1970) }
            let data = daily.data.filter { $0.time == midnight }
            d.daily = DataBlock(summary: data.first?.summary, icon: data.first?.icon, data: data)
        }
        return d
    }
}
