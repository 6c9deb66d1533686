import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

/// Loads `Fixtures/<path>` from the test bundle.
func fixture(_ path: String) throws -> Data {
    let url = Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(path)
    return try Data(contentsOf: url)
}
