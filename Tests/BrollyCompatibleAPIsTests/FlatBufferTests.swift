import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCompatibleAPIs

/// The FlatBuffers writer read back by the format's rules (the official SDK reads it in
/// tests/test_compatible_apis.py): the size prefix, the root offset, each table's vtable, offsets
/// pointing forward, values aligned to their size.
@Suite struct FlatBufferTests {
    typealias Reader = FlatBufferReader

    @Test func aSizePrefixedTableWithScalarsStringsAndVectorsReadsBack() throws {
        let bytes = FlatBuffer.sizePrefixed(
            .table(
                scalars: [0: .float32(52.5), 4: .int64(-7), 5: .uint8(3), 6: .int32(3600)],
                children: [
                    7: .string("Europe/Berlin"),
                    11: .table(
                        scalars: [0: .int64(1_795_651_200)],
                        children: [3: .tables([.table(scalars: [0: .uint8(47), 5: .int16(2)], children: [3: .floats([1.5, -2.25])])])]),
                    12: .int64s([1, -2]),
                ]))
        let r = Reader(bytes: bytes)
        #expect(bytes.count % 8 == 0 && r.u32(0) == bytes.count - 4)
        let root = r.target(4)
        #expect(root % 8 == 0)
        #expect(try r.f32(r.must(root, 0)) == 52.5)
        #expect(r.field(root, 1) == nil && r.field(root, 20) == nil)
        let id = try r.must(root, 4)
        #expect(id % 8 == 0 && r.i64(id) == -7)
        #expect(try r.bytes[r.must(root, 5)] == 3 && r.i32(r.must(root, 6)) == 3600)
        let zone = try r.target(r.must(root, 7))
        #expect(String(decoding: bytes[(zone + 4)..<(zone + 4 + r.u32(zone))], as: UTF8.self) == "Europe/Berlin")
        #expect(bytes[zone + 4 + r.u32(zone)] == 0)
        let hourly = try r.target(r.must(root, 11))
        #expect(try r.i64(r.must(hourly, 0)) == 1_795_651_200)
        let variables = try r.target(r.must(hourly, 3))
        #expect(r.u32(variables) == 1)
        let variable = r.target(variables + 4)
        #expect(try r.bytes[r.must(variable, 0)] == 47)
        let values = try r.target(r.must(variable, 3))
        #expect(r.u32(values) == 2 && r.f32(values + 4) == 1.5 && r.f32(values + 8) == -2.25)
        let longs = try r.target(r.must(root, 12))
        #expect((longs + 4) % 8 == 0 && r.u32(longs) == 2 && r.i64(longs + 4) == 1 && r.i64(longs + 12) == -2)
    }

    @Test func theOpenMeteoMessageKeepsTheQuerysOrderAndMeanings() throws {
        var q = try OpenMeteoQuery([
            ("latitude", "52.52"), ("longitude", "13.41"), ("hourly", "relative_humidity_2m,temperature_2m"),
            ("daily", "temperature_2m_max"), ("timeformat", "unixtime"),
        ])
        q.timeformat = "unixtime"
        let document: JSONValue = .object([
            "latitude": .number(52.52), "longitude": .number(13.41), "utc_offset_seconds": .number(0), "timezone": .string("GMT"),
            "hourly": .object([
                "time": .array([.number(0), .number(3600)]), "relative_humidity_2m": .array([.number(80), .null]),
                "temperature_2m": .array([.number(1), .number(2)]),
            ]),
            "hourly_units": .object(["relative_humidity_2m": .string("%"), "temperature_2m": .string("°C")]),
            "daily": .object(["time": .array([.number(0)]), "temperature_2m_max": .array([.number(3)])]),
            "daily_units": .object(["temperature_2m_max": .string("°C")]),
        ])
        let r = Reader(bytes: OpenMeteoFlatBuffers.message(document, query: q))
        let root = r.target(4)
        let hourly = try r.target(r.must(root, 11))
        #expect(try r.i64(r.must(hourly, 1)) == 7200 && r.i32(r.must(hourly, 2)) == 3600)
        let variables = try r.target(r.must(hourly, 3))
        let first = r.target(variables + 4), second = r.target(variables + 8)
        // relative_humidity (29) in % (35) first, as asked; a null is NaN.
        #expect(try r.bytes[r.must(first, 0)] == 29 && r.bytes[r.must(first, 1)] == 35)
        let humidity = try r.target(r.must(first, 3))
        #expect(r.f32(humidity + 4) == 80 && r.f32(humidity + 8).isNaN)
        #expect(try r.bytes[r.must(second, 0)] == 47 && r.bytes[r.must(second, 1)] == 1)
        let daily = try r.target(r.must(root, 10))
        let max = try r.target(r.target(r.must(daily, 3)) + 4)
        #expect(try r.bytes[r.must(max, 6)] == 2)  // aggregation: maximum
    }
}
