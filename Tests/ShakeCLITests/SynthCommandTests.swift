import Foundation
import ShakeCLI
import ShakeDetection
import ShakeRecording
import Testing

/// All rows of a recording and its metadata.
private func readRecording(_ path: String) throws -> (rows: [LabeledSample], metadata: [(key: String, value: String)]) {
    var reader = try RecordingReader(path: path)
    var rows: [LabeledSample] = []
    while let row = try reader.next() { rows.append(row) }
    return (rows, reader.metadata)
}

/// Splits a `# source:` command line into words, undoing the single quotes `shake synth` adds.
private func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
        if character == "'" {
            quoted.toggle()
            started = true
        } else if character == " " && !quoted {
            if started { words.append(current) }
            current = ""
            started = false
        } else {
            current.append(character)
            started = true
        }
    }
    if started { words.append(current) }
    return words
}

@Suite struct SynthCommandTests {
    @Test func helpListsEveryScenario() {
        let run = runShake("synth", "--help")
        #expect(run.status == 0)
        for scenario in SynthScenario.allCases {
            #expect(run.out.contains("\(scenario.name): "), "\(scenario.name) listed")
        }
        #expect(runShake("--help").out.contains("synth"))
    }

    @Test func writesTheSynthesizedSamplesWithLabels() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("shakes.csv")
        let run = runShake("synth", "shakes", "--rate", "50", "--seed", "7", "--jitter", "0.2", "-o", path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("5 labelled shakes"))
        let (rows, metadata) = try readRecording(path)
        let expected = try Synthesizer(seed: 7).render(
            script: SynthScenario.shakes.script(),
            sensor: SensorModel(rateHertz: 50, jitterFraction: 0.2, noiseRMS: 0.03))
        #expect(rows.count == expected.count)
        for (row, want) in zip(rows, expected) {
            #expect(abs(row.sample.time - want.sample.time) <= 5e-7)
            #expect(abs(row.sample.x - want.sample.x) <= 5e-6 && abs(row.sample.z - want.sample.z) <= 5e-6)
            #expect(row.isShake == want.isShake)
        }
        #expect(metadata.first?.key == "source")
        #expect(metadata.contains { $0.key == "rate_hz" && $0.value == "50" })
    }

    @Test func sourceLineRecreatesTheFileExactly() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // Names with a space: the source line quotes them.
        let first = folder.file("first copy.csv")
        let run = runShake(
            "synth", "clipped-shake", "--seed", "3", "--noise", "0.1", "--duration", "8", "--quantize", "0.0625",
            "-o", first)
        #expect(run.status == 0, "\(run.err)")
        let source = try #require(try readRecording(first).metadata.first { $0.key == "source" }?.value)
        var words = shellWords(source)
        #expect(Array(words.prefix(2)) == ["shake", "synth"])
        let second = folder.file("second copy.csv")
        words[words.count - 1] = second
        #expect(runShake(Array(words.dropFirst())).status == 0)
        let firstText = try String(contentsOfFile: first, encoding: .utf8)
        let secondText = try String(contentsOfFile: second, encoding: .utf8)
        #expect(firstText.replacingOccurrences(of: first, with: second) == secondText)
        let rows = try readRecording(second).rows
        #expect(abs(rows.last!.sample.time - 8) < 0.03)
        #expect(rows.allSatisfy { max(abs($0.sample.x), abs($0.sample.y), abs($0.sample.z)) <= 2 * standardGravity + 1e-5 })
        // 0.0625 m/s² steps are exact in 5 decimals.
        #expect(rows.allSatisfy { ($0.sample.y / 0.0625).rounded() * 0.0625 == $0.sample.y })
    }

    /// --shake-g and --shake-hz make every scripted shake that strong and that quick, keeping its
    /// place and length; the source line says so and recreates the file.
    @Test func shakeStrengthAndFrequencyChangeEveryShake() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let plain = folder.file("plain.csv")
        let gentle = folder.file("gentle.csv")
        #expect(runShake("synth", "shakes", "--noise", "0", "-o", plain).status == 0)
        let run = runShake("synth", "shakes", "--noise", "0", "--shake-g", "1", "--shake-hz", "3", "-o", gentle)
        #expect(run.status == 0, "\(run.err)")
        let (plainRows, _) = try readRecording(plain)
        let (gentleRows, metadata) = try readRecording(gentle)
        #expect(gentleRows.map(\.isShake) == plainRows.map(\.isShake))
        // The largest |a| − 1 g over the shakes: about 1 g (with the wrist's turn), against the
        // scenario's 3.5 g.
        func strongest(_ rows: [LabeledSample]) -> Double {
            rows.filter { $0.isShake == true }.map { abs($0.sample.magnitude - standardGravity) }.max() ?? 0
        }
        #expect(strongest(plainRows) > 2.5 * standardGravity)
        #expect(strongest(gentleRows) < 1.3 * standardGravity && strongest(gentleRows) > 0.7 * standardGravity)
        // Zero crossings of x in the first shake (along x): about 2 per cycle, 3 Hz for 2 s.
        let firstShake = gentleRows.drop { $0.isShake != true }.prefix { $0.isShake == true }
        let xs = firstShake.map(\.sample.x)
        let crossings = zip(xs, xs.dropFirst()).count { ($0 < 0) != ($1 < 0) }
        #expect((10...14).contains(crossings), "\(crossings)")
        let source = try #require(metadata.first { $0.key == "source" }?.value)
        #expect(source.contains(" --shake-g 1 --shake-hz 3 -o "), "\(source)")
        let refused = runShake("synth", "walking-pocket", "--shake-g", "1", "-o", folder.file("walk.csv"))
        #expect(refused.status == 64)
        #expect(refused.err.hasPrefix("Error: 'walking-pocket' has no shakes"), "\(refused.err)")
    }

    /// The last line says what was written: the samples in the file, the script's length, the
    /// rate and the labelled shakes (one shake, singular).
    @Test(arguments: [(SynthScenario.longShake, "1 labelled shake"), (.shakes, "5 labelled shakes")])
    func summarySaysTheSamplesAndShakesWritten(scenario: SynthScenario, shakes: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("out.csv")
        let run = runShake("synth", scenario.name, "-o", path)
        #expect(run.status == 0, "\(run.err)")
        let rows = try readRecording(path).rows
        let seconds = scenario.script().reduce(0) { $0 + $1.seconds }
        #expect(run.out == "\(path): \(rows.count) samples, \(String(format: "%.1f", seconds)) s at 100 Hz, \(shakes)\n")
    }

    /// Without --seed the recording is seed 1's, as the help says, and its source line says so.
    @Test func theSeedIsOneUnlessGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (unseeded, seeded) = (folder.file("unseeded.csv"), folder.file("seeded.csv"))
        #expect(runShake("synth", "long-shake", "--duration", "3", "-o", unseeded).status == 0)
        #expect(runShake("synth", "long-shake", "--duration", "3", "--seed", "1", "-o", seeded).status == 0)
        #expect(runShake("synth", "--help").out.contains("(0 to 2^64-1). (default: 1)"))
        let text = try String(contentsOfFile: unseeded, encoding: .utf8)
        #expect(text.contains(" --seed 1 "))
        #expect(text.replacingOccurrences(of: unseeded, with: seeded) == (try String(contentsOfFile: seeded, encoding: .utf8)))
    }

    /// A rate that is not a whole number is written to the file's `rate_hz` as it was given, and
    /// the summary line says it so too (not rounded to a whole number of hertz).
    @Test func aFractionalRateIsWrittenAsGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("out.csv")
        let run = runShake("synth", "long-shake", "--rate", "62.5", "--duration", "2", "-o", path)
        #expect(run.status == 0, "\(run.err)")
        let rate = try #require(try readRecording(path).metadata.first { $0.key == "rate_hz" }?.value)
        #expect(Double(rate) == 62.5, "rate_hz: \(rate)")
        #expect(run.out.hasSuffix(" s at 62.5 Hz, 0 labelled shakes\n"), "\(run.out)")
    }

    /// Each option refuses a value past its range with the range its help line states.
    @Test(arguments: [
        ("rate", "20001", "expected 1 to 20000", "(1 to 20000)"),
        ("jitter", "0.95", "expected 0 to 0.9", "(0 to 0.9)"),
        ("noise", "101", "expected 0 to 100", "(0 to 100)"),
        ("clip", "1001", "expected 0.1 to 1000", "(0.1 to 1000)"),
        ("quantize", "101", "expected 1e-09 to 100\n", "(1e-9 to 100;"),
        ("duration", "86401", "expected 0.01 to 86400", "(0.01 to 86400)"),
        ("shake-g", "8.5", "expected 0.1 to 8", "(0.1 to 8)"),
        ("shake-hz", "12.5", "expected 1 to 12", "(1 to 12)"),
    ])
    func optionsRefuseValuesPastTheRangeTheirHelpStates(option: String, value: String, refusal: String, help: String)
        throws
    {
        // Into a folder that does not exist: a value wrongly let through is refused (status 73)
        // before a recording that long or that dense is made.
        let run = runShake("synth", "shakes", "--\(option)", value, "-o", "/no-such-folder/x.csv")
        #expect(run.status == 64)
        #expect(run.err.contains("'--\(option)': \(refusal)"), "\(run.err)")
        // The option's entry in the help: its line and the indented lines it wraps onto.
        let lines = runShake("synth", "--help").out.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("  --\(option) <") })
        let entry = ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("      ") })
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(entry.contains(help), "\(entry)")
    }

    @Test func keepsAnExistingFileUnlessForced() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("mine.csv", "precious\n")
        let refused = runShake("synth", "long-shake", "-o", path)
        #expect(refused.status == 73)
        #expect(refused.err.contains(path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        #expect(runShake("synth", "long-shake", "--force", "-o", path).status == 0)
        #expect(try readRecording(path).rows.count > 900)
    }

    /// Options that give no sample are a usage error, and nothing is written: no file, no
    /// `.partial`, and with --force an existing file is kept.
    @Test(arguments: [false, true])
    func optionsThatGiveNoSamplesWriteNothing(existing: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("one.csv")
        if existing { try "precious\n".write(toFile: path, atomically: true, encoding: .utf8) }
        let run = runShake(["synth", "shakes", "--rate", "1", "--duration", "0.01", "-o", path] + (existing ? ["--force"] : []))
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: The options give no samples: 0.01 s at 1 Hz (one sample every 1 s); "
            + "give a longer '--duration' or a higher '--rate'\n"), "\(run.err)")
        #expect(listing(folder.path) == (existing ? ["one.csv"] : []))
        if existing { #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n") }
    }

    @Test(arguments: [
        (["synth", "juggling", "-o", "x.csv"], "Unknown scenario 'juggling'"),
        (["synth", "shakse", "-o", "x.csv"], "Did you mean 'shakes'?"),
        (["synth", "SHAKSE", "-o", "x.csv"], "Did you mean 'shakes'?"),
        (["synth", "shakes"], "-o <file>"),
        (["synth", "shakes", "--rate", "0", "-o", "x.csv"], "--rate"),
        (["synth", "shakes", "--jitter", "1.5", "-o", "x.csv"], "--jitter"),
        (["synth", "shakes", "--seed", "-4", "-o", "x.csv"], "--seed"),
        (["synth", "shakes", "--clip", "lots", "-o", "x.csv"], "--clip"),
        (["synth", "shakes", "--quantize", "0", "-o", "x.csv"], "--quantize"),
        (["synth", "shakes", "--shake-g", "9", "-o", "x.csv"], "--shake-g"),
        (["synth", "shakes", "--shake-hz", "0.5", "-o", "x.csv"], "--shake-hz"),
    ])
    func usageMistakesExit64(arguments: [String], message: String) {
        let run = runShake(arguments)
        #expect(run.status == 64)
        #expect(run.err.contains("Error: "))
        #expect(run.err.contains(message), "\(run.err)")
    }
}
