import Foundation

/// Two values written as one object — a JSON object or a database row, the keys of both side by
/// side — and read back from it; each part's fields are read and written through it as its own.
/// A saved place is the place's fields and what saving it added (in the API and in the store); the
/// conditions now are the reading and what the weather document adds to it.
@dynamicMemberLookup
public struct SideBySide<Main: Codable & Sendable, Added: Codable & Sendable>: Codable, Sendable {
    public var main: Main
    public var added: Added

    public init(_ main: Main, _ added: Added) {
        self.main = main
        self.added = added
    }

    public init(from decoder: any Decoder) throws {
        main = try Main(from: decoder)
        added = try Added(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try main.encode(to: encoder)
        try added.encode(to: encoder)
    }

    public subscript<T>(dynamicMember path: WritableKeyPath<Main, T>) -> T {
        get { main[keyPath: path] }
        set { main[keyPath: path] = newValue }
    }

    public subscript<T>(dynamicMember path: WritableKeyPath<Added, T>) -> T {
        get { added[keyPath: path] }
        set { added[keyPath: path] = newValue }
    }
}

extension SideBySide: Equatable where Main: Equatable, Added: Equatable {}
extension SideBySide: Hashable where Main: Hashable, Added: Hashable {}
