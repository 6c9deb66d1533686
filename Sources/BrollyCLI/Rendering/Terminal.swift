import BrollyCore
import BrollyTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the CLI writes: JSON and text on stdout, notes on stderr, colour only on a terminal.
enum Terminal {
    /// Colour only on a TTY, and never when `NO_COLOR` is set (https://no-color.org).
    static var useColor: Bool {
        let env = ProcessInfo.processInfo.environment
        if let v = env["NO_COLOR"], !v.isEmpty { return false }
        if env["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    /// The terminal's width: `COLUMNS`, else the tty's; nil when stdout is not a terminal.
    static var width: Int? { width(of: STDOUT_FILENO) }

    /// `COLUMNS`, else the width of the terminal `fd` is; nil when it is not one.
    static func width(of fd: Int32) -> Int? {
        if let raw = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(raw), n > 0 { return n }
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// A renderer for this terminal: colour and width.
    static func renderer(_ choice: UnitChoice) -> TextRenderer {
        TextRenderer(choice: choice, color: useColor, width: width)
    }

    /// The language of the commands that take no `--lang` (places, history, news, address): the
    /// locale's (`LC_ALL`, else `LANG`), English when Brolly does not speak it.
    static var language: LanguagePack { Localization.pack(for: AlertsCommand.language(ProcessInfo.processInfo.environment)) }

    /// One of the CLI's texts in the locale's language.
    static func text(_ key: String, _ values: [String: String] = [:]) -> String { language.text(key, values) }

    /// Prints lines, each cut to the terminal's width.
    static func printFitted(_ lines: [String]) {
        for line in lines { print(TextRenderer.fit(line, width: width)) }
    }

    /// Prints one of the JSON contracts, pretty and with sorted keys.
    static func printJSON<T: Encodable>(_ value: T) throws {
        let data = try WeatherDocument.makeEncoder().encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// `brolly: note: …` on stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((TextRenderer.wrapped("brolly: note: \(message)", width: stderrWidth) + "\n").utf8))
    }

    /// The width to wrap notes and errors to: `COLUMNS`, else the terminal's when stderr is one;
    /// nil (one line, whatever its length) when they go to a file or a pipe without `COLUMNS`.
    static var stderrWidth: Int? { width(of: STDERR_FILENO) }
}
