#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShakeRecording

/// The `shake` command-line tool, runnable in process: `ShakeTool.main(arguments:io:)`.
public enum ShakeTool {
    public static let name = "shake"
    public static let version = "0.1.0"

    /// Subcommands in the order `shake --help` lists them.
    public static let commands: [any ShakeCommand.Type] = [
        ReplayCommand.self,
        EvaluateCommand.self,
        TuneCommand.self,
        PlotCommand.self,
        ConfigCommand.self,
        DemoCommand.self,
        SynthCommand.self,
        ConvertCommand.self,
        DevicesCommand.self,
        RecordCommand.self,
        LiveCommand.self,
    ]

    static let overview = """
        Detect shake gestures in accelerometer recordings and live Linux IIO devices, \
        and turn them into undo and redo.
        """

    static let exitStatusHelp = """
        EXIT STATUS:
          0 success, 1 other failure, 64 usage error, 65 malformed recording or configuration,
          66 missing or unreadable input (a file; or no such accelerometer, IIO context or host),
          73 output cannot be written, 74 device or connection failure, 77 no permission to read the device.
        """

    static func mainHelp() -> String {
        var text = "OVERVIEW: \(overview)\n\nUSAGE: \(name) <subcommand>\n\nOPTIONS:\n"
        text += helpLine("--version", "Show the version.")
        text += helpLine("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n"
        for command in commands { text += helpLine(command.spec.name, command.spec.abstract) }
        text += helpLine("help", "Show help for a subcommand.")
        text += "\n  See '\(name) help <subcommand>' for detailed help.\n\n" + exitStatusHelp + "\n"
        return text
    }

    /// Runs the tool. `arguments` excludes the program name.
    ///
    /// When standard output failed (`io.outFailure`), a command that otherwise succeeded ends
    /// with exit 73 and `Error: standard output: …` (a full disk, `> /dev/full`, a closed
    /// descriptor), or quietly with ``CommandIO/readerGoneStatus`` when its reader went away
    /// (`| head`); a command that failed keeps its own status.
    public static func main(arguments: [String], io: CommandIO) -> Int32 {
        let status = run(arguments: arguments, io: io)
        switch io.outFailure() {
        case nil:
            return status
        case .readerGone:
            return status == ExitStatus.success ? CommandIO.readerGoneStatus : status
        case .failed(let code):
            io.err("Error: standard output: \(String(cString: strerror(code))) (errno \(code)): "
                + "the output is incomplete\n")
            return status == ExitStatus.success ? ExitStatus.cannotCreate : status
        }
    }

    private static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let first = arguments.first else {
            io.out(mainHelp())
            return ExitStatus.success
        }
        switch first {
        case "-h", "--help":
            io.out(mainHelp())
            return ExitStatus.success
        case "--version":
            io.out("\(name) \(version)\n")
            return ExitStatus.success
        case "help":
            // `shake help`, `shake help --help`, `shake help help`: the tool's help, which says
            // what `help` does (`help` is listed among the subcommands).
            guard arguments.count > 1, !["-h", "--help", "help"].contains(arguments[1]) else {
                io.out(mainHelp())
                return ExitStatus.success
            }
            guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                return usageFailure(unknownSubcommand(arguments[1]), usage: "\(name) help <subcommand>", io: io)
            }
            io.out(command.spec.help(toolName: name))
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            return usageFailure(unknownSubcommand(first), usage: "\(name) <subcommand>", io: io)
        }
        let spec = command.spec
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: spec)
        } catch {
            return usageFailure(error.message, usage: spec.usage(toolName: name), io: io,
                                helpCommand: "\(name) \(spec.name) --help")
        }
        if parsed.helpRequested {
            io.out(spec.help(toolName: name))
            return ExitStatus.success
        }
        do {
            return try command.run(parsed, io: io)
        } catch let error as UsageError {
            return usageFailure(error.message, usage: spec.usage(toolName: name), io: io,
                                helpCommand: "\(name) \(spec.name) --help")
        } catch {
            io.err("Error: \(error)\n")
            return (error as? ExitStatusProviding)?.exitStatus ?? ExitStatus.failure
        }
    }

    private static func unknownSubcommand(_ given: String) -> String {
        var message = "Unknown subcommand '\(given)'"
        let best = commands.map { ($0.spec.name, editDistance($0.spec.name, given)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= 2 { message += "\nDid you mean '\(best.0)'?" }
        return message
    }

    private static func usageFailure(_ message: String, usage: String, io: CommandIO,
                                     helpCommand: String = "shake --help") -> Int32 {
        io.err("Error: \(message)\nUsage: \(usage)\n  See '\(helpCommand)' for more information.\n")
        return ExitStatus.usage
    }
}
