import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// A Previous Runs answer in Open-Meteo's documented shape, written for these tests: `days` whole
/// local days from 2026-11-01, for each model a temperature per hour from `temperature(model,
/// lead, day, hour)` (nil: null) and precipitation from `precipitation(model, lead, day, hour)`.
func previousRunsAnswer(
    days: Int, models: [String], suffixed: Bool = true,
    temperature: (String, Int, Int, Int) -> Double?, precipitation: (String, Int, Int, Int) -> Double? = { _, _, _, _ in 0 }
) -> Data {
    var hours: [String] = []
    var index: [(day: Int, hour: Int)] = []
    for d in 0..<days {
        for h in 0..<24 {
            hours.append(String(format: "2026-11-%02dT%02d:00", d + 1, h))
            index.append((d, h))
        }
    }
    var hourly: [String: Any] = ["time": hours]
    for model in models {
        for lead in 0...7 {
            let suffix = (lead == 0 ? "" : "_previous_day\(lead)") + (suffixed ? "_" + model : "")
            hourly["temperature_2m" + suffix] = index.map { temperature(model, lead, $0.day, $0.hour) as Any? ?? NSNull() }
            hourly["precipitation" + suffix] = index.map { precipitation(model, lead, $0.day, $0.hour) as Any? ?? NSNull() }
        }
    }
    let body: [String: Any] = [
        "latitude": 52.52, "longitude": 13.42, "utc_offset_seconds": 3600, "timezone": "Europe/Berlin",
        "timezone_abbreviation": "GMT+1", "elevation": 38, "hourly": hourly,
    ]
    return try! JSONSerialization.data(withJSONObject: body)
}

@Suite struct VerificationTests {
    /// What happened: a daily cycle between 5 and 15 °C.
    static func analysis(_ day: Int, _ hour: Int) -> Double { 10 + 5 * sin(Double(hour - 9) / 24 * 2 * .pi) + Double(day % 3) }

    /// The reference's whole days (a reanalysis' or a station's) for `days` days from 2026-11-01,
    /// with `rain(day)` mm at noon.
    static func reference(days: Int, rain: (Int) -> Double = { _ in 0 }) -> [String: DayValues] {
        let hours = (0..<days).flatMap { d in (0..<24).map { String(format: "2026-11-%02dT%02d:00", d + 1, $0) } }
        let t = (0..<days).flatMap { d in (0..<24).map { Optional(analysis(d, $0)) } }
        let p = (0..<days).flatMap { d in (0..<24).map { Optional($0 == 12 ? rain(d) : 0) } }
        return ForecastScores.days(hours: hours, temperature: t, precipitation: p)
    }

    static func scores(_ runs: PreviousRuns, today: String, days: Int = 12, window: Int = 30) -> [String: [LeadScore]] {
        ForecastScores.scores(ForecastScores.errors(runs, reference: reference(days: days), today: today, window: window))
    }

    @Test func errorsByLeadDayAreMeasuredAgainstAnIndependentReference() throws {
        // ECMWF one day ahead is 1.5 ° too warm, two days ahead 3 ° too cold; ICON has nothing here.
        let data = previousRunsAnswer(days: 12, models: ["ecmwf_ifs025", "icon_seamless"]) { model, lead, day, hour in
            guard model == "ecmwf_ifs025" else { return nil }
            let truth = Self.analysis(day, hour)
            switch lead {
            case 0: return truth + 1.5  // its own latest run shares its error: never the reference
            case 1: return truth + 1.5
            case 2: return truth - 3
            case 3: return day >= 8 ? truth + 0.5 : nil  // fewer days scored
            default: return nil
            }
        }
        let runs = try PreviousRuns.decode(data, models: ["ecmwf_ifs025", "icon_seamless"])
        #expect(runs.hours.count == 12 * 24 && runs.temperature["icon_seamless"] == nil)
        let scores = Self.scores(runs, today: "2026-11-13")["ecmwf_ifs025"]!
        #expect(scores.map(\.lead) == [1, 2, 3])
        #expect(scores[0].n == 12 && scores[0].highMAE == 1.5 && scores[0].lowMAE == 1.5 && scores[0].highWithin2 == 1)
        #expect(scores[0].highBias == 1.5 && scores[0].lowBias == 1.5 && scores[0].highMAEStandardError == 0)
        #expect(scores[1].highMAE == 3 && scores[1].highBias == -3 && scores[1].highWithin2 == 0)
        #expect(scores[2].n == 4 && scores[2].highMAE == 0.5)
        // Days from today on are not scored; the window keeps the latest days.
        #expect(Self.scores(runs, today: "2026-11-06")["ecmwf_ifs025"]![0].n == 5)
        #expect(Self.scores(runs, today: "2026-11-13", window: 7)["ecmwf_ifs025"]![0].n == 7)
        // In °F a difference is 1.8 times larger.
        #expect(TemperatureUnit.fahrenheit.difference(Self.scores(runs, today: "2026-11-13")["ecmwf_ifs025"]![1].highMAE) == 5.4)
    }

    /// Issue 37's first row: no station; model A forecasts every day 2 °C too warm, and its own
    /// latest run is 2 °C warm too; B is off by 1 °C either way. Against its own run A would look
    /// perfect; against the reanalysis B is best, and `auto` switches to it.
    @Test func aModelWarmInItsOwnLatestRunIsNotPerfectTheOneOffByLessIsBest() throws {
        let data = previousRunsAnswer(days: 20, models: ["best_match", "model_a", "model_b"]) { model, lead, day, hour in
            let truth = Self.analysis(day, hour)
            switch model {
            case "model_a": return truth + 2
            case "model_b": return lead == 0 ? truth : truth + (day % 2 == 0 ? 1 : -1)
            default: return lead == 0 ? truth : truth + (day % 2 == 0 ? 1.6 : -1.6)
            }
        }
        let runs = try PreviousRuns.decode(data, models: ["best_match", "model_a", "model_b"])
        let errors = ForecastScores.errors(runs, reference: Self.reference(days: 20), today: "2026-11-21")
        let scores = ForecastScores.scores(errors)
        #expect(scores["model_a"]![0].highMAE == 2 && scores["model_a"]![0].highBias == 2)
        #expect(scores["model_b"]![0].highMAE == 1 && scores["model_b"]![0].highBias == 0)
        let choice = try #require(AutoChoice.choose(errors, baseline: "best_match"))
        #expect(choice.model == "model_b" && choice.n == 20 && choice.improvement == 0.6 && choice.margin == 0)
    }

    @Test func autoKeepsOpenMeteosChoiceUnlessAModelIsBetterByMoreThanItsUncertainty() throws {
        // C is better on average by 0.1 °C, but its errors scatter by ±1.5 °C around that: not told apart.
        let scatter = [1.5, -1.4, 0.2, -1.6, 1.3, 0.1, -1.5, 1.4, -0.3, 1.6]
        let data = previousRunsAnswer(days: 10, models: ["best_match", "model_c"]) { model, lead, day, hour in
            let truth = Self.analysis(day, hour)
            if lead == 0 { return truth }
            return model == "best_match" ? truth + 1 : truth + (scatter[day] >= 0 ? 0.9 + scatter[day] : -(0.9 - scatter[day]) + 1.8)
        }
        let runs = try PreviousRuns.decode(data, models: ["best_match", "model_c"])
        let errors = ForecastScores.errors(runs, reference: Self.reference(days: 10), today: "2026-11-11")
        #expect(AutoChoice.choose(errors, baseline: "best_match") == nil)
        // Six days are not enough for anything.
        let few = ForecastScores.errors(runs, reference: Self.reference(days: 6), today: "2026-11-07")
        #expect(AutoChoice.choose(few, baseline: "best_match") == nil && ForecastCorrection.fits(few).isEmpty)
    }

    @Test func theCorrectionLearnsEachModelsBiasAndWeighsTheModelsByTheirCorrectedErrors() throws {
        // GFS runs 1.5 °C warm with little scatter; ICON unbiased but scattered by ±2 °C.
        let data = previousRunsAnswer(days: 21, models: ["gfs_seamless", "icon_seamless"]) { model, lead, day, hour in
            let truth = Self.analysis(day, hour)
            if lead == 0 { return nil }
            return model == "gfs_seamless" ? truth + 1.5 + (day % 2 == 0 ? 0.2 : -0.2) : truth + (day % 2 == 0 ? 2 : -2)
        }
        let runs = try PreviousRuns.decode(data, models: ["gfs_seamless", "icon_seamless"])
        let fits = ForecastCorrection.fits(ForecastScores.errors(runs, reference: Self.reference(days: 21), today: "2026-11-22"))
        let gfs = try #require(fits["gfs_seamless"]?[1])
        #expect(abs(gfs.highBias - 1.5) < 0.1 && gfs.highVariance <= 0.3 && gfs.n == 21)
        let icon = try #require(fits["icon_seamless"]?[1])
        #expect(abs(icon.highBias) < 0.3 && icon.highVariance > 3)
        // Tomorrow: GFS says 21.5, ICON 18: the corrected high is near GFS less its bias.
        let day = try #require(
            ForecastCorrection.blend(
                [
                    ("gfs_seamless", 1, DayValues(high: 21.5, low: 11.5, precipitation: nil)),
                    ("icon_seamless", 1, DayValues(high: 18, low: 10, precipitation: nil)),
                ], fits: fits))
        #expect(abs(day.high - 20) < 0.3 && day.models == ["gfs_seamless", "icon_seamless"])
        // A model without a fit adds nothing; none with a fit: no correction.
        #expect(ForecastCorrection.blend([("jma_seamless", 1, DayValues(high: 30, low: 20, precipitation: nil))], fits: fits) == nil)
    }

    @Test func wetDaysAreHitsMissesAndFalseAlarmsAgainstTheReference() throws {
        // It rained 2 mm on days 0, 2 and 4; the day-1 forecast said so for days 0 and 1.
        let data = previousRunsAnswer(
            days: 6, models: ["gfs_seamless"], suffixed: false,
            temperature: { _, lead, day, hour in lead <= 1 ? Self.analysis(day, hour) : nil },
            precipitation: { _, lead, day, hour in
                guard hour == 12 else { return 0 }
                if lead == 0 { return 5 }  // its own run, wet every day, is not what happened
                return [0, 1].contains(day) ? 1.2 : 0
            })
        let runs = try PreviousRuns.decode(data, models: ["gfs_seamless"])
        let reference = Self.reference(days: 6) { [0, 2, 4].contains($0) ? 2 : 0.4 }
        let s = ForecastScores.scores(ForecastScores.errors(runs, reference: reference, today: "2026-11-07"))["gfs_seamless"]!
        #expect(s.count == 1 && s[0].n == 6 && s[0].wetScored == 6)
        #expect(s[0].wetHitRate == 0.33 && s[0].wetFalseAlarmRatio == 0.5)
    }

    @Test func aDayWithAMissingHourIsNotScoredAndErrorsAreRefused() throws {
        let data = previousRunsAnswer(days: 3, models: ["m"]) { _, lead, day, hour in
            lead > 1 ? nil : (day == 1 && hour == 5 && lead == 1 ? nil : Self.analysis(day, hour))
        }
        let s = Self.scores(try PreviousRuns.decode(data, models: ["m"]), today: "2026-11-30", days: 3)["m"]!
        #expect(s[0].n == 2)
        #expect(throws: BrollyError.self) {
            try PreviousRuns.decode(
                Data(#"{"error": true, "reason": "Cannot initialize WeatherVariable from invalid String value"}"#.utf8), models: ["m"])
        }
        #expect(throws: BrollyError.self) { try PreviousRuns.decode(Data("{}".utf8), models: ["m"]) }
        #expect(PreviousRuns.hourlyParameter.hasPrefix("temperature_2m,temperature_2m_previous_day1,"))
        #expect(PreviousRuns.hourlyParameter.hasSuffix("precipitation_previous_day7"))
    }

    @Test func theReanalysisAnswerIsReadIntoWholeDaysAndItsLagIsNotScored() throws {
        // Open-Meteo's archive format: the last day is null (the reanalysis lags).
        var hours: [String] = []
        var t: [Any] = []
        for d in 0..<3 {
            for h in 0..<24 {
                hours.append(String(format: "2026-11-%02dT%02d:00", d + 1, h))
                t.append(d == 2 ? NSNull() : Self.analysis(d, h) as Any)
            }
        }
        let body: [String: Any] = [
            "latitude": 27.75, "longitude": 85.25, "timezone": "Asia/Kathmandu", "utc_offset_seconds": 20700,
            "hourly_units": ["temperature_2m": "°C", "precipitation": "mm"],
            "hourly": ["time": hours, "temperature_2m": t, "precipitation": hours.map { _ in 0.1 }],
        ]
        let r = try Reanalysis.decode(try JSONSerialization.data(withJSONObject: body))
        #expect(r.days.keys.sorted() == ["2026-11-01", "2026-11-02"] && r.gridPoint?.latitude == 27.75)
        #expect(abs((r.days["2026-11-01"]?.precipitation ?? 0) - 2.4) < 1e-9)
        #expect(throws: BrollyError.self) { try Reanalysis.decode(Data(#"{"error":true,"reason":"bad"}"#.utf8)) }
    }
}

@Suite struct METARTests {
    /// Written in the API's documented format: Berlin Brandenburg (EDDB, about 18 km from the
    /// centre) reporting twice, Tempelhof-like EDDI stale, and one report without a position.
    static let answer = Data(
        """
        [{"icaoId":"EDDB","obsTime":1795600200,"temp":7,"dewp":3,"wdir":240,"wspd":10,"wgst":18,"altim":1013,
          "lat":52.362,"lon":13.5,"name":"Berlin/Brandenburg Arpt, BB, DE","rawOb":"METAR EDDB ..."},
         {"icaoId":"EDDB","obsTime":1795598400,"temp":6,"wdir":"VRB","wspd":3,"altim":1012,"lat":52.362,"lon":13.5,
          "name":"Berlin/Brandenburg Arpt, BB, DE"},
         {"icaoId":"EDDI","obsTime":1795580000,"temp":5,"lat":52.473,"lon":13.404,"name":"Berlin/Tempelhof, DE"},
         {"icaoId":"XXXX","obsTime":1795600200,"temp":9,"name":"nowhere"}]
        """.utf8)

    @Test func visibilityPresentWeatherAndCloudAreReadAndNamed() throws {
        let answer = Data(
            """
            [{"icaoId":"KTYS","obsTime":1768431180,"temp":6.7,"dewp":3.9,"wdir":210,"wspd":12,"visib":"1 1/2","wxString":"-SHRA BR",
              "lat":35.818,"lon":-83.9857,"name":"Knoxville/Tyson Arpt, TN, US","cover":"OVC",
              "clouds":[{"cover":"BKN","base":2600},{"cover":"FEW","base":1000}]},
             {"icaoId":"KXYZ","obsTime":1768431180,"visib":"10+","cover":"CLR","clouds":[],"lat":35,"lon":-83,"name":"X"}]
            """.utf8)
        let o = try METAR.decode(answer)
        #expect(o[0].visibility == 2414 && o[0].weather == "-SHRA BR" && o[0].cover == "BKN" && o[0].cloudBase == 792)
        #expect(o[1].visibility == 16093 && o[1].cover == "CLR" && o[1].cloudBase == nil && o[1].weather == nil)
        #expect(METAR.wmoCode("-SHRA BR") == 80 && METAR.wmoCode("+RA") == 65 && METAR.wmoCode("TSRA") == 95)
        #expect(METAR.wmoCode("FZFG") == 48 && METAR.wmoCode("BR") == nil && METAR.wmoCode("-SN") == 71)
        let ru = Localization.pack(for: "ru")
        #expect(WeatherDocument.reportedText("-RA", language: ru) == ru.conditions["61"]?.last)
        #expect(WeatherDocument.coverText("BKN", language: ru) == "облачно с прояснениями")
        #expect(WeatherDocument.coverText("OVC", language: Localization.english) == "overcast")
    }

    @Test func theNearestRecentStationIsChosenAndKnotsBecomeMetresPerSecond() throws {
        let observations = try METAR.decode(Self.answer)
        #expect(observations.count == 3)
        let now = Date(timeIntervalSince1970: 1_795_600_200 + 600)
        let berlin = Coordinate(latitude: 52.52, longitude: 13.41)
        let found = try #require(METAR.nearest(observations, to: berlin, now: now))
        // EDDI is nearer but has not reported for 5.8 hours: EDDB's latest report.
        #expect(found.observation.stationID == "EDDB" && found.observation.temperature == 7)
        #expect(abs(found.distanceKm - 18.4) < 0.5)
        #expect(abs(found.observation.windSpeed! - 5.14) < 0.01 && abs(found.observation.windGust! - 9.26) < 0.01)
        // Nothing within 25 km of Potsdam's west, or when every report is too old.
        #expect(METAR.nearest(observations, to: Coordinate(latitude: 52.4, longitude: 12.6), now: now) == nil)
        #expect(METAR.nearest(observations, to: berlin, now: now.addingTimeInterval(3 * 3600)) == nil)
        #expect(try METAR.decode(Data()).isEmpty)
        #expect(throws: BrollyError.self) { try METAR.decode(Data(#"{"error":"bad"}"#.utf8)) }
        #expect(METAR.bbox(around: berlin) == "52.295,13.041,52.745,13.779")
    }
}

@Suite struct AccuracyReportTests {
    static func score(_ lead: Int, n: Int, high: Double) -> LeadScore {
        LeadScore(lead: lead, errors: (0..<n).map { DayError(day: "2026-11-\($0 + 1)", high: high, low: high) })!
    }

    static func report(days: Int, models: [AccuracyReport.ModelScores] = [], auto: AutoChoice? = nil) -> AccuracyReport {
        AccuracyReport(
            computedAt: Date(), timezone: "UTC",
            reference: .init(kind: "reanalysis", id: "era5_seamless", name: "ERA5 / ERA5-Land", distanceKm: 3, days: days),
            passedOver: nil, days: days, models: models, shown: [], ranges: [:], fits: [:], choices: [:], auto: auto, today: "2026-11-25",
            latest: [:])
    }

    @Test func theBestModelNeedsEnoughDaysScored() {
        let report = Self.report(
            days: 30,
            models: [
                .init(model: "a", leads: [Self.score(1, n: 30, high: 1.2)]), .init(model: "b", leads: [Self.score(1, n: 4, high: 0.4)]),
                .init(model: "c", leads: [Self.score(1, n: 7, high: 0.9), Self.score(2, n: 30, high: 0.1)]),
            ])
        // b has fewer than 7 days; c's lead 2 is not tomorrow.
        #expect(report.best()?.model == "c")
        #expect(report.best(minimumDays: 20)?.model == "a")
        #expect(report.best(minimumDays: 31) == nil)
    }

    @Test func autoNeedsSevenDaysAndAChoiceBeyondItsUncertainty() {
        let choice = AutoChoice(model: "ecmwf_ifs025", n: 12, improvement: 0.5, margin: 0.2)
        #expect(Self.report(days: 12, auto: choice).autoModel == "ecmwf_ifs025")
        #expect(Self.report(days: 6, auto: choice).autoModel == nil)
        #expect(Self.report(days: 30).autoModel == nil)
        let url = OpenMeteoProvider(
            network: NetworkService(transport: RoutedTransport([])), baseURL: URL(string: "http://x")!,
            geocodingURL: URL(string: "http://x")!, now: { Date() })
        #expect(
            url.forecastURL(for: Coordinate(latitude: 1, longitude: 2), model: "icon_seamless").query!.hasPrefix("models=icon_seamless&"))
        #expect(!url.forecastURL(for: Coordinate(latitude: 1, longitude: 2), model: "best_match").query!.contains("models="))
    }

    @Test func theCorrectedDaysBlendTheLatestRunsWithTheFreshForecastInItsModelsPlace() {
        var report = Self.report(days: 20)
        let fit = CorrectionFit(n: 20, highBias: 2, lowBias: 1, highVariance: 1, lowVariance: 1)
        report.fits = [
            "gfs_seamless": [1: fit, 2: fit],
            "best_match": [1: CorrectionFit(n: 20, highBias: 0, lowBias: 0, highVariance: 1, lowVariance: 1)],
        ]
        report.latest = [
            "gfs_seamless": ["2026-11-26": DayValues(high: 12, low: 3, precipitation: nil)],
            "best_match": ["2026-11-26": DayValues(high: 99, low: 99, precipitation: nil)],
        ]
        // The fresh best_match (issued today) says 10 / 2: its old run of 99 is not used.
        let days = report.corrected(
            fresh: ["2026-11-26": DayValues(high: 10, low: 2, precipitation: nil)], freshModel: "best_match", freshToday: "2026-11-25")
        #expect(days["2026-11-26"] == CorrectedDay(high: 10, low: 2, models: ["best_match", "gfs_seamless"]))
        // Below seven days nothing is corrected.
        report.days = 6
        #expect(report.corrected().isEmpty)
    }

    @Test func aStationDayNeedsMostOfItsHoursAndIsTheStationsLocalDay() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let start = utcDate("2026-11-20T05:00:00Z")  // midnight in New York
        var observations: [Observation] = []
        for h in 0..<48 where !(h >= 24 && h % 2 == 1) {  // the second day: every other hour only
            observations.append(
                Observation(
                    stationID: "KLGA", stationName: "LaGuardia", latitude: 40.78, longitude: -73.88,
                    time: start.addingTimeInterval(Double(h) * 3600 + 3000), temperature: Double(h % 24) / 2))
        }
        let days = ForecastScores.stationDays(observations, in: zone)
        #expect(days.keys.sorted() == ["2026-11-20"])
        #expect(days["2026-11-20"] == DayValues(high: 11.5, low: 0, precipitation: nil))
    }
}

private func utcDate(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

@Suite struct CorrectedForecastTests {
    /// Two Berlin days of hours (a daily cycle from 4 to 12 °C), the second corrected to 6 … 10.
    @Test func everyHourOfACorrectedDayMovesWithItsHighAndLowAndOtherDaysStay() {
        var report = sampleReport(at: utc("2026-11-21T10:00:00Z"))
        let condition = Conditions.wmo(3)
        report.days = [
            DayForecast(date: "2026-11-21", temperatureMin: 4, temperatureMax: 12, condition: condition),
            DayForecast(date: "2026-11-22", temperatureMin: 4, temperatureMax: 12, condition: condition),
        ]
        report.hours = (0..<48).map { h in
            // Local midnight in Berlin is 23:00 UTC the day before.
            HourForecast(
                time: utc("2026-11-20T23:00:00Z").addingTimeInterval(Double(h) * 3600),
                temperature: 8 - 4 * cos(Double(h % 24 - 3) / 24 * 2 * .pi), condition: condition)
        }
        let fixed = report.correcting(["2026-11-22": CorrectedDay(high: 10, low: 6, models: ["best_match", "gfs_seamless"])])
        let second = fixed.hours[24..<48].map(\.temperature)
        #expect(abs(second.max()! - 10) < 0.06 && abs(second.min()! - 6) < 0.06)
        #expect(fixed.hours[0..<24].map(\.temperature) == report.hours[0..<24].map(\.temperature))
        #expect(fixed.days[1].temperatureMax == 10 && fixed.days[1].temperatureMin == 6 && fixed.days[0].temperatureMax == 12)
        #expect(fixed.modelSelection == "corrected" && fixed.correction?.tomorrowHigh == -2 && fixed.correction?.tomorrowLow == 2)
        #expect(fixed.correction?.models == ["best_match", "gfs_seamless"] && fixed.correction?.days == 1)
        // Nothing to correct: the report as it was.
        #expect(report.correcting([:]) == report)
    }
}

/// The forecast shown, scored as it is shown (issue 51): replayed out of sample, each past day
/// corrected only with what was known when it was made.
@Suite struct ForecastShownTests {
    static func day(_ i: Int) -> String { LocalTime.adding(i, to: "2026-10-01") }

    /// `days` days of one lead's errors from 2026-10-01: `high(i)` (the low the same).
    static func series(_ days: Int, _ high: (Int) -> Double) -> [DayError] {
        (0..<days).map { DayError(day: day($0), high: high($0), low: high($0), forecastWet: nil, wasWet: nil) }
    }

    @Test func eachDayIsCorrectedOnlyWithTheDaysKnownWhenItsForecastWasMade() throws {
        // Tomorrow's highs run 2 °C warm for 14 days, then 4 °C warm.
        let errors: ModelErrors = ["gfs_seamless": [1: Self.series(20) { $0 < 14 ? 2 : 4 }]]
        let replayed = try #require(ForecastCorrection.replay(errors)[1])
        // Issued the day before (its day not yet whole): the first day with 7 known days is the 9th.
        #expect(replayed.first?.day == Self.day(8) && replayed.count == 12)
        #expect(abs(replayed[0].high) < 1e-9)
        // The day the bias jumped is corrected by the old bias: its own error was not known.
        let jump = try #require(replayed.first { $0.day == Self.day(14) })
        #expect(abs(jump.high - 2) < 1e-9)
        // A reference 5 days late (the reanalysis): the first replayed day is 5 days later.
        let late = try #require(ForecastCorrection.replay(errors, lag: 5)[1])
        #expect(late.first?.day == Self.day(13) && late.count == 7)
        // Two days ahead: one more day unknown.
        let two = try #require(ForecastCorrection.replay(["gfs_seamless": [2: Self.series(20) { _ in 1 }]])[2])
        #expect(two.first?.day == Self.day(9))
        // Fewer than 7 known days anywhere: nothing replayed (the forecast shown was not corrected).
        #expect(ForecastCorrection.replay(["gfs_seamless": [1: Self.series(8) { _ in 1 }]]).isEmpty)
    }

    @Test func theForecastShownIsScoredAndNoWorseThanTheBestModelOnTheSameDays() throws {
        // 26 days scored; GFS warm by 1.5 with little scatter, ICON cold by 1 with more, ECMWF
        // unbiased but scattered by ±1.2: the corrected blend beats each on the days it is scored.
        let wobble = [0.3, -0.2, 0.1, -0.3, 0.2, 0.0, -0.1, 0.25, -0.25, 0.15]
        let errors: ModelErrors = [
            "gfs_seamless": [1: Self.series(26) { 1.5 + wobble[$0 % 10] }],
            "icon_seamless": [1: Self.series(26) { -1 + 2 * wobble[($0 + 3) % 10] }],
            "ecmwf_ifs025": [1: Self.series(26) { $0 % 2 == 0 ? 1.2 : -1.2 }],
        ]
        let replayed = try #require(ForecastCorrection.replay(errors)[1])
        let shown = try #require(LeadScore(lead: 1, errors: replayed))
        #expect(shown.n >= ForecastScores.minimumDays)
        let days = Set(replayed.map(\.day))
        for (model, leads) in errors {
            let same = try #require(LeadScore(lead: 1, errors: leads[1]!.filter { days.contains($0.day) }))
            #expect(shown.highMAE <= same.highMAE, "\(model): \(same.highMAE) against the shown \(shown.highMAE)")
        }
        #expect(shown.highWithin2 == 1 && abs(shown.highBias) < 0.3)
        // `auto` replayed: Open-Meteo's choice until a model was better by more than its
        // uncertainty on the days known then; its errors are that model's.
        // ICON off by 0.3 every day against best_match's 1.2: chosen from the 9th day, the first
        // with 7 days known before its forecast was made.
        let choices: ModelErrors = [
            "best_match": [1: Self.series(26) { $0 % 2 == 0 ? 1.2 : -1.2 }],
            "icon_seamless": [1: Self.series(26) { $0 % 2 == 0 ? 0.3 : -0.3 }],
        ]
        let auto = try #require(AutoChoice.replay(choices, baseline: "best_match")[1])
        #expect(auto.first?.day == Self.day(0) && auto.count == 26)
        #expect(auto.prefix(8).allSatisfy { abs($0.high) == 1.2 } && auto.dropFirst(8).allSatisfy { abs($0.high) == 0.3 })
    }

    @Test func aModelIsNotCorrectedAtALeadItWasNotScoredAtTodayUsesTomorrows() {
        let fit = CorrectionFit(n: 20, highBias: 1, lowBias: 1, highVariance: 1, lowVariance: 1)
        let fits = ["meteofrance_seamless": [1: fit, 2: fit, 3: fit]]
        let day = DayValues(high: 10, low: 2, precipitation: nil)
        #expect(ForecastCorrection.blend([("meteofrance_seamless", 3, day)], fits: fits)?.high == 9)
        #expect(ForecastCorrection.blend([("meteofrance_seamless", 5, day)], fits: fits) == nil)
        #expect(ForecastCorrection.blend([("meteofrance_seamless", 0, day)], fits: fits)?.high == 9)
        // Days beyond the scored leads (8–16) are not corrected, nor counted as corrected.
        var report = AccuracyReportTests.report(days: 20)
        report.fits = ["best_match": (1...7).reduce(into: [:]) { $0[$1] = fit }]
        let fresh = Dictionary(uniqueKeysWithValues: (0..<16).map { (LocalTime.adding($0, to: "2026-11-25"), day) })
        let corrected = report.corrected(fresh: fresh, freshModel: "best_match", freshToday: "2026-11-25")
        #expect(corrected.count == 8 && corrected.keys.max() == "2026-12-02")
    }

    @Test func aBiasIsTestedAgainstItsOwnStandardError() throws {
        // Errors of +1 and +3 in turn: a bias of 2 whose own standard error is small, though the
        // absolute errors scatter as much.
        let score = try #require(LeadScore(lead: 1, errors: Self.series(10) { $0 % 2 == 0 ? 1 : 3 }))
        #expect(score.highBias == 2 && score.highBiasStandardError == 0.33 && score.highMAEStandardError == 0.33)
        let mixed = try #require(LeadScore(lead: 1, errors: Self.series(10) { $0 % 2 == 0 ? -1 : 3 }))
        #expect(mixed.highBias == 1 && mixed.highBiasStandardError == 0.67 && mixed.highMAEStandardError == 0.33)
    }
}

@Suite struct BlendEarnsItsPlaceTests {
    @Test func whereTheModelsErrorsAreSharedTheBestModelAloneIsShownAndWhereIndependentTheBlend() throws {
        // Every model wrong the same way each day (+ on even days, − on odd), by its own amount:
        // averaging removes nothing, so the blend is worse than ECMWF alone.
        let shared: ModelErrors = [
            "best_match": [1: ForecastShownTests.series(26) { $0 % 2 == 0 ? 1 : -1 }],
            "ecmwf_ifs025": [1: ForecastShownTests.series(26) { $0 % 2 == 0 ? 0.6 : -0.6 }],
            "gem_seamless": [1: ForecastShownTests.series(26) { $0 % 2 == 0 ? 1.6 : -1.6 }],
        ]
        #expect(ForecastCorrection.choices(shared) == [1: "ecmwf_ifs025"])
        // A bias that is only noise (±0.6 in turn) is not removed: the error stays 0.6, not more.
        #expect(ForecastCorrection.fit(shared["ecmwf_ifs025"]![1]!)?.highBias == 0)
        let replayed = try #require(ForecastCorrection.replay(shared)[1])
        let shown = try #require(LeadScore(lead: 1, errors: replayed))
        #expect(shown.highMAE <= 0.6 && shown.n >= ForecastScores.minimumDays)
        // Independent errors (each model's own pattern): the blend beats every model alone.
        let own: [[Double]] = [[1, -1, 1, 1, -1], [-1, 1, 1, -1, -1], [1, 1, -1, -1, 1]]
        let independent: ModelErrors = Dictionary(
            uniqueKeysWithValues: ["best_match", "ecmwf_ifs025", "gem_seamless"].enumerated().map { i, model in
                (model, [1: ForecastShownTests.series(26) { own[i][$0 % 5] }])
            })
        #expect(ForecastCorrection.choices(independent) == [1: ForecastCorrection.blended])
    }
}

/// Each day's 80 % range (issue 51, item 2): calibrated on the place's errors of the forecast shown,
/// widened where the ensemble disagrees, the ensemble's own where the record is thin.
@Suite struct ForecastRangesTests {
    static let today = "2026-11-25"

    /// An ensemble of 31 members spread evenly over `spread(lead)` °C around 10 / 2 each day.
    static func ensemble(_ spread: (Int) -> Double) -> EnsembleDays {
        var days: [String: EnsembleDays.Day] = [:]
        for lead in 0...7 {
            let offsets = (0..<31).map { (Double($0) / 30 - 0.5) * spread(lead) }
            days[LocalTime.adding(lead, to: today)] = EnsembleDays.Day(
                high: .init(offsets.map { 10 + $0 }), low: .init(offsets.map { 2 + $0 }))
        }
        return EnsembleDays(fetchedAt: Date(timeIntervalSince1970: 0), members: 31, days: days)
    }

    @Test func calibratedWhereTheRecordAllowsWiderWhereTheMembersDisagree() throws {
        // The forecast shown has been off by up to 0.3 °C a day ahead (0.3 × lead further out),
        // in ten steps from − to +; the members disagree by 3 °C more on day 4.
        let steps = (0..<10).map { Double($0) / 9 * 2 - 1 }
        var errors: [Int: ErrorRange] = [:]
        for lead in 1...7 {
            let days = ForecastShownTests.series(26) { 0.3 * Double(lead) * steps[$0 % 10] }
            errors[lead] = ForecastRanges.errorRange(lead: lead, errors: days)
        }
        let one = try #require(errors[1])
        #expect(one.n == 26 && -0.3 <= one.high[0] && one.high[0] < 0 && 0 < one.high[1] && one.high[1] <= 0.3)
        // Out of sample: each day checked against the range made without it and its neighbours.
        #expect(one.coverageDays == 26 && (0.6...1).contains(one.coverage ?? 0))
        let ensemble = Self.ensemble { 1.2 + 0.3 * Double($0) + ($0 == 4 ? 3 : 0) }
        let values = Dictionary(
            uniqueKeysWithValues: (0..<16).map { (LocalTime.adding($0, to: Self.today), DayValues(high: 10, low: 2, precipitation: nil)) })
        let ranges = ForecastRanges.ranges(days: values, today: Self.today, ensemble: ensemble, errors: errors)
        // Today and 7 days: each range around its value, calibrated.
        #expect(ranges.count == 8 && ranges.values.allSatisfy { $0.calibrated })
        for (_, r) in ranges { #expect(r.high[0] <= 10 && 10 <= r.high[1] && r.low[0] <= 2 && 2 <= r.low[1]) }
        func width(_ lead: Int) -> Double { ranges[LocalTime.adding(lead, to: Self.today)].map { $0.high[1] - $0.high[0] } ?? 0 }
        let raw = try #require(ensemble.days[LocalTime.adding(1, to: Self.today)]).high.width
        #expect(width(1) < raw, "day 1 \(width(1)) against the raw ensemble's \(raw)")
        #expect(width(4) >= 1.5 * width(3), "day 4 \(width(4)) against day 3 \(width(3))")
        // A thin record: the ensemble's own 10th–90th percentiles around the value, uncalibrated.
        let thin = ForecastRanges.ranges(days: values, today: Self.today, ensemble: ensemble, errors: [:])
        let day1 = try #require(thin[LocalTime.adding(1, to: Self.today)])
        #expect(!day1.calibrated && abs((day1.high[1] - day1.high[0]) - raw) < 0.11)
        #expect(ForecastRanges.errorRange(lead: 1, errors: ForecastShownTests.series(6) { _ in 1 }) == nil)
    }

    @Test func theEnsembleAnswerIsReadMemberByMember() throws {
        var hourly: [String: Any] = ["time": (0..<48).map { String(format: "2026-11-%02dT%02d:00", 25 + $0 / 24, $0 % 24) }]
        hourly["temperature_2m"] = (0..<48).map { Double($0 % 24) / 2 }
        for m in 1...4 { hourly[String(format: "temperature_2m_member%02d", m)] = (0..<48).map { Double($0 % 24) / 2 + Double(m) } }
        // A member with a gap leaves its day out.
        var gap = (0..<48).map { Double($0 % 24) / 2 as Double? }
        gap[30] = nil
        hourly["temperature_2m_member05"] = gap.map { $0 as Any? ?? NSNull() }
        let body: [String: Any] = [
            "latitude": 52.52, "longitude": 13.4, "utc_offset_seconds": 3600, "timezone": "Europe/Berlin", "hourly": hourly,
        ]
        let days = try EnsembleDays.decode(try JSONSerialization.data(withJSONObject: body), fetchedAt: Date())
        #expect(days.members == 6 && days.days.keys.sorted() == ["2026-11-25"])
        let d = try #require(days.days["2026-11-25"])
        #expect(d.high.median == 13 && d.low.p10 == 0 && d.high.p90 > d.high.p10)
        #expect(throws: BrollyError.self) { try EnsembleDays.decode(Data(#"{"error":true,"reason":"No data"}"#.utf8), fetchedAt: Date()) }
    }
}

@Suite struct ChoiceWhereOneModelIsAllBiasTests {
    @Test func aModelWhoseErrorIsAllBiasIsShownAlone() {
        var errors: ModelErrors = ["gfs_seamless": [1: ForecastShownTests.series(26) { _ in 2 }]]
        for (m, x) in [("best_match", 1.8), ("icon_seamless", 1.0), ("ecmwf_ifs025", 1.5), ("gem_seamless", 1.6)] {
            errors[m] = [1: ForecastShownTests.series(26) { $0 % 2 == 0 ? x : -x }]
        }
        #expect(ForecastCorrection.choices(errors) == [1: "gfs_seamless"])
        var leads: ModelErrors = [:]
        for lead in 1...7 {
            leads["gfs_seamless", default: [:]][lead] = ForecastShownTests.series(26) { _ in 2 }
            for (m, x) in [("best_match", 1.8), ("icon_seamless", 1.0), ("ecmwf_ifs025", 1.5), ("gem_seamless", 1.6)] {
                leads[m, default: [:]][lead] = ForecastShownTests.series(26) { $0 % 2 == 0 ? x * Double(lead) : -x * Double(lead) }
            }
        }
        // Further ahead the others' errors grow, GFS's do not: it alone at every lead.
        #expect(ForecastCorrection.choices(leads) == Dictionary(uniqueKeysWithValues: (1...7).map { ($0, "gfs_seamless") }))
    }
}

@Suite struct RoundedMinutesTests {
    @Test func minutesAreRoundedToTheNearestFiveAHalfUp() {
        #expect(NowcastSummary.minutes(12.5 * 60) == 15 && NowcastSummary.minutes(12.5 * 60 - 0.0004) == 15)
        #expect(NowcastSummary.minutes(12.4 * 60) == 10 && NowcastSummary.minutes(7.5 * 60) == 10)
        #expect(NowcastSummary.minutes(60) == 5 && NowcastSummary.minutes(0) == 5 && NowcastSummary.minutes(37 * 60) == 35)
    }
}
