import Foundation

/// The sun's and the moon's times, computed locally (no API): dawn, sunrise, solar noon (zenith),
/// sunset and dusk from the sunrise equation (NOAA's simplified form, about a minute of accuracy),
/// and the moon's age from the mean synodic month.
public enum SkyCalculator {
    /// The sun's times on one day at one place; nil where the sun does not cross that altitude
    /// (polar day or night).
    public struct SunTimes: Sendable, Hashable {
        /// Civil dawn: the sun 6° below the horizon, rising.
        public var dawn: Date?
        public var sunrise: Date?
        /// The sun at its highest (solar noon).
        public var zenith: Date
        public var sunset: Date?
        /// Civil dusk: the sun 6° below the horizon, setting.
        public var dusk: Date?
    }

    static let j2000 = 2_451_545.0
    static func julianDay(_ date: Date) -> Double { date.timeIntervalSince1970 / 86_400 + 2_440_587.5 }
    static func instant(julianDay: Double) -> Date { Date(timeIntervalSince1970: (julianDay - 2_440_587.5) * 86_400) }
    static func rad(_ d: Double) -> Double { d * .pi / 180 }
    static func deg(_ r: Double) -> Double { r * 180 / .pi }

    /// The sun's times on the local day that contains `date` in `zone`, at `coordinate`.
    public static func sunTimes(on date: Date, in zone: TimeZone, at coordinate: Coordinate) -> SunTimes {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: date) ?? date
        let lon = coordinate.longitude, lat = rad(coordinate.latitude)
        let n = (julianDay(noon) - j2000 + 0.0008).rounded()
        let meanSolarNoon = n - lon / 360
        let m = (357.5291 + 0.985_600_28 * meanSolarNoon).truncatingRemainder(dividingBy: 360)
        let c = 1.9148 * sin(rad(m)) + 0.02 * sin(rad(2 * m)) + 0.0003 * sin(rad(3 * m))
        let lambda = (m + c + 180 + 102.9372).truncatingRemainder(dividingBy: 360)
        let transit = j2000 + meanSolarNoon + 0.0053 * sin(rad(m)) - 0.0069 * sin(rad(2 * lambda))
        let declination = asin(sin(rad(lambda)) * sin(rad(23.4397)))
        func crossing(_ altitude: Double) -> (Date, Date)? {
            let cosHourAngle = (sin(rad(altitude)) - sin(lat) * sin(declination)) / (cos(lat) * cos(declination))
            guard (-1...1).contains(cosHourAngle) else { return nil }
            let hourAngle = deg(acos(cosHourAngle)) / 360
            return (Self.instant(julianDay: transit - hourAngle), Self.instant(julianDay: transit + hourAngle))
        }
        let sun = crossing(-0.833), civil = crossing(-6)
        return SunTimes(dawn: civil?.0, sunrise: sun?.0, zenith: Self.instant(julianDay: transit), sunset: sun?.1, dusk: civil?.1)
    }

    static let synodicMonth = 29.530_588_853
    /// A new moon: 2000-01-06 18:14 UTC.
    static let knownNewMoon = 2_451_550.26

    /// Days since the last new moon (0 ..< 29.53).
    public static func moonAge(at date: Date) -> Double {
        let age = (julianDay(date) - knownNewMoon).truncatingRemainder(dividingBy: synodicMonth)
        return age < 0 ? age + synodicMonth : age
    }

    /// One of eight phase symbols, new moon first: 🌑 🌒 🌓 🌔 🌕 🌖 🌗 🌘.
    public static func moonSymbol(at date: Date) -> String {
        let symbols = ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"]
        return symbols[Int((moonAge(at: date) / synodicMonth * 8).rounded()) % 8]
    }

    /// The lit fraction of the moon's disc, 0 (new) … 1 (full), from its age.
    public static func moonIllumination(at date: Date) -> Double {
        (1 - cos(2 * .pi * moonAge(at: date) / synodicMonth)) / 2
    }

    /// One of eight phase names, in the order of `moonSymbol`.
    public static func moonPhaseName(at date: Date) -> String {
        let names = [
            "new moon", "waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous", "last quarter",
            "waning crescent",
        ]
        return names[Int((moonAge(at: date) / synodicMonth * 8).rounded()) % 8]
    }
}
