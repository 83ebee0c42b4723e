import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `Scripts/splice-clips`, which wrote `Fixtures/others` from micro:bit CreateAI exports: every
/// clip in g becomes rows in m/s², each after a rest cut from the rest class, the shake class's
/// rows labelled, never two shake clips in a row, and where each clip starts said in a comment.
@Suite struct SpliceClipsScriptTests {
    static let g = 9.80665

    /// A CreateAI-style export: 2 `still` recordings of 80 samples, 3 `waggle` and 3 `poke`
    /// recordings of 40 (each recording's values differ, so its rows can be found again).
    static func export() -> String {
        func recording(_ n: Int, _ base: Double) -> String {
            let axes = ["x", "y", "z"].enumerated().map { axis, name in
                "\"\(name)\": [" + (0..<n).map { "\(base + Double(axis) * 0.1 + Double($0) * 0.001)" }
                    .joined(separator: ", ") + "]"
            }
            return "{\"data\": {" + axes.joined(separator: ", ") + "}}"
        }
        func cls(_ name: String, _ recordings: [String]) -> String {
            "{\"name\": \"\(name)\", \"recordings\": [" + recordings.joined(separator: ", ") + "]}"
        }
        return "[" + [
            cls("still", [recording(80, 0.0), recording(80, 0.01)]),
            cls("waggle", (0..<3).map { recording(40, 0.5 + Double($0) * 0.1) }),
            cls("poke", (0..<3).map { recording(40, -0.5 - Double($0) * 0.1) }),
        ].joined(separator: ", ") + "]"
    }

    @Test func splicesEveryClipAfterARestAndLabelsTheShakeClass() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let json = try folder.write("export.json", Self.export())
        let output = folder.file("out.csv")
        let run = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                 [json, "--shake-class", "waggle", "--rate", "50", "-o", output])
        #expect(run.status == 0, "\(run.err)")
        let (metadata, rows) = try RecordingReader.readAll(path: output)
        let value = { (key: String) in metadata.first { $0.key == key }?.value ?? "" }
        #expect(value("rate_hz") == "50")
        let starts = value("clip_starts_s").split(separator: ",").compactMap { Double($0) }
        let classes = value("clip_classes").split(separator: ",").map(String.init)
        // Six clips and the closing rest, each segment a rest of 1 to 1.5 s (50 to 75 rows at 50
        // Hz, as long as a still recording allows: 80) and then the clip (40 rows).
        #expect(classes.count == 7 && classes.last == "rest", "\(classes)")
        #expect(classes.filter { $0 == "waggle" }.count == 3 && classes.filter { $0 == "poke" }.count == 3)
        #expect(!zip(classes, classes.dropFirst()).contains { $0 == "waggle" && $1 == "waggle" }, "\(classes)")
        #expect(starts.count == 7 && starts.first == 0, "\(starts)")
        let startRows = starts.map { Int(($0 * 50).rounded()) }
        for (segment, (first, next)) in zip(startRows, startRows.dropFirst() + [rows.count]).enumerated() {
            let length = next - first
            let clipRows = segment < 6 ? 40 : 0
            #expect((50...75).contains(length - clipRows), "segment \(segment): \(length) rows")
            let labels = rows[first..<next].map { $0.isShake ?? false }
            let rest = length - clipRows
            #expect(labels.prefix(rest).allSatisfy { !$0 }, "segment \(segment): the rest is not labelled")
            #expect(labels.suffix(clipRows).allSatisfy { $0 == (classes[segment] == "waggle") },
                    "segment \(segment) (\(classes[segment])): labels")
            if clipRows > 0 {
                // The clip's first row is a recording's first sample in m/s²: x = base, y = base + 0.1 g.
                let sample = rows[first + rest].sample
                let base = sample.x / Self.g
                #expect(abs(sample.y / Self.g - (base + 0.1)) < 1e-4, "segment \(segment): \(sample)")
                #expect((classes[segment] == "waggle") == (base > 0.4), "segment \(segment): base \(base)")
            }
        }
        #expect(zip(rows, rows.dropFirst()).allSatisfy { abs($1.sample.time - $0.sample.time - 0.02) < 1e-6 })
    }

    /// CreateAI's saved sessions wrap the classes in `{"version": 1, "value": [...]}`: the same
    /// recording comes out as from the bare list.
    @Test func aSavedSessionGivesTheSameRecordingAsTheBareList() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let bare = try folder.write("bare.json", Self.export())
        let wrapped = try folder.write("wrapped.json", "{\"version\": 1, \"value\": \(Self.export())}")
        for (json, output) in [(bare, "bare.csv"), (wrapped, "wrapped.csv")] {
            let run = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                     [json, "--shake-class", "waggle", "--source", "s", "-o", folder.file(output)])
            #expect(run.status == 0, "\(run.err)")
        }
        let rows = try [folder.file("bare.csv"), folder.file("wrapped.csv")].map { try RecordingReader.readAll(path: $0).samples }
        #expect(rows[0].count > 0 && rows[0] == rows[1])
    }

    /// A session with nearly as many shake clips as others (ml-trainer forks label 20 of 60 clips
    /// as one class): whole shuffles that keep them apart are rare, and each then goes into a gap
    /// of its own; one more shake clip than gaps is refused.
    @Test func manyShakeClipsEachGetAGapOfTheirOwn() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func session(waggles: Int, pokes: Int) -> String {
            let clip = "{\"data\": {\"x\": [0.1, 0.2], \"y\": [0, 0], \"z\": [1, 1]}}"
            let rest = "{\"data\": {\"x\": " + "[\(Array(repeating: "0", count: 80).joined(separator: ","))]"
                + ", \"y\": [\(Array(repeating: "0", count: 80).joined(separator: ","))]"
                + ", \"z\": [\(Array(repeating: "1", count: 80).joined(separator: ","))]}}"
            func cls(_ name: String, _ n: Int, _ r: String) -> String {
                "{\"name\": \"\(name)\", \"recordings\": [" + Array(repeating: r, count: n).joined(separator: ", ") + "]}"
            }
            return "[" + [cls("still", 1, rest), cls("waggle", waggles, clip), cls("poke", pokes, clip)]
                .joined(separator: ", ") + "]"
        }
        let many = try folder.write("many.json", session(waggles: 12, pokes: 11))
        let run = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                 [many, "--shake-class", "waggle", "-o", folder.file("many.csv")])
        #expect(run.status == 0, "\(run.err)")
        let (metadata, _) = try RecordingReader.readAll(path: folder.file("many.csv"))
        let classes = (metadata.first { $0.key == "clip_classes" }?.value ?? "").split(separator: ",").map(String.init)
        #expect(classes.filter { $0 == "waggle" }.count == 12 && classes.filter { $0 == "poke" }.count == 11, "\(classes)")
        #expect(!zip(classes, classes.dropFirst()).contains { $0 == "waggle" && $1 == "waggle" }, "\(classes)")

        let tooMany = try folder.write("too-many.json", session(waggles: 13, pokes: 11))
        let refused = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                     [tooMany, "--shake-class", "waggle", "-o", folder.file("too-many.csv")])
        #expect(refused.status == 65)
        #expect(refused.err.contains("too many shake clips (13) to keep another clip between every two of them (there are 11 others)"),
                "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("too-many.csv")))
    }

    /// A class that is there but holds no clip (no recording with samples) is named as empty:
    /// a shake class (nothing would be labelled), the rest class (no rests to cut), or every class
    /// but the rest (nothing to splice). An output in a folder that does not exist says so. No
    /// file is written.
    @Test func emptyClassesAndAMissingFolderAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let clip = "{\"data\": {\"x\": [0.1, 0.2], \"y\": [0, 0], \"z\": [1, 1]}}"
        func session(_ classes: [(String, Int)]) -> String {
            "[" + classes.map { name, n in
                "{\"name\": \"\(name)\", \"recordings\": [" + Array(repeating: clip, count: n).joined(separator: ", ") + "]}"
            }.joined(separator: ", ") + "]"
        }
        let noWaggle = try folder.write("no-waggle.json", session([("still", 1), ("waggle", 0), ("poke", 2)]))
        let noStill = try folder.write("no-still.json", session([("still", 0), ("poke", 2)]))
        let onlyStill = try folder.write("only-still.json", session([("still", 1), ("poke", 0)]))
        let cases: [([String], String)] = [
            ([noWaggle, "--shake-class", "waggle"],
             "Error: \(noWaggle): class 'waggle' has no clips (no recording with samples): nothing to label as shakes\n"),
            ([noStill],
             "Error: \(noStill): class \"still\" has no clips (no recording with samples) to cut rests from; choose --rest-class or --rest-from\n"),
            ([onlyStill], "Error: \(onlyStill): no clips to splice (every class but the rest class \"still\" is empty)\n"),
        ]
        for (arguments, message) in cases {
            let run = try runProcess(repositoryRoot + "/Scripts/splice-clips", arguments + ["-o", folder.file("out.csv")])
            #expect(run.status == 65, "\(arguments)")
            #expect(run.err == message, "\(run.err)")
        }
        let nested = folder.file("missing/out.csv")
        let run = try runProcess(repositoryRoot + "/Scripts/splice-clips", [noStill, "-o", nested])
        #expect(run.status == 73)
        #expect(run.err == "Error: \(nested): its folder \(folder.file("missing")) does not exist\n", "\(run.err)")
        #expect(listing(folder.path) == ["no-still.json", "no-waggle.json", "only-still.json"])
    }

    /// Values no reader takes (NaN, and 1e400 read as infinity), a rest class named as the shake
    /// class (nothing would be labelled), a dataset that is not UTF-8 and recordings that are no
    /// list: each an error naming what is wrong, no traceback and no file; bad data exits 65, the
    /// contradictory options 64 (a usage error).
    @Test func badValuesAndClassesAreRefusedWithoutAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let still = "{\"name\": \"still\", \"recordings\": [{\"data\": {\"x\": [0, 0, 0], \"y\": [0, 0, 0], \"z\": [1, 1, 1]}}]}"
        let nan = try folder.write("nan.json", "[\(still), {\"name\": \"shake\", \"recordings\": [{\"data\": {\"x\": [0.5, NaN], \"y\": [0, 0], \"z\": [1, 1]}}]}]")
        let huge = try folder.write("huge.json", "[\(still), {\"name\": \"shake\", \"recordings\": [{\"data\": {\"x\": [0.5, 1e400], \"y\": [0, 0], \"z\": [1, 1]}}]}]")
        let good = try folder.write("good.json", "[\(still), {\"name\": \"shake\", \"recordings\": [{\"data\": {\"x\": [0.5, -0.5], \"y\": [0, 0], \"z\": [1, 1]}}]}]")
        let noList = try folder.write("no-list.json", "[{\"name\": \"still\", \"recordings\": null}]")
        let binary = folder.file("binary.json")
        try Data([0xFF, 0xFE, 0x00, 0x5B]).write(to: URL(fileURLWithPath: binary))
        let cases: [([String], Int32, String)] = [
            ([nan, "--shake-class", "shake"], 65, "Error: \(nan): class \"shake\", recording 1, sample 2: (nan, 0.0, 1.0) is not a finite number on every axis\n"),
            ([huge, "--shake-class", "shake"], 65, "Error: \(huge): class \"shake\", recording 1, sample 2: (inf, 0.0, 1.0) is not a finite number on every axis\n"),
            ([good, "--shake-class", "still"], 64, "Error: \(good): \"still\" is the rest class: its clips are cut into rests, not spliced, so none would be labelled a shake; choose another --rest-class (or --rest-from)\n"),
            ([noList], 65, "Error: \(noList): class \"still\": \"recordings\" is a NoneType, not a list\n"),
            ([binary], 65, "Error: \(binary): not UTF-8 text (byte 1): not a JSON dataset\n"),
        ]
        for (arguments, status, message) in cases {
            let run = try runProcess(repositoryRoot + "/Scripts/splice-clips", arguments + ["-o", folder.file("out.csv")])
            #expect(run.status == status, "\(arguments)")
            #expect(run.err == message, "\(run.err)")
        }
        let missing = folder.file("missing.json")
        let notThere = try runProcess(repositoryRoot + "/Scripts/splice-clips", [missing, "-o", folder.file("out.csv")])
        #expect(notThere.status == 66 && notThere.err == "Error: \(missing): No such file or directory\n", "\(notThere.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.csv")))
    }

    /// `--help` prints the whole docstring: the export's layout, the assumed rate, the comment lines.
    @Test func helpPrintsTheWholeDocstring() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/splice-clips", ["--help"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("""
            DATASET.json is what micro:bit CreateAI (microbit-foundation/ml-trainer) and ML-Machine save: a
            """), "\(run.out)")
        #expect(run.out.contains("'# clip_classes:' the class of each of those clips."), "\(run.out)")
        #expect(run.out.contains("Only the Python standard library is needed."), "\(run.out)")
    }

    @Test func refusesToOverwriteAndNamesWhatIsMissing() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let json = try folder.write("export.json", Self.export())
        let mine = try folder.write("mine.csv", "keep me\n")
        let overwrite = try runProcess(repositoryRoot + "/Scripts/splice-clips", [json, "-o", mine])
        #expect(overwrite.status == 73)
        #expect(overwrite.err.contains("\(mine): exists (nothing is overwritten)"), "\(overwrite.err)")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "keep me\n")

        // Nor a '.partial' beside the output (it was written over, then renamed away), nor a
        // broken symbolic link at it.
        let partial = try folder.write("new.csv.partial", "someone's\n")
        let overPartial = try runProcess(repositoryRoot + "/Scripts/splice-clips", [json, "-o", folder.file("new.csv")])
        #expect(overPartial.status == 73)
        #expect(overPartial.err.contains("\(partial): exists"), "\(overPartial.err)")
        #expect(try String(contentsOfFile: partial, encoding: .utf8) == "someone's\n")
        try FileManager.default.removeItem(atPath: partial)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.csv"), withDestinationPath: folder.file("nowhere"))
        let overLink = try runProcess(repositoryRoot + "/Scripts/splice-clips", [json, "-o", folder.file("link.csv")])
        #expect(overLink.status == 73)
        #expect(overLink.err.contains("link.csv: exists (nothing is overwritten)"), "\(overLink.err)")
        try FileManager.default.removeItem(atPath: folder.file("link.csv"))

        let unknown = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                     [json, "--shake-class", "shake", "-o", folder.file("a.csv")])
        #expect(unknown.status == 65)
        #expect(unknown.err.contains("no class 'shake' (classes: poke, still, waggle)"), "\(unknown.err)")

        let noRest = try runProcess(repositoryRoot + "/Scripts/splice-clips",
                                    [json, "--rest-class", "idle", "-o", folder.file("b.csv")])
        #expect(noRest.status == 65)
        #expect(noRest.err.contains("no class \"idle\" to cut rests from"), "\(noRest.err)")

        let bad = try folder.write("bad.json", "[{\"name\": \"still\", \"recordings\": [\n  {\"data\": }]}]")
        let notJSON = try runProcess(repositoryRoot + "/Scripts/splice-clips", [bad, "-o", folder.file("c.csv")])
        #expect(notJSON.status == 65)
        #expect(notJSON.err.contains("\(bad):2:12: not JSON"), "\(notJSON.err)")
        #expect(listing(folder.path) == ["bad.json", "export.json", "mine.csv"])
    }
}
