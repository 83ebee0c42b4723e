import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `Scripts/scale-walks --turns N --clips`, which makes `Scripts/dev-check`'s `clips` row: every
/// clip of a recording (up to and including the held stretch after it) turned by its own
/// rotation, the motion itself unchanged.
func dot(_ a: Sample, _ b: Sample) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

@Suite struct ScaleWalksScriptTests {
    static let clips = 3, motionRows = 50, heldRows = 20

    /// Three clips at 100 Hz, each 0.5 s of changing motion and then 0.2 s holding its last
    /// sample (as the gaps between the Wiimote sessions' spliced gestures do); the second clip's
    /// motion is labelled a shake.
    static func recording() -> String {
        var text = "time_s,x,y,z,shake\n"
        var row = 0
        for clip in 0..<clips {
            var last = ""
            for k in 0..<motionRows {
                let t = Double(k) / 100
                last = String(format: "%.5f,%.5f,%.5f", 3 * sin(7 * t + Double(clip)), 9.8 + 2 * cos(5 * t),
                              1.5 * sin(11 * t) + Double(clip))
                text += String(format: "%.2f,", Double(row) / 100) + last + (clip == 1 ? ",1\n" : ",0\n")
                row += 1
            }
            for _ in 0..<heldRows {
                text += String(format: "%.2f,", Double(row) / 100) + last + ",0\n"
                row += 1
            }
        }
        return text
    }

    static func rows(_ path: String) throws -> [LabeledSample] {
        var reader = try RecordingReader(path: path)
        var rows: [LabeledSample] = []
        while let row = try reader.next() { rows.append(row) }
        return rows
    }


    @Test func everyClipIsTurnedRigidlyByItsOwnRotation() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try folder.write("source/wclips.csv", Self.recording())
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("out"), "--pattern", "w*.csv", "--gain", "1", "--tempo", "1",
            "--turns", "2", "--clips"])
        #expect(run.status == 0, "\(run.err)")
        #expect(listing(folder.file("out")) == ["wclips_k1_t1_turn0.csv", "wclips_k1_t1_turn1.csv"])

        let original = try Self.rows(source)
        let clipRows = Self.motionRows + Self.heldRows
        try #require(original.count == Self.clips * clipRows)
        var turnedSamples: [[Sample]] = []
        for name in listing(folder.file("out")) {
            let turned = try Self.rows(folder.file("out/" + name))
            Self.expectTurnedClipByClip(turned, original, starts: (0..<Self.clips).map { $0 * clipRows }, name)
            turnedSamples.append(turned.map(\.sample))
        }
        #expect(turnedSamples.count == 2 && turnedSamples[0] != turnedSamples[1], "the two variants differ")
    }

    /// `turned` is `original` (at `tempo` times its pace) with each clip, from one of `starts`
    /// (row indices) to the next, turned rigidly by a rotation of its own.
    static func expectTurnedClipByClip(_ turned: [LabeledSample], _ original: [LabeledSample], starts: [Int],
                                       _ name: String, tempo: Double = 1) {
        guard turned.count == original.count else {
            Issue.record("\(name): \(turned.count) rows, not \(original.count)")
            return
        }
        #expect(zip(turned, original).allSatisfy { abs($0.sample.time - $1.sample.time / tempo) < 1e-6 }, "\(name): times")
        #expect(turned.map(\.isShake) == original.map(\.isShake), "\(name): labels")
        for (clip, (first, next)) in zip(starts, starts.dropFirst() + [original.count]).enumerated() {
            // A rotation keeps every inner product: with the clip's first sample, and so lengths too.
            let kept = (first..<next).allSatisfy { k in
                abs(dot(turned[k].sample, turned[first].sample) - dot(original[k].sample, original[first].sample)) < 1e-3
                    && abs(dot(turned[k].sample, turned[k].sample) - dot(original[k].sample, original[k].sample)) < 1e-3
            }
            #expect(kept, "\(name), clip \(clip): not one rotation")
            let moved = abs(turned[first].sample.x - original[first].sample.x)
                + abs(turned[first].sample.y - original[first].sample.y)
                + abs(turned[first].sample.z - original[first].sample.z)
            #expect(moved > 0.1, "\(name), clip \(clip): not turned")
        }
        // Across a clip boundary the inner product changes: each clip has a rotation of its own.
        for k in starts.dropFirst() {
            let before = dot(original[k - 1].sample, original[k].sample)
            let after = dot(turned[k - 1].sample, turned[k].sample)
            #expect(abs(after - before) > 0.1, "\(name): the clips on either side of row \(k) turned alike")
        }
    }

    /// A recording without held stretches whose `# clip_starts_s:` line says where its clips start
    /// (as `Scripts/splice-clips` writes): those clips are turned, each by its own rotation, and
    /// with the cadence doubled the line's times are halved along with the rows'.
    @Test func aClipStartsLineGivesTheClips() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        var text = "# clip_starts_s: 0,0.4,1.1\ntime_s,x,y,z,shake\n"
        for k in 0..<150 {
            let t = Double(k) / 100
            text += String(format: "%.2f,%.5f,%.5f,%.5f,%d\n", t, 3 * sin(7 * t), 9.8 + 2 * cos(5 * t), 1.5 * sin(11 * t),
                           t >= 0.4 && t < 1.1 ? 1 : 0)
        }
        let source = try folder.write("source/mclips.csv", text)
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("out"), "--pattern", "*.csv", "--gain", "1", "--tempo", "2",
            "--turns", "1", "--clips"])
        #expect(run.status == 0, "\(run.err)")
        let output = folder.file("out/mclips_k1_t2_turn0.csv")
        Self.expectTurnedClipByClip(try Self.rows(output), try Self.rows(source), starts: [0, 40, 110], "mclips",
                                    tempo: 2)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("# clip_starts_s: 0,0.2,0.55\n"), "\(written.prefix(80))")
    }

    /// A `# rate_hz:` line says the output's rate: the recording's times the cadence factor, the
    /// rate resampled to with `--rate`, and no line at all when resampling leaves periods empty
    /// (a 100 Hz recording read at 400 Hz is not a 400 Hz recording).
    @Test func theRateLineGivesTheOutputsRate() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        var text = "# rate_hz: 100\n# source: test\ntime_s,x,y,z\n"
        for k in 0..<300 { text += String(format: "%.2f,%.5f,0,9.81\n", Double(k) / 100, sin(Double(k) / 10)) }
        _ = try folder.write("source/walk.csv", text)
        func rateLines(_ output: String) throws -> [String] {
            try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("# rate_hz:") }
        }
        let tempo = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("tempo"), "--pattern", "*.csv", "--gain", "1", "--tempo", "1", "1.3"])
        #expect(tempo.status == 0, "\(tempo.err)")
        #expect(try rateLines(folder.file("tempo/walk_k1_t1.csv")) == ["# rate_hz: 100"])
        #expect(try rateLines(folder.file("tempo/walk_k1_t1.3.csv")) == ["# rate_hz: 130"])

        let rates = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("rates"), "--pattern", "*.csv", "--gain", "1", "--tempo", "1",
            "--rate", "25", "400"])
        #expect(rates.status == 0, "\(rates.err)")
        #expect(try rateLines(folder.file("rates/walk_k1_t1_r25.csv")) == ["# rate_hz: 25"])
        #expect(try rateLines(folder.file("rates/walk_k1_t1_r400.csv")) == [])
        #expect(try String(contentsOfFile: folder.file("rates/walk_k1_t1_r400.csv"), encoding: .utf8)
            .hasPrefix("# source: test\n"))
    }

    /// A recording the script cannot use is one line on stderr naming the file and the line at
    /// fault (blank and comment lines counted), exit 65, no Python traceback, and nothing written:
    /// neither the output folder nor its staging folder.
    @Test func badInputIsOneLineNamingFileAndLineAndWritesNothing() throws {
        let cases: [(file: String, text: String, message: String)] = [
            ("number.csv", "# rate_hz: 100\n\ntime_s,x,y,z\n0,1,2,9.8\n\n0.01,1,abc,9.8\n",
             ":6: column 3 (y): not a finite number: 'abc'"),
            ("column.csv", "# a: b\ntime_s,x,z\n0,1,9.8\n",
             ":2: expected the header time_s,x,y,z[,shake], got time_s,x,z"),
            ("fields.csv", "time_s,x,y,z\n0,1,2,9.8\n0.01,1,2\n", ":3: 3 fields, the header has 4"),
            ("backwards.csv", "time_s,x,y,z\n1,1,2,9.8\n0.5,1,2,9.8\n",
             ":3: time goes backwards (0.5 s after 1 s)"),
            ("label.csv", "time_s,x,y,z,shake\n0,1,2,9.8,0\n0.01,1,2,9.8,0.5\n",
             ":3: column 5 (shake): '0.5' is not 0 or 1"),
            ("empty.csv", "", ": no header time_s,x,y,z[,shake] (an empty file, or comments only)"),
            ("header.csv", "time_s,x,y,z\n", ": no samples after the header"),
        ]
        for (file, text, message) in cases {
            let folder = try TemporaryFolder()
            defer { folder.cleanUp() }
            try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
            // A good recording first: its output is written before the bad one is read.
            _ = try folder.write("source/a_good.csv", "time_s,x,y,z\n0,1,2,9.8\n0.01,1,2,9.8\n")
            _ = try folder.write("source/" + file, text)
            let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
                folder.file("source"), folder.file("out"), "--pattern", "*.csv", "--gain", "1", "--tempo", "1"])
            #expect(run.status == 65, "\(file): \(run.err)")
            let errors = run.err.split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix(folder.file("source/a_good.csv")) }
            #expect(errors == ["Error: " + folder.file("source/" + file) + message], "\(file): \(run.err)")
            #expect(!run.err.contains("Traceback"), "\(file): \(run.err)")
            #expect(listing(folder.path) == ["source"], "\(file): \(listing(folder.path))")
        }
        // Bytes that are not UTF-8, on line 3.
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let binary = folder.file("source/binary.csv")
        try Data("time_s,x,y,z\n0,1,2,9.8\n".utf8 + [0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("out"), "--pattern", "*.csv", "--gain", "1", "--tempo", "1"])
        #expect(run.status == 65)
        #expect(run.err == "Error: \(binary):3: not UTF-8 text\n", "\(run.err)")
        #expect(listing(folder.path) == ["source"])
        // One that cannot be read (a folder of a recording's name): 66, shake's missing input.
        try FileManager.default.removeItem(atPath: binary)
        try FileManager.default.createDirectory(atPath: folder.file("source/folder.csv"), withIntermediateDirectories: true)
        let unreadable = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("out"), "--pattern", "*.csv", "--gain", "1", "--tempo", "1"])
        #expect(unreadable.status == 66, "\(unreadable.err)")
        #expect(unreadable.err == "Error: \(folder.file("source/folder.csv")): cannot be read: Is a directory\n",
                "\(unreadable.err)")
        #expect(listing(folder.path) == ["source"])
    }

    /// Factors and rates that mean nothing are usage errors naming the option (64); the output's
    /// folder must be in one that exists (it is not made: 73, an output that cannot be made).
    @Test func meaninglessNumbersAndAMissingParentAreUsageErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        _ = try folder.write("source/walk.csv", "time_s,x,y,z\n0,1,2,9.8\n0.01,1,2,9.8\n")
        let cases: [([String], String)] = [
            (["--gain", "nan"], "--gain must be a number above 0 (not nan or inf), not nan"),
            (["--gain", "1", "-2"], "--gain must be a number above 0 (not nan or inf), not -2"),
            (["--tempo", "0"], "--tempo must be a number above 0 (not nan or inf), not 0"),
            (["--tempo", "inf"], "--tempo must be a number above 0 (not nan or inf), not inf"),
            (["--rate", "nan"], "--rate must be a number above 0 (not nan or inf), not nan"),
            (["--clip", "nan"], "--clip must be a number above 0 (inf: no clipping), not nan"),
        ]
        for (options, message) in cases {
            let run = try runProcess(repositoryRoot + "/Scripts/scale-walks",
                                     [folder.file("source"), folder.file("out"), "--pattern", "*.csv"] + options)
            #expect(run.status == 64, "\(options)")
            #expect(run.err.hasSuffix("scale-walks: error: \(message)\n"), "\(options): \(run.err)")
        }
        let nested = folder.file("missing/out")
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks",
                                 [folder.file("source"), nested, "--pattern", "*.csv", "--gain", "1", "--tempo", "1"])
        #expect(run.status == 73)
        #expect(run.err.hasSuffix("Error: \(nested): its parent folder \(folder.file("missing")) does not exist\n"), "\(run.err)")
        #expect(listing(folder.path) == ["source"])
    }

    /// SIGTERM (a `timeout`, a service stopping) and SIGHUP (a closed terminal) stop the script
    /// as Ctrl-C does: exit 130, no traceback, and neither the output folder nor the hidden
    /// folder it was being written in is left behind (it had left `.scale-walks-*` folders).
    @Test(arguments: [SIGTERM, SIGHUP])
    func aStopSignalLeavesNothingBehind(signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: repositoryRoot + "/Scripts/scale-walks")
        process.arguments = [repositoryRoot + "/../shared/data/dev", folder.file("out"), "--turns", "10"]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        // Under way: its hidden folder is there (a few seconds' work in all).
        let deadline = Date().addingTimeInterval(20)
        while listing(folder.path).isEmpty && Date() < deadline { usleep(20_000) }
        #expect(listing(folder.path).contains { $0.hasPrefix(".scale-walks-") }, "\(listing(folder.path))")
        kill(process.processIdentifier, signal)
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(process.terminationStatus)")
        #expect(!said.contains("Traceback"), "\(said)")
        #expect(listing(folder.path).isEmpty, "\(listing(folder.path))")
    }

    /// `--help` prints the whole docstring, as written (the options' meaning and the commands the
    /// README's figures were made with), not only its first sentence.
    @Test func helpPrintsTheWholeDocstring() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", ["--help"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("""
            With --turns N, each output is instead written N times, names ending in _turnI: every
            """), "\(run.out)")
        #expect(run.out.contains("""
                Scripts/scale-walks ../shared/data/dev /tmp/dev-rates --pattern '*.csv' --gain 1 --tempo 1 --rate 25 50
            """), "\(run.out)")
        #expect(run.out.contains("Only the Python standard library is needed."), "\(run.out)")
    }

    @Test func clipsWithoutTurnsIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.path, folder.file("out"), "--clips"])
        #expect(run.status == 64)
        #expect(run.err.contains("--clips needs --turns"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    }
}
