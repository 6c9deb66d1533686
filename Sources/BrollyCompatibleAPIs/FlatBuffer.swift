import Foundation

/// A FlatBuffers message written front to back: enough of the format (tables with scalar and
/// offset fields, vectors of floats, 64-bit integers and tables, strings) for the answers Brolly
/// writes in another API's binary schema (Open-Meteo's `openmeteo_sdk`). Each value sits at a
/// position aligned to its size from the buffer's start, as the official builders place them, so
/// that readers which load values in place (the Swift SDK) can.
///
/// The format, as its specification gives it: a table starts with the signed distance back to its
/// vtable (`UInt16`s: the vtable's size, the table's size, then each field's place in the table,
/// 0 for a field left out); a field holding a table, vector or string is an unsigned offset from
/// the field forward to it; a vector is its count (`UInt32`) and then its elements; a string the
/// same, with a terminating zero. All little-endian.
public enum FlatBuffer {
    /// A field's value inside a table.
    public enum Scalar: Sendable {
        case uint8(UInt8)
        case int16(Int16)
        case int32(Int32)
        case int64(Int64)
        case float32(Float)

        var size: Int {
            switch self {
            case .uint8: 1
            case .int16: 2
            case .int32, .float32: 4
            case .int64: 8
            }
        }
    }

    /// Something a table's field points to.
    public indirect enum Node: Sendable {
        /// A table: its scalar fields and the fields that point to other nodes, by field number.
        case table(scalars: [Int: Scalar], children: [Int: Node])
        case floats([Float])
        case int64s([Int64])
        case string(String)
        /// A vector of tables.
        case tables([Node])
    }

    /// The message whose root table is `root`, with its size in front (as Open-Meteo frames each
    /// location's answer), padded to 8 bytes.
    public static func sizePrefixed(_ root: Node) -> [UInt8] {
        var w = Writer()
        w.put(UInt32(0))  // the size, written last
        let rootSlot = w.bytes.count
        w.put(UInt32(0))
        let table = w.write(root)
        w.patch(rootSlot, to: table)
        w.pad(to: 8)
        w.set(0, UInt32(w.bytes.count - 4))
        return w.bytes
    }

    struct Writer {
        var bytes: [UInt8] = []

        mutating func pad(to alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }

        mutating func put<T: FixedWidthInteger>(_ v: T) {
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func put(_ s: Scalar) {
            switch s {
            case .uint8(let v): put(v)
            case .int16(let v): put(v)
            case .int32(let v): put(v)
            case .int64(let v): put(v)
            case .float32(let v): put(v.bitPattern)
            }
        }

        mutating func set(_ at: Int, _ v: UInt32) {
            withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { bytes[at + i] = b } }
        }

        /// Points the offset field at `slot` to `target` (which lies after it).
        mutating func patch(_ slot: Int, to target: Int) { set(slot, UInt32(target - slot)) }

        /// Writes `node` (and what it points to, after it); its position (a vector's or a string's
        /// count, a table's start).
        mutating func write(_ node: Node) -> Int {
            switch node {
            case .table(let scalars, let children):
                return table(scalars: scalars, children: children)
            case .floats(let values):
                pad(to: 4)
                let at = bytes.count
                put(UInt32(values.count))
                for v in values { put(v.bitPattern) }
                return at
            case .int64s(let values):
                // The count 4 bytes before the first element, which is 8-aligned.
                pad(to: 8)
                put(UInt32(0))
                let at = bytes.count
                put(UInt32(values.count))
                for v in values { put(v) }
                return at
            case .string(let s):
                pad(to: 4)
                let at = bytes.count
                let utf8 = Array(s.utf8)
                put(UInt32(utf8.count))
                bytes.append(contentsOf: utf8)
                bytes.append(0)
                return at
            case .tables(let nodes):
                pad(to: 4)
                let at = bytes.count
                put(UInt32(nodes.count))
                let slots = nodes.indices.map { bytes.count + 4 * $0 }
                for _ in nodes { put(UInt32(0)) }
                for (slot, n) in zip(slots, nodes) { patch(slot, to: write(n)) }
                return at
            }
        }

        /// A table: its vtable, then the table (8-aligned) with its fields largest first, then
        /// what its offset fields point to.
        mutating func table(scalars: [Int: Scalar], children: [Int: Node]) -> Int {
            // The table's fields after its 4-byte vtable distance, largest first, each aligned.
            var fields: [(field: Int, size: Int, scalar: Scalar?)] = scalars.map { ($0.key, $0.value.size, $0.value) }
            fields += children.keys.map { ($0, 4, nil) }
            fields.sort { $0.size != $1.size ? $0.size > $1.size : $0.field < $1.field }
            var place: [Int: Int] = [:]
            var end = 4
            for f in fields {
                end = (end + f.size - 1) / f.size * f.size
                place[f.field] = end
                end += f.size
            }
            let count = (fields.map(\.field).max() ?? -1) + 1
            pad(to: 2)
            let vtable = bytes.count
            put(UInt16(4 + 2 * count))
            put(UInt16(end))
            for i in 0..<count { put(UInt16(place[i] ?? 0)) }
            pad(to: 8)
            let start = bytes.count
            put(Int32(start - vtable))
            var slots: [Int: Int] = [:]
            for f in fields {
                while bytes.count - start < place[f.field]! { bytes.append(0) }
                if let s = f.scalar {
                    put(s)
                } else {
                    slots[f.field] = bytes.count
                    put(UInt32(0))
                }
            }
            while bytes.count - start < end { bytes.append(0) }
            for field in children.keys.sorted() { patch(slots[field]!, to: write(children[field]!)) }
            return start
        }
    }
}
