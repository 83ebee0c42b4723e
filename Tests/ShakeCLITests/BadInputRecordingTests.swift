import Foundation
import Testing

/// Representative rows of the CSV bad-input catalogue (Tests/ShakeRecordingTests/CSVBadInputTests)
/// end to end through the tool: `Error: FILE:LINE:COLUMN: message` on stderr, exit status 65
/// (malformed) or 66 (missing or unreadable), no crash; and commands that write leave no file
/// behind, half-written or otherwise, and never lose a file the user had.
@Suite struct BadInputRecordingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// stderr after `Error: PATH`: `:line:column: message` or `: message`.
        var says: String
        var testDescription: String { name }
        init(_ name: String, _ text: String, says: String) { self.init(name, Array(text.utf8), says: says) }
        init(_ name: String, _ bytes: [UInt8], says: String) {
            self.name = name
            self.bytes = bytes
            self.says = says
        }
    }

    static let header = "time_s,x,y,z\n"
    static let cases: [Case] = [
        Case("empty file", "", says: ": file is empty"),
        Case("header only", header, says: ""),
        Case("missing column", "time_s,x,y\n0,1,2\n", says: ":1:1: no z column"),
        Case("extra field", header + "0,1,2,3,4\n", says: ":2:9: "),
        Case("not a number", header + "0,1,abc,3\n", says: ":2:5: 'abc' is not a number in column 'y'"),
        Case("NaN", header + "0,NaN,2,3\n", says: ":2:3: 'NaN'"),
        Case("absurd magnitude", header + "0,1,2,2500\n", says: ":2:7: "),
        Case("time going backwards", header + "1,0,0,9.8\n1.5,0,0,9.8\n0.5,0,0,9.8\n", says: ":4:1: time goes backwards"),
        Case("truncated last line", header + "0,1,2,3\n0.01,1,2", says: ":3:9: "),
        Case("binary garbage", Array(header.utf8) + [0x30, 0x2C, 0x31, 0x2C, 0x00, 0x07, 0xFF, 0x2C, 0x33, 0x0A], says: ":2:5: "),
        Case("gzip-compressed", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x2B, 0xC9, 0xCC, 0x0A],
             says: ":1:1: gzip-compressed data, not a text CSV file: decompress it first (e.g. gzip -dc FILE > OUT.csv)"),
        Case("UTF-16", [0xFF, 0xFE] + Array("time_s,x,y,z\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
             says: ":1:1: UTF-16 is not supported"),
        Case("a line of 2 MiB", Array(header.utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 2 << 20) + [0x0A], says: ":2:1048577: line is longer than the limit of 1 MiB"),
    ]

    @Test(arguments: cases, ["replay", "evaluate"])
    func badRecordingIsNamedWithLineAndColumn(_ bad: Case, command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("bad.csv")
        try Data(bad.bytes).write(to: URL(fileURLWithPath: path))
        let run = runShake(command, path)
        if bad.says.isEmpty {
            // Header only: no recording to replay or score (a truncated export, say), named as
            // the file, not a line. replay reported "0 shakes in 0 samples" and exited 0 until
            // stop 54, passing such a file off as one where nothing happened.
            #expect(run.status == 65, "\(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err == "Error: \(path): no samples\n")
            #expect(listing(folder.path) == ["bad.csv"], "nothing else is written")
            return
        }
        #expect(run.status == 65, "\(run.err)")
        #expect(run.err.hasPrefix("Error: \(path)\(bad.says)"), "\(run.err)")
        #expect(!run.err.contains(": error: "), "the tool says 'Error:' once")
        #expect(listing(folder.path) == ["bad.csv"], "nothing else is written")
    }

    /// Standard input (`-`) is named `<stdin>` in errors, as compilers name it, by every command
    /// that reads recordings: a bad header, a recording without labels where they are needed, one
    /// without samples to draw.
    @Test(arguments: [
        (["replay", "-"], "x\n", ":1:1: cannot find the field separator"),
        (["evaluate", "-"], "x\n", ":1:1: cannot find the field separator"),
        (["tune", "-"], "x\n", ":1:1: cannot find the field separator"),
        (["plot", "-", "-o", "plot.svg"], "x\n", ":1:1: cannot find the field separator"),
        (["replay", "-"], header + "0,1,abc,3\n", ":2:5: 'abc' is not a number in column 'y'"),
        (["evaluate", "-"], header + "0,0,0,9.8\n", ": no 'shake' column; evaluate needs labelled recordings (label one with 'shake convert FILE --shakes START-END,... -o OUT', or --shakes none for one without shakes; or use 'shake replay'"),
        (["tune", "-"], header + "0,0,0,9.8\n", ": no 'shake' column; tuning needs labelled recordings"),
        (["plot", "-", "-o", "plot.svg"], header, ": no samples to draw"),
        // One sample, or samples all at one time: no options can give a range to draw (until
        // stop 54 a usage error, exit 64, that asked for '--from' and '--to').
        (["plot", "-", "-o", "plot.svg"], header + "0.5,0,0,9.8\n", ": its 1 sample lies at 0.5 s: no span of time to draw"),
        (["plot", "-", "-o", "plot.svg"], header + "2,0,0,9.8\n2,0,0,9.7\n", ": its 2 samples all lie at 2 s: no span of time to draw"),
        (["replay", "-"], header, ": no samples"),
    ])
    func standardInputIsNamedStdin(arguments: [String], input: String, says: String) throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("input.csv", input)
        let run = try runProcess(shake, arguments.map { $0.hasSuffix(".svg") ? folder.file($0) : $0 }, input: path)
        #expect(run.status == 65, "\(run.err)")
        #expect(run.err.split(separator: "\n").last.map { $0.hasPrefix("Error: <stdin>" + says) } == true, "\(run.err)")
    }

    /// A standard input that was closed (`<&-`) cannot be read, as for `cat`: exit 66 with the
    /// errno, for a recording and for `--config -` (until stop 50 it read as an empty file: 65,
    /// `file is empty`). The shell closes it and then runs the tool.
    @Test(arguments: [["replay", "-"], ["convert", "-", "-o", "out.csv"], ["config", "--config", "-"]])
    func closedStandardInputIsUnreadable(arguments: [String]) throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let command = arguments.map { $0.hasSuffix(".csv") ? folder.file($0) : $0 }
        let run = try runProcess("/bin/sh", ["-c", "exec \"$@\" <&-", "sh", shake] + command)
        #expect(run.status == 66, "\(run.err)")
        #expect(run.err.hasPrefix("Error: <stdin>") && run.err.contains("Bad file descriptor"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.csv")))
    }

    @Test(arguments: ["replay", "evaluate"])
    func missingFileExits66(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let missing = runShake(command, folder.file("none.csv"))
        #expect(missing.status == 66)
        #expect(missing.err.hasPrefix("Error: \(folder.file("none.csv")): "), "\(missing.err)")
    }

    /// plot and convert read one recording: a folder is no input (exit 66, as a missing file).
    @Test(arguments: ["plot", "convert"])
    func aFolderGivenForOneRecordingExits66(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.file(command == "plot" ? "out.svg" : "out.csv")
        let run = runShake(command, folder.path, "-o", output)
        #expect(run.status == 66)
        #expect(run.err == "Error: \(folder.path): is a directory, not a recording file\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// replay and evaluate take a folder of recordings, which must hold some.
    @Test(arguments: [("replay", "folder holds no .csv recordings"), ("evaluate", "folder holds no .csv recordings")])
    func directoryExits66(command: String, says: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let run = runShake(command, folder.path)
        #expect(run.status == 66)
        #expect(run.err == "Error: \(folder.path): \(says)\n")
    }

    /// A folder of exports under another extension (a logger's .txt): the error names what it
    /// holds and how to read it, instead of only that it holds no .csv recordings.
    @Test(arguments: ["replay", "evaluate", "tune"])
    func aFolderOfOtherFilesSaysWhatItHolds(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        _ = try folder.write("run1.txt", "time_s,x,y,z\n0,0,0,9.8\n")
        let one = runShake(command, folder.path)
        #expect(one.status == 66)
        #expect(one.err == "Error: \(folder.path): folder holds no .csv recordings (it holds 1 other file: run1.txt; "
            + "name a recording of another extension on the command line to read it)\n", "\(one.err)")
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: true)
        for name in ["run2.txt", "notes.md", "sub/run3.txt"] { _ = try folder.write(name, "x\n") }
        let four = runShake(command, folder.path)
        #expect(four.status == 66)
        #expect(four.err == "Error: \(folder.path): folder holds no .csv recordings (it holds 4 other files, such as "
            + "notes.md, run1.txt, run2.txt; name a recording of another extension on the command line to read it)\n",
            "\(four.err)")
    }

    /// A location where even root cannot create a file (procfs).
    @Test func synthIntoAnUncreatableLocationLeavesNothing() throws {
        let path = "/proc/shakekit-\(UUID().uuidString).csv"
        let run = runShake("synth", "shakes", "--duration", "2", "-o", path)
        #expect(run.status == 73, "\(run.err)")
        #expect(run.err.hasPrefix("Error: \(path).partial: cannot create"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    @Test func synthIntoAMissingFolderLeavesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("missing/w.csv")
        let run = runShake("synth", "shakes", "--duration", "2", "-o", path)
        #expect(run.status == 73, "\(run.err)")
        #expect(run.err == "Error: \(path): the folder '\(folder.file("missing"))' does not exist\n", "\(run.err)")
        #expect(listing(folder.path).isEmpty)
    }

    /// A disk that fills up while `shake synth` or `shake convert` writes (a 64 KiB tmpfs in a
    /// private mount namespace; needs root and `unshare`, as the IIO emulator tests do): exit 73
    /// naming the error, no partial file left, the file already there (overwritten with --force)
    /// intact, and a message that says so (it said "the rows flushed before are kept in this
    /// file" of the partial file it had just deleted). Not root: a failure saying so, unless
    /// SHAKEKIT_SKIP_ROOT=1 asks to skip (as SHAKEKIT_SKIP_IIO=1 does for the IIO emulator tests).
    @Test(.disabled(if: skipRootTestsRequested, "SHAKEKIT_SKIP_ROOT=1"),
          arguments: [["synth", "shakes", "--duration", "300"], ["convert", "IN"]])
    func synthOntoAFullDiskKeepsTheOldFileAndLeavesNoPartial(command: [String]) throws {
        guard runningAsRoot else {
            Issue.record("mounting a small tmpfs needs root: run the tests as root (CI does), or set SHAKEKIT_SKIP_ROOT=1 to skip")
            return
        }
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let disk = folder.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let input = try folder.write("in.csv", labelledShakeCSV(shakes: 40).text)
        let arguments = command.map { $0 == "IN" ? input : $0 }
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        // Mount, keep a file, fill the disk, then report what is left: all inside the namespace.
        let script = """
            set -e
            mount -t tmpfs -o size=64k tmpfs "$1"
            printf 'time_s,x,y,z\\n0,0,0,9.8\\n' > "$1/w.csv"
            set +e
            "$2" \(arguments) --force -o "$1/w.csv"
            echo "status=$?"
            ls -A "$1"
            cat "$1/w.csv"
            """
        let run = try runProcess("/usr/bin/unshare", ["--mount", "--propagation", "private", "--fork",
                                                      "/bin/sh", "-c", script, "sh", disk, shake])
        #expect(run.err.hasSuffix("Error: \(disk)/w.csv.partial: disk full (No space left on device (errno 28)); "
                                  + "removed: \(disk)/w.csv was not written\n"), "\(run.err)")
        #expect(run.out == "status=73\nw.csv\ntime_s,x,y,z\n0,0,0,9.8\n", "\(run.out)")
    }
}
