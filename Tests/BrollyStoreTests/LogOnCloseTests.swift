import Foundation
import Testing

@testable import BrollyStore

/// A short command opens the database, writes one lookup and closes it. Closing leaves the
/// write-ahead log in place (no checkpoint, no deleted and re-created log: no fsyncs), and what it
/// holds is read by the next opening.
@Suite struct LogOnCloseTests {
    @Test func closingLeavesTheLogAndTheNextOpeningReadsIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("brolly-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("brolly.sqlite")
        do {
            let database = try AppDatabase.open(at: url)
            try await database.touchDevice("device-1", now: Date())
        }
        let log = try FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int ?? 0
        #expect(log > 0, "the log is left as it was, not copied in and deleted")
        let again = try AppDatabase.open(at: url)
        #expect(try await again.deviceExists("device-1"))
        #expect(try await !again.deviceExists("device-2"))
    }
}
