import Foundation
import ShakeCLI
import ShakeRecording
import Synchronization
import Testing

/// `shake tune -o FILE --report DIR/report.svg` when an output's folder is removed while the
/// search runs: the figures are printed all the same, the other output is written, and the
/// failure is said last, naming the file, with exit 73 (EX_CANTCREAT) as for any output that
/// cannot be written.
@Suite struct TuneOutputFailureTests {
    /// Runs tune, removing `folder` once it says it is reading the recordings (as another program
    /// might during the search: the checks before it found the folder there).
    static func run(_ arguments: [String], removing folder: String) -> CLIRun {
        let out = Mutex(""), err = Mutex("")
        let io = CommandIO(out: { text in out.withLock { $0 += text } }, err: { text in
            if text.hasPrefix("tune: reading") { try? FileManager.default.removeItem(atPath: folder) }
            err.withLock { $0 += text }
        })
        let status = ShakeTool.main(arguments: arguments, io: io)
        return CLIRun(status: status, out: out.withLock { $0 }, err: err.withLock { $0 })
    }

    @Test func reportFolderRemovedDuringTheSearch() throws {
        let recordings = try PlantedFolder()
        defer { recordings.remove() }
        let outputs = try TemporaryFolder()
        defer { outputs.cleanUp() }
        let reports = outputs.file("reports")
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: false)
        let output = outputs.file("tuned.json"), report = reports + "/report.svg"
        let run = Self.run(["tune", recordings.path, "-o", output, "--report", report], removing: reports)
        #expect(run.status == 73)
        // The figures, whole.
        #expect(run.out.hasPrefix("Tuned on 3 recordings"), "\(run.out)")
        #expect(run.out.contains("\nChosen configuration"))
        #expect(run.out.contains("\nTrade-off (in sample"))
        // The configuration, written and said to be.
        #expect((try? ConfigurationFile.load(path: output)) != nil)
        #expect(run.err.contains("tune: wrote \(output)"))
        // The report, said not written, last, with its path and why.
        #expect(run.err.hasSuffix("Error: \(report): cannot be written: the folder '\(reports)' does not exist: the "
            + "trade-off plot (--report) was not written (the figures went to standard output, and \(output) "
            + "was written)\n"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: report))
    }

    /// Both outputs' folder gone: both are said, the figures still printed (in JSON as in text).
    @Test func bothOutputsFolderRemovedDuringTheSearch() throws {
        let recordings = try PlantedFolder()
        defer { recordings.remove() }
        let outputs = try TemporaryFolder()
        defer { outputs.cleanUp() }
        let output = outputs.file("tuned.json"), report = outputs.file("report.svg")
        let run = Self.run(["tune", recordings.path, "-o", output, "--report", report, "--format", "json"],
                           removing: outputs.path)
        #expect(run.status == 73)
        let json = (try? JSONSerialization.jsonObject(with: Data(run.out.utf8))) as? [String: Any]
        #expect(json?["configuration"] != nil, "\(run.out)")
        let errors = run.err.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors == [
            "Error: \(output): cannot be written: the folder '\(outputs.path)' does not exist: the configuration (-o) "
                + "was not written (the figures went to standard output)",
            "Error: \(report): cannot be written: the folder '\(outputs.path)' does not exist: the trade-off plot "
                + "(--report) was not written (the figures went to standard output)",
        ], "\(run.err)")
    }
}
