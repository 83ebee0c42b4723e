import ShakeCLI
#if canImport(Glibc)
import Glibc
#endif

// Standard output and error written with write(2): a full disk or a closed descriptor is an
// error (exit 73) rather than a crash, and closed descriptors 0-2 are held by /dev/null so that
// no output file takes their number (see CommandIO.standardStreams).
exit(ShakeTool.main(arguments: Array(CommandLine.arguments.dropFirst()), io: .standardStreams()))
