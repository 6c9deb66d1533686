import BrollyCompatibleAPIs
import BrollyCore
import BrollyUseCases
import Foundation
import Hummingbird

/// Reads query parameters strictly: repeated parameters and bad numbers are 400s.
struct Query {
    let parameters: Parameters

    init(_ request: Request) { parameters = request.uri.queryParameters }

    func string(_ name: String) throws -> String? {
        let all = parameters.getAll(name)
        if all.count > 1 { throw Problem.badRequest("parameter '\(name)' is repeated") }
        return all.first
    }

    /// A whole number in `range`, nil when the parameter is not given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = try string(name) else { return nil }
        guard let n = Int(raw), range.contains(n) else {
            throw Problem.badRequest(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(raw.prefix(40))'")
        }
        return n
    }

    func double(_ name: String) throws -> Double? {
        guard let raw = try string(name) else { return nil }
        // Decimal numbers only (`RequestRules`, as every API): `Double("0x1p3")` is 8, and "nan" and "inf" parse too.
        guard let v = RequestRules.number(raw) else {
            throw Problem.badRequest("parameter '\(name)' must be a number, got '\(raw.prefix(40))'")
        }
        return v
    }

    /// `lat` and `lon`, both required and in range.
    func coordinate() throws -> Coordinate {
        let lat = try double("lat"), lon = try double("lon")
        guard let lat else { throw Problem.badRequest("parameter 'lat' is required") }
        guard let lon else { throw Problem.badRequest("parameter 'lon' is required") }
        return try Coordinate.validated(latitude: lat, longitude: lon)
    }

    func units() throws -> UnitSystem {
        guard let raw = try string("units") else { return .metric }
        guard let u = UnitSystem(rawValue: raw.lowercased()) else {
            throw Problem.badRequest("parameter 'units' must be metric, imperial or standard, got '\(raw.prefix(40))'")
        }
        return u
    }

    /// `units=` (the preset) with each of `wind=`, `pressure=` and `precipitation=` chosen on its own.
    func unitChoice() throws -> UnitChoice {
        var choice = UnitChoice(try units())
        func one<U: RawRepresentable & CaseIterable>(_ name: String, _: U.Type) throws -> U? where U.RawValue == String {
            guard let raw = try string(name) else { return nil }
            guard let u = U(rawValue: raw.lowercased()) else {
                let allowed = U.allCases.map(\.rawValue).joined(separator: ", ")
                throw Problem.badRequest("parameter '\(name)' must be one of \(allowed), got '\(raw.prefix(40))'")
            }
            return u
        }
        if let wind = try one("wind", WindUnit.self) { choice.wind = wind }
        if let pressure = try one("pressure", PressureUnit.self) { choice.pressure = pressure }
        if let precipitation = try one("precipitation", PrecipitationUnit.self) { choice.precipitation = precipitation }
        return choice
    }

    /// A place query: present, trimmed, 1–200 characters.
    func placeQuery(_ name: String) throws -> String? {
        guard let raw = try string(name) else { return nil }
        return try PlaceSearch.validated(raw)
    }

    /// Where a request is about: `place=NAME`, or `lat` and `lon` (not both).
    func placeOrCoordinate() throws -> PlaceQuery {
        if let name = try placeQuery("place") {
            if try string("lat") != nil || string("lon") != nil {
                throw Problem.badRequest("give either 'place' or 'lat' and 'lon', not both")
            }
            return .name(name)
        }
        return .coordinate(try coordinate())
    }
}

/// The reader's language: `?lang=` (e.g. `ru`, `en-GB`), else the first of `Accept-Language`, else English.
enum Language {
    static func of(_ request: Request) throws -> String {
        if let raw = try Query(request).string("lang") {
            guard let tag = RequestRules.languageTag(raw) else {
                throw Problem.badRequest("'lang' must be a language tag such as en or ru, got '\(raw.prefix(40))'")
            }
            return tag
        }
        return accepted(request).lazy.compactMap(RequestRules.languageTag).first ?? "en"
    }

    /// The tags of `Accept-Language`, in the order the client gave them (their `q` left aside).
    static func accepted(_ request: Request) -> [String] {
        (request.headers[.acceptLanguage] ?? "").split(separator: ",").map {
            $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        }
    }
}
