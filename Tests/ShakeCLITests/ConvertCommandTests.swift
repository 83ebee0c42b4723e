import Foundation
import Testing

/// `shake convert`: an app's export becomes a canonical recording, labelled where the user says
/// the shakes are, ready for `evaluate` and `tune`; when the ranges or the file are wrong,
/// nothing is written and nothing the user had is touched.
@Suite struct ConvertCommandTests {
    /// The column flags choose each column, by name or by position, and
    /// --skip-rows-without-acceleration leaves out a row of another sensor (x, y and z empty).
    @Test func columnFlagsChooseTheColumnsAndRowsWithoutAccelerationAreSkipped() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("columns.csv", "a,b,c,d,e\n7,1,2,3,10.00\n7,,,,10.01\n7,4,5,6,10.02\n")
        let output = folder.file("out.csv")
        let run = runShake("convert", input, "--time-column", "e", "--x-column", "b", "--y-column", "3", "--z-column", "d",
                           "--skip-rows-without-acceleration", "-o", output)
        #expect(run.status == 0, "\(run.err)")
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasSuffix("time_s,x,y,z\n10.000000,1.00000,2.00000,3.00000\n10.020000,4.00000,5.00000,6.00000\n"),
                "\(written)")
    }

    /// `labelledShakeCSV`'s motion as Physics Toolbox on Android writes it: clock times with
    /// milliseconds after a fourth colon (from 13:05:00), acceleration in g, no labels.
    static func physicsToolboxExport(shakes: Int) -> (text: String, runStarts: [Double]) {
        let (canonical, runStarts) = labelledShakeCSV(shakes: shakes)
        var text = "time,gFx,gFy,gFz,TgF\n"
        for line in canonical.split(separator: "\n") where line.first?.isNumber == true {
            let fields = line.split(separator: ",").map { Double($0)! }
            let ms = Int((fields[0] * 1000).rounded())
            let (x, y, z) = (fields[1] / 9.80665, fields[2] / 9.80665, fields[3] / 9.80665)
            text += String(format: "13:%02d:%02d:%03d,%.7f,%.7f,%.7f,%.3f\n", 5 + ms / 60_000, ms / 1000 % 60, ms % 1000,
                           x, y, z, (x * x + y * y + z * z).squareRoot())
        }
        return (text, runStarts)
    }

    @Test func anExportLabelledByRangesScoresLikeTheLabelledOriginal() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (canonical, _) = labelledShakeCSV(shakes: 3)
        let original = try folder.write("original.csv", canonical)
        let (export, runStarts) = Self.physicsToolboxExport(shakes: 3)
        let input = try folder.write("export.csv", export)
        // Each shake lasts 1.5 s from its start (the last sample 10 ms before its end).
        let ranges = runStarts.map { String(format: "%.2f-%.2f", 47100 + $0, 47100 + $0 + 1.49) }.joined(separator: ",")
        let output = folder.file("labelled.csv")
        let run = runShake("convert", input, "-o", output, "--shakes", ranges)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(run.out == "\(output): 1650 samples, 16.5 s, 3 labelled shakes\n")

        let converted = try String(contentsOfFile: output, encoding: .utf8)
        #expect(converted.hasPrefix("# converted_from: \(input)\n# shakes_s: 47103-47104.49,47107.5-47108.99,47112-47113.49\n"
            + "time_s,x,y,z,shake\n47100.000000,0.10000,0.20000,9.80665,0\n"))
        let labels = converted.split(separator: "\n").dropFirst(3).map { $0.hasSuffix(",1") }
        let originalLabels = canonical.split(separator: "\n").dropFirst(2).map { $0.hasSuffix(",1") }
        #expect(labels == originalLabels)

        let scores = ["shakes", "detected", "duplicates", "false_shakes", "latency_median_s"]
        let want = try Self.total(of: original)
        let got = try Self.total(of: output)
        #expect(want["shakes"] as? Int == 3)
        for key in scores {
            #expect("\(got[key] ?? "none")" == "\(want[key] ?? "none")", "\(key)")
        }
    }

    static func total(of path: String) throws -> [String: Any] {
        let run = runShake("evaluate", "--format", "json", path)
        #expect(run.status == 0, "\(run.err)")
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        return try #require(object?["total"] as? [String: Any])
    }

    @Test func aCanonicalRecordingComesBackTheSameWithItsLabelsAndMetadata() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let fixture = repositoryRoot + "/Fixtures/shakes_100hz.csv"
        let output = folder.file("copy.csv")
        let run = runShake("convert", fixture, "-o", output)
        #expect(run.status == 0, "\(run.err)")
        let before = try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let after = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let metadata = before.prefix { $0.hasPrefix("#") }
        #expect(!metadata.isEmpty)
        #expect(Array(after.prefix(metadata.count)) == Array(metadata))
        #expect(after[metadata.count] == "# converted_from: \(fixture)")
        #expect(Array(after.dropFirst(metadata.count + 1)) == Array(before.dropFirst(metadata.count)))
        #expect(run.out.hasSuffix(" labelled shakes\n"))
    }

    /// A `# units: g` line is the unit of the input's rows; the output's rows are in m/s², and its
    /// line says so (copied as it was, every reader took them to be in g: 9.8 times too large).
    @Test func aUnitsLineIsRewrittenForTheConvertedRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("in.csv", "# units: g\ntime_s,x,y,z\n0,0,0,1\n0.01,0,0,1\n0.02,0.5,0,1\n")
        let once = folder.file("once.csv")
        let twice = folder.file("twice.csv")
        #expect(runShake("convert", input, "-o", once).status == 0)
        #expect(runShake("convert", once, "-o", twice).status == 0)
        let rows = "time_s,x,y,z\n0.000000,0.00000,0.00000,9.80665\n0.010000,0.00000,0.00000,9.80665\n0.020000,4.90332,0.00000,9.80665\n"
        #expect(try String(contentsOfFile: once, encoding: .utf8) == "# units: m/s^2\n# converted_from: \(input)\n" + rows)
        #expect(try String(contentsOfFile: twice, encoding: .utf8)
            == "# units: m/s^2\n# converted_from: \(input)\n# converted_from: \(once)\n" + rows)
    }

    /// A `# units:` line that already names m/s² is kept as the file wrote it, as every other
    /// `# key: value` line is: only a line naming another unit is rewritten.
    @Test func aUnitsLineInMetresPerSecondSquaredIsKeptAsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("in.csv", "# units: m/s²\ntime_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n")
        let output = folder.file("out.csv")
        let run = runShake("convert", input, "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("# units: m/s²\n# converted_from: \(input)\n"))
    }

    /// `--add-gravity -` beside the recording `-`: one standard input cannot be both files, so
    /// the run is a usage error (exit 64) that says so, and nothing is written.
    @Test func gravityAndRecordingCannotBothBeStandardInput() throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let rows = try folder.write("rows.csv", "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n")
        let run = try runProcess(shake, ["convert", "-", "--add-gravity", "-", "-o", folder.file("out.csv")], input: rows)
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.hasPrefix("Error: '--add-gravity -' and the recording '-' cannot both be read from standard input\n"),
                "\(run.err)")
        #expect(listing(folder.path) == ["rows.csv"])
    }

    /// Range ends are included for times in ms, µs and ns too: 1400 ms is 1.4 s, not a unit in
    /// the last place above it.
    @Test(arguments: [("time_ms", 1e3), ("time_us", 1e6), ("timestamp_ns", 1e9)])
    func rangeEndsAreIncludedInEveryTimeUnit(column: String, unitsPerSecond: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var text = "\(column),x,y,z\n"
        for i in 0..<200 { text += "\(Int((Double(i) * unitsPerSecond / 100).rounded())),0,0,9.8\n" }
        let input = try folder.write("in.csv", text)
        let output = folder.file("out.csv")
        let run = runShake("convert", input, "--shakes", "1.0-1.4,1.79-1.81", "-o", output)
        #expect(run.status == 0, "\(run.err)")
        let labelled = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasSuffix(",1") }.map { String($0.prefix { $0 != "," }) }
        #expect(labelled.first == "1.000000" && labelled.count == 44, "\(labelled)")
        #expect(labelled.contains("1.400000") && labelled.contains("1.790000") && labelled.contains("1.810000"), "\(labelled)")
    }

    @Test func anUnlabelledFileStaysUnlabelledWithoutRanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("in.csv", "Timestamp,X,Y,Z\n01-Jan-2024 10:00:00.000,0.1,0.2,9.8\n01-Jan-2024 10:00:00.020,0.1,0.25,9.8\n")
        let output = folder.file("out.csv")
        let run = runShake("convert", "--rebase-time", input, "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(output): 2 samples, 0.0 s, no labels\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8)
            == "# converted_from: \(input)\ntime_s,x,y,z\n0.000000,0.10000,0.20000,9.80000\n0.020000,0.10000,0.25000,9.80000\n")
    }

    /// `--shakes none` labels a recording of other motion: every sample shake=0, so that
    /// evaluate counts its time and its false shakes (and tune can learn from it).
    @Test func aRecordingWithoutShakesIsLabelledWithNone() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("walk.csv", "time_s,x,y,z\n0,0.1,0.2,9.8\n0.5,0.1,0.25,9.8\n1,0,0,9.8\n")
        let output = folder.file("out.csv")
        let run = runShake("convert", input, "--shakes", "none", "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(output): 3 samples, 1.0 s, 0 labelled shakes\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8)
            == "# converted_from: \(input)\n# shakes_s: none\ntime_s,x,y,z,shake\n0.000000,0.10000,0.20000,9.80000,0\n"
            + "0.500000,0.10000,0.25000,9.80000,0\n1.000000,0.00000,0.00000,9.80000,0\n")
        let evaluated = runShake("evaluate", "--format", "json", output)
        #expect(evaluated.status == 0, "\(evaluated.err)")
        #expect(evaluated.out.contains("\"negative_hours\""))
        #expect(!evaluated.err.contains("no 'shake' column"))
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var text = "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n0.02,0,0,9.8\n0.03,0,0,9.8\n"
        var arguments: [String]
        var status: Int32
        /// stderr's first line after `Error: `; `IN` and `OUT` stand for the paths.
        var says: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "a range without samples", arguments: ["--shakes", "0.01-0.02,5-6"], status: 64,
                says: "the range 5-6 s of '--shakes' holds no sample of the recording (its samples run from 0.000 to 0.030 s)"),
        // Times from the first sample, read off a plot drawn with --rebase-time, for an export
        // stamped with epoch times: the message says what to pass.
        Refusal(name: "ranges from the start without --rebase-time",
                text: "time_s,x,y,z\n1700000000,0,0,9.8\n1700000000.01,0,0,9.8\n1700000000.02,0,0,9.8\n1700000000.03,0,0,9.8\n",
                arguments: ["--shakes", "0.01-0.02"], status: 64,
                says: "the range 0.01-0.02 s of '--shakes' holds no sample of the recording (its samples run from "
                    + "1700000000.000 to 1700000000.030 s); for times from the first sample, pass --rebase-time (the "
                    + "samples then run from 0.000 to 0.030 s)\n"),
        Refusal(name: "ranges with no sample between", arguments: ["--shakes", "0-0.01,0.015-0.03"], status: 64,
                says: "no sample lies between the ranges 0-0.01 and 0.015-0.03 s of '--shakes': they would be one "
                    + "labelled shake; join them into one range, or leave a sample between them"),
        // Ranges that share an end share the sample there: they overlap, not merely touch.
        Refusal(name: "ranges sharing an end", arguments: ["--shakes", "0-0.01,0.01-0.03"], status: 64,
                says: "The value '0-0.01,0.01-0.03' is invalid for '--shakes': the ranges 0-0.01 and 0.01-0.03 overlap: "
                    + "give each shake one range"),
        // Nanoseconds given as seconds: the range is named in plain digits, as --shakes reads it (not 1e+16).
        Refusal(name: "a range beyond the times a recording can hold",
                arguments: ["--shakes", "0-0.01,10000000000000000-20000000000000000"], status: 64,
                says: "the range 10000000000000000-20000000000000000 s of '--shakes' holds no sample of the recording"),
        // A label column named with --label-column is read though --shakes replaces its labels.
        Refusal(name: "a named label column of activity names, with ranges",
                text: "time_s,x,y,z,activity\n0,0,0,9.8,walking\n0.01,0,0,9.8,sitting\n",
                arguments: ["--label-column", "activity", "--shakes", "0-0.005"], status: 65,
                says: "IN:2:11: 'walking' is not a label in column 'activity' (use 0 or 1, or pass --ignore-labels"),
        Refusal(name: "overlapping ranges", arguments: ["--shakes", "0.02-0.03,0-0.025"], status: 64,
                says: "The value '0.02-0.03,0-0.025' is invalid for '--shakes': the ranges 0-0.025 and 0.02-0.03 overlap: "
                    + "give each shake one range"),
        Refusal(name: "a range backwards", arguments: ["--shakes", "0.03-0.01"], status: 64,
                says: "The value '0.03-0.01' is invalid for '--shakes': the range 0.03-0.01 ends before it starts"),
        Refusal(name: "a range of no length", arguments: ["--shakes", "0.01-0.01"], status: 64,
                says: "The value '0.01-0.01' is invalid for '--shakes': the range 0.01-0.01 is empty: its end must come "
                    + "after its start"),
        Refusal(name: "not a range", arguments: ["--shakes", "1..2"], status: 64,
                says: "The value '1..2' is invalid for '--shakes': '1..2' is not START-END in seconds; give ranges "
                    + "separated by commas, like 3.2-4.5,10-11.25 (a time before 0 with its minus: -3.5--2), or none "
                    + "(a recording without shakes)"),
        // A minus sign goes before a time's digits only: two before START, or one after them, are no range.
        Refusal(name: "two minus signs before a start", arguments: ["--shakes=--1-2"], status: 64,
                says: "The value '--1-2' is invalid for '--shakes': '--1-2' is not START-END in seconds"),
        Refusal(name: "a dash too many", arguments: ["--shakes", "-1-2-3"], status: 64,
                says: "The value '-1-2-3' is invalid for '--shakes': '-1-2-3' is not START-END in seconds"),
        Refusal(name: "a negative range backwards", arguments: ["--shakes", "-1--2"], status: 64,
                says: "The value '-1--2' is invalid for '--shakes': the range -1--2 ends before it starts"),
        // The part that is wrong is named; hexadecimal and exponents (which Double() reads) are no times here.
        Refusal(name: "a hexadecimal range among good ones", arguments: ["--shakes", "0-0.01, 0x3-5"], status: 64,
                says: "The value '0-0.01, 0x3-5' is invalid for '--shakes': '0x3-5' is not START-END in seconds"),
        Refusal(name: "an empty range", arguments: ["--shakes", "0-0.01,,0.02-0.03"], status: 64,
                says: "The value '0-0.01,,0.02-0.03' is invalid for '--shakes': an empty range is not START-END"),
        Refusal(name: "an empty output name", arguments: ["-o", ""], status: 64,
                says: "Empty value for '-o <file>' (an unset shell variable?)"),
        Refusal(name: "a bad row after good ones", text: "time_s,x,y,z\n0,0,0,9.8\n0.01,0,zero,9.8\n",
                arguments: [], status: 65, says: "IN:3:8: 'zero' is not a number in column 'y'"),
        Refusal(name: "a header and no samples", text: "time_s,x,y,z,shake\n", arguments: [], status: 65,
                says: "IN: no samples to convert"),
        Refusal(name: "a header and no samples, with ranges", text: "# source: test\ntime_s,x,y,z\n\n",
                arguments: ["--shakes", "1-2"], status: 65, says: "IN: no samples to convert"),
        Refusal(name: "the output is the input", arguments: ["-o", "IN"], status: 64,
                says: "'IN' is the recording being read: write the converted recording to another file"),
    ]

    @Test(arguments: refusals)
    func nothingIsWrittenWhenTheInputOrTheRangesAreWrong(_ refusal: Refusal) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("in.csv", refusal.text)
        let output = folder.file("out.csv")
        var arguments = ["convert", input] + refusal.arguments.map { $0 == "IN" ? input : $0 }
        if !refusal.arguments.contains("-o") { arguments += ["-o", output] }
        let run = runShake(arguments)
        #expect(run.status == refusal.status)
        let said = refusal.says.replacingOccurrences(of: "IN", with: input)
        #expect(run.err.hasPrefix("Error: \(said)"), "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in.csv"])
        #expect(try String(contentsOfFile: input, encoding: .utf8) == refusal.text)
    }

    /// Spaces around the dash are read; a sample on a range's end, after --rebase-time's
    /// subtraction left it a hair under (1700000010.017 − 1700000000.007 = 10.00999…), is
    /// labelled by its time as written (10.010000), so converting again changes nothing.
    @Test func labelsFollowTheTimesAsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var text = "time,x,y,z\n"
        for i in 0..<2000 { text += String(format: "%d.%02d7,0.1,0.2,9.8\n", 1_700_000_000 + i / 100, i % 100) }
        let input = try folder.write("epoch.csv", text)
        let (first, second) = (folder.file("first.csv"), folder.file("second.csv"))
        let ranges = "3.21 - 4.5, 10.01-11.25"
        let run = runShake("convert", input, "--rebase-time", "--shakes", ranges, "-o", first)
        #expect(run.status == 0, "\(run.err)")
        let rows = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").filter { $0.first?.isNumber == true }
        for edge in ["3.210000", "4.500000", "10.010000", "11.250000"] {
            let row = try #require(rows.first { $0.hasPrefix(edge + ",") }, "\(edge)")
            #expect(row.hasSuffix(",1"), "\(row)")
        }
        for outside in ["3.200000", "4.510000", "10.000000", "11.260000"] {
            let row = try #require(rows.first { $0.hasPrefix(outside + ",") }, "\(outside)")
            #expect(row.hasSuffix(",0"), "\(row)")
        }
        let again = runShake("convert", first, "--shakes", ranges, "-o", second)
        #expect(again.status == 0, "\(again.err)")
        let rowsAgain = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n").filter { $0.first?.isNumber == true }
        #expect(rowsAgain == rows)
    }

    // Defect: --shakes took times of 0 or more only, so a recording stamped before 0 could be
    // labelled only after --rebase-time had moved its times.
    /// Times before 0 are given with their minus sign (`-1.5--1`: -1.5 to -1 s), with or without
    /// `=` after the option, and label the samples at those times as written; the shakes_s line
    /// says them so, and labelling the output again with it changes nothing.
    @Test func negativeTimesAreLabelledAsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var text = "time_s,x,y,z\n"
        for i in -20...10 { text += String(format: "%.1f,0.1,0.2,9.8\n", Double(i) / 10) }
        let input = try folder.write("before-zero.csv", text)
        let (first, second) = (folder.file("first.csv"), folder.file("second.csv"))
        let run = runShake("convert", input, "--shakes", "-1.5--1, -0.2 - 0.3", "-o", first)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(first): 31 samples, 3.0 s, 2 labelled shakes\n", "\(run.out)")
        let written = try String(contentsOfFile: first, encoding: .utf8)
        #expect(written.contains("# shakes_s: -1.5--1,-0.2-0.3\n"), "\(written)")
        let labelled = written.split(separator: "\n").filter { $0.hasSuffix(",1") }.map { $0.prefix { $0 != "," } }
        #expect(labelled == ["-1.500000", "-1.400000", "-1.300000", "-1.200000", "-1.100000", "-1.000000",
                             "-0.200000", "-0.100000", "0.000000", "0.100000", "0.200000", "0.300000"], "\(labelled)")
        let again = runShake("convert", first, "--shakes=-1.5--1,-0.2-0.3", "-o", second)
        #expect(again.status == 0, "\(again.err)")
        let rows = { (path: String) in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        }
        #expect(try rows(second) == rows(first))
    }

    /// A time Swift would print with an exponent (1e-05) is written in the shakes_s line as a
    /// plain decimal, which --shakes reads back (it had written -1e-05-1, which --shakes refuses).
    @Test func shakesLineTimesReadBackWithoutAnExponent() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        var text = "time_s,x,y,z\n"
        for i in -10...20 { text += String(format: "%.2f,0.1,0.2,9.8\n", Double(i) / 10) }
        let input = try folder.write("small.csv", text)
        let run = runShake("convert", input, "--shakes=-0.00001-1,1.2000001-1.55", "-o", folder.file("out.csv"))
        #expect(run.status == 0, "\(run.err)")
        let written = try String(contentsOfFile: folder.file("out.csv"), encoding: .utf8)
        let line = try #require(written.split(separator: "\n").first { $0.hasPrefix("# shakes_s: ") })
        #expect(line == "# shakes_s: -0.00001-1,1.2000001-1.55", "\(line)")
        let value = String(line.dropFirst("# shakes_s: ".count))
        let again = runShake("convert", input, "--shakes", value, "-o", folder.file("again.csv"))
        #expect(again.status == 0, "\(again.err)")
    }

    /// A converted file labelled again: the shakes_s of the labels now written, not the old
    /// ones beside them (converted_from lines add up, one per conversion); a comment value holding a form
    /// feed or U+2028 (one line to the reader, a line break to the writer) is carried as spaces,
    /// and a file name with spaces at its ends in quotes, instead of failing the run.
    @Test func metadataIsReplacedNotPiledUpAndStaysOnItsLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write(" in.csv ", "# note: a\u{0C}b\u{2028}c\ntime_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n0.02,0,0,9.8\n")
        let (first, second) = (folder.file("first.csv"), folder.file("second.csv"))
        #expect(runShake("convert", input, "--shakes", "0-0.005", "-o", first).status == 0)
        let relabel = runShake("convert", first, "--shakes", "0.015-0.02", "-o", second)
        #expect(relabel.status == 0, "\(relabel.err)")
        let comments = try String(contentsOfFile: second, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(comments == ["# note: a b c", "# converted_from: \(input.debugDescription)", "# converted_from: \(first)",
                             "# shakes_s: 0.015-0.02"], "\(comments)")
        let firstComments = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(firstComments.contains("# converted_from: \(input.debugDescription)"), "\(firstComments)")
        // Converted again without --shakes, the labels are still those ranges: shakes_s stays;
        // a key with an empty value stays too.
        let third = folder.file("third.csv")
        let withEmpty = try folder.write("empty.csv", "# empty:\n" + (try String(contentsOfFile: second, encoding: .utf8)))
        #expect(runShake("convert", withEmpty, "-o", third).status == 0)
        let thirdComments = try String(contentsOfFile: third, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(thirdComments.first == "# empty: " && thirdComments.contains("# shakes_s: 0.015-0.02"), "\(thirdComments)")
    }

    /// --shakes replaces the file's labels, so a `label` column of activity names is not read
    /// (it had to parse as 0 and 1, or be left out with --ignore-labels); without --shakes it
    /// is still an error that names --ignore-labels.
    @Test func rangesReplaceAnActivityLabelColumnWithoutReadingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("act.csv", "time_s,x,y,z,label\n0,0,0,9.8,walking\n0.01,0,0,9.8,walking\n0.02,0,0,9.8,sitting\n")
        let output = folder.file("out.csv")
        let run = runShake("convert", input, "--shakes", "0-0.005", "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix(
            "time_s,x,y,z,shake\n0.000000,0.00000,0.00000,9.80000,1\n0.010000,0.00000,0.00000,9.80000,0\n0.020000,0.00000,0.00000,9.80000,0\n"))
        let plain = runShake("convert", input, "-o", folder.file("plain.csv"))
        #expect(plain.status == 65 && plain.err.contains("pass --ignore-labels"), "\(plain.err)")
    }

    /// A `.partial` that a killed `shake record` left is recovered by converting it, to another
    /// name: the work file of `-o rec.csv` would be the input itself.
    @Test func aLeftoverPartialConvertsToAnotherNameOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text = "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n"
        let partial = try folder.write("rec.csv.partial", text)
        let refused = runShake("convert", partial, "-o", folder.file("rec.csv"), "--force")
        #expect(refused.status == 64)
        #expect(refused.err.hasPrefix("Error: '\(partial)' is the recording being read, and writing '\(folder.file("rec.csv"))' "
            + "goes through '\(partial)' first: write the converted recording to another file\n"), "\(refused.err)")
        #expect(try String(contentsOfFile: partial, encoding: .utf8) == text)
        #expect(runShake("convert", partial, "-o", folder.file("recovered.csv")).status == 0)
    }

    @Test func anExistingOutputIsKeptWithoutForceAndReplacedWithIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("in.csv", "time_s,x,y,z\n0,0,0,9.8\n")
        let output = try folder.write("out.csv", "mine\n")
        let refused = runShake("convert", input, "-o", output)
        #expect(refused.status == 73)
        #expect(refused.err == "Error: \(output): already exists (pass --force to replace it)\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine\n")
        let forced = runShake("convert", input, "-o", output, "--force")
        #expect(forced.status == 0, "\(forced.err)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix("time_s,x,y,z\n0.000000,0.00000,0.00000,9.80000\n"))
    }

    /// The README's steps for tuning on your own recordings run as written, in a shell, in a
    /// folder holding only `sensor.csv`, and leave the files they name.
    @Test func readmeStepsForYourOwnRecordingsRun() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let intro = try #require(readme.range(of: "Tuning on your own recordings, then:\n\n```sh\n"),
                                 "README has no steps for your own recordings")
        let end = try #require(readme[intro.upperBound...].range(of: "```\n"))
        let steps = String(readme[intro.upperBound..<end.lowerBound])
        #expect(steps.contains("shake convert"))
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        #expect(runShake("synth", "shakes", "-o", folder.file("sensor.csv")).status == 0)
        let binFolder = URL(fileURLWithPath: shake).deletingLastPathComponent().path
        let script = "set -e\ncd '\(folder.path)'\nPATH='\(binFolder)':\"$PATH\"\n" + steps
        let run = try runProcess("/bin/sh", ["-c", script])
        #expect(run.status == 0, "\(steps)\n\(run.err)")
        #expect(listing(folder.path) == ["mine", "mine.json", "mine.svg", "sensor.csv", "sensor.svg"])
        #expect(listing(folder.file("mine")) == ["sensor.csv"])
    }

    /// Sensor Logger's Accelerometer.csv holds acceleration with gravity taken out: it converts
    /// (the detector still finds most shakes in it), with a warning that asks for the export with
    /// gravity; TotalAcceleration.csv, the same rows with gravity, converts without one.
    @Test func anExportWithGravityTakenOutConvertsWithAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func rows(gravity: Double) -> String {
            var text = "time,seconds_elapsed,z,y,x\n"
            for i in 0 ..< 200 {
                let wobble = 0.2 * Double((i * 3) % 7 - 3)
                text += "\(1_700_000_000_000_000_000 + i * 10_000_000),\(Double(i) / 100),\(gravity + wobble),\(wobble),-0.1\n"
            }
            return text
        }
        let withoutGravity = try folder.write("Accelerometer.csv", rows(gravity: 0))
        let run = runShake("convert", withoutGravity, "-o", folder.file("out.csv"))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\(folder.file("out.csv")): 200 samples, 2.0 s, no labels\n")
        #expect(run.err.hasPrefix("Warning: \(withoutGravity): |a| averages 0."))
        #expect(run.err.contains(" over the first 64 samples, where gravity alone gives 9.8 m/s²: the acceleration looks like it has gravity taken out"))
        #expect(run.err.contains("Sensor Logger: TotalAcceleration.csv"))
        #expect(FileManager.default.fileExists(atPath: folder.file("out.csv")))

        let withGravity = try folder.write("TotalAcceleration.csv", rows(gravity: 9.8))
        let total = runShake("convert", withGravity, "-o", folder.file("total.csv"))
        #expect(total.status == 0, "\(total.err)")
        #expect(total.err.isEmpty)
    }

    /// Under 16 rows (`EarlyMagnitude.fewestSamples`) an |a| average tells nothing: `--add-gravity`
    /// then sums the two files without judging either, though the gravity file reads far from
    /// 9.8 m/s² and the recording holds gravity already.
    @Test func tooFewRowsToJudgeAreSummedUnjudged() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func rows(_ x: Double, _ z: Double) -> String {
            "time_s,x,y,z\n" + (0..<10).map { "\(Double($0) / 100),\(x),0,\(z)\n" }.joined()
        }
        let recording = try folder.write("short.csv", rows(0.5, 9.75))
        let gravity = try folder.write("gravity.csv", rows(0.25, 0.02))
        let output = folder.file("out.csv")
        let run = runShake("convert", recording, "--add-gravity", gravity, "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix("time_s,x,y,z\n0.000000,0.75000,0.00000,9.77000\n"
            + (1..<10).map { String(format: "%.6f,0.75000,0.00000,9.77000\n", Double($0) / 100) }.joined()))
    }

    /// Sensor Logger on iOS writes acceleration without gravity to Accelerometer.csv and gravity
    /// to Gravity.csv, row for row: `--add-gravity` sums them into a recording with gravity.
    @Test func sensorLoggerOnIOSBecomesOneRecordingWithGravity() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func rows(_ count: Int, _ value: (Int) -> (z: Double, y: Double, x: Double), seconds: (Int) -> Double = { Double($0) / 100 }) -> String {
            var text = "time,seconds_elapsed,z,y,x\n"
            for i in 0 ..< count {
                let (z, y, x) = value(i)
                text += "\(1_700_000_000_000_000_000 + i * 10_000_000),\(seconds(i)),\(z),\(y),\(x)\n"
            }
            return text
        }
        let motion = try folder.write("Accelerometer.csv", rows(100) { i in (0.25 * Double(i % 4), -0.5, 0.125) })
        let gravity = try folder.write("Gravity.csv", rows(100) { _ in (9.5, 2.5, -0.5) })
        let output = folder.file("total.csv")
        let run = runShake("convert", motion, "--add-gravity", gravity, "-o", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix("# converted_from: \(motion)\n# gravity_added_from: \(gravity)\ntime_s,x,y,z\n"
            + "0.000000,-0.37500,2.00000,9.50000\n0.010000,-0.37500,2.00000,9.75000\n"))

        // Rows that do not pair up, or a recording that has gravity already: nothing is written.
        let skewed = try folder.write("skewed.csv", rows(100, { _ in (9.5, 2.5, -0.5) }, seconds: { $0 == 40 ? 0.395 : Double($0) / 100 }))
        let short = try folder.write("short.csv", rows(60) { _ in (9.5, 2.5, -0.5) })
        let total = try folder.write("TotalAcceleration.csv", rows(100) { _ in (9.5, 2.5, -0.5) })
        // Another sensor's file in gravity's place (wrote a recording without gravity, exit 0,
        // until stop 54): a gyroscope at rest, the motion file itself, a magnetometer.
        let gyroscope = try folder.write("Gyroscope.csv", rows(100) { i in (0.01 * Double(i % 3), -0.02, 0.005) })
        let magnetometer = try folder.write("Magnetometer.csv", rows(100) { _ in (-40, 12, 21) })
        let weak = try folder.write("weak.csv", rows(100) { _ in (4.5, 0, 0) })
        let strong = try folder.write("strong.csv", rows(100) { _ in (17, 0, 0) })
        let cases: [(String, String, String)] = [
            (motion, skewed, "\(skewed):42: time 0.395 s, where \(motion) has 0.4 s (line 42): '--add-gravity' needs the same times row by row"),
            (motion, short, "\(short):61: '--add-gravity' file ends after 60 samples (this line), where \(motion) goes on (line 62)"),
            (total, gravity, "\(total): |a| averages 9.84 m/s² over the first 64 samples: the recording already holds gravity"),
            (motion, gyroscope, "\(gyroscope): |a| averages 0.02 m/s² over the first 64 samples, where gravity alone reads 9.8: "
                + "'--add-gravity' takes a gravity export (Sensor Logger's Gravity.csv), not acceleration with gravity taken out"),
            (motion, motion, "\(motion): |a| averages 0.68 m/s² over the first 64 samples, where gravity alone reads 9.8"),
            (motion, magnetometer, "\(magnetometer): |a| averages 46.74 m/s² over the first 64 samples, where gravity alone reads 9.8: "
                + "'--add-gravity' takes a gravity export (Sensor Logger's Gravity.csv), not another sensor's values"),
            // Gravity is accepted from half of 9.8 m/s² to half as much again: 4.5 and 17 are neither.
            (motion, weak, "\(weak): |a| averages 4.50 m/s² over the first 64 samples, where gravity alone reads 9.8: "
                + "'--add-gravity' takes a gravity export (Sensor Logger's Gravity.csv), not acceleration with gravity taken out"),
            (motion, strong, "\(strong): |a| averages 17.00 m/s² over the first 64 samples, where gravity alone reads 9.8: "
                + "'--add-gravity' takes a gravity export (Sensor Logger's Gravity.csv), not another sensor's values"),
        ]
        // A shake in Accelerometer.csv's first 0.64 s gives |a| of about gravity's there: it is told
        // by its header and name, not refused as already holding gravity.
        try FileManager.default.createDirectory(atPath: folder.file("shaking"), withIntermediateDirectories: true)
        let shaking = try folder.write("shaking/Accelerometer.csv", rows(100) { i in
            (0.125, -0.5, i < 60 ? 15 * sin(2 * Double.pi * 4 * Double(i) / 100) : 0.125) })
        let added = runShake("convert", shaking, "--add-gravity", gravity, "-o", folder.file("shaking.csv"))
        #expect(added.status == 0, "\(added.err)")
        #expect(added.err.isEmpty, "\(added.err)")
        let summed = (try? String(contentsOfFile: folder.file("shaking.csv"), encoding: .utf8)) ?? ""
        #expect(summed.contains("\n0.010000,3.23035,2.00000,9.62500\n"), "\(summed.prefix(200))")
        for (recording, added, says) in cases {
            let refused = folder.file("refused.csv")
            let failed = runShake("convert", recording, "--add-gravity", added, "-o", refused)
            #expect(failed.status == 65, "\(failed.err)")
            #expect(failed.err.hasPrefix("Error: \(says)"), "\(failed.err)")
            #expect(!FileManager.default.fileExists(atPath: refused))
        }
    }
}
