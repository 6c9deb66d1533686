import BrollyCore
import Foundation

/// Where the CLI writes: JSON and text on stdout, notes on stderr, colour only on a terminal.
enum Terminal {
    /// Colour only on a TTY, and never when `NO_COLOR` is set (https://no-color.org).
    static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        if let v = env["NO_COLOR"], !v.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    /// Prints one of the JSON contracts, pretty and with sorted keys.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let data = try WeatherDocument.makeEncoder().encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// `brolly: note: …` on stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("brolly: note: \(message)\n".utf8))
    }
}
