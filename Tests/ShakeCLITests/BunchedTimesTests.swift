import Foundation
import ShakeDetection
import ShakeRecording
import Testing
@testable import ShakeCLI

/// A recording whose samples were stamped as a FIFO batch is read out (microseconds apart, then a
/// pause) is flagged by `replay`, `evaluate` and `tune`, as `SampleStreamCheck` flags such a
/// stream in a program; evenly stamped ones are not.
@Suite struct BunchedTimesTests {
    static let warning = "the samples come in bursts of 4 or more close together, then a pause "
        + "(a FIFO batch stamped as it is read out?)"

    /// Five synthesized shakes at 100 Hz (labelled), and the same rows with their times restamped
    /// in batches of 4: each batch at its last sample's time, its samples 10 µs apart.
    static func recordings(in folder: TemporaryFolder) throws -> (even: String, bunched: String) {
        let even = folder.file("even.csv")
        let run = runShake("synth", "shakes", "-o", even)
        try #require(run.status == 0, "\(run.err)")
        let lines = try String(contentsOfFile: even, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("time_s") })
        let rows = lines[(header + 1)...].filter { !$0.isEmpty }.map { $0.split(separator: ",", maxSplits: 1) }
        let times = rows.map { Double($0[0])! }
        var text = lines[...header].joined(separator: "\n") + "\n"
        for (index, row) in rows.enumerated() {
            let last = min(index / 4 * 4 + 3, rows.count - 1)
            text += String(format: "%.6f,", times[last] + 0.00001 * Double(index % 4)) + row[1] + "\n"
        }
        return (even, try folder.write("bunched.csv", text))
    }

    @Test func replaySaysSoOnTheFileLineAndInJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (even, bunched) = try Self.recordings(in: folder)
        let run = runShake("replay", even, bunched)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").filter { $0.hasPrefix(folder.path) }
        try #require(lines.count == 2, "\(run.out)")
        #expect(!lines[0].contains("burst"), "\(lines[0])")
        #expect(lines[1].hasSuffix("; samples in bursts of 4 or more close together (a FIFO batch stamped as it is "
                                   + "read out?): shakes may be missed or begin late"), "\(lines[1])")

        let json = runShake("replay", "--format", "json", even, bunched)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files[0]["samples_per_burst"] is NSNull, "\(files[0]["samples_per_burst"] ?? "missing")")
        #expect(files[1]["samples_per_burst"] as? Int == 4, "\(files[1]["samples_per_burst"] ?? "missing")")
    }

    @Test func evaluateAndTuneWarnOnStandardError() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (even, bunched) = try Self.recordings(in: folder)
        let evaluate = runShake("evaluate", "--format", "json", even, bunched)
        #expect(evaluate.status == 0, "\(evaluate.err)")
        let warnings = evaluate.err.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Warning: \(bunched): \(Self.warning)"), "\(evaluate.err)")
        _ = try JSONSerialization.jsonObject(with: Data(evaluate.out.utf8))  // stdout stays one JSON object

        let tune = runShake("tune", "--format", "json", even, bunched)
        #expect(tune.status == 0, "\(tune.err)")
        let tuneWarnings = tune.err.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
        #expect(tuneWarnings.count == 1 && tuneWarnings[0].hasPrefix("Warning: \(bunched): \(Self.warning)"), "\(tune.err)")
    }

    /// The library's result says it too, for a file and for samples in memory alike.
    @Test func replayResultGivesTheBurstSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (even, bunched) = try Self.recordings(in: folder)
        var detector = ShakeDetector()
        #expect(try RecordingReplay.run(path: even, detector: &detector).samplesPerBurst == nil)
        detector = ShakeDetector()
        #expect(try RecordingReplay.run(path: bunched, detector: &detector).samplesPerBurst == 4)
        let samples = try RecordingReader.readAll(path: bunched).samples
        detector = ShakeDetector()
        #expect(RecordingReplay.run(samples: samples, detector: &detector).samplesPerBurst == 4)
    }
}
