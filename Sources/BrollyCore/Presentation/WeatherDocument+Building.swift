import Foundation

/// The document built from one answer, in the reader's units and language.
extension WeatherDocument {
    /// Builds the document for a result in a preset's units.
    public init(_ result: WeatherResult, units: UnitSystem, now: Date, language: LanguagePack = Localization.english) {
        self.init(result, units: UnitChoice(units), now: now, language: language)
    }

    /// Builds the document for a result in `units`, each chosen on its own.
    /// `hours`: how many hours from now (48 by default; the page asks for all of them when a
    /// later day is opened).
    public init(
        _ result: WeatherResult, units: UnitChoice, now: Date, language: LanguagePack = Localization.english, hours: Int = 48
    ) {
        self.init(WeatherView(result, units: units, language: language, now: now), hours: hours)
        source.fallbackFrom = result.fallbackFrom?.rawValue
        if result.isApproximate { place.approximate = true }
        source.lacking = result.lacking.isEmpty ? nil : result.lacking.map(\.rawValue)
        if let air = result.airQuality, !air.airQuality.isEmpty {
            airQuality = Self.airQuality(air.airQuality, stale: air.isStale, in: result.report.place.timeZone, language: language)
        }
        if let m = result.measured {
            let u = units
            let o = m.observation
            func wind(_ x: Double?) -> Double? { x.map { Rounding.round(u.wind.convert($0), u.wind.decimals) } }
            func distance(_ x: Double?) -> Double? { x.map { Rounding.round(u.distance.convert($0), 1) } }
            current.measured = Measured(
                time: LocalTime.iso8601(o.time, in: result.report.place.timeZone),
                temperature: o.temperature.map { Rounding.round(u.temperature.convert($0), 1) },
                dewPoint: o.dewPoint.map { Rounding.round(u.temperature.convert($0), 1) }, windSpeed: wind(o.windSpeed),
                windGust: wind(o.windGust), windDirection: o.windDirection,
                pressure: o.pressure.map { Rounding.round(u.pressure.convert($0), u.pressure.decimals) },
                visibility: distance(o.visibility),
                weather: o.weather.map { Measured.Reported(code: $0, text: Self.reportedText($0, language: language)) },
                clouds: o.cover.map {
                    Measured.Clouds(cover: $0, text: Self.coverText($0, language: language), base: distance(o.cloudBase))
                },
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
        _ report: WeatherReport, units: UnitSystem, stale: Bool, age: TimeInterval, now: Date,
        language: LanguagePack = Localization.english
    ) {
        self.init(report, units: UnitChoice(units), stale: stale, age: age, now: now, language: language)
    }

    public init(
        _ report: WeatherReport, units u: UnitChoice, stale: Bool, age: TimeInterval, now: Date,
        language: LanguagePack = Localization.english
    ) {
        self.init(WeatherView(report, units: u, language: language, now: now, age: age, stale: stale))
    }

    /// The document written from the one view of the weather: its values rounded for JSON, nothing
    /// derived again.
    public init(_ v: WeatherView, hours count: Int = 48) {
        let report = v.report, language = v.language, now = v.now, stale = v.isStale, zone = v.zone, u = v.units
        // Values in the base units (°C, m/s: what the page asks, to convert to the reader's units
        // itself, offline) keep two decimals, so that what the page converts is not a rounded value
        // (1.33 m/s is 3.0 mph, where 1.3 gave 2.9); other units one, as they are shown.
        func t(_ m: Measure<TemperatureUnit>) -> Double { Rounding.round(m.value, m.unit == .celsius ? 2 : 1) }
        func w(_ m: Measure<WindUnit>?) -> Double? { m.map { $0.rounded($0.unit == .ms ? 2 : nil) } }
        // Precipitation keeps the provider's precision (OpenWeatherMap's 0.25 mm stays 0.25):
        // 2 decimals in mm, 4 in inches. Only displays round further.
        func p(_ m: Measure<PrecipitationUnit>?) -> Double? { m.map { Rounding.round($0.value, $0.unit == .inch ? 4 : 2) } }
        func iso(_ d: Date?) -> String? { d.map { LocalTime.iso8601($0, in: zone) } }
        let cur = v.current, raw = report.current
        place = PlaceDocument(report.place)
        current = Current(
            CurrentOf(
                time: LocalTime.iso8601(cur.time, in: zone), temperature: t(cur.temperature), feelsLike: cur.feelsLike.map(t),
                temperatureMin: t(cur.low), temperatureMax: t(cur.high), humidity: cur.humidity.map { Rounding.round($0, 0) },
                pressure: cur.pressure?.rounded(), windSpeed: w(cur.wind),
                windDirection: cur.windDirection.map { Rounding.round($0, 0) },
                windGust: w(cur.gust), clouds: cur.clouds, visibility: raw.visibility, rain: p(cur.rain),
                // The contract gives fresh snow as a depth in the precipitation unit (mm or in), and
                // everything that fell (the rain and the snow's water) as `precipitation`.
                snow: p(raw.snow.map { Measure($0, in: u.precipitation) }), condition: ConditionDocument(cur.condition),
                sunrise: iso(raw.sunrise), sunset: iso(raw.sunset), temperatureYesterday: cur.yesterday.map(t),
                precipitation: p(cur.precipitation)),
            Beside(
                fields: FieldsDocument(cur.fields) {
                    switch $0 {
                    case .temperature(let m): t(m)
                    }
                }))
        fields = ViewField.all.map { FieldInfo(key: $0.key, kind: $0.kind) }
        days = v.days.map {
            Day(
                date: $0.date, temperatureMin: t($0.low), temperatureMax: t($0.high), precipitation: p($0.precipitation),
                precipitationProbability: $0.chance, condition: ConditionDocument($0.condition), sunrise: iso($0.sunrise),
                sunset: iso($0.sunset), temperatureMaxRange: $0.highRange?.map(t), temperatureMinRange: $0.lowRange?.map(t))
        }
        hours = v.hours.prefix(count).map {
            Hour(
                time: LocalTime.iso8601($0.time, in: zone), temperature: t($0.temperature), precipitationProbability: $0.chance,
                precipitation: p($0.precipitation), windSpeed: w($0.wind), condition: ConditionDocument($0.condition),
                wet: $0.isWet)
        }
        summary = v.story.map { s in
            let (fall, snow, time): (String, Bool, Date?) =
                switch s.fall {
                case .dry: ("dry", false, nil)
                case .now(let snow, let until): ("now", snow, until)
                case .from(let start, let snow): ("from", snow, start)
                }
            return Summary(
                fall: fall, snow: snow, time: time.map { LocalTime.iso8601($0, in: zone) }, temperature: t(s.temperature),
                temperatureIs: s.isTonightsLow ? "tonightLow" : "todayHigh")
        }
        if let force = cur.windForce {
            current.windForce = force
            current.windForceName = language.beaufortName(force)
        }
        units = Units(
            temperature: u.temperature.symbol, windSpeed: u.wind.symbol, pressure: u.pressure.symbol,
            precipitation: u.precipitation.symbol)
        let sky = v.sky
        self.sky = Sky(
            dawn: iso(sky.dawn), sunrise: iso(sky.sunrise), solarNoon: LocalTime.iso8601(sky.noon, in: zone),
            sunset: iso(sky.sunset), dusk: iso(sky.dusk),
            moon: Moon(
                phase: sky.moonPhase, phaseName: language.code == "en" ? nil : language.moonPhaseName(sky.moonPhase),
                symbol: sky.moonSymbol, illumination: Rounding.round(sky.moonIllumination, 2), age: Rounding.round(sky.moonAge, 1)))
        source = Source(
            provider: report.provider.rawValue, fetchedAt: LocalTime.iso8601(report.fetchedAt, in: TimeZone(secondsFromGMT: 0)!),
            stale: stale)
        source.days = report.days.count
        if let model = report.model {
            source.model = model
            source.modelNote = Self.modelNote(report, language: language)
        }
        source.note = Self.correctionNote(report, language: language)
        source.ranges = report.ranges.map {
            Ranges(
                calibrated: $0.calibrated, members: $0.members, days: $0.days,
                note: $0.calibrated ? nil : language.text("rangesUncalibrated"))
        }
        if let c = report.correction {
            let degrees = u.temperature
            source.correction = Correction(
                models: c.models, days: c.days, tomorrowHigh: c.tomorrowHigh.map { Rounding.round(degrees.difference($0), 1) },
                tomorrowLow: c.tomorrowLow.map { Rounding.round(degrees.difference($0), 1) })
        }
        if let slots = report.nowcast {
            let ahead = slots.filter { $0.end > now }.prefix(8)
            nowcast = Nowcast(
                summary: NowcastSummary.sentence(Array(ahead), now: now, language: language),
                slots: ahead.map {
                    Nowcast.Slot(
                        start: LocalTime.iso8601($0.start, in: zone), end: LocalTime.iso8601($0.end, in: zone),
                        precipitation: p(Measure($0.precipitation, in: u.precipitation)) ?? 0)
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

    /// A METAR present weather group in `language` ("light rain"), from the WMO code nearest it;
    /// nil when there is none.
    public static func reportedText(_ weather: String, language: LanguagePack) -> String? {
        METAR.wmoCode(weather).flatMap { language.conditions[String($0)]?.last }
    }

    /// A METAR cover in `language` ("overcast", "mostly cloudy").
    public static func coverText(_ cover: String, language: LanguagePack) -> String? {
        if cover == "BKN" { return language.text("measuredBroken") }
        return METAR.coverCode(cover).flatMap { language.conditions[String($0)]?.last }
    }

    /// Why the forecast comes from its model, for people: "ECMWF IFS, as asked", "Corrected for
    /// this place (6 models blended)"; nil for Open-Meteo's own choice.
    public static func modelNote(_ report: WeatherReport, language: LanguagePack) -> String? {
        guard let model = report.model else { return nil }
        let name = modelNames[model] ?? model
        switch report.modelSelection {
        case "auto": return language.text("modelAuto", ["model": name])
        case "named": return language.text("modelNamed", ["model": name])
        case "corrected": return language.text("modelCorrected", ["count": String(report.correction?.models.count ?? 1)])
        default: return nil
        }
    }

    /// Why the forecast asked to be corrected is not, for people: "Not corrected yet: 3 days
    /// scored here, 7 needed"; nil when it is corrected or was not asked to be.
    public static func correctionNote(_ report: WeatherReport, language: LanguagePack) -> String? {
        guard let why = report.notCorrected else { return nil }
        switch why.reason {
        case .otherProvider: return language.text("notCorrectedOtherProvider", ["provider": report.provider.displayName])
        case .notScored: return language.text("notCorrectedNotScored")
        case .fewDays:
            return language.text(
                "notCorrectedFewDays", ["days": String(why.days ?? 0), "minimum": String(ForecastScores.minimumDays)])
        }
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
