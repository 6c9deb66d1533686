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
    /// The analysis: a daily cycle between 5 and 15 °C.
    static func analysis(_ day: Int, _ hour: Int) -> Double { 10 + 5 * sin(Double(hour - 9) / 24 * 2 * .pi) + Double(day % 3) }

    @Test func errorsByLeadDayAreMeasuredAgainstTheModelsOwnAnalysis() throws {
        // ECMWF one day ahead is 1.5 ° too warm, two days ahead 3 ° too cold; ICON has nothing here.
        let data = previousRunsAnswer(days: 12, models: ["ecmwf_ifs025", "icon_seamless"]) { model, lead, day, hour in
            guard model == "ecmwf_ifs025" else { return nil }
            let truth = Self.analysis(day, hour)
            switch lead {
            case 0: return truth
            case 1: return truth + 1.5
            case 2: return truth - 3
            case 3: return day >= 8 ? truth + 0.5 : nil  // fewer days scored
            default: return nil
            }
        }
        let runs = try PreviousRuns.decode(data, models: ["ecmwf_ifs025", "icon_seamless"])
        #expect(runs.hours.count == 12 * 24 && runs.temperature["icon_seamless"] == nil)
        let scores = ForecastScores.againstAnalysis(runs, today: "2026-11-13")["ecmwf_ifs025"]!
        #expect(scores.map(\.lead) == [1, 2, 3])
        #expect(scores[0].n == 12 && scores[0].highMAE == 1.5 && scores[0].lowMAE == 1.5 && scores[0].highWithin2 == 1)
        #expect(scores[1].highMAE == 3 && scores[1].highWithin2 == 0)
        #expect(scores[2].n == 4 && scores[2].highMAE == 0.5)
        // Days from today on are not scored; the window keeps the latest days.
        #expect(ForecastScores.againstAnalysis(runs, today: "2026-11-06")["ecmwf_ifs025"]![0].n == 5)
        #expect(ForecastScores.againstAnalysis(runs, today: "2026-11-13", window: 7)["ecmwf_ifs025"]![0].n == 7)
        // In °F a difference is 1.8 times larger.
        #expect(
            TemperatureUnit.fahrenheit.difference(ForecastScores.againstAnalysis(runs, today: "2026-11-13")["ecmwf_ifs025"]![1].highMAE)
                == 5.4)
    }

    @Test func wetDaysAreHitsMissesAndFalseAlarms() throws {
        // It rained 2 mm on days 0, 2 and 4; the day-1 forecast said so for days 0 and 1.
        let data = previousRunsAnswer(
            days: 6, models: ["gfs_seamless"], suffixed: false,
            temperature: { _, lead, day, hour in lead <= 1 ? Self.analysis(day, hour) : nil },
            precipitation: { _, lead, day, hour in
                guard hour == 12 else { return 0 }
                if lead == 0 { return [0, 2, 4].contains(day) ? 2 : 0.4 }
                return [0, 1].contains(day) ? 1.2 : 0
            })
        let runs = try PreviousRuns.decode(data, models: ["gfs_seamless"])
        let s = ForecastScores.againstAnalysis(runs, today: "2026-11-07")["gfs_seamless"]!
        #expect(s.count == 1 && s[0].n == 6)
        #expect(s[0].wetHitRate == 0.33 && s[0].wetFalseAlarmRate == 0.5)
    }

    @Test func aDayWithAMissingHourIsNotScoredAndErrorsAreRefused() throws {
        let data = previousRunsAnswer(days: 3, models: ["m"]) { _, lead, day, hour in
            lead > 1 ? nil : (day == 1 && hour == 5 && lead == 1 ? nil : Self.analysis(day, hour))
        }
        let s = ForecastScores.againstAnalysis(try PreviousRuns.decode(data, models: ["m"]), today: "2026-11-30")["m"]!
        #expect(s[0].n == 2)
        #expect(throws: BrollyError.self) {
            try PreviousRuns.decode(
                Data(#"{"error": true, "reason": "Cannot initialize WeatherVariable from invalid String value"}"#.utf8), models: ["m"])
        }
        #expect(throws: BrollyError.self) { try PreviousRuns.decode(Data("{}".utf8), models: ["m"]) }
        #expect(PreviousRuns.hourlyParameter.hasPrefix("temperature_2m,temperature_2m_previous_day1,"))
        #expect(PreviousRuns.hourlyParameter.hasSuffix("precipitation_previous_day7"))
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
        LeadScore(lead: lead, n: n, highMAE: high, lowMAE: high, highWithin2: 1, lowWithin2: 1, wetHitRate: nil, wetFalseAlarmRate: nil)
    }

    @Test func theBestModelNeedsEnoughDaysScored() {
        let report = AccuracyReport(
            computedAt: Date(), timezone: "Europe/Berlin", truth: "analysis", station: nil, days: 30,
            models: [
                .init(model: "a", leads: [Self.score(1, n: 30, high: 1.2)]), .init(model: "b", leads: [Self.score(1, n: 4, high: 0.4)]),
                .init(model: "c", leads: [Self.score(1, n: 6, high: 0.9), Self.score(2, n: 30, high: 0.1)]),
            ])
        // b has fewer than 5 days; c's lead 2 is not tomorrow.
        #expect(report.best()?.model == "c")
        #expect(report.best(minimumDays: 20)?.model == "a")
        #expect(report.best(minimumDays: 31) == nil)
    }

    @Test func autoNeedsTwentyDaysAgainstTheAnalysisAndTenAgainstAStation() {
        func report(truth: String, n: Int, best: String = "ecmwf_ifs025") -> AccuracyReport {
            AccuracyReport(
                computedAt: Date(), timezone: "UTC", truth: truth, station: nil, days: n,
                models: [
                    .init(model: "best_match", leads: [Self.score(1, n: n, high: 1.0)]),
                    .init(model: best, leads: [Self.score(1, n: n, high: 0.5)]),
                ])
        }
        #expect(report(truth: "analysis", n: 30).autoModel == "ecmwf_ifs025")
        #expect(report(truth: "analysis", n: 19).autoModel == nil)
        #expect(report(truth: "station", n: 12).autoModel == "ecmwf_ifs025")
        #expect(report(truth: "station", n: 9).autoModel == nil)
        // Open-Meteo's own choice being the best: no models= at all.
        #expect(report(truth: "analysis", n: 30, best: "best_match").autoModel == nil)
        let url = OpenMeteoProvider(
            network: NetworkService(transport: RoutedTransport([])), baseURL: URL(string: "http://x")!,
            geocodingURL: URL(string: "http://x")!)
        #expect(
            url.forecastURL(for: Coordinate(latitude: 1, longitude: 2), model: "icon_seamless").query!.hasPrefix("models=icon_seamless&"))
        #expect(!url.forecastURL(for: Coordinate(latitude: 1, longitude: 2), model: "best_match").query!.contains("models="))
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
