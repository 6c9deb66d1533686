import Foundation

/// A parsed JSON document, used to read provider answers tolerantly: numbers may arrive as
/// integers, floats or strings; objects may be empty or missing.
public enum JSONValue: Decodable, Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else if let o = try? c.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not JSON")
        }
    }

    /// Parses `data`, throwing `unreadableResponse` for anything that is not JSON.
    public static func parse(_ data: Data, provider: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw BrollyError.unreadableResponse("\(provider) sent malformed JSON")
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return nil
    }

    /// A number from a JSON number or a numeric string; nil for anything else or non-finite.
    public var double: Double? {
        switch self {
        case .number(let d): d.isFinite ? d : nil
        case .string(let s): Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// A time as seconds since 1970, between 1970 and 2100; nil otherwise (a provider's absurd
    /// number must not become a date no writer can print: fuzzing found `"dt": 1e30` trapping).
    public var epoch: Date? {
        guard let s = double, (0...4_102_444_800).contains(s) else { return nil }
        return Date(timeIntervalSince1970: s)
    }

    public var int: Int? { double.flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil } }

    /// A string; numbers are rendered without a fraction when whole.
    public var string: String? {
        switch self {
        case .string(let s): s
        // Int(exactly:) and not Int(_:), which traps past Int.max (fuzzing: an 'icaoId' of 4e19).
        case .number(let d): Int(exactly: d).map(String.init) ?? String(d)
        default: nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var bool: Bool? {
        switch self {
        case .bool(let b): b
        case .number(let d): d != 0
        default: nil
        }
    }

    public var isNull: Bool { self == .null }
}

extension Optional where Wrapped == JSONValue {
    /// A non-empty, trimmed string or nil.
    var nonEmptyString: String? {
        guard let s = self?.string?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
        return s
    }
}

extension JSONValue: Encodable {
    /// Written as the JSON it stands for (the compatible APIs' documents are built as values).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}
