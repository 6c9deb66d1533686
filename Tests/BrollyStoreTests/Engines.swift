import BrollyCore
import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyStore

/// The two engines the store's tests run against: SQLite always; PostgreSQL when
/// `BROLLY_TEST_DATABASE_URL` names one (`.ci/run` starts one, so CI always has it).
enum Engine: String, CustomTestStringConvertible, Sendable {
    case sqlite, postgresql

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["BROLLY_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var all: [Engine] {
        if postgresURL == nil {
            print("note: BROLLY_TEST_DATABASE_URL is not set: the store's tests run on SQLite only")
            return [.sqlite]
        }
        return [.sqlite, .postgresql]
    }

    var testDescription: String { rawValue }

    /// The database with its pools running (the server runs them in its service group).
    static func running(_ database: PostgresDatabase) -> PostgresDatabase {
        database.runDetached()
        return database
    }

    func open() async throws -> any DataStore {
        switch self {
        case .sqlite: try AppDatabase.inMemory()
        case .postgresql: try await Engine.running(PostgresDatabase.connect(url: Engine.postgresURL!, clock: SystemClock()))
        }
    }
}

/// Device ids of one test run, so that tests sharing one PostgreSQL database never see each
/// other's rows.
struct Devices {
    let run = UUID().uuidString.prefix(8)
    var d: String { "d-\(run)" }
    var one: String { "one-\(run)" }
    var two: String { "two-\(run)" }
    var a: String { "a-\(run)" }
    var b: String { "b-\(run)" }
}
