import Foundation

/// Maps provider condition codes to `Condition`s.
public enum Conditions {
    /// A WMO weather interpretation code, as Open-Meteo reports it.
    public static func wmo(_ code: Int, isDay: Bool = true) -> Condition {
        let (kind, title, description): (ConditionKind, String, String) =
            switch code {
            case 0: (.clear, "Clear", "clear sky")
            case 1: (.mostlyClear, "Clear", "mainly clear")
            case 2: (.partlyCloudy, "Clouds", "partly cloudy")
            case 3: (.overcast, "Clouds", "overcast")
            case 45: (.fog, "Fog", "fog")
            case 48: (.fog, "Fog", "depositing rime fog")
            case 51: (.drizzle, "Drizzle", "light drizzle")
            case 53: (.drizzle, "Drizzle", "moderate drizzle")
            case 55: (.drizzle, "Drizzle", "dense drizzle")
            case 56: (.freezingRain, "Drizzle", "light freezing drizzle")
            case 57: (.freezingRain, "Drizzle", "dense freezing drizzle")
            case 61: (.rain, "Rain", "slight rain")
            case 63: (.rain, "Rain", "moderate rain")
            case 65: (.rain, "Rain", "heavy rain")
            case 66: (.freezingRain, "Rain", "light freezing rain")
            case 67: (.freezingRain, "Rain", "heavy freezing rain")
            case 71: (.snow, "Snow", "slight snow fall")
            case 73: (.snow, "Snow", "moderate snow fall")
            case 75: (.snow, "Snow", "heavy snow fall")
            case 77: (.snow, "Snow", "snow grains")
            case 80: (.showers, "Rain", "slight rain showers")
            case 81: (.showers, "Rain", "moderate rain showers")
            case 82: (.showers, "Rain", "violent rain showers")
            case 85: (.snowShowers, "Snow", "slight snow showers")
            case 86: (.snowShowers, "Snow", "heavy snow showers")
            case 95: (.thunderstorm, "Thunderstorm", "thunderstorm")
            case 96: (.thunderstorm, "Thunderstorm", "thunderstorm with slight hail")
            case 99: (.thunderstorm, "Thunderstorm", "thunderstorm with heavy hail")
            default: (.unknown, "Unknown", "unknown conditions")
            }
        return Condition(
            code: code, title: title, description: description,
            icon: Condition.iconName(for: kind, isDay: isDay), kind: kind)
    }

    /// An OpenWeatherMap condition id (2xx thunderstorm … 804 overcast) with the provider's own
    /// title and (possibly localized) description.
    public static func openWeatherMap(id: Int, main: String?, description: String?, isDay: Bool) -> Condition {
        let kind: ConditionKind =
            switch id {
            case 200..<300: .thunderstorm
            case 300..<400: .drizzle
            case 511: .freezingRain
            case 520..<600: .showers
            case 500..<600: .rain
            case 611..<617: .sleet
            case 620..<700: .snowShowers
            case 600..<700: .snow
            case 700..<800: .fog
            case 800: .clear
            case 801: .mostlyClear
            case 802: .partlyCloudy
            case 803, 804: .overcast
            default: .unknown
            }
        let fallback = wmoFallbackTitle(kind)
        return Condition(
            code: id, title: main ?? fallback, description: description ?? fallback.lowercased(),
            icon: Condition.iconName(for: kind, isDay: isDay), kind: kind)
    }

    private static func wmoFallbackTitle(_ kind: ConditionKind) -> String {
        switch kind {
        case .thunderstorm: "Thunderstorm"
        case .drizzle: "Drizzle"
        case .rain, .showers, .freezingRain: "Rain"
        case .snow, .snowShowers, .sleet: "Snow"
        case .fog: "Mist"
        case .clear: "Clear"
        case .mostlyClear, .partlyCloudy, .overcast: "Clouds"
        case .unknown: "Unknown"
        }
    }
}

/// Country names for ISO codes, in English.
enum Countries {
    static func name(forCode code: String?) -> String? {
        guard let code, code.count == 2 else { return nil }
        return Locale(identifier: "en_US").localizedString(forRegionCode: code.uppercased())
    }
}
