import BrollyCore
import Foundation
import GRDB
import Testing

@testable import BrollyStore

/// The store writes the history's times itself (`LocalTime.sqlTimestamp`), where GRDB would use
/// its `DateFormatter`: the text must be GRDB's to the millisecond, or times written by the two
/// would not sort or compare as the instants do.
@Suite struct StoredTimeTests {
    func grdb(_ date: Date) -> String? { String.fromDatabaseValue(date.databaseValue) }

    @Test func theHistorysTimesAreWrittenAsGRDBWritesThem() {
        var generator = SystemRandomNumberGenerator()
        var instants: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_190_000.123),
            Date(timeIntervalSince1970: 1_764_190_000.9999), Date(timeIntervalSince1970: 1_764_190_000.0005),
            Date(timeIntervalSince1970: 1_582_934_400),  // 2020-02-29
            Date(timeIntervalSince1970: 4_102_444_799.999),  // the last millisecond of 2099
            Date(timeIntervalSince1970: -1.5), Date(timeIntervalSinceReferenceDate: 0.0004),
            Date(timeIntervalSince1970: -489_548_228.6615),  // a half before 1970: GRDB writes .339
        ]
        for _ in 0..<5_000 {
            // Halves of a millisecond exactly, before 1970 and after, where the rounding rules part ways.
            let milliseconds = Double(Int.random(in: -631_152_000_000...4_102_444_800_000, using: &generator))
            instants.append(Date(timeIntervalSince1970: (milliseconds + 0.5) / 1000))
        }
        for _ in 0..<5_000 {
            // 1950–2100, with a fraction of a millisecond, where a floor and a round part ways.
            instants.append(Date(timeIntervalSince1970: Double.random(in: -631_152_000...4_102_444_800, using: &generator)))
        }
        for date in instants {
            #expect(LocalTime.sqlTimestamp(date) == grdb(date), "\(date.timeIntervalSince1970)")
        }
    }

    @Test func anInstantTooFarOffIsLeftToGRDB() {
        #expect(LocalTime.sqlTimestamp(Date(timeIntervalSince1970: 1e15)) == nil)
        #expect(
            String.fromDatabaseValue(AppDatabase.stored(Date(timeIntervalSince1970: 1e15)).databaseValue)
                == grdb(Date(timeIntervalSince1970: 1e15)))
    }
}
