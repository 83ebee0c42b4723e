import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// `Scripts/resample`: recordings as a sensor at another rate, or with another sensor's noise and
/// timing faults, would deliver them (the variants behind the README's "works the same at every
/// rate" figures on real recordings).
@Suite struct ResampleScriptTests {
    static let script = repositoryRoot + "/Scripts/resample"

    /// 4 s at 100 Hz: x rises 0.5 m/s² per second (a straight line, so a period's average is the
    /// line's value at the period's middle), gravity on z, labelled a shake from 1 to 2 s.
    static func ramp() -> String {
        var text = "# rate_hz: 100\ntime_s,x,y,z,shake\n"
        for i in 0...400 {
            let t = Double(i) / 100
            text += String(format: "%.2f,%.4f,0.1,9.81,%d\n", t, 0.5 * t, t >= 1 && t < 2 ? 1 : 0)
        }
        return text
    }

    /// The data rows of a recording the script wrote: time, x, y, z[, label], as written.
    static func rows(_ path: String) throws -> [[Double]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("time_s") }
            .map { $0.split(separator: ",").map { Double($0)! } }
    }

    /// Runs the script on a folder holding `ramp()` as ramp.csv; returns the folder, the run and
    /// the path of the one recording written (named `ramp_SUFFIX.csv`).
    static func resampledRamp(_ options: [String], suffix: String) throws -> (TemporaryFolder, CLIRun, String) {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        _ = try folder.write("source/ramp.csv", ramp())
        let run = try runProcess(script, [folder.file("source"), folder.file("out")] + options)
        return (folder, run, folder.file("out/ramp_\(suffix).csv"))
    }

    @Test func readAtAFasterRateKeepsTheMotionTheLabelsAndTheComments() throws {
        let (folder, run, path) = try Self.resampledRamp(["--rate", "400"], suffix: "r400")
        defer { folder.cleanUp() }
        #expect(run.status == 0, "\(run.err)")
        let rows = try Self.rows(path)
        #expect(rows.count == 1601)
        for (k, row) in rows.enumerated().dropFirst() {
            let t = Double(k) / 400
            #expect(abs(row[0] - t) < 1e-6, "row \(k): time \(row[0])")
            // The average of the line over (t − 2.5 ms, t]: its value 1.25 ms before t.
            #expect(abs(row[1] - 0.5 * (t - 0.00125)) < 2e-6, "row \(k): x \(row[1])")
            #expect(row[2] == 0.1 && row[3] == 9.81)
        }
        let labelled = rows.filter { $0[4] == 1 }.map { $0[0] }
        // Labelled where a labelled source sample (1.00 to 1.99 s) lies in the row's period.
        #expect(labelled.first.map { $0 > 0.99 && $0 <= 1.0 } == true, "\(labelled.first ?? -1)")
        #expect(labelled.last.map { $0 >= 1.99 && $0 < 1.9925 } == true, "\(labelled.last ?? -1)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# rate_hz: 400\n# resampled: read at 400 Hz"), "\(text.prefix(120))")
    }

    @Test func noiseAndQuantisationAreASensorsAndTheSeedRepeatsThem() throws {
        let options = ["--rate", "200", "--noise", "0.05", "--step", "0.0192", "--jitter", "0.1", "--drop", "0.02",
                       "--drop-run", "3"]
        let suffix = "r200_n0.05_q0.0192_drop0.02x3_j0.1"
        let (first, run1, path1) = try Self.resampledRamp(options, suffix: suffix)
        let (second, run2, path2) = try Self.resampledRamp(options, suffix: suffix)
        let (other, run3, path3) = try Self.resampledRamp(options + ["--seed", "2"], suffix: suffix)
        defer { first.cleanUp(); second.cleanUp(); other.cleanUp() }
        #expect(run1.status == 0 && run2.status == 0 && run3.status == 0, "\(run1.err)\(run3.err)")
        let a = try String(contentsOfFile: path1, encoding: .utf8)
        #expect(try String(contentsOfFile: path2, encoding: .utf8) == a, "the same seed, the same file")
        #expect(try String(contentsOfFile: path3, encoding: .utf8) != a, "another seed, other noise")

        let rows = try Self.rows(path1)
        let deviations = rows.map { $0[2] - 0.1 }
        let rms = (deviations.map { $0 * $0 }.reduce(0, +) / Double(rows.count)).squareRoot()
        #expect(rms > 0.04 && rms < 0.06, "y's noise: \(rms) m/s² rms")
        let steps = rows.flatMap { $0[1...3] }.map { $0 / 0.0192 }
        #expect(steps.allSatisfy { abs($0 - $0.rounded()) < 1e-3 }, "every value a multiple of the step")
    }

    @Test func timingFaultsAreTheOnesAsked() throws {
        // Jitter: each time within 20 % of an interval of its own, and still increasing.
        let (jitterFolder, jitterRun, jittered) = try Self.resampledRamp(["--jitter", "0.2"], suffix: "native_j0.2")
        defer { jitterFolder.cleanUp() }
        #expect(jitterRun.status == 0, "\(jitterRun.err)")
        let jitterTimes = try Self.rows(jittered).map { $0[0] }
        #expect(jitterTimes.count == 401)
        #expect(jitterTimes.enumerated().allSatisfy { abs($1 - Double($0) / 100) <= 0.002 + 1e-9 })
        #expect(jitterTimes.enumerated().contains { abs($1 - Double($0) / 100) > 0.001 }, "jittered")
        #expect(zip(jitterTimes, jitterTimes.dropFirst()).allSatisfy { $0 < $1 })

        // Drops: the rest are samples of the source, with no run of more than 3 missing.
        let (dropFolder, dropRun, dropped) = try Self.resampledRamp(["--drop", "0.05", "--drop-run", "3"],
                                                                    suffix: "native_drop0.05x3")
        defer { dropFolder.cleanUp() }
        #expect(dropRun.status == 0, "\(dropRun.err)")
        let kept = try Self.rows(dropped).map { Int(($0[0] * 100).rounded()) }
        #expect(kept.count < 395 && kept.count > 340, "\(kept.count) of 401 kept")
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $1 > $0 && $1 - $0 <= 4 })

        // FIFO batches of 4: one time for a whole batch, or the arrival plus 10 µs per sample.
        for (stamps, spacing) in [("same", 0.0), ("burst", 1e-5)] {
            let (folder, run, path) = try Self.resampledRamp(["--fifo", "4", "--fifo-stamps", stamps],
                                                             suffix: "native_fifo4\(stamps)")
            defer { folder.cleanUp() }
            #expect(run.status == 0, "\(run.err)")
            let times = try Self.rows(path).map { $0[0] }
            for start in stride(from: 0, to: 400, by: 4) {
                let arrival = Double(start + 3) / 100
                #expect((0..<4).allSatisfy { abs(times[start + $0] - (arrival + Double($0) * spacing)) < 1e-7 },
                        "\(stamps): batch at \(arrival) s: \(times[start..<start + 4])")
            }
        }

        // Drift: every time 3 % later from the first; a rate switch halfway.
        let (driftFolder, driftRun, drifted) = try Self.resampledRamp(["--drift", "0.03"], suffix: "native_drift0.03")
        defer { driftFolder.cleanUp() }
        #expect(driftRun.status == 0, "\(driftRun.err)")
        #expect(try Self.rows(drifted).enumerated().allSatisfy { abs($1[0] - 1.03 * Double($0) / 100) < 1e-6 })
        let (switchFolder, switchRun, switched) = try Self.resampledRamp(["--rate", "100", "--switch", "400"],
                                                                         suffix: "r100_sw400")
        defer { switchFolder.cleanUp() }
        #expect(switchRun.status == 0, "\(switchRun.err)")
        let times = try Self.rows(switched).map { $0[0] }
        let intervals = zip(times, times.dropFirst()).map { (($1 - $0) * 1e4).rounded() / 1e4 }
        #expect(intervals.prefix(200).allSatisfy { $0 == 0.01 } && intervals.dropFirst(200).allSatisfy { $0 == 0.0025 },
                "\(Set(intervals))")
        #expect(times.last.map { abs($0 - 4) < 1e-6 } == true)
        let text = try String(contentsOfFile: switched, encoding: .utf8)
        #expect(!text.contains("rate_hz"), "no one rate to give")
    }

    /// A real recording (the micro:bit's shakes among twists, Fixtures/others) read at 100, 400
    /// and 1600 Hz with a sensor's noise and quantisation, and at its own 50 Hz with 20 % timing
    /// jitter: the detector begins the same three shakes within 40 ms of its own rate's times,
    /// and nothing else.
    @Test func aRealRecordingAtOtherRatesBeginsTheSameShakes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let others = repositoryRoot + "/Fixtures/others"
        let name = "microbit_shake_twist"
        let runs = [
            (["--rate", "100", "400", "1600", "--noise", "0.03", "--step", "0.0192"], "rates",
             ["r100_n0.03_q0.0192", "r400_n0.03_q0.0192", "r1600_n0.03_q0.0192"]),
            (["--jitter", "0.2"], "jitter", ["native_j0.2"]),
        ]
        var detector = ShakeDetector(configuration: .medium)
        let native = try RecordingReplay.run(path: "\(others)/\(name).csv", detector: &detector).events
            .filter { $0.phase == .began }.map(\.time)
        #expect(native.count == 3)
        for (options, output, suffixes) in runs {
            let run = try runProcess(Self.script, [others, folder.file(output), "--pattern", "\(name).csv"] + options)
            #expect(run.status == 0, "\(run.err)")
            for suffix in suffixes {
                var detector = ShakeDetector(configuration: .medium)
                let began = try RecordingReplay.run(path: folder.file("\(output)/\(name)_\(suffix).csv"),
                                                    detector: &detector).events
                    .filter { $0.phase == .began }.map(\.time)
                #expect(began.count == native.count && zip(began, native).allSatisfy { abs($0 - $1) <= 0.04 },
                        "\(suffix): began at \(began), at 50 Hz \(native)")
            }
        }
    }

    /// Runs the script on a folder holding `text` as `name`.csv with `options`; returns the
    /// folder, the run and the output folder's path.
    static func resampled(_ text: String, name: String = "ramp", _ options: [String]) throws
        -> (TemporaryFolder, CLIRun, String) {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        _ = try folder.write("source/\(name).csv", text)
        let run = try runProcess(script, [folder.file("source"), folder.file("out")] + options)
        return (folder, run, folder.file("out"))
    }

    /// `--streams 2:0.5`: the 4 s ramp as streams joined every 0.5 s, each 2 s long, with its
    /// times, values and labels as in the whole; the pieces that would hold under 2 s of samples
    /// (from 2.5 s on) are not written. The clips and intervals a piece holds are kept.
    @Test func streamsArePiecesJoinedEveryStep() throws {
        let comments = "# clip_starts_s: 0,1.5,3\n# clip_classes: rest,shake,rest\n"
            + "# intervals: 0-1.2 still; 1.2-4 moving\n"
        let (folder, run, out) = try Self.resampled(comments + Self.ramp(), ["--streams", "2:0.5"])
        defer { folder.cleanUp() }
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("ramp.csv: 5 files"), "\(run.err)")
        #expect(listing(out) == ["ramp_native_from0.5.csv", "ramp_native_from0.csv", "ramp_native_from1.5.csv",
                                 "ramp_native_from1.csv", "ramp_native_from2.csv"])
        for start in [0.0, 0.5, 1, 1.5, 2] {
            let path = out + "/ramp_native_from\(start == start.rounded() ? String(Int(start)) : String(start)).csv"
            let rows = try Self.rows(path)
            #expect(rows.count == 200, "from \(start): \(rows.count) rows")
            #expect(rows.enumerated().allSatisfy { k, row in
                let t = start + Double(k) / 100
                return abs(row[0] - t) < 1e-6 && abs(row[1] - 0.5 * t) < 1e-6 && row[4] == (t >= 1 && t < 2 ? 1 : 0)
            }, "from \(start): \(rows.first ?? []) ... \(rows.last ?? [])")
        }
        let from1 = try String(contentsOfFile: out + "/ramp_native_from1.csv", encoding: .utf8)
        #expect(from1.hasPrefix("# clip_starts_s: 1,1.5\n# clip_classes: rest,shake\n# intervals: 0-1.2 still; 1.2-4 moving\n# rate_hz: 100\n"
                                + "# resampled: the recording's own samples; then the stream from 1 s, 2 s long"), "\(from1.prefix(300))")
        let from2 = try String(contentsOfFile: out + "/ramp_native_from2.csv", encoding: .utf8)
        #expect(from2.hasPrefix("# clip_starts_s: 2,3\n# clip_classes: shake,rest\n# intervals: 1.2-4 moving\n"),
                "\(from2.prefix(300))")
    }

    /// Two shakes, labelled from 1 to 1.49 s and from 2.5 to 2.99 s of the 4 s ramp.
    static func twoShakes() -> String {
        var text = "time_s,x,y,z,shake\n"
        for i in 0...400 {
            let t = Double(i) / 100
            text += String(format: "%.2f,%.4f,0.1,9.81,%d\n", t, 0.5 * t, (i >= 100 && i < 150) || (i >= 250 && i < 300) ? 1 : 0)
        }
        return text
    }

    /// `--lead 0 0.5 1.5`: each labelled shake from S s before its first labelled sample to 1 s
    /// after its last; shake 1 has only 1 s of the recording before it, so no 1.5 s piece (said on
    /// stderr), and shake 2's 1.5 s piece holds shake 1's end, labelled as it was.
    @Test func leadWritesEachShakeFromSBeforeItToASecondAfter() throws {
        let (folder, run, out) = try Self.resampled(Self.twoShakes(), ["--lead", "0", "0.5", "1.5"])
        defer { folder.cleanUp() }
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("ramp.csv: shake 1 (at 1 s) has 1 s of the recording before it, not 1.5: no --lead 1.5 piece"),
                "\(run.err)")
        #expect(listing(out) == ["ramp_native_shake1_lead0.5.csv", "ramp_native_shake1_lead0.csv",
                                 "ramp_native_shake2_lead0.5.csv", "ramp_native_shake2_lead0.csv",
                                 "ramp_native_shake2_lead1.5.csv"])
        for (name, first, last) in [("shake1_lead0", 1.0, 2.49), ("shake1_lead0.5", 0.5, 2.49), ("shake2_lead0", 2.5, 3.99),
                                    ("shake2_lead0.5", 2.0, 3.99), ("shake2_lead1.5", 1.0, 3.99)] {
            let rows = try Self.rows(out + "/ramp_native_\(name).csv")
            #expect(rows.first.map { abs($0[0] - first) < 1e-6 } == true && rows.last.map { abs($0[0] - last) < 1e-6 } == true
                    && rows.count == Int(((last - first) * 100).rounded()) + 1, "\(name): \(rows.first ?? []) ... \(rows.last ?? [])")
            let labelled = rows.filter { $0[4] == 1 }.count
            #expect(labelled == (name == "shake2_lead1.5" ? 100 : 50), "\(name): \(labelled) labelled rows")
        }
        let text = try String(contentsOfFile: out + "/ramp_native_shake2_lead0.5.csv", encoding: .utf8)
        #expect(text.hasPrefix("# resampled: the recording's own samples; then shake 2's stream, from 0.5 s before its "
                               + "first labelled sample, at 2.5 s, to 1 s after its last, at 2.99 s"), "\(text.prefix(200))")
    }

    /// A recording without a shake column, or without a labelled shake, gives nothing for
    /// `--lead` (said on stderr); when nothing at all is written, it is an error (65) and no
    /// folder is left.
    @Test func leadWithoutAShakeWritesNothingAndSaysSo() throws {
        let unlabelled = Self.ramp().replacingOccurrences(of: ",1\n", with: ",0\n")
        let noColumn = "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n"
        for (text, reason) in [(unlabelled, "no labelled shake"), (noColumn, "no shake column")] {
            let (folder, run, _) = try Self.resampled(text, ["--lead", "0.5"])
            defer { folder.cleanUp() }
            #expect(run.status == 65, "\(run.err)")
            #expect(run.err.contains("ramp.csv: \(reason): nothing written for it (--lead)")
                    && run.err.contains("Error: nothing written (--lead: no recording has a labelled shake"), "\(run.err)")
            #expect(listing(folder.path) == ["source"])
        }
    }

    @Test func refusesWhatItCannotDoAndLeavesNothingBehind() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("taken"), withIntermediateDirectories: true)
        _ = try folder.write("taken/mine.csv", "kept")
        _ = try folder.write("source/a.csv", Self.ramp())
        for (options, message) in [
            (["--jitter", "0.5"], "--jitter must be a fraction from 0 to under 0.5"),
            (["--switch", "400"], "--switch needs --rate"),
            (["--fifo", "1"], "--fifo must be 2 or more"),
            // Defect: it ran, stamping nothing differently, and exited 0.
            (["--fifo-stamps", "burst"], "--fifo-stamps needs --fifo N"),
            (["--rate", "0"], "--rate and --switch must be numbers above 0"),
            (["--rate", "fast"], "argument --rate: invalid float value: 'fast'"),
            (["--streams", "10"], "--streams must be LENGTH:STEP, two numbers of seconds (e.g. 10:2.5), not '10'"),
            (["--streams", "ten:2"], "--streams must be LENGTH:STEP"),
            (["--streams", "1.5:1"], "--streams LENGTH must be 2 s or more"),
            (["--streams", "10:0"], "--streams STEP must be a number of seconds above 0, not 0"),
            (["--streams", "10:nan"], "--streams STEP must be a number of seconds above 0"),
            (["--lead", "-0.5"], "--lead must be numbers of seconds of 0 or more, not -0.5"),
            (["--lead", "soon"], "argument --lead: invalid float value: 'soon'"),
            (["--streams", "10:5", "--lead", "1"], "--streams and --lead do not go together"),
        ] {
            let run = try runProcess(Self.script, [folder.file("source"), folder.file("out")] + options)
            #expect(run.status == 64 && run.err.contains(message), "\(options): \(run.status) \(run.err)")
        }
        // shake's statuses: a missing input 66, an output that is there already 73.
        let missing = try runProcess(Self.script, [folder.file("nowhere"), folder.file("out")])
        #expect(missing.status == 66 && missing.err.contains("nowhere: no such folder"), "\(missing.err)")
        let none = try runProcess(Self.script, [folder.file("source"), folder.file("out"), "--pattern", "*.tsv"])
        #expect(none.status == 66 && none.err.contains("no file matching *.tsv in"), "\(none.err)")
        let taken = try runProcess(Self.script, [folder.file("source"), folder.file("taken"), "--rate", "400"])
        #expect(taken.status == 73 && taken.err.contains("exists; give a new folder"), "\(taken.err)")
        #expect(listing(folder.file("taken")) == ["mine.csv"])
        #expect(try String(contentsOfFile: folder.file("taken/mine.csv"), encoding: .utf8) == "kept")

        // A bad row: the error names the file and line; no output folder, no staging folder.
        _ = try folder.write("source/b.csv", "time_s,x,y,z\n0,0,0,9.8\n0.01,0,zero,9.8\n")
        let bad = try runProcess(Self.script, [folder.file("source"), folder.file("out"), "--rate", "400"])
        #expect(bad.status == 65 && bad.err.contains("b.csv:3: column 3 (y): not a finite number: 'zero'"), "\(bad.err)")
        #expect(listing(folder.path) == ["source", "taken"])
    }

    /// Two outputs of one run with one name (sources of one name in two subfolders, or two rates
    /// that print alike) are an error, not one file silently written over the other while the
    /// summary counted both.
    @Test func twoOutputsOfOneNameAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        for sub in ["two/a", "two/b"] {
            try FileManager.default.createDirectory(atPath: folder.file(sub), withIntermediateDirectories: true)
            _ = try folder.write(sub + "/s.csv", Self.ramp())
        }
        let run = try runProcess(Self.script, [folder.file("two"), folder.file("out"), "--pattern", "*/s.csv"])
        #expect(run.status == 73 && run.err.contains("Error: two outputs would be named s_native.csv"), "\(run.err)")
        let rates = try runProcess(Self.script, [folder.file("two/a"), folder.file("out"), "--rate", "400", "400.0000001"])
        #expect(rates.status == 73 && rates.err.contains("Error: two outputs would be named s_r400.csv"), "\(rates.err)")
        #expect(listing(folder.path) == ["two"])
    }
}
