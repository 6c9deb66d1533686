import Foundation

/// Air quality, UV and pollen at a place at one hour (Open-Meteo's air-quality API, CAMS models).
/// Every value is optional: a model that does not cover the place gives none, and none is not zero.
public struct AirQuality: Codable, Sendable, Hashable {
    /// The hour the values are for.
    public var time: Date
    /// The European Air Quality Index (EEA, 0 … 100+).
    public var europeanAQI: Double?
    /// The United States AQI (EPA, 0 … 500).
    public var usAQI: Double?
    /// μg/m³.
    public var pm2_5: Double?
    public var pm10: Double?
    public var ozone: Double?
    public var nitrogenDioxide: Double?
    /// The UV index (WHO).
    public var uvIndex: Double?
    /// Today's highest hourly UV index at the place.
    public var uvIndexMax: Double?
    /// Pollen grains/m³ by plant (alder, birch, grass, mugwort, olive, ragweed); only the plants
    /// the model gives a value for (Europe's CAMS model, in season), empty elsewhere.
    public var pollen: [String: Double]
    /// When the answer was received.
    public var fetchedAt: Date

    public init(
        time: Date, europeanAQI: Double? = nil, usAQI: Double? = nil, pm2_5: Double? = nil, pm10: Double? = nil,
        ozone: Double? = nil, nitrogenDioxide: Double? = nil, uvIndex: Double? = nil, pollen: [String: Double] = [:],
        fetchedAt: Date
    ) {
        self.time = time
        self.europeanAQI = europeanAQI
        self.usAQI = usAQI
        self.pm2_5 = pm2_5
        self.pm10 = pm10
        self.ozone = ozone
        self.nitrogenDioxide = nitrogenDioxide
        self.uvIndex = uvIndex
        self.pollen = pollen
        self.fetchedAt = fetchedAt
    }

    /// The plants Brolly reports pollen for, in the order shown.
    public static let plants = ["alder", "birch", "grass", "mugwort", "olive", "ragweed"]

    /// True when there is nothing to show.
    public var isEmpty: Bool {
        europeanAQI == nil && usAQI == nil && pm2_5 == nil && pm10 == nil && ozone == nil && nitrogenDioxide == nil
            && uvIndex == nil && pollen.isEmpty
    }
}

/// A value's place on a published scale: its name and the scale's colour.
public struct AirQualityBand: Sendable, Hashable {
    public var category: String
    public var colour: String

    /// The European AQI bands (EEA): good, fair, moderate, poor, very poor, extremely poor.
    public static func european(_ index: Double) -> AirQualityBand {
        switch index {
        case ..<20: AirQualityBand(category: "Good", colour: "#50f0e6")
        case ..<40: AirQualityBand(category: "Fair", colour: "#50ccaa")
        case ..<60: AirQualityBand(category: "Moderate", colour: "#f0e641")
        case ..<80: AirQualityBand(category: "Poor", colour: "#ff5050")
        case ..<100: AirQualityBand(category: "Very poor", colour: "#960032")
        default: AirQualityBand(category: "Extremely poor", colour: "#7d2181")
        }
    }

    /// The US AQI bands (EPA), on the rounded index.
    public static func us(_ index: Double) -> AirQualityBand {
        switch index.rounded() {
        case ...50: AirQualityBand(category: "Good", colour: "#00e400")
        case ...100: AirQualityBand(category: "Moderate", colour: "#ffff00")
        case ...150: AirQualityBand(category: "Unhealthy for sensitive groups", colour: "#ff7e00")
        case ...200: AirQualityBand(category: "Unhealthy", colour: "#ff0000")
        case ...300: AirQualityBand(category: "Very unhealthy", colour: "#8f3f97")
        default: AirQualityBand(category: "Hazardous", colour: "#7e0023")
        }
    }

    /// The WHO UV index categories, on the rounded index.
    public static func uv(_ index: Double) -> AirQualityBand {
        switch index.rounded() {
        case ...2: AirQualityBand(category: "Low", colour: "#289500")
        case ...5: AirQualityBand(category: "Moderate", colour: "#f7e400")
        case ...7: AirQualityBand(category: "High", colour: "#f85900")
        case ...10: AirQualityBand(category: "Very high", colour: "#d8001d")
        default: AirQualityBand(category: "Extreme", colour: "#6b49c8")
        }
    }
}
