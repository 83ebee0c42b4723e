import ShakeCLI
#if canImport(Glibc)
import Glibc
#endif
import Foundation

let io = CommandIO(
    out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    err: { text in FileHandle.standardError.write(Data(text.utf8)) },
    errIsTerminal: isatty(STDERR_FILENO) != 0,
    ownsProcessStandardError: true
)
exit(ShakeTool.main(arguments: Array(CommandLine.arguments.dropFirst()), io: io))
