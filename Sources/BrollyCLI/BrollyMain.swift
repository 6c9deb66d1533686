import ArgumentParser
import BrollyCore
import BrollyTerminal
import Foundation

/// Runs the command line and turns every failure into one line on stderr and a non-zero exit.
public enum BrollyMain {
    public static func main(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        do {
            var command = try Brolly.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let error as BrollyError {
            fail(error.message, code: [.invalidInput, .noSuchItem].contains(error.kind) ? 64 : 1)
        } catch let error as CommandFailure {
            fail(error.message, code: 1)
        } catch {
            let code = Brolly.exitCode(for: error)
            if code == .success {  // --help, --version
                if ["--help", "-h", "help"].contains(arguments.first ?? ""), arguments.count == 1 {
                    print(Brolly.helpMessage(columns: Terminal.width))
                    print(TextRenderer.wrapped(Brolly.environmentHelp, width: Terminal.width))
                    exit(0)
                }
                Brolly.exit(withError: error)
            }
            let message = Brolly.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            fail(message + " (see '\(helpCommand(for: arguments))')", code: code.rawValue)
        }
    }

    /// `brolly places add --help` for `brolly places add --lat x`: the help of the subcommand named.
    static func helpCommand(for arguments: [String]) -> String {
        var path = ["brolly"]
        var command: any ParsableCommand.Type = Brolly.self
        for argument in arguments {
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            command = sub
        }
        return (path + ["--help"]).joined(separator: " ")
    }

    static func fail(_ message: String, code: Int32) -> Never {
        // One line, whatever the message.
        var text = message.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("Error: ") { text.removeFirst(7) }
        // Wrapped at spaces to the terminal's width when there is one (COLUMNS, or stderr a
        // terminal); one line for a file or a pipe, as scripts read it.
        FileHandle.standardError.write(Data((TextRenderer.wrapped("brolly: error: \(text)", width: Terminal.stderrWidth) + "\n").utf8))
        exit(code == 0 ? 1 : code)
    }
}

/// A command that could not do its work for a reason outside the user's input (a busy port, an
/// unwritable directory): exit 1 with the message.
struct CommandFailure: Error {
    let message: String
}
