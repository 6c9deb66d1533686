import Foundation

// What every surface derives from the model, written once: is it snow, a set of hours' or days'
// worst condition, and day or night at an hour (sun times worked out once per local day).

extension ConditionKind {
    /// Snow or snow showers (sleet and freezing rain are not).
    public var isSnow: Bool { self == .snow || self == .snowShowers }
}

extension Condition {
    /// The most severe of some conditions (the first of equals), nil for none.
    public static func worst<S: Sequence>(_ conditions: S) -> Condition? where S.Element == Condition {
        var worst: Condition?
        for c in conditions where worst.map({ c.severity > $0.severity }) ?? true { worst = c }
        return worst
    }
}

/// Day or night at a place: between the day's sunrise and sunset (a polar day has no sunset, a
/// polar night no sunrise). Sun times are worked out once per local day.
public struct Daylight: Sendable {
    public let zone: TimeZone
    public let coordinate: Coordinate
    private var byDay: [String: SkyCalculator.SunTimes] = [:]

    public init(place: Place) {
        zone = place.timeZone
        coordinate = place.coordinate
    }

    /// The sun's times on the local day of `t`.
    public mutating func sun(on t: Date) -> SkyCalculator.SunTimes {
        let day = LocalTime.dateString(t, in: zone)
        if let known = byDay[day] { return known }
        let times = SkyCalculator.sunTimes(on: t, in: zone, at: coordinate)
        byDay[day] = times
        return times
    }

    /// Whether the sun is up at `t`.
    public mutating func isDay(_ t: Date) -> Bool { Self.isDay(t, sun: sun(on: t)) }

    /// Whether `t` is between the sunrise and sunset of `sun`.
    public static func isDay(_ t: Date, sun: SkyCalculator.SunTimes) -> Bool {
        (sun.sunrise.map { t >= $0 } ?? true) && (sun.sunset.map { t < $0 } ?? true)
    }
}

extension WeatherReport {
    /// The hours from the one under way, that first hour showing the current reading (its
    /// temperature, condition and wind) rather than the hour's forecast: a reader sees one "now".
    public var hoursFromNowReading: [HourForecast] {
        var hours = Array(hoursFromNow)
        if var first = hours.first, first.time <= current.time {
            first.temperature = current.temperature
            first.condition = current.condition
            first.windSpeed = current.windSpeed ?? first.windSpeed
            first.feelsLike = current.feelsLike ?? first.feelsLike
            first.humidity = current.humidity ?? first.humidity
            first.pressure = current.pressure ?? first.pressure
            first.clouds = current.clouds ?? first.clouds
            first.windDirection = current.windDirection ?? first.windDirection
            first.windGust = current.windGust ?? first.windGust
            hours[0] = first
        }
        return hours
    }
}

extension WeatherResult {
    /// An answer made from it may be given again while its weather is fresh: it was not stale
    /// and its refresh did not fail.
    public var mayBeReplayed: Bool { !isStale && refreshError == nil }
    /// Nothing is missing from it: every helper answered and the forecast came from the provider
    /// asked, not a fallback.
    public var isComplete: Bool { lacking.isEmpty && fallbackFrom == nil }
}
