import BrollyCore
import Foundation

/// An API another weather app speaks (Dark Sky / Pirate Weather, Open-Meteo, OpenWeatherMap),
/// answered from Brolly's weather. A surface says where it is mounted and its routes, where a
/// request carries its key, how it reads a request and writes its answer, and its error shape;
/// the server's one `CompatibleController` does the rest for all of them (keys, allowances, the
/// answer memo, metrics, and the view of the weather each document is written from). Adding a fourth API is a folder with its surface and documents, and a
/// line in `CompatibleSurfaces.all`.
public protocol CompatibleSurface: Sendable {
    /// Its name in metrics and settings (`darksky`).
    var name: String { get }
    /// The path it is mounted at (`/forecast`).
    var mount: String { get }
    /// Its routes under `mount`, in the router's syntax (`:key/:location`, `forecast`).
    var routes: [String] { get }
    /// The key a request carries (in its path or query), nil without one.
    func key(of request: CompatibleRequest) -> String?
    /// The message of a refusal for a key the server does not know.
    var unknownKeyMessage: String { get }
    /// Its status: 401, or what the API's clients expect (Pirate Weather's 403).
    var unknownKeyStatus: Int { get }
    /// An error's body in the API's own shape (what its clients read), never problem+json.
    func errorBody(status: Int, message: String) -> [String: Any]
    /// What a route asks for, or the refusal of a bad request.
    func read(_ request: CompatibleRequest, route: String) throws(CompatibleRefusal) -> CompatibleAsk
    /// The units the answer to `ask` is written in, for weather at `place`.
    func units(for ask: CompatibleAsk, at place: Place) -> UnitChoice
    /// The document for an answer, written from the one view of its weather (in `units(for:at:)`
    /// and the reader's language) and nothing else — or a refusal (a time Brolly has no weather for).
    func document(for ask: CompatibleAsk, view: WeatherView) throws(CompatibleRefusal) -> any Encodable & Sendable
    /// The message of a Brolly error as the API's clients expect it (OpenWeatherMap's "city not found").
    func message(for error: BrollyError) -> String
    /// Whether its routes also take `POST` with the query as a form body (Open-Meteo's SDKs' `method="POST"`).
    var acceptsPost: Bool { get }
    /// One answer for several asked in one call (`CompatibleAsk.several`), from their documents in order.
    func combine(_ documents: [any Encodable & Sendable]) -> any Encodable & Sendable
}

extension CompatibleSurface {
    public func message(for error: BrollyError) -> String { error.message }
    public var unknownKeyStatus: Int { 401 }
    public var acceptsPost: Bool { false }
    /// A JSON list of the documents.
    public func combine(_ documents: [any Encodable & Sendable]) -> any Encodable & Sendable { DocumentList(documents: documents) }
}

/// Several documents written as one JSON list, in order.
public struct DocumentList: Encodable, Sendable {
    public var documents: [any Encodable & Sendable]

    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for document in documents { try list.encode(document) }
    }
}

/// A document a surface writes itself in a binary format (Open-Meteo's FlatBuffers): the server
/// answers its bytes with its content type instead of encoding it as JSON.
public struct EncodedDocument: Encodable, Sendable {
    public var bytes: [UInt8]
    public var contentType: String

    /// Never JSON: the server sends `bytes` as they are.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "binary document, sent as it is"))
    }
}

/// Every compatible API the server mounts: the one registration line of each.
public enum CompatibleSurfaces {
    public static let all: [any CompatibleSurface] = [
        DarkSkySurface(), OpenMeteoSurface(), OpenWeatherMapSurface(), OneCallSurface(),
    ]
}

/// A request as a surface reads it: its path, its route's parameters and its query items.
public struct CompatibleRequest: Sendable {
    public var path: String
    public var parameters: [String: String]
    public var query: [(name: String, value: String)]

    public init(path: String, parameters: [String: String], query: [(name: String, value: String)]) {
        self.path = path
        self.parameters = parameters
        self.query = query
    }

    /// The values of a query parameter.
    public func all(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }

    /// A parameter given at most once (spaces around it trimmed); a repeat is refused.
    public func one(_ name: String) throws(CompatibleRefusal) -> String? {
        let values = all(name)
        guard values.count <= 1 else { throw .badRequest("'\(name)' is given more than once") }
        return values.first.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// `lat` and `lon` (or other names) as decimal numbers in range; nil when neither is given.
    public func coordinate(latitude: String = "lat", longitude: String = "lon") throws(CompatibleRefusal) -> Coordinate? {
        let la = try one(latitude), lo = try one(longitude)
        guard la != nil || lo != nil else { return nil }
        guard let la, let lat = RequestRules.number(la), RequestRules.isCoordinate(latitude: lat, longitude: 0) else {
            throw .badRequest("wrong latitude: '\(la?.prefix(40) ?? "")'")
        }
        guard let lo, let lon = RequestRules.number(lo), RequestRules.isCoordinate(latitude: 0, longitude: lon) else {
            throw .badRequest("wrong longitude: '\(lo?.prefix(40) ?? "")'")
        }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// `lang=` as a language tag, English when absent.
    public func language() throws(CompatibleRefusal) -> String {
        // An empty value is no value (`lang=`), as the APIs' own servers read it.
        guard let raw = try one("lang"), !raw.isEmpty else { return "en" }
        guard let tag = RequestRules.languageTag(raw) else { throw .badRequest("lang must be a language code such as en or ru") }
        return tag
    }
}

/// A request a surface refuses, with the status and the message its clients read.
public struct CompatibleRefusal: Error, Sendable {
    public var status: Int
    public var message: String
    /// A past local day (`2026-11-02`) the answer needs and the weather given did not hold: the
    /// server asks for that day and writes the document again from it (else refuses with `message`).
    public var pastDay: String?

    public static func badRequest(_ message: String) -> CompatibleRefusal { CompatibleRefusal(status: 400, message: message) }
}

/// What a request asks the server for.
public enum CompatibleAsk: Sendable {
    /// The weather at a place, in a language (with air quality and the station when `full`),
    /// from a model; `details` is the surface's own reading of the request, given back to
    /// `document(for:result:language:)`.
    case weather(place: CompatiblePlace, language: String, full: Bool, model: String?, details: any Sendable)
    /// Several places' weather in one call (Open-Meteo's `latitude=a,b&longitude=c,d`): each a
    /// `.weather` ask, answered in order and combined by the surface (`combine`).
    case several([CompatibleAsk])
    /// A query Brolly's weather does not hold, passed to the upstream Open-Meteo under its
    /// normalized form (`OpenMeteoPassthrough`).
    case openMeteoPassthrough(normalized: [(String, String)])
}

/// A place as the compatible APIs name one.
public enum CompatiblePlace: Sendable, Hashable {
    case coordinate(Coordinate)
    case name(String)
    /// OpenWeatherMap's city id: its place asked of OpenWeatherMap with the server's key.
    case openWeatherMapCity(Int)
}
