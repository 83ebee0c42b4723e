import Foundation
@testable import ShakeCLI
@testable import ShakeRecording
import Synchronization
import Testing

/// Standard output that cannot take the text (`> /dev/full`, a full disk, a closed pipe): the
/// tool says so and fails (exit 73), or ends quietly when its reader went away (`| head`). Before,
/// `FileHandle.write` crashed the tool with a backtrace (exit 132) in every such case.
@Suite struct StandardOutputTests {
    /// Runs `shake arguments` in process with its output on `outputPath` (opened for writing) and
    /// its errors on a pipe; returns the status and the errors.
    func run(_ arguments: [String], outputDescriptor output: CInt) throws -> (status: Int32, err: String) {
        let errors = Pipe()
        let io = CommandIO.writing(output: output, errors: errors.fileHandleForWriting.fileDescriptor)
        let status = ShakeTool.main(arguments: arguments, io: io)
        try errors.fileHandleForWriting.close()
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, err)
    }

    static let commands: [[String]] = [
        ["config", "--preset", "medium"],
        ["replay", "FIXTURE"],
        ["replay", "--format", "json", "FIXTURE"],
        ["evaluate", "FIXTURE"],
        ["--help"],
    ]

    @Test(arguments: commands)
    func aFullOutputIsAnErrorNotACrash(arguments: [String]) throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0, "/dev/full cannot be opened")
        defer { close(full) }
        let fixture = repositoryRoot + "/Fixtures/mixed_100hz.csv"
        let result = try run(arguments.map { $0 == "FIXTURE" ? fixture : $0 }, outputDescriptor: full)
        #expect(result.status == 73)
        #expect(result.err == "Error: standard output: No space left on device (errno 28): the output is incomplete\n")
    }

    /// The `shake` program itself (Sources/shake/main.swift) writes through the same checked
    /// writers: before, it built its own `FileHandle` writers, and `shake replay … > /dev/full`
    /// crashed with a backtrace (exit 132) while the in-process tests above passed.
    @Test func theProgramItselfSaysSoToo() throws {
        let executable = try #require(builtShakeExecutable(), "the shake executable is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["replay", repositoryRoot + "/Fixtures/mixed_100hz.csv"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 73)
        #expect(errText == "Error: standard output: No space left on device (errno 28): the output is incomplete\n")
    }

    /// A command that failed keeps its own status; the failed output is still said. It writes
    /// before it fails (the first recording replayed, the second missing): a command that wrote
    /// nothing has no failed output.
    @Test func aFailingCommandKeepsItsStatus() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let fixture = repositoryRoot + "/Fixtures/mixed_100hz.csv"
        let result = try run(["replay", fixture, "/nonexistent/x.csv"], outputDescriptor: full)
        #expect(result.status == 66)
        #expect(result.err == "Error: /nonexistent/x.csv: cannot open for reading: No such file or directory (errno 2)\n"
            + "Error: standard output: No space left on device (errno 28): the output is incomplete\n")
    }

    /// `shake replay … | head -1` with SIGPIPE ignored (a parent that ignores it passes that on):
    /// no message, and the status a shell shows for a process ended by SIGPIPE.
    @Test func aReaderThatGoesAwayEndsItQuietly() throws {
        // Ignored here too, so the test's own process is not ended by the write.
        signal(SIGPIPE, SIG_IGN)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text = labelledShakeCSV(shakes: 2).text
        let files = try (0..<3).map { try folder.write("r\($0).csv", text) }
        let result = try run(["replay"] + files, outputDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        #expect(result.status == 141)
        #expect(result.err == "")
        // A command that failed after its reader went away keeps its own status.
        let failing = try run(["replay"] + files + ["/nonexistent/x.csv"], outputDescriptor: pipe.fileHandleForWriting.fileDescriptor)
        #expect(failing.status == 66)
        #expect(failing.err == "Error: /nonexistent/x.csv: cannot open for reading: No such file or directory (errno 2)\n")
    }

    /// The writer's text arrives whole, in order, however long.
    @Test func longOutputArrivesWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("out.json")
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        try #require(file >= 0)
        let fixture = repositoryRoot + "/Fixtures/mixed_100hz.csv"
        let arguments = ["replay", "--explain", "--format", "json"] + Array(repeating: fixture, count: 1)
        let result = try run(arguments, outputDescriptor: file)
        close(file)
        #expect(result.status == 0, "\(result.err)")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == runShake(arguments).out)
    }
}

/// Progress bars on terminals that cannot show them well.
@Suite struct TerminalProgressTests {
    /// `TERM=dumb` (Emacs's shell, a serial console): the plain progress lines, not a bar drawn
    /// with `\r` and erase-line, which such a terminal shows as `^[[K` garbage.
    @Test func aDumbTerminalGetsPlainLines() {
        #expect(CommandIO.drawsOnTerminal(isTerminal: true, term: "xterm-256color"))
        #expect(CommandIO.drawsOnTerminal(isTerminal: true, term: nil))
        #expect(!CommandIO.drawsOnTerminal(isTerminal: true, term: "dumb"))
        #expect(!CommandIO.drawsOnTerminal(isTerminal: false, term: "xterm"))
    }

    /// A bar longer than the terminal is wide wrapped, and each redraw (`\r`, erase-line) then
    /// began a new row: a narrow console (40 columns) filled with bars. It is cut to the width,
    /// less the last column.
    @Test func theBarIsCutToTheTerminalsWidth() {
        let line = "tune [########################] 100%  cross-validation  1234 configs  ETA 0:41"
        #expect(ProgressDisplay.fitted(line, columns: 40) == String(line.prefix(39)))
        #expect(ProgressDisplay.fitted(line, columns: 200) == line)
        #expect(ProgressDisplay.fitted(line, columns: nil) == line)
        #expect(ProgressDisplay.fitted(line, columns: 1) == "")
    }

    /// What `tune`'s progress display writes to standard error.
    final class ShownProgress: Sendable {
        private let text = Mutex("")
        var written: String { text.withLock { $0 } }

        /// The display, writing here, as on a terminal (`terminal`) or to a log.
        func display(terminal: Bool) -> ProgressDisplay {
            ProgressDisplay(io: CommandIO(out: { _ in }, err: { line in self.text.withLock { $0 += line } },
                                          errIsTerminal: terminal), label: "tune")
        }
    }

    /// `done` of 1000 samples replayed, 3 configurations evaluated.
    static func progress(_ done: Int, stage: String = "grid") -> TuningProgress {
        TuningProgress(samplesDone: done, samplesEstimated: 1000, configurationsEvaluated: 3, stage: stage)
    }

    /// Off a terminal: one line at 0 % and then at each further tenth only (never twice for one
    /// tenth), saying the stage and the configurations evaluated; no estimate of the time left
    /// before 2 % is done (`ETA ?`), as so early it would be a guess.
    @Test func aLogGetsALineAtEachFurtherTenth() {
        let shown = ShownProgress()
        let display = shown.display(terminal: false)
        for done in [10, 50, 120, 150, 190, 450, 990] { display.update(Self.progress(done)) }
        let lines = shown.written.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.prefix { $0 != "(" } } == ["tune: 0% ", "tune: 10% ", "tune: 40% ", "tune: 90% "], "\(lines)")
        #expect(lines.first?.hasPrefix("tune: 0% (grid, 3 configurations, ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix(" elapsed, ETA ?)") == true, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { !$0.hasSuffix("ETA ?)") }, "\(lines)")
    }

    /// On a terminal: the bar's 24 cells and the percentage count whole cells and whole percent
    /// done (12.7 % is 3 cells, 12 %); the bar never moves back when the estimate of the work
    /// grows, and stops at 99 % with its last cell empty until the closing line; redrawn at most
    /// 10 times a second, so an update right after a redraw is not drawn.
    @Test func theBarCountsWholeCellsNeverMovesBackAndStopsShortOfTheEnd() {
        let shown = ShownProgress()
        let display = shown.display(terminal: true)
        // Whether the update right after the first came within 0.1 s of it (a test thread held
        // up longer, on a loaded machine, is drawn again: 40 %, 9 cells).
        var soonAfter = true
        for (index, done) in [127, 500, 300, 1000].enumerated() {
            if index > 0 { usleep(150_000) }
            let before = ContinuousClock.now
            display.update(Self.progress(done, stage: "refining"))
            if index == 0 {
                display.update(Self.progress(400, stage: "refining"))
                soonAfter = ContinuousClock.now - before < .milliseconds(100)
            }
        }
        let draws = shown.written.split(separator: "\r\u{1B}[K").map(String.init)
        func bar(_ cells: Int, _ percent: String) -> String {
            "tune [" + String(repeating: "#", count: cells) + String(repeating: "-", count: 24 - cells) + "] " + percent
                + "%  refining  3 configs  ETA "
        }
        let expected = [bar(3, " 12")] + (soonAfter ? [] : [bar(9, " 40")]) + [bar(12, " 50"), bar(12, " 50"), bar(23, " 99")]
        #expect(draws.count == expected.count, "\(draws)")
        for (draw, start) in zip(draws, expected) {
            #expect(draw.hasPrefix(start), "\(draw)")
        }
    }

    /// The closing line erases the bar drawn before it, and only then: with no bar drawn it is
    /// the plain line alone.
    @Test(arguments: [false, true]) func theClosingLineErasesADrawnBarOnly(drawn: Bool) {
        let shown = ShownProgress()
        let display = shown.display(terminal: true)
        if drawn { display.update(Self.progress(500)) }
        display.finish("searched 3 configurations in 0.1 s")
        let closing = "tune: searched 3 configurations in 0.1 s\n"
        #expect(shown.written.hasSuffix((drawn ? "\r\u{1B}[K" : "") + closing), "\(shown.written)")
        #expect(drawn || shown.written == closing, "\(shown.written)")
    }

    /// Times elapsed and left read `m:ss`, to the nearest second; `?` when unknown.
    @Test(arguments: [(0.0, "0:00"), (59.4, "0:59"), (59.6, "1:00"), (61.4, "1:01"), (600, "10:00")])
    func timesReadMinutesAndSecondsToTheNearestSecond(seconds: Double, reads: String) {
        #expect(ProgressDisplay.clock(seconds) == reads)
        #expect(ProgressDisplay.clock(nil) == "?")
    }
}
