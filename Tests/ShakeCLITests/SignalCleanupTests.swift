import Foundation
import ShakeRecording
import Testing

/// `convert` and `synth` stopped by a signal delete their half-written `<output>.partial` and
/// exit with 128 plus the signal's number: before, the signal left the partial file behind, and
/// the next run refused to start ("already exists") even with --force.
@Suite struct SignalCleanupTests {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Starts `arguments` in a `shake` process, waits for `<output>.partial` to appear, sends
    /// `signal`; returns the exit status, stderr, and what the folder holds afterwards.
    /// With `stdinText` (under 64 KiB), standard input is a pipe that holds it and stays open, so
    /// the command is blocked reading it when the signal comes.
    func stop(
        _ arguments: [String], output: String, folder: TemporaryFolder, signal: Int32, stdinText: String? = nil
    ) throws -> (status: Int32, err: String, left: [String]) {
        let executable = try #require(builtShakeExecutable(), "the shake executable is not built")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let input = Pipe()
        if stdinText != nil { process.standardInput = input }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Less than a pipe's buffer (64 KiB), so this cannot block.
        if let stdinText { input.fileHandleForWriting.write(Data(stdinText.utf8)) }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: output + ".partial") && process.isRunning && Date() < deadline {
            usleep(10_000)
        }
        #expect(process.isRunning, "the command ended before it was stopped")
        // The writing has begun; let it go on a little before the signal.
        usleep(200_000)
        kill(process.processIdentifier, signal)
        // A process that ignores the signal (a background job's SIGINT is ignored unless the
        // command handles it) would run on: give it 20 s, then kill it and fail.
        let stopDeadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < stopDeadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("the command did not stop within 20 s of the signal")
            kill(process.processIdentifier, SIGKILL)
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (process.terminationStatus, String(decoding: errData, as: UTF8.self), listing(folder.path))
    }

    static let names: [Int32: String] = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]

    /// `tune -o … --report …` signalled the moment its first output's temporary file appears
    /// (`<output>.tmp-<pid>-<n>`, written, then linked into place): the signal waits for the
    /// files to be in place, then ends the tool as it would have. It had left the temporary
    /// file behind (62 of 150 runs in a review's probe), or the configuration without the plot.
    /// Runs until the signal has been sent inside that window 3 times (at most 40 runs; python3
    /// starts the tool, as the scripts' tests use it).
    @Test(arguments: [SIGINT, SIGTERM])
    func tuneSignalledWhileWritingLeavesWholeFilesOnly(signal: Int32) throws {
        let executable = try #require(builtShakeExecutable(), "the shake executable is not built")
        let recording = repositoryRoot + "/Fixtures/shakes_100hz.csv"
        var caught = 0
        for _ in 0..<40 where caught < 3 {
            let folder = try TemporaryFolder()
            defer { folder.cleanUp() }
            let (output, report) = (folder.file("tuned.json"), folder.file("tuned.svg"))
            // Started as a shell starts a command: the signals unblocked and at their default
            // (the test run's threads may block them, and a child inherits its spawner's mask).
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]; "
                + "os.execv(sys.argv[1], sys.argv[1:])", executable,
                "tune", "--jobs", "1", "-o", output, "--report", report, recording]
                + TuneCommandTests.heldAllBut("onsetAcceleration")
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first temporary name (python3 execs the tool, so the pid is the process's):
            // one access(2) every 50 µs, light beside the timing tests running in parallel.
            let temporary = output + ".tmp-\(process.processIdentifier)-0"
            var signalled = false
            while process.isRunning {
                if access(temporary, F_OK) == 0 {
                    kill(process.processIdentifier, signal)
                    signalled = true
                    break
                }
                usleep(50)
            }
            process.waitUntilExit()
            guard signalled else { continue }
            caught += 1
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                    "ended by \(process.terminationReason) \(process.terminationStatus)")
            let left = listing(folder.path)
            #expect(left == ["tuned.json", "tuned.svg"], "\(left)")
            #expect((try? ConfigurationFile.load(path: output)) != nil)
        }
        #expect(caught == 3, "the signal was sent while a file was being written in \(caught) runs of 40")
    }

    @Test(arguments: signals)
    func synthStoppedBySignalLeavesNothing(signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.file("day.csv")
        // A day at 1 kHz: 86.4 million rows, far more than it writes before the signal.
        let stopped = try stop(["synth", "walking-hand", "--duration", "86400", "--rate", "1000", "-o", output],
                               output: output, folder: folder, signal: signal)
        #expect(stopped.status == 128 + signal)
        #expect(stopped.err == "Error: stopped by \(Self.names[signal]!): \(output) was not written\n")
        #expect(stopped.left == [])
    }

    /// Reading standard input that has nothing more to give yet, convert still stops at once.
    @Test(arguments: signals)
    func convertBlockedOnStdinStoppedBySignalLeavesNothing(signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.file("converted.csv")
        let rows = "time_s,x,y,z\n" + (0..<2_000).map { "\(Double($0) / 100),0,0,9.8\n" }.joined()
        let stopped = try stop(["convert", "-", "-o", output], output: output, folder: folder, signal: signal, stdinText: rows)
        #expect(stopped.status == 128 + signal)
        #expect(stopped.err == "Error: stopped by \(Self.names[signal]!): \(output) was not written\n")
        #expect(stopped.left == [])
        // And the next run is not blocked by anything left behind.
        let input = try folder.write("in.csv", rows)
        let again = runShake("convert", input, "-o", output)
        #expect(again.status == 0, "\(again.err)")
    }
}
