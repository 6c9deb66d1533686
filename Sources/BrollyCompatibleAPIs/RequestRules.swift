import BrollyCore
import Foundation

/// The rules every API of the server reads its requests by — Brolly's own and the compatible ones —
/// written once: a number is a decimal number (`0x1p3`, `nan` and `inf` are not), a coordinate is
/// in range, a language tag is a tag, and a `BrollyError` has one HTTP status.
public enum RequestRules {
    /// `[+-]digits[.digits][e[+-]digits]`, as JSON and OpenAPI numbers are written.
    public static func isDecimal(_ text: some StringProtocol) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let n = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            bytes = bytes.dropFirst(n)
            return n
        }
        if bytes.first == 0x2b || bytes.first == 0x2d { bytes = bytes.dropFirst() }
        var count = digits()
        if bytes.first == 0x2e {
            bytes = bytes.dropFirst()
            count += digits()
        }
        guard count > 0 else { return false }
        if bytes.first == 0x65 || bytes.first == 0x45 {
            bytes = bytes.dropFirst()
            if bytes.first == 0x2b || bytes.first == 0x2d { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// A decimal number (spaces around it allowed), nil for anything else.
    public static func number(_ raw: some StringProtocol) -> Double? {
        let text = raw.first == " " || raw.last == " " ? raw.trimmingCharacters(in: .whitespaces) : String(raw)
        guard isDecimal(text), let v = Double(text), v.isFinite else { return nil }
        return v
    }

    /// Whether a latitude and longitude name a point on Earth (`Coordinate.isValid`, the one rule).
    public static func isCoordinate(latitude: Double, longitude: Double) -> Bool {
        Coordinate(latitude: latitude, longitude: longitude).isValid
    }

    /// A language tag (BCP 47's shape: `en`, `pt-BR`, `zh-Hant-TW`, Dark Sky's `x-pig-latin`; `_`
    /// is taken for `-`, as some clients write `zh_tw`): a primary subtag of 1 to 8 letters, then
    /// subtags of 1 to 8 letters or digits, at most 35 characters; lower-cased, nil for anything else.
    public static func languageTag(_ raw: some StringProtocol) -> String? {
        guard !raw.isEmpty, raw.count <= 35 else { return nil }
        let parts = raw.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "_" }
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
            parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return raw.lowercased()
    }

    /// The HTTP status of a Brolly error, for every API: 400 bad input, 404 unknown place or item,
    /// 429 a client's spent allowance, 503 the upstream's spent budget or nothing cached, 504 a
    /// time-out, 502 every other upstream failure.
    public static func status(of error: BrollyError) -> Int {
        switch error.kind {
        case .invalidInput: 400
        case .placeNotFound, .noSuchItem: 404
        case .clientLimited: 429
        case .rateLimited, .notCached: 503
        case .timedOut: 504
        case .offline, .unreadableResponse, .invalidAPIKey, .providerUnavailable: 502
        }
    }
}
