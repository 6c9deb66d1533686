import Foundation

/// An optional that is written as `null` when it is nil, for documents whose readers expect every
/// key (Swift's own `Codable` leaves a nil optional's key out). Read back, a `null` and a key left
/// out are both nil.
@propertyWrapper
public struct WrittenAsNull<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A `WrittenAsNull` whose key is left out is nil (Swift's own decoding would call it missing).
    public func decode<V>(_ type: WrittenAsNull<V>.Type, forKey key: Key) throws -> WrittenAsNull<V> {
        try decodeIfPresent(type, forKey: key) ?? WrittenAsNull(wrappedValue: nil)
    }
}
