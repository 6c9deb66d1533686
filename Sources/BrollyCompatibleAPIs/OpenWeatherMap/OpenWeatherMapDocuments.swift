import BrollyCore
import Foundation

/// OpenWeatherMap's 2.5 formats (`/data/2.5/weather` and the 5-day/3-hour `/data/2.5/forecast`)
/// written from Brolly's cached weather, so that scripts and libraries made for OpenWeatherMap
/// (pyowm, MagicMirror's module) work without a key of their own. Field names, units per unit
/// system and condition ids are OpenWeatherMap's; a value Brolly has none for is left out.
public enum OpenWeatherMapFormat {
    /// `standard` (K, m/s), `metric` (°C, m/s), `imperial` (°F, mph).
    public enum Units: String, Sendable, CaseIterable {
        case standard, metric, imperial

        /// The unit of each quantity: Brolly's preset of the same name.
        public var choice: UnitChoice { UnitChoice(UnitSystem(rawValue: rawValue) ?? .metric) }
    }

    static func r(_ v: Double) -> Double { Rounding.round(v, 2) }
    /// Where the wind comes from as OpenWeatherMap writes it: whole degrees, 0–359.
    static func degrees(_ d: Double?) -> Int? { d.map { Int($0.rounded()) % 360 } }

    public struct Coord: Codable, Sendable, Hashable {
        public var lon: Double
        public var lat: Double
    }

    public struct WeatherItem: Codable, Sendable, Hashable {
        public var id: Int
        public var main: String
        public var description: String
        public var icon: String

        /// A condition of the view as OpenWeatherMap's weather item: its id, group and icon, and the
        /// view's text (already in the reader's language).
        init(_ c: WeatherView.ConditionView, of v: WeatherView, isDay: Bool) {
            id = owmID(c.condition, provider: v.provider)
            let group: (main: String, icon: String) =
                switch id {
                case 200..<300: ("Thunderstorm", "11")
                case 300..<400: ("Drizzle", "09")
                case 511: ("Rain", "13")
                case 500..<520: ("Rain", "10")
                case 520..<600: ("Rain", "09")
                case 600..<700: ("Snow", "13")
                case 700..<800: (id == 741 ? "Fog" : "Mist", "50")
                case 800: ("Clear", "01")
                case 801: ("Clouds", "02")
                case 802: ("Clouds", "03")
                default: ("Clouds", "04")
                }
            (main, description, icon) = (group.main, c.description, group.icon + (isDay ? "d" : "n"))
        }
    }

    public struct Main: Codable, Sendable, Hashable {
        public var temp: Double
        public var feelsLike: Double?
        public var tempMin: Double?
        public var tempMax: Double?
        public var pressure: Double?
        public var seaLevel: Double?
        public var humidity: Double?

        enum CodingKeys: String, CodingKey {
            case temp, pressure, humidity
            case feelsLike = "feels_like", tempMin = "temp_min", tempMax = "temp_max", seaLevel = "sea_level"
        }
    }

    public struct Wind: Codable, Sendable, Hashable {
        public var speed: Double?
        public var deg: Int?
        public var gust: Double?
    }

    public struct Clouds: Codable, Sendable, Hashable { public var all: Int }

    public struct Sys: Codable, Sendable, Hashable {
        public var country: String?
        public var sunrise: Int?
        public var sunset: Int?
        /// Forecast slots only: `d` or `n`.
        public var pod: String?
    }

    /// `/data/2.5/weather`.
    public struct Current: Codable, Sendable, Hashable {
        public var coord: Coord
        public var weather: [WeatherItem]
        public var base = "stations"
        public var main: Main
        public var visibility: Int?
        public var wind: Wind
        public var rain: [String: Double]?
        public var snow: [String: Double]?
        public var clouds: Clouds?
        public var dt: Int
        public var sys: Sys
        /// Seconds from UTC.
        public var timezone: Int
        public var id = 0
        public var name: String
        public var cod = 200
    }

    public struct Slot: Codable, Sendable, Hashable {
        public var dt: Int
        public var main: Main
        public var weather: [WeatherItem]
        public var wind: Wind
        /// Probability of precipitation, 0–1.
        public var pop: Double?
        public var rain: [String: Double]?
        public var snow: [String: Double]?
        public var clouds: Clouds?
        public var sys: Sys
        public var dtText: String

        enum CodingKeys: String, CodingKey {
            case dt, main, weather, wind, pop, rain, snow, clouds, sys
            case dtText = "dt_txt"
        }
    }

    public struct City: Codable, Sendable, Hashable {
        public var id = 0
        public var name: String
        public var coord: Coord
        public var country: String?
        public var timezone: Int
        public var sunrise: Int?
        public var sunset: Int?
    }

    /// `/data/2.5/forecast`.
    public struct Forecast: Codable, Sendable, Hashable {
        public var cod = "200"
        public var message = 0
        public var cnt: Int
        public var list: [Slot]
        public var city: City
    }

    /// OpenWeatherMap's condition id, group and icon for a Brolly condition: its own id when
    /// OpenWeatherMap answered, else the nearest id for the WMO code (Open-Meteo's).
    static func owmID(_ c: Condition, provider: ProviderID) -> Int {
        if provider == .openWeatherMap, (200...804).contains(c.code) { return c.code }
        switch c.code {
        case 0: return 800
        case 1: return 801
        case 2: return 802
        case 3: return 804
        case 45, 48: return 741
        case 51: return 300
        case 53: return 301
        case 55: return 302
        case 56, 57, 66, 67: return 511
        case 61: return 500
        case 63: return 501
        case 65: return 502
        case 71, 77: return 600
        case 73: return 601
        case 75: return 602
        case 80: return 520
        case 81: return 521
        case 82: return 522
        case 85: return 620
        case 86: return 622
        case 95: return 211
        case 96: return 201
        case 99: return 202
        default: return 804
        }
    }

    /// The current weather document, written from the one view of the weather in OpenWeatherMap's
    /// units (its rain and snow stay in mm, as OpenWeatherMap gives them whatever the units).
    public static func current(_ v: WeatherView) -> Current {
        let place = v.place, c = v.current, sky = v.sky, now = v.now
        func t(_ m: Measure<TemperatureUnit>) -> Double { r(m.value) }
        return Current(
            coord: Coord(lon: place.longitude, lat: place.latitude), weather: [WeatherItem(c.condition, of: v, isDay: c.isDay)],
            main: Main(
                temp: t(c.temperature), feelsLike: c.feelsLike.map(t), tempMin: t(c.low), tempMax: t(c.high),
                pressure: c.pressure.map { r($0.base) }, seaLevel: c.pressure.map { r($0.base) }, humidity: c.humidity.map { $0.rounded() }),
            visibility: c.visibility.map { Int(min($0.base, 10_000).rounded()) },
            wind: Wind(
                speed: c.wind.map { r($0.value) }, deg: degrees(c.windDirection), gust: c.gust.map { r($0.value) }),
            rain: c.rain.flatMap { $0.base > 0 ? ["1h": r($0.base)] : nil },
            // OpenWeatherMap's snow is the water it makes, in mm.
            snow: c.snowWater.flatMap { $0.base > 0 ? ["1h": r($0.base)] : nil },
            clouds: c.clouds.map { Clouds(all: Int($0.rounded())) }, dt: Int(c.time.timeIntervalSince1970),
            sys: Sys(
                country: place.countryCode, sunrise: sky.sunrise.map { Int($0.timeIntervalSince1970) },
                sunset: sky.sunset.map { Int($0.timeIntervalSince1970) }),
            timezone: v.zone.secondsFromGMT(for: now), name: place.name)
    }

    /// The 5-day/3-hour forecast, written from the one view: OpenWeatherMap's own slots when it
    /// answered, else one slot per three hours (00, 03 … 21 UTC) from the hourly forecast — that
    /// hour's values, the most likely chance and the sum of the three hours' precipitation — from
    /// the next slot on, `count` (≤ 40).
    public static func forecast(_ v: WeatherView, count: Int = 40) -> Forecast {
        let place = v.place, zone = v.zone, now = v.now
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let hours = v.hours
        var slots: [(WeatherView.Hour, ArraySlice<WeatherView.Hour>)] = []
        if v.provider == .openWeatherMap {
            slots = hours.indices.filter { hours[$0].time > now }.map { (hours[$0], hours[$0...$0]) }
        } else {
            for (i, h) in hours.enumerated() where h.time > now && utc.component(.hour, from: h.time) % 3 == 0 {
                slots.append((h, hours[i..<min(i + 3, hours.count)].filter { $0.time < h.time.addingTimeInterval(3 * 3600) }[...]))
            }
        }
        let stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_US_POSIX")
        stamp.timeZone = utc.timeZone
        stamp.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let list = slots.prefix(max(0, min(count, 40))).map { (h, three) -> Slot in
            let amounts = three.compactMap { $0.precipitation?.base }
            let amount = amounts.isEmpty ? nil : amounts.reduce(0, +)
            let fallen = amount.flatMap { $0 > 0 ? ["3h": r($0)] : nil }
            let temp = r(h.temperature.value)
            let pressure = h.pressure.map { r($0.base) }
            return Slot(
                dt: Int(h.time.timeIntervalSince1970),
                main: Main(
                    temp: temp, feelsLike: h.feelsLike.map { r($0.value) }, tempMin: temp, tempMax: temp, pressure: pressure,
                    seaLevel: pressure, humidity: h.humidity.map { $0.rounded() }),
                weather: [WeatherItem(h.condition, of: v, isDay: h.isDay)],
                wind: Wind(
                    speed: h.wind.map { r($0.value) }, deg: degrees(h.windDirection),
                    gust: h.gust.map { r($0.value) }),
                pop: three.compactMap(\.chance).max().map { r($0 / 100) }, rain: h.condition.isSnow ? nil : fallen,
                snow: h.condition.isSnow ? fallen : nil, clouds: h.clouds.map { Clouds(all: Int($0.rounded())) },
                sys: Sys(pod: h.isDay ? "d" : "n"), dtText: stamp.string(from: h.time))
        }
        let today = SkyCalculator.sunTimes(on: now, in: zone, at: place.coordinate)
        return Forecast(
            cnt: list.count, list: list,
            city: City(
                name: place.name, coord: Coord(lon: place.longitude, lat: place.latitude), country: place.countryCode,
                timezone: zone.secondsFromGMT(for: now), sunrise: today.sunrise.map { Int($0.timeIntervalSince1970) },
                sunset: today.sunset.map { Int($0.timeIntervalSince1970) }))
    }
}
