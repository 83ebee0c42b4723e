/// Where a command writes. Injected so commands run in process in tests.
public struct CommandIO: Sendable {
    /// Standard output: results (tables, JSON, help).
    public var out: @Sendable (String) -> Void
    /// Standard error: errors, warnings, progress.
    public var err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress bars and status lines only then).
    public var errIsTerminal: Bool
    /// Whether the command owns the process's standard error (the `shake` executable, not a
    /// test calling a command in process): only then may it change how C libraries' messages
    /// are handled process-wide (libiio's are hidden without `--verbose`).
    public var ownsProcessStandardError: Bool
    /// Whether writing `out` has failed, and why (`CommandIO.standardStreams()` says; nil for
    /// outputs that cannot fail). `ShakeTool.main` asks once the command is done: a command
    /// whose output did not all arrive has not succeeded.
    public var outFailure: @Sendable () -> StandardOutputFailure?

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                errIsTerminal: Bool = false, ownsProcessStandardError: Bool = false,
                outFailure: @escaping @Sendable () -> StandardOutputFailure? = { nil }) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
        self.ownsProcessStandardError = ownsProcessStandardError
        self.outFailure = outFailure
    }
}

/// A failure that carries its own process exit status.
public protocol ExitStatusProviding: Error {
    var exitStatus: Int32 { get }
}

/// Exit statuses of the `shake` tool (sysexits.h where one fits).
public enum ExitStatus {
    public static let success: Int32 = 0
    /// A runtime failure that fits no other status.
    public static let failure: Int32 = 1
    /// The command line was wrong (`EX_USAGE`).
    public static let usage: Int32 = 64
    /// An input file was malformed: a recording or a configuration (`EX_DATAERR`).
    public static let dataError: Int32 = 65
    /// An input file is missing or unreadable (`EX_NOINPUT`).
    public static let noInput: Int32 = 66
    /// Writing an output file failed (`EX_CANTCREAT`).
    public static let cannotCreate: Int32 = 73
    /// A device or connection failed (`EX_IOERR`).
    public static let ioError: Int32 = 74
    /// No permission to read the device (`EX_NOPERM`).
    public static let noPermission: Int32 = 77
}

/// A subcommand of `shake`.
public protocol ShakeCommand: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Runs the command with parsed arguments; returns the exit status.
    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32
}

/// A failure to report as `Error: message` with a chosen exit status.
public struct CommandFailure: Error, ExitStatusProviding, CustomStringConvertible {
    public var message: String
    public var exitStatus: Int32
    public init(_ message: String, exitStatus: Int32 = ExitStatus.failure) {
        self.message = message
        self.exitStatus = exitStatus
    }
    public var description: String { message }
}
