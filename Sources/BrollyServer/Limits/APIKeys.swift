import BrollyCore
import Foundation

/// The keys a public instance answers on its compatible APIs (`BROLLY_API_KEYS`: a file with one
/// key per line, optionally followed by its allowance of upstream calls a minute; `#` starts a
/// comment). Without the file any key is accepted, as a household's own server would. Keys stay
/// in memory: they are never logged, and metrics never carry a key's value.
struct APIKeys: Sendable {
    /// Each key and its upstream calls a minute (nil: the client default).
    let allowances: [String: Int?]

    init(allowances: [String: Int?]) { self.allowances = allowances }

    /// Reads the file at `path`.
    static func load(path: String) throws -> APIKeys {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BrollyServerError.invalidSetting("BROLLY_API_KEYS names a file that cannot be read: \(path)")
        }
        var keys: [String: Int?] = [:]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let key = words.first else { continue }
            guard key.count >= 4, key.count <= 128, words.count <= 2 else {
                throw BrollyServerError.invalidSetting(
                    "BROLLY_API_KEYS line \(number + 1): a key (4–128 characters) and an optional allowance")
            }
            if words.count == 2 {
                guard let n = Int(words[1]), (1...1_000_000).contains(n) else {
                    throw BrollyServerError.invalidSetting(
                        "BROLLY_API_KEYS line \(number + 1): the allowance must be upstream calls a minute, 1 to 1000000")
                }
                keys[key] = n
            } else {
                keys[key] = .some(nil)
            }
        }
        guard !keys.isEmpty else { throw BrollyServerError.invalidSetting("BROLLY_API_KEYS names a file without keys: \(path)") }
        return APIKeys(allowances: keys)
    }

    /// Whether `key` is one of them, and its allowance.
    func allowance(of key: String) -> Int?? { allowances[key] }
}
