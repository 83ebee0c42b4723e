import Foundation
import Testing

/// The Python scripts in Scripts/ exit as the `shake` tool does (sysexits.h), not as argparse
/// and Python do (2 for a usage error, 1 for every other): 64 a usage error, 65 bad data, 66 a
/// missing input, 73 an output not made, 130 interrupted; each --help lists them. The other
/// statuses are checked in each script's own suite.
@Suite struct ScriptExitStatusTests {
    static let scripts = ["resample", "scale-walks", "splice-clips", "wiimote-extra", "everyday-extra", "dev-check"]

    @Test(arguments: scripts)
    func anUnknownOptionIsAUsageErrorExiting64(script: String) throws {
        let run = try runProcess(repositoryRoot + "/Scripts/" + script, ["--no-such-option"])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.hasPrefix("usage: \(script) "), "\(run.err)")
        #expect(run.err.contains("\(script): error: "), "\(run.err)")
        #expect(!run.err.contains("Traceback"), "\(run.err)")
    }

    @Test(arguments: scripts)
    func helpListsTheExitStatuses(script: String) throws {
        let run = try runProcess(repositoryRoot + "/Scripts/" + script, ["--help"])
        #expect(run.status == 0, "\(run.err)")
        let section = run.out.components(separatedBy: "\nexit status:\n").last ?? ""
        #expect(run.out.contains("\nexit status:\n"), "\(run.out)")
        for line in ["  0    done", "  64   usage error", "  65   an input is not what it should be",
                     "  66   an input is missing or cannot be read", "  73   an output exists already",
                     "  130  interrupted (Ctrl-C, SIGTERM or SIGHUP)"] {
            #expect(section.contains("\n" + line) || section.hasPrefix(line), "\(script): \(line)\n\(section)")
        }
    }

    /// iio-emulator has no argparse: it lists the statuses it exits with itself (and COMMAND's).
    @Test func theEmulatorsHelpListsItsExitStatuses() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/iio-emulator", ["--help"])
        #expect(run.status == 0, "\(run.err)")
        for line in ["Exit status: COMMAND's (128 + N when a signal N ended it), or the emulator's own:",
                     "  64   usage error", "  65   the recording is not one", "  66   the recording is missing",
                     "  77   not run as root", "  127  COMMAND is not found"] {
            #expect(run.out.contains("\n" + line), "\(line)\n\(run.out)")
        }
    }
}
