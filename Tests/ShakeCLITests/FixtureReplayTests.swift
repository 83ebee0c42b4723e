import Foundation
import ShakeCLI
import ShakeDetection
import ShakeRecording
import Testing

/// The committed recordings under `Fixtures/` (see `Fixtures/README.md`).
enum CommittedFixture {
    static let folder = repositoryRoot + "/Fixtures"

    /// Fixtures holding labelled shakes.
    static let withShakes = [
        "shakes_100hz.csv", "long_shake_100hz.csv", "clipped_shake_2g_50hz.csv", "demo_session_50hz.csv",
        "mixed_100hz.csv", "same_motion_25hz.csv", "same_motion_50hz.csv", "same_motion_100hz.csv",
        "same_motion_400hz.csv", "same_motion_1600hz.csv",
    ]
    /// Fixtures of everyday motion that must never fire a shake.
    static let withoutShakes = [
        "walking_hand_50hz.csv", "walking_pocket_100hz.csv", "bag_100hz.csv", "pickup_putdown_100hz.csv",
        "table_tap_400hz.csv",
    ]
    /// Running: labelled without shakes, but rhythmic enough that a detector may begin one.
    static let running = "running_100hz.csv"
    static let all = withShakes + withoutShakes + [running]
    static let sameMotionRates = [25, 50, 100, 400, 1600]

    static func path(_ name: String) -> String { folder + "/" + name }

    /// Runs of `shake=1` samples: (first, last) sample times, s.
    static func labelledRuns(_ name: String) throws -> [(start: Double, end: Double)] {
        var reader = try RecordingReader(path: path(name))
        var runs: [(start: Double, end: Double)] = []
        var inRun = false
        while let row = try reader.next() {
            if row.isShake == true {
                if inRun { runs[runs.count - 1].end = row.sample.time } else { runs.append((row.sample.time, row.sample.time)) }
                inRun = true
            } else {
                inRun = false
            }
        }
        return runs
    }

    /// Every event `ShakeDetector(configuration: .medium)` emits replaying the fixture.
    static func events(_ name: String) throws -> [ShakeEvent] {
        var detector = ShakeDetector(configuration: .medium)
        return try RecordingReplay.run(path: path(name), detector: &detector).events
    }
}

/// Replays the committed fixtures through the default detector.
///
/// Tolerance: a labelled shake counts as found when exactly one `began` falls inside its run of
/// `shake=1` samples (from its first to its last labelled sample; no earlier than the shake
/// starts, at most 1.5 s after) and that shake ends with `ended`, not `cancelled`. Nothing may
/// begin outside the runs.
@Suite struct FixtureReplayTests {
    @Test func fixturesFolderHoldsExactlyTheListedRecordings() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: CommittedFixture.folder).filter { $0.hasSuffix(".csv") }
        #expect(Set(files) == Set(CommittedFixture.all))
    }

    @Test(arguments: CommittedFixture.withShakes)
    func everyLabeledShakeFiresOnceWhileItLasts(fixture: String) throws {
        let runs = try CommittedFixture.labelledRuns(fixture)
        let events = try CommittedFixture.events(fixture)
        let began = events.filter { $0.phase == .began }
        #expect(!runs.isEmpty)
        #expect(began.count == runs.count, "began at \(began.map(\.time)) for runs \(runs)")
        for run in runs {
            let inside = began.filter { $0.time >= run.start && $0.time <= run.end }
            #expect(inside.count == 1, "run \(run.start)–\(run.end) s: began at \(inside.map(\.time))")
            if let first = inside.first { #expect(first.time - run.start <= 1.5) }
        }
        #expect(events.filter { $0.phase == .ended }.count == runs.count)
        #expect(!events.contains { $0.phase == .cancelled }, "\(events.filter { $0.phase == .cancelled })")
    }

    @Test(arguments: CommittedFixture.withoutShakes)
    func everydayMotionNeverFires(fixture: String) throws {
        #expect(try CommittedFixture.labelledRuns(fixture).isEmpty)
        let events = try CommittedFixture.events(fixture)
        #expect(events.isEmpty, "\(events.map { "\($0.phase) at \($0.time) s" })")
    }

    @Test func runningNeverEndsInAShake() throws {
        #expect(try CommittedFixture.labelledRuns(CommittedFixture.running).isEmpty)
        let events = try CommittedFixture.events(CommittedFixture.running)
        // A shake may begin (running is rhythmic), but it must not end as one: nothing is undone.
        #expect(!events.contains { $0.phase == .ended }, "\(events.map { "\($0.phase) at \($0.time) s" })")
    }

    /// A stream joined on the move (an app opened mid-run, a reader started with the device in a
    /// pocket, a connection back after a gap) fires nothing: the walking and running fixtures
    /// read from every 0.25 s of their motion on, 8 s each (the run from 2.5 s, once its still
    /// start is over). Until stop 45 nothing was known of a stream's first 4 s, and the run
    /// began a shake in most of these (it still may on the whole file, where it follows a pause:
    /// `runningNeverEndsInAShake`).
    @Test func aStreamJoinedOnTheMoveFiresNothing() throws {
        var wrong: [String] = []
        var tried = 0
        for fixture in CommittedFixture.withoutShakes + [CommittedFixture.running] {
            var reader = try RecordingReader(path: CommittedFixture.path(fixture))
            var samples: [Sample] = []
            while let row = try reader.next() { samples.append(row.sample) }
            let first = try #require(samples.first?.time) + (fixture == CommittedFixture.running ? 2.5 : 0)
            let last = try #require(samples.last?.time)
            var from = first
            while from + 8 <= last {
                var detector = ShakeDetector(configuration: .medium)
                let began = samples.filter { $0.time >= from && $0.time < from + 8 }
                    .compactMap { detector.process($0) }.filter { $0.phase == .began }
                tried += 1
                if !began.isEmpty { wrong.append("\(fixture) from \(from) s: began at \(began.map(\.time))") }
                from += 0.25
            }
        }
        #expect(tried > 300)
        #expect(wrong.isEmpty, "\(wrong.count) of \(tried): \(wrong.prefix(5))")
    }

    @Test func longShakeIsOneEvent() throws {
        let events = try CommittedFixture.events("long_shake_100hz.csv")
        #expect(events.map(\.phase) == [.began, .ended])
    }

    /// The long shake with its samples lost for 0.2 to 0.49 s (under the 0.5 s gap limit)
    /// anywhere in its first 1.4 s, where its chain is forming, and for 0.3 to 0.49 s anywhere
    /// after: always one `began` and one `ended`. Before, one long interval early in the chain
    /// (among 0.1 s ones) refused the whole 6 s shake as an unsteady rhythm (the rule now compares
    /// the chain's last 8 intervals), and a dropout after it began ended it and began it again
    /// (410 of the README's 2,511 such runs, a sweep of its own; the quiet that ends a shake must now be seen).
    @Test func aDropoutAnywhereInTheLongShakeFiresItOnce() throws {
        var reader = try RecordingReader(path: CommittedFixture.path("long_shake_100hz.csv"))
        var samples: [Sample] = []
        while let row = try reader.next() { samples.append(row.sample) }
        let runs = try CommittedFixture.labelledRuns("long_shake_100hz.csv")
        let start = try #require(runs.first?.start)
        var wrong: [String] = []
        var tried = 0
        for k in 0..<560 {
            let from = start + Double(k) * 0.01
            for dropout in k < 140 ? [0.2, 0.3, 0.4, 0.49] : [0.3, 0.45, 0.49] {
                let kept = samples.filter { $0.time <= from || $0.time >= from + dropout }
                let longest = zip(kept, kept.dropFirst()).map { $1.time - $0.time }.max() ?? 0
                guard longest < ShakeConfiguration.medium.maximumGapSeconds else { continue }
                var detector = ShakeDetector(configuration: .medium)
                let phases = kept.compactMap { detector.process($0) }.map(\.phase)
                tried += 1
                if phases != [.began, .ended] { wrong.append("from \(from) s for \(dropout) s: \(phases)") }
            }
        }
        #expect(tried > 1400)
        #expect(wrong.isEmpty, "\(wrong.count) of \(tried): \(wrong.prefix(5))")
    }

    /// The long shake with two dropouts in a row, each 0.12 to 0.19 s (under the 0.2 s of an
    /// interval that counts as seen quiet), one or two samples kept between them, anywhere after
    /// its chain formed: one `began` and one `ended`. When each dropout counted as seen in full,
    /// two of them with a sample at a zero crossing between added up to the 0.4 s of quiet that
    /// ends a shake, and it began again: 12 of 536 (found by a search for shakes fired twice).
    /// A row of dropouts now counts 0.2 s in all; FIFO batches are not such rows
    /// (`BunchedTimesTests`, `DropoutRowTests.batchedStreamsStillEndTheirShakes`).
    @Test func twoDropoutsInARowDoNotEndTheLongShake() throws {
        var reader = try RecordingReader(path: CommittedFixture.path("long_shake_100hz.csv"))
        var samples: [Sample] = []
        while let row = try reader.next() { samples.append(row.sample) }
        let start = try #require(CommittedFixture.labelledRuns("long_shake_100hz.csv").first?.start)
        var wrong: [String] = []
        var tried = 0
        for k in stride(from: 140, to: 540, by: 3) {
            let from = start + Double(k) * 0.01
            for (dropout, kept) in [(0.12, 1), (0.15, 1), (0.19, 1), (0.19, 2)] {
                // Lost: (from, from + dropout), then `kept` samples, then the next `dropout` s.
                guard let resume = samples.firstIndex(where: { $0.time >= from + dropout }) else { continue }
                let secondFrom = samples[resume + kept - 1].time
                let survivors = samples.filter {
                    $0.time <= from || ($0.time >= from + dropout && $0.time <= secondFrom) || $0.time >= secondFrom + dropout
                }
                var detector = ShakeDetector(configuration: .medium)
                let phases = survivors.compactMap { detector.process($0) }.map(\.phase)
                tried += 1
                if phases != [.began, .ended] { wrong.append("from \(from) s, \(dropout) s twice, \(kept) kept: \(phases)") }
            }
        }
        #expect(tried > 500)
        #expect(wrong.isEmpty, "\(wrong.count) of \(tried): \(wrong.prefix(5))")
    }

    @Test(arguments: CommittedFixture.sameMotionRates.filter { $0 != 100 })
    func sameMotionGivesTheSameShakesAtEveryRate(rateHertz: Int) throws {
        let reference = try CommittedFixture.events("same_motion_100hz.csv").filter { $0.phase == .began }
        let began = try CommittedFixture.events("same_motion_\(rateHertz)hz.csv").filter { $0.phase == .began }
        #expect(reference.count == 3)
        #expect(began.count == reference.count)
        // The third shake opens with a narrow ramp-in half-wave just over the onset (10.5 m/s²
        // after smoothing); every rate must see it alike, so that the shake begins with it.
        for (event, want) in zip(began, reference) {
            #expect(
                abs(event.time - want.time) <= 0.040,
                "\(rateHertz) Hz began at \(event.time) s, 100 Hz at \(want.time) s")
        }
    }

    @Test(arguments: CommittedFixture.all)
    func fixtureIsExactlyWhatItsSourceCommandWrites(fixture: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let committed = try String(contentsOfFile: CommittedFixture.path(fixture), encoding: .utf8)
        let sourcePrefix = "# source: "
        let source = try #require(committed.split(separator: "\n").first { $0.hasPrefix(sourcePrefix) })
        // Generated from the repository root: '... -o Fixtures/NAME.csv'; the commands hold no quotes.
        var words = source.dropFirst(sourcePrefix.count).split(separator: " ").map(String.init)
        #expect(Array(words.prefix(2)) == ["shake", "synth"])
        #expect(words.suffix(2) == ["-o", "Fixtures/" + fixture])
        let output = folder.file(fixture)
        words[words.count - 1] = output
        let run = runShake(Array(words.dropFirst()))
        #expect(run.status == 0, "\(run.err)")
        let regenerated = try String(contentsOfFile: output, encoding: .utf8)
        #expect(regenerated.replacingOccurrences(of: output, with: "Fixtures/" + fixture) == committed)
    }

    /// A shake that began and was cancelled (the run's strides, too long for a shake) is counted
    /// with what became of it: no undo came of it. Its row says why.
    @Test func aCancelledShakeIsCountedAsCancelled() throws {
        let path = CommittedFixture.path("running_100hz.csv")
        let run = runShake(["replay", path])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasPrefix("\(path): 1 shake (1 cancelled) in 2400 samples (24.0 s)\n"), "\(run.out)")
        #expect(run.out.contains("  cancelled "), "\(run.out)")
        #expect(run.out.contains("     y  (tooLong)\n"), "\(run.out)")
    }

    /// Times since 1970 (or since a device started) are wider than the table's columns: every
    /// column stays its own field, with the same numbers as at times from 0.
    @Test func largeTimesKeepTheTableColumnsApart() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let original = try String(contentsOfFile: CommittedFixture.path("shakes_100hz.csv"), encoding: .utf8)
        var shifted = ""
        for line in original.split(separator: "\n", omittingEmptySubsequences: false) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if let time = Double(fields.first ?? ""), fields.count >= 4 {
                shifted += String(format: "%.6f", time + 1_700_000_000) + "," + fields.dropFirst().joined(separator: ",") + "\n"
            } else if !line.isEmpty {
                shifted += line + "\n"
            }
        }
        let path = try folder.write("epoch.csv", shifted)
        let (plain, epoch) = (runShake("replay", CommittedFixture.path("shakes_100hz.csv")), runShake("replay", path))
        #expect(plain.status == 0 && epoch.status == 0, "\(epoch.err)")
        func rows(_ text: String) -> [[Substring]] {
            text.split(separator: "\n").map { $0.split(separator: " ") }.filter { ["began", "ended"].contains($0.dropFirst().first ?? "") }
        }
        let (plainRows, epochRows) = (rows(plain.out), rows(epoch.out))
        // A began and an ended row for each of the fixture's labelled shakes (5: its '# activity:').
        let shakes = try CommittedFixture.labelledRuns("shakes_100hz.csv").count
        #expect(shakes == 5 && plainRows.count == 2 * shakes && epochRows.count == plainRows.count, "\(epoch.out)")
        for (a, b) in zip(plainRows, epochRows) {
            #expect(b.count == 7, "\(b.joined(separator: " "))")
            guard a.count == 7, b.count == 7 else { continue }
            for column in [0, 2, 3] {
                let difference = (Double(b[column]) ?? 0) - (Double(a[column]) ?? 0) - 1_700_000_000
                #expect(abs(difference) < 0.0011, "\(a.joined(separator: " ")) / \(b.joined(separator: " "))")
            }
            #expect(a[4...] == b[4...])
        }
    }

    /// A folder stands for its *.csv recordings, sorted, as in evaluate and tune: the same output as
    /// naming them (a folder without recordings: `BadInputRecordingTests.directoryExits66`).
    @Test func replayingAFolderReplaysItsRecordings() throws {
        let folder = CommittedFixture.path("others")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(files.count >= 2)
        let named = runShake(["replay"] + files.map { folder + "/" + $0 })
        let whole = runShake(["replay", folder])
        #expect(whole.status == 0 && named.status == 0, "\(whole.err)")
        #expect(whole.out == named.out)
    }

    /// `-` reads standard input: a recording piped in gives what the file gives, for replay,
    /// evaluate and demo (run as a process, whose standard input the test can set), naming it
    /// `<stdin>` (the demo's heading said `-` until stop 50).
    @Test(arguments: [(["replay", "--format", "json"], "\"began\""), (["evaluate", "--format", "json"], "\"detected\""),
                      (["replay"], "began"), (["demo"], "replaying <stdin>")])
    func standardInputReadsLikeTheFile(command: [String], shows: String) throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let fixture = CommittedFixture.path("mixed_100hz.csv")
        let fromFile = try runProcess(shake, command + [fixture])
        let fromInput = try runProcess(shake, command + ["-"], input: fixture)
        #expect(fromFile.status == 0 && fromInput.status == 0, "\(fromInput.err)")
        #expect(fromInput.out.contains(shows), "\(fromInput.out)")
        // The same output, but for the file's name.
        let named = fromFile.out.replacingOccurrences(of: fixture.replacingOccurrences(of: "/", with: "\\/"), with: "<stdin>")
            .replacingOccurrences(of: fixture, with: "<stdin>")
        #expect(fromInput.out == named)
    }
}
