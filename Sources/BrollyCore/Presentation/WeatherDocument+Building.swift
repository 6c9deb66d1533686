import Foundation

/// The document built from one answer, in the reader's units and language.
extension WeatherDocument {
    /// Builds the document for a result in a preset's units.
    public init(_ result: WeatherResult, units: UnitSystem, now: Date = Date(), language: LanguagePack = Localization.english) {
        self.init(result, units: UnitChoice(units), now: now, language: language)
    }

    /// Builds the document for a result in `units`, each chosen on its own.
    public init(_ result: WeatherResult, units: UnitChoice, now: Date = Date(), language: LanguagePack = Localization.english) {
        self.init(result.report, units: units, stale: result.isStale, age: result.age, now: now, language: language)
        source.fallbackFrom = result.fallbackFrom?.rawValue
        source.lacking = result.lacking.isEmpty ? nil : result.lacking.map(\.rawValue)
        if let air = result.airQuality, !air.airQuality.isEmpty {
            airQuality = Self.airQuality(air.airQuality, stale: air.isStale, in: result.report.place.timeZone, language: language)
        }
        if let m = result.measured {
            let u = units
            let o = m.observation
            current.measured = Measured(
                time: LocalTime.iso8601(o.time, in: result.report.place.timeZone),
                temperature: o.temperature.map { Rounding.round(u.temperature.convert($0), 1) },
                windSpeed: o.windSpeed.map { Rounding.round(u.wind.convert($0), u.wind.decimals) }, windDirection: o.windDirection,
                pressure: o.pressure.map { Rounding.round(u.pressure.convert($0), u.pressure.decimals) },
                station: StationInfo(id: o.stationID, name: o.stationName, distanceKm: m.distanceKm))
        }
        if let set = result.alerts {
            let zone = result.report.place.timeZone
            alerts = set.here.map { AlertInfo($0, in: zone) }
            if let country = set.elsewhereCountry, !set.elsewhere.isEmpty {
                alertsElsewhere = AlertsElsewhere(country: country, alerts: set.elsewhere.map { AlertInfo($0, in: zone) })
            }
        }
    }

    static func airQuality(_ a: AirQuality, stale: Bool, in zone: TimeZone, language: LanguagePack = Localization.english)
        -> AirQualityInfo
    {
        func index(_ v: Double?, _ band: (Double) -> AirQualityBand, places: Int = 0) -> Index? {
            v.map {
                let b = band($0)
                let label = language.code == "en" ? nil : language.bandName(b.category)
                return Index(value: Rounding.round($0, places), category: b.category, colour: b.colour, label: label)
            }
        }
        func r(_ v: Double?) -> Double? { v.map { Rounding.round($0, 1) } }
        return AirQualityInfo(
            time: LocalTime.iso8601(a.time, in: zone), fetchedAt: LocalTime.iso8601(a.fetchedAt, in: TimeZone(secondsFromGMT: 0)!),
            stale: stale, europeanAqi: index(a.europeanAQI, AirQualityBand.european), usAqi: index(a.usAQI, AirQualityBand.us),
            pm2_5: r(a.pm2_5), pm10: r(a.pm10), ozone: r(a.ozone), nitrogenDioxide: r(a.nitrogenDioxide),
            uvIndex: index(a.uvIndex, AirQualityBand.uv, places: 1), uvIndexMax: index(a.uvIndexMax, AirQualityBand.uv, places: 1),
            pollen: a.pollen.isEmpty ? nil : a.pollen.mapValues { Rounding.round($0, 1) })
    }

    public init(
        _ report: WeatherReport, units: UnitSystem, stale: Bool, age: TimeInterval, now: Date = Date(),
        language: LanguagePack = Localization.english
    ) {
        self.init(report, units: UnitChoice(units), stale: stale, age: age, now: now, language: language)
    }

    public init(
        _ report: WeatherReport, units u: UnitChoice, stale: Bool, age: TimeInterval, now: Date = Date(),
        language: LanguagePack = Localization.english
    ) {
        let zone = report.place.timeZone
        func t(_ c: Double) -> Double { Rounding.round(u.temperature.convert(c), 1) }
        func w(_ v: Double?) -> Double? { v.map { Rounding.round(u.wind.convert($0), u.wind.decimals) } }
        // Precipitation keeps the provider's precision (OpenWeatherMap's 0.25 mm stays 0.25):
        // 2 decimals in mm, 4 in inches. Only displays round further.
        func p(_ v: Double?) -> Double? { v.map { Rounding.round(u.precipitation.convert($0), u.precipitation == .inch ? 4 : 2) } }
        func c(_ c: Condition) -> ConditionInfo {
            let (title, description) = language.localized(c, provider: report.provider, textLanguage: report.language)
            return ConditionInfo(code: c.code, title: title, description: description, icon: c.icon)
        }
        func iso(_ d: Date?) -> String? { d.map { LocalTime.iso8601($0, in: zone) } }
        let cur = report.current
        place = PlaceInfo(
            name: report.place.name, country: report.place.country, countryCode: report.place.countryCode,
            region: report.place.region, latitude: report.place.latitude, longitude: report.place.longitude,
            timezone: report.place.timezone)
        current = Current(
            time: LocalTime.iso8601(cur.time, in: zone), temperature: t(cur.temperature),
            feelsLike: cur.feelsLike.map(t), temperatureMin: t(cur.temperatureMin), temperatureMax: t(cur.temperatureMax),
            humidity: cur.humidity.map { Rounding.round($0, 0) },
            pressure: cur.pressure.map { Rounding.round(u.pressure.convert($0), u.pressure.decimals) },
            windSpeed: w(cur.windSpeed), windDirection: cur.windDirection.map { Rounding.round($0, 0) },
            windGust: w(cur.windGust), clouds: cur.clouds, visibility: cur.visibility,
            rain: p(cur.rain), snow: p(cur.snow), condition: c(cur.condition),
            sunrise: iso(cur.sunrise), sunset: iso(cur.sunset), temperatureYesterday: cur.temperatureYesterday.map(t))
        days = report.days.map {
            Day(
                date: $0.date, temperatureMin: t($0.temperatureMin), temperatureMax: t($0.temperatureMax),
                precipitation: p($0.precipitation), precipitationProbability: $0.precipitationProbability,
                condition: c($0.condition))
        }
        hours = report.hoursFromNowReading.prefix(48).map {
            Hour(
                time: LocalTime.iso8601($0.time, in: zone), temperature: t($0.temperature),
                precipitationProbability: $0.precipitationProbability, precipitation: p($0.precipitation), windSpeed: w($0.windSpeed),
                condition: c($0.condition))
        }
        if let speed = cur.windSpeed {
            current.windForce = WindUnit.beaufort(speed)
            current.windForceName = language.beaufortName(WindUnit.beaufort(speed))
        }
        units = Units(
            temperature: u.temperature.symbol, windSpeed: u.wind.symbol, pressure: u.pressure.symbol,
            precipitation: u.precipitation.symbol)
        let sun = SkyCalculator.sunTimes(on: cur.time, in: zone, at: report.place.coordinate)
        let phase = SkyCalculator.moonPhaseName(at: cur.time)
        sky = Sky(
            dawn: iso(sun.dawn), sunrise: iso(cur.sunrise ?? sun.sunrise), solarNoon: LocalTime.iso8601(sun.zenith, in: zone),
            sunset: iso(cur.sunset ?? sun.sunset), dusk: iso(sun.dusk),
            moon: Moon(
                phase: phase, phaseName: language.code == "en" ? nil : language.moonPhaseName(phase),
                symbol: SkyCalculator.moonSymbol(at: cur.time),
                illumination: Rounding.round(SkyCalculator.moonIllumination(at: cur.time), 2),
                age: Rounding.round(SkyCalculator.moonAge(at: cur.time), 1)))
        source = Source(
            provider: report.provider.rawValue, fetchedAt: LocalTime.iso8601(report.fetchedAt, in: TimeZone(secondsFromGMT: 0)!),
            stale: stale)
        source.days = report.days.count
        if let model = report.model {
            source.model = model
            let name = Self.modelNames[model] ?? model
            switch report.modelSelection {
            case "auto": source.modelNote = language.text("modelAuto", ["model": name])
            case "named": source.modelNote = language.text("modelNamed", ["model": name])
            default: break
            }
        }
        if let slots = report.nowcast {
            let ahead = slots.filter { $0.end > now }.prefix(8)
            nowcast = Nowcast(
                summary: NowcastSummary.sentence(Array(ahead), now: now, language: language),
                slots: ahead.map {
                    Nowcast.Slot(
                        start: LocalTime.iso8601($0.start, in: zone), end: LocalTime.iso8601($0.end, in: zone),
                        precipitation: p($0.precipitation) ?? 0)
                })
        }
    }

    /// "3° warmer than yesterday", "2° colder than yesterday", "about the same as yesterday"
    /// (within 1°), from two temperatures in the same unit; nil without yesterday's.
    public static func comparedWithYesterday(
        now: Double, yesterday: Double?, language: LanguagePack = Localization.english
    ) -> String? {
        guard let yesterday else { return nil }
        let difference = now - yesterday
        if abs(difference) < 1 { return language.text("same") }
        return language.text(difference > 0 ? "warmer" : "colder", ["n": String(Int(abs(difference).rounded()))])
    }

    /// People's names of Open-Meteo's main models.
    public static let modelNames = [
        "best_match": "Open-Meteo best match", "ecmwf_ifs025": "ECMWF IFS", "icon_seamless": "DWD ICON",
        "gfs_seamless": "NOAA GFS", "meteofrance_seamless": "Météo-France", "ukmo_seamless": "UK Met Office",
        "jma_seamless": "JMA", "gem_seamless": "Canada GEM",
    ]

    /// A JSON encoder with stable key order, for output people and tests can diff.
    public static func makeEncoder(pretty: Bool = true) -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
