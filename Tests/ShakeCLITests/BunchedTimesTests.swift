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
    /// in batches of `batch` (4): each batch at its last sample's time, its samples 10 µs apart (or,
    /// with `readOut` false, all at that time).
    static func recordings(
        in folder: TemporaryFolder, readOut: Bool = true, batch: Int = 4
    ) throws -> (even: String, bunched: String) {
        let even = folder.file("even.csv")
        let run = runShake("synth", "shakes", "-o", even)
        try #require(run.status == 0, "\(run.err)")
        let lines = try String(contentsOfFile: even, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(lines.firstIndex { $0.hasPrefix("time_s") })
        let rows = lines[(header + 1)...].filter { !$0.isEmpty }.map { $0.split(separator: ",", maxSplits: 1) }
        let times = rows.map { Double($0[0])! }
        var text = lines[...header].joined(separator: "\n") + "\n"
        for (index, row) in rows.enumerated() {
            let last = min(index / batch * batch + batch - 1, rows.count - 1)
            text += String(format: "%.6f,", times[last] + (readOut ? 0.00001 * Double(index % batch) : 0)) + row[1] + "\n"
        }
        return (even, try folder.write(readOut ? "bunched.csv" : "stamped-once.csv", text))
    }

    /// The samples of a recording: its rows after the header, as `wc -l` less the header's lines
    /// counts them. For `recordings`: the shakes scenario's script lasts 23.83 s (rests of 1.5,
    /// 4 × 2.5 and 2 s; shakes of 8 cycles at 4 Hz, 12 at 6, 7 at 3, 15 at 7.5 and 10 at 5 Hz),
    /// so 2384 samples at 100 Hz, in both files.
    static func sampleCount(_ path: String) throws -> Int {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        return lines.count - 1 - (lines.firstIndex { $0.hasPrefix("time_s") } ?? 0)
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

    /// A recording stamped once per batch of 16 is warned of by tune as batched, and not as slow:
    /// the rate between its new times (6.25 Hz) is the batches', not the sensor's 100 Hz.
    @Test func tuneWarnsOfBatchesNotOfASlowRate() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: false, batch: 16)
        let tune = runShake(["tune", "--format", "json", "--jobs", "1", batched] + TuneCommandTests.heldAllBut())
        #expect(tune.status == 0, "\(tune.err)")
        let warnings = tune.err.split(separator: "\n").filter { $0.hasPrefix("Warning:") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Warning: \(batched): 16 samples share each time"), "\(tune.err)")
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
        let (total, err) = try Self.total(["evaluate", "--format", "json"] + arguments)
        return (try #require(total["detected"] as? Int), try #require(total["shakes"] as? Int), err)
    }

    /// The `total` object (`in_sample` for tune) of a JSON run of `arguments`, and its stderr.
    static func total(_ arguments: [String], key: String = "total") throws -> (total: [String: Any], err: String) {
        let run = runShake(arguments)
        try #require(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        return (try #require(object[key] as? [String: Any]), run.err)
    }

    /// The scores two runs must share: the counts exactly, the times to the microsecond.
    static func expectSameScores(_ a: [String: Any], _ b: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        for key in ["shakes", "detected", "duplicates", "false_shakes"] {
            // Both there: a key missing from both would compare nil with nil.
            #expect(a[key] is Int && a[key] as? Int == b[key] as? Int,
                    "\(key): \(a[key] ?? "missing") against \(b[key] ?? "missing")", sourceLocation: sourceLocation)
        }
        for key in ["negative_hours", "latency_median_s", "latency_p95_s"] {
            let (x, y) = (a[key] as? Double ?? .nan, b[key] as? Double ?? .nan)
            #expect(abs(x - y) <= 1e-6, "\(key): \(x) against \(y)", sourceLocation: sourceLocation)
        }
    }

    /// Labels are scored on the clock of the events: `evaluate --spread-batches` on a batched
    /// recording scores as `evaluate` on the recording `convert --spread-batches` wrote from it
    /// (and as `tune --spread-batches` scores it). It had scored the labels at the stamped times
    /// and the detections at the spread ones: latencies, negative time and windows were off by
    /// up to a batch. `replay --explain` times the missed shakes the same way.
    @Test(arguments: [true, false])
    func spreadLabelsScoreAsTheConvertedRecording(readOut: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: readOut, batch: 10)
        let converted = folder.file("converted.csv")
        let convert = runShake("convert", "--spread-batches", batched, "-o", converted)
        try #require(convert.status == 0, "\(convert.err)")
        let spread = try Self.total(["evaluate", "--format", "json", "--spread-batches", batched]).total
        let written = try Self.total(["evaluate", "--format", "json", converted]).total
        #expect(spread["shakes"] as? Int == 5)
        Self.expectSameScores(spread, written)
    }

    /// `plot` warns of batched times as replay, evaluate and tune do (it drew them bunched, and
    /// detected fewer shakes, without a word); with --spread-batches it draws them spread.
    @Test(arguments: [true, false])
    func plotWarnsOfBatchesAsTheOthersDo(readOut: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: readOut)
        let plain = runShake("plot", batched, "-o", folder.file("plain.svg"))
        #expect(plain.status == 0, "\(plain.err)")
        let warnings = plain.err.split(separator: "\n").filter { $0.hasPrefix("Warning: ") }
        #expect(warnings.count == 1 && warnings[0].hasSuffix("(--spread-batches spreads them)"), "\(plain.err)")
        let spread = runShake("plot", "--spread-batches", batched, "-o", folder.file("spread.svg"))
        #expect(spread.status == 0 && !spread.err.contains("Warning: "), "\(spread.err)")
    }

    /// `tune --spread-batches` scores as `evaluate --spread-batches` does: the labels at the
    /// spread times too (they had stayed at the stamped ones: its latency and negative time
    /// differed from evaluate's for the configuration it wrote, 0.382 against 0.353 s in a
    /// review's probe).
    @Test func tuneScoresSpreadLabelsAsEvaluateDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: false, batch: 10)
        let configuration = folder.file("tuned.json")
        let inSample = try Self.total(["tune", "--format", "json", "--spread-batches", "--jobs", "1", "-o", configuration,
                                       batched], key: "in_sample").total
        let evaluated = try Self.total(["evaluate", "--format", "json", "--spread-batches", "--config", configuration,
                                        batched]).total
        Self.expectSameScores(inSample, evaluated)
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
        // Samples over distinct times: 4 (intervals over new times had said 4.01).
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Warning: \(stamped): 4 samples share each time (a FIFO "
                                                              + "batch stamped once?)")
                    && warnings[0].hasSuffix("(--spread-batches spreads them)"), "\(evaluate.err)")
        let tune = runShake("tune", "--format", "json", stamped)
        #expect(tune.status == 0, "\(tune.err)")
        #expect(tune.err.split(separator: "\n").filter { $0.hasPrefix("Warning:") } == warnings, "\(tune.err)")
        let spreadTune = runShake("tune", "--format", "json", "--spread-batches", stamped)
        #expect(spreadTune.status == 0, "\(spreadTune.err)")
        #expect(!spreadTune.err.contains("Warning:"), "\(spreadTune.err)")
        // Batches of 10 stamped 10 times a second: slow over the distinct times, which the batch
        // explains, so the batch is named alone.
        let tens = try folder.write("tens.csv", "time_s,x,y,z,shake\n" + (0...30).flatMap { tenth in
            Array(repeating: String(format: "%.1f,0.1,0.2,9.8,0\n", Double(tenth) / 10), count: 10)
        }.joined())
        let tensLine = runShake("replay", tens).out
        #expect(tensLine == "\(tens): 0 shakes in 310 samples (3.0 s); 279 repeated timestamps ignored (a FIFO batch "
            + "stamped once? --spread-batches spreads them)\n", "\(tensLine)")
        let tensWarnings = runShake("evaluate", tens).err
        #expect(tensWarnings.hasPrefix("Warning: \(tens): 10 samples share each time (a FIFO batch stamped once?)"), "\(tensWarnings)")
        #expect(!tensWarnings.contains("Hz"), "\(tensWarnings)")
    }

    /// --explain and --list explain the detector as it sees the spread times: in batches of 16
    /// stamped once, unspread, 2 of the 5 shakes are missed and listed; spread, replay --explain
    /// gives the events and count that replay gives, with what the rules measured for each of the
    /// 5, and evaluate --list the same totals as evaluate, with nothing missed to list.
    @Test func explainAndListSeeTheSpreadTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: false, batch: 16)
        let samples = try Self.sampleCount(batched)
        func json(_ arguments: String...) throws -> [String: Any] {
            let run = runShake(arguments)
            try #require(run.status == 0, "\(run.err)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        }
        func file(_ object: [String: Any]) throws -> [String: Any] {
            try #require((object["files"] as? [[String: Any]])?.first)
        }
        let unspread = try file(json("evaluate", "--format", "json", "--list", batched))
        let missed = try #require(unspread["missed"] as? [[String: Any]])
        #expect(missed.count == 2 && missed.allSatisfy { ($0["why"] as? String)?.isEmpty == false }, "\(missed)")

        let replayed = try file(json("replay", "--format", "json", "--spread-batches", batched))
        let explained = try file(json("replay", "--format", "json", "--spread-batches", "--explain", batched))
        let events = try #require(replayed["events"] as? [[String: Any]])
        #expect(events.count { $0["phase"] as? String == "began" } == 5, "\(events)")
        #expect(NSArray(array: try #require(explained["events"] as? [[String: Any]])).isEqual(to: events))
        let moved = try #require(replayed["spread_samples"] as? Int)
        #expect(moved > 2000 && explained["spread_samples"] as? Int == moved, "\(explained["spread_samples"] ?? "missing")")
        #expect((explained["began_why"] as? [[String: Any]])?.count == 5, "\(explained["began_why"] ?? "missing")")
        let text = runShake("replay", "--spread-batches", "--explain", batched)
        #expect(text.out.contains("5 shakes in \(samples) samples") && text.out.contains("\(moved) sample times spread"),
                "\(text.out)")

        let evaluated = try json("evaluate", "--format", "json", "--spread-batches", batched)
        let listed = try json("evaluate", "--format", "json", "--spread-batches", "--list", batched)
        #expect(NSDictionary(dictionary: try #require(listed["total"] as? [String: Any]))
                    .isEqual(to: try #require(evaluated["total"] as? [String: Any])))
        #expect((try #require(listed["total"] as? [String: Any]))["detected"] as? Int == 5)
        #expect((try file(listed)["missed"] as? [[String: Any]])?.isEmpty == true)
    }

    /// `convert --spread-batches` writes the batched recording with each sample at its own time:
    /// every sample and label kept, replayed without the flag it gives the 5 shakes that the
    /// recording as stamped (3) does not, and the file and the summary say it was spread.
    @Test func convertWritesTheSpreadTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: false, batch: 16)
        func began(_ path: String) throws -> Int {
            let run = runShake("replay", "--format", "json", path)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let events = try #require((object["files"] as? [[String: Any]])?.first?["events"] as? [[String: Any]])
            return events.count { $0["phase"] as? String == "began" }
        }
        let samples = try Self.sampleCount(batched)
        let spread = folder.file("spread.csv")
        let run = runShake("convert", "--spread-batches", batched, "-o", spread)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("\(samples) samples") && run.out.contains("5 labelled shakes")
                    && run.out.contains(" sample times spread over their batches"), "\(run.out)")
        let text = try String(contentsOfFile: spread, encoding: .utf8)
        #expect(text.contains("\n# times_spread: where the samples came in FIFO batches (shake convert --spread-batches)\n"))
        #expect(try began(batched) == 3)
        #expect(try began(spread) == 5)
        #expect(try RecordingReader.readAll(path: spread).samples.count == samples)

        let plain = folder.file("plain.csv")
        let kept = runShake("convert", batched, "-o", plain)
        #expect(kept.status == 0 && !kept.out.contains("spread"), "\(kept.out)")
        #expect(try began(plain) == 3)
    }

    /// `convert --spread-batches` on a recording not in batches writes its rows as they were,
    /// none moved (the summary says 0), and spread again the output still has one times_spread
    /// line: it says what the rows are, and replaces the one the input had.
    @Test func convertSpreadsAnEvenRecordingToItself() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let rows = (0..<5).map { String(format: "%.6f,0.10000,0.20000,9.80000\n", Double($0) / 100) }.joined()
        let input = try folder.write("even.csv", "time_s,x,y,z\n" + rows)
        let (once, twice) = (folder.file("once.csv"), folder.file("twice.csv"))
        let run = runShake("convert", "--spread-batches", input, "-o", once)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(once): 5 samples, 0.0 s, no labels, 0 sample times spread over their batches\n", "\(run.out)")
        #expect(try String(contentsOfFile: once, encoding: .utf8).hasSuffix("\ntime_s,x,y,z\n" + rows))
        #expect(runShake("convert", "--spread-batches", once, "-o", twice).status == 0)
        let spreadLines = try String(contentsOfFile: twice, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("# times_spread: ") }
        #expect(spreadLines.count == 1, "\(spreadLines)")
    }

    /// `convert --spread-batches` spreads the file from its first batch: the batches that came
    /// before the spreader had measured the stream (its first 32 intervals) are spread once it
    /// has, as a streaming reader cannot. Until stop 54 they were written as stamped, about the
    /// first 0.4 s, and replay and evaluate flagged the written file as batched, asking for
    /// --spread-batches again. Batches of 4 and 16, stamped once and read out.
    @Test(arguments: [(false, 4), (true, 4), (false, 16), (true, 16)])
    func convertSpreadsTheFirstBatchesToo(readOut: Bool, batch: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try Self.recordings(in: folder, readOut: readOut, batch: batch)
        let samples = try Self.sampleCount(batched)
        let spread = folder.file("spread.csv")
        let run = runShake("convert", "--spread-batches", batched, "-o", spread)
        try #require(run.status == 0, "\(run.err)")
        let replayed = runShake("replay", spread)
        #expect(replayed.status == 0 && replayed.err.isEmpty, "\(replayed.err)")
        #expect(replayed.out.hasPrefix("\(spread): 5 shakes in \(samples) samples (23.8 s)\n"), "\(replayed.out)")
        let evaluated = runShake("evaluate", spread)
        #expect(evaluated.status == 0 && !evaluated.err.contains("Warning"), "\(evaluated.err)")
        // 100 Hz: every interval is about a period (0.0098 s within a batch), none a burst's.
        let times = try RecordingReader.readAll(path: spread).samples.map(\.sample.time)
        let shortest = zip(times, times.dropFirst()).map { $1 - $0 }.min() ?? 0
        #expect(shortest > 0.005, "shortest interval \(shortest) s")
        // The summary counts the first batches' samples too: every sample but each batch's first.
        let moved = samples - (samples + batch - 1) / batch
        #expect(run.out.contains(", \(moved) sample times spread over their batches\n"), "\(run.out)")
    }
}
