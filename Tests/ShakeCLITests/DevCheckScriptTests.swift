import Foundation
import ShakeRecording
import Testing

/// `Scripts/dev-check --keep DIR --list`: the variant recordings kept for a closer look, and every
/// missed or false shake of the variant rows listed under the table, led by its row's name.
@Suite struct DevCheckScriptTests {
    /// 12 s at 100 Hz of a device lying still (gravity on z), labelled a shake from 5 to 6 s:
    /// a labelled shake that nobody made, so every variant of it is a missed shake. With `spike`,
    /// one sample at 2 s reads that much on x (a knock, m/s²).
    static func stillRecording(labelled: Bool, spike: Double? = nil) -> String {
        var text = "time_s,x,y,z,shake\n"
        for i in 0..<1200 {
            let t = Double(i) / 100
            let shake = labelled && t >= 5 && t < 6 ? 1 : 0
            text += String(format: "%.2f,%.2f,-0.02,9.81,%d\n", t, i == 200 ? spike ?? 0.01 : 0.01, shake)
        }
        return text
    }

    static func devCorpus(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("dev"), withIntermediateDirectories: true)
        _ = try folder.write("dev/wiimote_a.csv", stillRecording(labelled: true))
        _ = try folder.write("dev/microbit_a.csv", stillRecording(labelled: true))
        _ = try folder.write("dev/oxford_a.csv", stillRecording(labelled: false))
        return folder.file("dev")
    }

    /// A stand-in for `Fixtures/others`: a micro:bit's and a phone's labelled still recording (a
    /// missed shake in every variant), each with a 60 m/s² knock, beyond the micro:bit's range.
    static func others(in folder: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("others"), withIntermediateDirectories: true)
        _ = try folder.write("others/microbit_b.csv", stillRecording(labelled: true, spike: 60))
        _ = try folder.write("others/phone_b.csv", stillRecording(labelled: true, spike: 60))
        return folder.file("others")
    }

    /// The largest |a| in each recording of `folder`, m/s².
    static func largestMagnitudes(in folder: String) throws -> [Double] {
        try listing(folder).filter { $0.hasSuffix(".csv") }.map { name in
            try RecordingReader.readAll(path: folder + "/" + name).samples.map(\.sample.magnitude).max() ?? 0
        }
    }

    /// `Scripts/dev-check` with `arguments`, once with `--list` and once with `--format json`: the
    /// table's lines (the header first), the lines listed under it (each split into its row, its
    /// file and the rest), and the JSON's totals by row.
    static func tableListingAndTotals(_ arguments: [String]) throws
        -> (table: [String], listed: [[String]], totals: [String: [String: Any]]) {
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check", arguments + ["--list"])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let listed = lines.drop { !$0.isEmpty }.filter { !$0.isEmpty }.map { $0.split(separator: " ", maxSplits: 2).map(String.init) }
        let json = try runProcess(repositoryRoot + "/Scripts/dev-check", arguments + ["--format", "json"])
        #expect(json.status == 0, "\(json.err)")
        let totals = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: [String: Any]])
        return (Array(lines.prefix { !$0.isEmpty }), listed, totals)
    }

    /// `option MISSING` (a folder that is not there) is an error that names it and the script
    /// that writes such a folder, exit 66 (shake's missing input).
    static func expectMissingFolderIsAUsageError(_ option: String, writtenBy script: String, dev: String, shake: String,
                                                 in folder: TemporaryFolder) throws {
        let missing = folder.file("no-such-folder")
        let usage = try runProcess(repositoryRoot + "/Scripts/dev-check", ["--dev", dev, "--shake", shake, option, missing])
        #expect(usage.status == 66)
        #expect(usage.err.contains("Error: \(missing): no such folder (write one with Scripts/\(script))"),
                "\(usage.err)")
    }

    @Test func keepsTheVariantsAndListsEveryMissedShakeUnderItsRow() throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is not built")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let kept = folder.file("kept")
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check",
                                 ["--dev", dev, "--others", try Self.others(in: folder), "--shake", shake,
                                  "--keep", kept, "--list"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("The variant recordings are in \(kept)"))

        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let table = lines.prefix { !$0.isEmpty }
        #expect(table.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["dev", "dev@50Hz", "dev@25Hz", "dev@400Hz", "dev@fifo16", "dev@2g", "harder", "walks", "joined", "joined-shakes", "turned", "clips", "vigorous", "others",
                    "others-vig"])
        // The dev row: two labelled shakes, none found.
        #expect(table.dropFirst().first?.split(separator: " ").prefix(3) == ["dev", "2", "0"])

        let listed = lines.drop { !$0.isEmpty }.filter { !$0.isEmpty }
        var perRow: [String: Int] = [:]
        for line in listed {
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            try #require(fields.count == 3, "\(line)")
            perRow[fields[0], default: 0] += 1
            #expect(line.contains("  missed shake  labelled "), "\(line)")
            // Named inside the kept folder, where the file is.
            #expect(!fields[1].hasPrefix("/"), "\(line)")
            #expect(FileManager.default.fileExists(atPath: kept + "/" + fields[1]), "\(line)")
        }
        // Each variant of the two labelled recordings once: 9 + 9 harder, 10 + 10 turned, 10 clips
        // and 12 vigorous (Wiimote only), one each at 50, 25 and 400 Hz, in FIFO batches and clipped at ±2 g, the
        // two others recordings' 40 vigorous variants each; the dev and others rows and the unlabelled walks list nothing.
        // joined-shakes: each labelled recording's shake as three streams, from 0.25, 0.5 and 1 s before it.
        #expect(perRow == ["dev@50Hz": 2, "dev@25Hz": 2, "dev@400Hz": 2, "dev@fifo16": 2, "dev@2g": 2, "harder": 18, "turned": 20, "clips": 10,
                           "vigorous": 12, "others-vig": 80, "joined-shakes": 6])
        #expect(listing(kept) == ["clip2g", "clips", "fast", "fifo16", "harder", "harder-microbit", "joined", "joined-shakes", "others-vig",
                                  "others-vig-other-devices", "rates", "turned", "turned-microbit", "vigorous", "walks"])
        #expect(listing(kept + "/joined-shakes") == ["microbit_a_native_shake1_lead0.25.csv", "microbit_a_native_shake1_lead0.5.csv",
                                                    "microbit_a_native_shake1_lead1.csv", "wiimote_a_native_shake1_lead0.25.csv",
                                                    "wiimote_a_native_shake1_lead0.5.csv", "wiimote_a_native_shake1_lead1.csv"])
        let lead = try RecordingReader.readAll(path: kept + "/joined-shakes/wiimote_a_native_shake1_lead0.25.csv").samples
        #expect(lead.first.map { abs($0.sample.time - 4.75) < 1e-6 } == true && lead.last.map { abs($0.sample.time - 6.99) < 1e-6 } == true,
                "\(lead.first?.sample.time ?? -1) to \(lead.last?.sample.time ?? -1) s")
        // joined: the walks row's four recordings (12 s, or 9.2 s at cadence x1.3) as 10 s streams
        // every 2.5 s, down to the last that holds 2 s: from 0 to 10 s, or to 5 s.
        let joined = listing(kept + "/joined")
        #expect(joined.count == 16 && ["k1.6_t1", "k2_t1"].allSatisfy { variant in
            ["0", "2.5", "5", "7.5", "10"].allSatisfy { joined.contains("oxford_a_\(variant)_native_from\($0).csv") }
        } && ["k1.6_t1.3", "k2_t1.3"].allSatisfy { variant in
            ["0", "2.5", "5"].allSatisfy { joined.contains("oxford_a_\(variant)_native_from\($0).csv") }
        }, "\(joined)")
        for (start, count) in [(0.0, 1000), (7.5, 450), (10, 200)] {
            let name = "oxford_a_k2_t1_native_from\(start == 7.5 ? "7.5" : String(Int(start))).csv"
            let piece = try RecordingReader.readAll(path: kept + "/joined/" + name).samples
            #expect(piece.count == count && piece.first.map { abs($0.sample.time - start) < 1e-6 } == true,
                    "\(name): \(piece.count) samples from \(piece.first?.sample.time ?? -1) s")
        }
        // dev@400Hz: the Wiimote and micro:bit sessions (not the walk) at 400 Hz, jittered.
        #expect(listing(kept + "/fast") == ["microbit_a_r400_n0.03_q0.0192_j0.2.csv", "wiimote_a_r400_n0.03_q0.0192_j0.2.csv"])
        let fast = try RecordingReader.readAll(path: kept + "/fast/wiimote_a_r400_n0.03_q0.0192_j0.2.csv").samples
        let intervals = zip(fast, fast.dropFirst()).map { $1.sample.time - $0.sample.time }
        #expect(fast.count == 4_797 && intervals.allSatisfy { $0 > 0.0025 * 0.6 && $0 < 0.0025 * 1.4 }
                && intervals.contains { abs($0 - 0.0025) > 0.0003 }, "\(fast.count) samples")
        // dev@fifo16: the same sessions in batches of 16, every sample of a batch at its last's time.
        #expect(listing(kept + "/fifo16") == ["microbit_a_native_fifo16same.csv", "wiimote_a_native_fifo16same.csv"])
        let batched = try RecordingReader.readAll(path: kept + "/fifo16/wiimote_a_native_fifo16same.csv").samples
        #expect(batched.count == 1200 && Set(batched.map(\.sample.time)).count == 1200 / 16,
                "\(batched.count) samples, \(Set(batched.map(\.sample.time)).count) times")
        // dev@2g: the same sessions with every axis clipped at ±19.6 m/s² (a ±2 g sensor).
        #expect(listing(kept + "/clip2g") == ["microbit_a_native_c19.6.csv", "wiimote_a_native_c19.6.csv"])
        let clipped = try RecordingReader.readAll(path: kept + "/clip2g/wiimote_a_native_c19.6.csv").samples
        #expect(clipped.count == 1200 && clipped.allSatisfy { max(abs($0.sample.x), abs($0.sample.y), abs($0.sample.z)) <= 19.6 })
        // The micro:bit's variants are clipped at its ±2.04 g on every axis; the phone's keep the knock.
        let microbit = try Self.largestMagnitudes(in: kept + "/others-vig")
        let phone = try Self.largestMagnitudes(in: kept + "/others-vig-other-devices")
        #expect(microbit.count == 40 && microbit.allSatisfy { $0 <= 20.006 * 3.0.squareRoot() + 0.01 }, "\(microbit)")
        #expect(phone.count == 40 && phone.allSatisfy { $0 >= 60 }, "\(phone)")
    }

    /// `--wiimote-extra DIR` (a folder `Scripts/wiimote-extra` wrote) adds two rows after
    /// others-vig: `extra`, the folder as it is, and `extra-clips`, its sessions ten times over with
    /// every clip turned, as the clips row's are; the table stays aligned, `--list` lists both rows
    /// and `--format json` names them. A folder that is not there is a usage error naming it.
    @Test func wiimoteExtraAddsTwoRowsAfterOthersVig() throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is not built")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let others = try Self.others(in: folder)
        try FileManager.default.createDirectory(atPath: folder.file("extra"), withIntermediateDirectories: true)
        let session = try folder.write("extra/wiimote_extra_session01.csv",
                                       "# clip_starts_s: 0.00,4.00,6.00\n# clip_classes: move right,shake,rest\n"
                                       + Self.stillRecording(labelled: true))
        let (table, listed, totals) = try Self.tableListingAndTotals(
            ["--dev", dev, "--others", others, "--shake", shake, "--wiimote-extra", folder.file("extra")])
        #expect(table.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["dev", "dev@50Hz", "dev@25Hz", "dev@400Hz", "dev@fifo16", "dev@2g", "harder", "walks", "joined", "joined-shakes", "turned", "clips", "vigorous", "others",
                    "others-vig", "extra", "extra-clips"])
        // The session's one labelled shake, not found; and its ten turned variants.
        #expect(table.suffix(2).map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
                == ["extra 1 0", "extra-clips 10 0"], "\(table)")
        #expect(Set(table.map(\.count)).count == 1, "the columns are not aligned:\n\(table.joined(separator: "\n"))")

        let extra = listed.filter { $0.first == "extra" }
        #expect(extra.count == 1 && extra.first?[1] == session, "\(extra)")
        let extraClips = listed.filter { $0.first == "extra-clips" }
        #expect(extraClips.count == 10 && extraClips.allSatisfy { $0[1].hasPrefix("extra-clips/wiimote_extra_session01_") },
                "\(extraClips)")
        #expect(totals.count == 17 && totals["extra"]?["shakes"] as? Int == 1
                && totals["extra-clips"]?["shakes"] as? Int == 10, "\(totals)")

        try Self.expectMissingFolderIsAUsageError("--wiimote-extra", writtenBy: "wiimote-extra", dev: dev, shake: shake,
                                                  in: folder)
    }

    /// `--everyday DIR` (a folder `Scripts/everyday-extra` wrote) adds one row, last, of the folder
    /// as it is: here the long-shake fixture with its labels taken away, so its one shake is a
    /// false shake, listed under the row by `--list`; and `--format json` names the row. It adds
    /// joined-everyday too, after joined-shakes: the folder's recordings as consecutive 10 s streams.
    @Test func everydayAddsARowLast() throws {
        let shake = try #require(builtShakeExecutable(), "the shake executable is not built")
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let others = try Self.others(in: folder)
        let fixture = try String(contentsOfFile: repositoryRoot + "/Fixtures/long_shake_100hz.csv", encoding: .utf8)
        let unlabelled = fixture.split(separator: "\n").map { line in
            line.hasSuffix(",1") ? line.dropLast() + "0" : line
        }.joined(separator: "\n") + "\n"
        try #require(unlabelled != fixture, "the fixture has no labelled shake to take away")
        try FileManager.default.createDirectory(atPath: folder.file("everyday"), withIntermediateDirectories: true)
        let recording = try folder.write("everyday/long_shake.csv", unlabelled)
        let (table, listed, totals) = try Self.tableListingAndTotals(
            ["--dev", dev, "--others", others, "--shake", shake, "--everyday", folder.file("everyday")])
        #expect(table.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["dev", "dev@50Hz", "dev@25Hz", "dev@400Hz", "dev@fifo16", "dev@2g", "harder", "walks", "joined", "joined-shakes", "joined-everyday", "turned", "clips", "vigorous",
                    "others", "others-vig", "everyday"])
        // shakes, detected, recall, duplicates, false shakes
        #expect(table.last?.split(separator: " ").prefix(6).joined(separator: " ") == "everyday 0 0 - 0 1", "\(table)")
        let everyday = listed.filter { $0.first == "everyday" }
        #expect(everyday.count == 1 && everyday.first?[1] == recording
                && everyday.first?[2].trimmingCharacters(in: .whitespaces).hasPrefix("false shake   began at ") == true,
                "\(everyday)")
        #expect(totals.count == 17 && totals["everyday"]?["false_shakes"] as? Int == 1
                && totals["everyday"]?["shakes"] as? Int == 0, "\(totals)")
        // joined-everyday: the 10 s recording as one stream from its start (no later one holds 2 s),
        // where the shake fires as it does in the whole.
        #expect(table.first { $0.hasPrefix("joined-everyday ") }?.split(separator: " ").prefix(6).joined(separator: " ")
                == "joined-everyday 0 0 - 0 1", "\(table)")
        let joined = listed.filter { $0.first == "joined-everyday" }
        #expect(joined.count == 1 && joined.first?[1] == "joined-everyday/long_shake_native_from0.csv", "\(joined)")
        #expect(totals["joined-everyday"]?["false_shakes"] as? Int == 1, "\(totals)")

        try Self.expectMissingFolderIsAUsageError("--everyday", writtenBy: "everyday-extra", dev: dev, shake: shake,
                                                  in: folder)
    }

    /// A step that fails with `--keep DIR`: the error, then a line saying DIR was removed, and no
    /// half-written DIR left behind. dev-check exits with the step's status when it names bad
    /// or missing input (65, 66) or an output not made (73), else 70.
    @Test(arguments: [(Int32(1), Int32(70)), (65, 65), (64, 70)])
    func keepIsRemovedWhenAStepFails(step: Int32, expected: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let failing = try folder.write("failing-shake", "#!/bin/sh\necho 'Error: boom' >&2\nexit \(step)\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: failing)
        let kept = folder.file("kept")
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check",
                                 ["--dev", dev, "--others", try Self.others(in: folder), "--shake", failing,
                                  "--keep", kept])
        #expect(run.status == expected)
        #expect(run.err.contains("failed (exit \(step)):\nError: boom\n"), "\(run.err)")
        #expect(run.err.hasSuffix("dev-check: removed \(kept): the run did not finish, so its variants were incomplete\n"),
                "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: kept))
    }

    /// The dev@fifo16 row (the shake sessions in FIFO batches, each stamped with its last
    /// sample's time) is scored with `--spread-batches`, the detector behind BatchTimeSpreader, as
    /// `--help` says; no other row is. Seen in the commands dev-check runs, with a stand-in for
    /// `shake` that logs its arguments and answers every `evaluate --format json` with no totals.
    @Test func onlyTheFifoRowIsScoredWithSpreadBatches() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let log = folder.file("commands.log")
        let standIn = try folder.write("logging-shake", "#!/bin/sh\necho \"$*\" >> '\(log)'\necho '{\"total\": {}}'\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
        let kept = folder.file("kept")
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check",
                                 ["--dev", dev, "--others", try Self.others(in: folder), "--shake", standIn,
                                  "--keep", kept, "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let evaluations = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("evaluate ") }.map { $0.split(separator: " ").map(String.init) }
        // One evaluation a row: the 15 rows of keepsTheVariantsAndListsEveryMissedShakeUnderItsRow.
        #expect(evaluations.count == 15, "\(evaluations)")
        let fifo = evaluations.filter { $0.contains(kept + "/fifo16") }
        #expect(fifo.count == 1 && fifo.first?.contains("--spread-batches") == true, "\(fifo)")
        #expect(evaluations.filter { $0.contains("--spread-batches") } == fifo, "\(evaluations)")
    }

    /// `--shake PATH` that is not there, or not executable, is an error naming it, exit 66 (the
    /// default binary alone is built when missing).
    @Test func shakeMustBeAnExecutableFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        let missing = folder.file("no-shake")
        let plain = try folder.write("plain-shake", "not a program\n")
        // (A folder was "no such file".)
        for (shake, message) in [(missing, "no such file"), (plain, "not executable"), (folder.path, "a folder, not a file")] {
            let run = try runProcess(repositoryRoot + "/Scripts/dev-check", ["--dev", dev, "--shake", shake])
            #expect(run.status == 66, "\(shake): \(run.err)")
            #expect(run.err.contains("Error: --shake \(shake): \(message)"), "\(run.err)")
            #expect(!run.err.contains("Traceback"), "\(run.err)")
        }
    }

    /// `--help` says how each row is made (the README sends readers there), laid out as written.
    @Test func helpDescribesEveryRow() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check", ["--help"])
        #expect(run.status == 0, "\(run.err)")
        for row in ["dev", "dev@50Hz", "dev@25Hz", "dev@400Hz", "dev@fifo16", "dev@2g", "harder", "walks", "joined", "joined-shakes", "turned", "clips", "vigorous", "others",
                    "others-vig", "extra", "extra-clips", "everyday", "joined-everyday"] {
            #expect(run.out.contains("\n  " + row.padding(toLength: 14, withPad: " ", startingAt: 0)),
                    "\(row): \(run.out)")
        }
        #expect(run.out.contains("Only the Python standard library is needed; about 30 s on 2 cores"), "\(run.out)")
    }

    @Test func keepRefusesAFolderThatExistsAndLeavesItAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let dev = try Self.devCorpus(in: folder)
        try FileManager.default.createDirectory(atPath: folder.file("mine"), withIntermediateDirectories: true)
        let notes = try folder.write("mine/notes.txt", "keep me\n")
        let run = try runProcess(repositoryRoot + "/Scripts/dev-check",
                                 ["--dev", dev, "--shake", "/nonexistent/shake", "--keep", folder.file("mine")])
        #expect(run.status == 73)
        #expect(run.err.contains("\(folder.file("mine")): already exists"), "\(run.err)")
        #expect(listing(folder.file("mine")) == ["notes.txt"])
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me\n")
    }
}
