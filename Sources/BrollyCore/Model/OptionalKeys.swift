import Foundation

/// How a nil optional is written when Swift's own `Codable` (the key left out of JSON, but a NULL
/// column in a database row: GRDB's encoder) is not what a reader or a store needs.
public protocol NilRule: Sendable {
    /// True: no key at all, whatever the encoder; false: the key with `null`.
    static var leavesKeyOut: Bool { get }
}

/// A nil is written `null`: for documents whose readers expect every key.
public enum WritesNull: NilRule { public static let leavesKeyOut = false }
/// A nil leaves its key out for every encoder: for a field a table has no column for.
public enum LeavesKeyOut: NilRule { public static let leavesKeyOut = true }

/// An optional written by `Rule` when it is nil; read back, a `null` and a key left out are both nil.
@propertyWrapper
public struct OptionalKey<Rule: NilRule, Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}

/// `@WrittenAsNull var feelsLike: Double?`: `"feelsLike": null` when there is none.
public typealias WrittenAsNull<V: Codable & Sendable & Hashable> = OptionalKey<WritesNull, V>
/// `@LeftOutWhenNil var approximate: Bool?`: no key, in JSON and in a database row, when nil.
public typealias LeftOutWhenNil<V: Codable & Sendable & Hashable> = OptionalKey<LeavesKeyOut, V>

extension KeyedEncodingContainer {
    public mutating func encode<R, V>(_ value: OptionalKey<R, V>, forKey key: Key) throws {
        if let wrapped = value.wrappedValue {
            try encode(wrapped, forKey: key)
        } else if !R.leavesKeyOut {
            try encodeNil(forKey: key)
        }
    }
}

extension KeyedDecodingContainer {
    /// A key left out is nil (Swift's own decoding would call it missing).
    public func decode<R, V>(_ type: OptionalKey<R, V>.Type, forKey key: Key) throws -> OptionalKey<R, V> {
        try decodeIfPresent(type, forKey: key) ?? OptionalKey(wrappedValue: nil)
    }
}
