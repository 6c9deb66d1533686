/// A reader of FlatBuffers messages by the format's rules, for the tests of the writers that make
/// them (Open-Meteo's): the size prefix, the root offset, each table's vtable, offsets pointing
/// forward, values aligned to their size.
public struct FlatBufferReader {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    public func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    public func i32(_ at: Int) -> Int { Int(Int32(truncatingIfNeeded: u32(at))) }
    public func i64(_ at: Int) -> Int64 { (0..<8).reduce(Int64(0)) { $0 | Int64(bytes[at + $1]) << (8 * Int64($1)) } }
    public func f32(_ at: Int) -> Float { Float(bitPattern: UInt32(u32(at))) }
    /// The position of `field` in the table at `table`, nil when left out.
    public func field(_ table: Int, _ field: Int) -> Int? {
        let vtable = table - i32(table)
        guard 4 + 2 * field < u16(vtable) else { return nil }
        let offset = u16(vtable + 4 + 2 * field)
        return offset == 0 ? nil : table + offset
    }
    public struct Missing: Error {}
    /// The position of `field`, which must be there.
    public func must(_ table: Int, _ field: Int) throws -> Int {
        guard let at = self.field(table, field) else { throw Missing() }
        return at
    }
    /// What the offset field at `at` points to.
    public func target(_ at: Int) -> Int { at + u32(at) }
}
