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
    /// in batches of 4: each batch at its last sample's time, its samples 10 µs apart (or, with
    /// `readOut` false, all at that time).
    static func recordings(in folder: TemporaryFolder, readOut: Bool = true) throws -> (even: String, bunched: String) {
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
            text += String(format: "%.6f,", times[last] + (readOut ? 0.00001 * Double(index % 4) : 0)) + row[1] + "\n"
        }
        return (even, try folder.write(readOut ? "bunched.csv" : "stamped-once.csv", text))
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
                                   + "read out?): shakes may be missed or begin late (--spread-batches spreads them)"),
                "\(lines[1])")

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

    /// The shakes of the evenly stamped recording, as `evaluate --format json` counts them.
    static func detected(_ arguments: String...) throws -> (detected: Int, shakes: Int, err: String) {
        let run = runShake(["evaluate", "--format", "json"] + arguments)
        try #require(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let total = try #require(object["total"] as? [String: Any])
        return (try #require(total["detected"] as? Int), try #require(total["shakes"] as? Int), run.err)
    }

    /// `--spread-batches` gives each sample of a batch its own time: the batched recordings, read
    /// out or stamped once, give the shakes the evenly stamped one gives, and replay says how many
    /// times it moved; an evenly stamped recording is read as it is.
    @Test(arguments: [true, false])
    func spreadBatchesFindsTheShakesOfTheEvenRecording(readOut: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (even, batched) = try Self.recordings(in: folder, readOut: readOut)
        let reference = try Self.detected(even)
        try #require(reference.detected == reference.shakes && reference.shakes == 5)
        let spread = try Self.detected("--spread-batches", batched)
        #expect(spread.detected == reference.detected, "\(spread) against \(reference)")
        #expect(!spread.err.contains("Warning"), "\(spread.err)")
        #expect(try Self.detected("--spread-batches", even) == reference)

        let replay = runShake("replay", "--spread-batches", even, batched)
        #expect(replay.status == 0, "\(replay.err)")
        let lines = replay.out.split(separator: "\n").filter { $0.hasPrefix(folder.path) }
        try #require(lines.count == 2, "\(replay.out)")
        #expect(!lines[0].contains(";"), "\(lines[0])")
        #expect(lines[1].contains("5 shakes") && lines[1].contains(" sample times spread over their batches"),
                "\(lines[1])")
        #expect(!lines[1].contains("ignored") && !lines[1].contains("may be missed"), "\(lines[1])")
        let json = runShake("replay", "--format", "json", "--spread-batches", even, batched)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files[0]["spread_samples"] as? Int == 0)
        // All but the first batches' samples after their first: about three in four.
        let moved = try #require(files[1]["spread_samples"] as? Int)
        let samples = try #require(files[1]["samples"] as? Int)
        #expect(moved > samples * 3 / 4 - 64 && moved <= samples * 3 / 4, "\(moved) of \(samples)")
        // Without the flag the key is not written.
        let plain = runShake("replay", "--format", "json", even)
        #expect(!plain.out.contains("spread_samples"))
    }

    /// A recording whose batches share one time: replay names the batch (not a slow rate) and
    /// points at --spread-batches; evaluate and tune warn so on stderr.
    @Test func samplesSharingTheirTimesAreNamedAsABatch() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, stamped) = try Self.recordings(in: folder, readOut: false)
        let replay = runShake("replay", stamped)
        let line = try #require(replay.out.split(separator: "\n").first { $0.hasPrefix(folder.path) })
        #expect(line.contains(" repeated timestamps ignored (a FIFO batch stamped once? --spread-batches spreads them)"),
                "\(line)")
        #expect(!line.contains("Hz"), "\(line)")
        let evaluate = try Self.detected(stamped)
        let warnings = evaluate.err.split(separator: "\n")
        // 4.01: the last batch is cut short.
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Warning: \(stamped): 4.01 samples share each time (a FIFO "
                                                              + "batch stamped once?)")
                    && warnings[0].hasSuffix("(--spread-batches spreads them)"), "\(evaluate.err)")
        let tune = runShake("tune", "--format", "json", stamped)
        #expect(tune.status == 0, "\(tune.err)")
        #expect(tune.err.split(separator: "\n").filter { $0.hasPrefix("Warning:") } == warnings, "\(tune.err)")
        let spreadTune = runShake("tune", "--format", "json", "--spread-batches", stamped)
        #expect(spreadTune.status == 0, "\(spreadTune.err)")
        #expect(!spreadTune.err.contains("Warning:"), "\(spreadTune.err)")
    }

    /// --explain and --list explain the detector as it reads the file: not with --spread-batches.
    @Test func spreadBatchesIsRefusedWithExplainAndList() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (even, _) = try Self.recordings(in: folder)
        let replay = runShake("replay", "--explain", "--spread-batches", even)
        #expect(replay.status == 64 && replay.err.contains("'--explain'") && replay.err.contains("'--spread-batches'"),
                "\(replay.err)")
        let evaluate = runShake("evaluate", "--list", "--spread-batches", even)
        #expect(evaluate.status == 64 && evaluate.err.contains("'--list'") && evaluate.err.contains("'--spread-batches'"),
                "\(evaluate.err)")
    }
}
