import BrollyCore
import Foundation

/// Checks short text a user gives (custom names, place fields).
public enum TextField {
    /// Trimmed; nil when absent or blank; an input error when longer than `max` characters or
    /// holding control characters.
    public static func validated(_ value: String?, field: String, max: Int = 100) throws -> String? {
        guard let v = value?.trimmingCharacters(in: .whitespacesAndNewlines), !v.isEmpty else { return nil }
        guard v.count <= max else { throw BrollyError.invalidInput("'\(field)' is longer than \(max) characters") }
        guard !v.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw BrollyError.invalidInput("'\(field)' contains control characters")
        }
        return v
    }
}
