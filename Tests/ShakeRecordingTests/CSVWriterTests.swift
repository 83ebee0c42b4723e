import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// A fresh directory under the system temp folder, removed when the test ends.
final class CSVTestDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "/shakekit-csv-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) -> String {
        let p = file(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    func text(_ name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Deterministic samples: a 100 Hz stream with varied magnitudes and signs.
func csvTestSamples(count: Int, seed: UInt64 = 42) -> [LabeledSample] {
    var state = seed
    func random() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    var time = 1000 * random()
    return (0 ..< count).map { i in
        time += 0.0001 + 0.02 * random()
        let scale = [0.001, 1, 9.81, 150, 1999][i % 5]
        return LabeledSample(
            sample: Sample(time: time, x: scale * (2 * random() - 1), y: scale * (2 * random() - 1), z: -scale * random()),
            isShake: random() < 0.3)
    }
}

@Suite struct CSVWriterTests {
    @Test(arguments: [true, false])
    func writtenSamplesReadBackWithinTheWrittenPrecision(labelled: Bool) throws {
        let dir = CSVTestDirectory()
        let path = dir.file("rec.csv")
        let samples = csvTestSamples(count: 5000)
        let metadata = [(key: "device", value: "test rig: 100 Hz"), (key: "units", value: "m/s^2")]
        let writer = try RecordingWriter(path: path, metadata: metadata, labelled: labelled)
        for row in samples { try writer.write(row.sample, isShake: labelled ? row.isShake : nil) }
        #expect(writer.samplesWritten == samples.count)
        try writer.finish()

        let (readMetadata, read) = try RecordingReader.readAll(path: path)
        #expect(readMetadata.map(\.key) == metadata.map(\.key))
        #expect(readMetadata.map(\.value) == metadata.map(\.value))
        #expect(read.count == samples.count)
        for (a, b) in zip(samples, read) {
            #expect(abs(a.sample.time - b.sample.time) <= 0.5e-6 + 1e-12)
            #expect(abs(a.sample.x - b.sample.x) <= 0.5e-5 + 1e-12)
            #expect(abs(a.sample.y - b.sample.y) <= 0.5e-5 + 1e-12)
            #expect(abs(a.sample.z - b.sample.z) <= 0.5e-5 + 1e-12)
            #expect(b.isShake == (labelled ? a.isShake : nil))
        }
        #expect(!dir.exists("rec.csv.partial"))
    }

    /// Digit for digit what printf writes, which rounds the exact binary value: 1999.999995 is
    /// just short of a half at 5 decimals (1999.99999), though its Double product by 10^5 is the
    /// half itself; 0.015625 = 1/64 is exactly a half (1562.5 hundred-thousandths), which
    /// rounds to even (0.01562).
    @Test func numbersAreFormattedLikePrintf() throws {
        let dir = CSVTestDirectory()
        let path = dir.file("fmt.csv")
        let samples = csvTestSamples(count: 2000, seed: 7).map(\.sample)
            + [Sample(time: 1e9 + 0.123456, x: -0.000001, y: 0, z: -0.0), Sample(time: 1e9 + 1, x: 0.000005, y: 1999.999995, z: -12.345675),
               Sample(time: 1e9 + 2, x: 0.015625, y: -0.015625, z: 0.5), Sample(time: 1e9 + 3, x: 0.046875, y: 2.5e-6, z: -7.5e-6)]
        try RecordingWriter.write(samples: samples, to: path)
        let lines = dir.text("fmt.csv")!.split(separator: "\n").dropFirst()
        #expect(lines.count == samples.count)
        for (line, s) in zip(lines, samples) {
            let expected = String(format: "%.6f,%.5f,%.5f,%.5f", s.time, s.x, s.y, s.z)
            #expect(line == expected, "wrote \(line), printf gives \(expected)")
        }
        #expect(lines.last == "1000000003.000000,0.04688,0.00000,-0.00001")
        #expect(lines.dropLast().last == "1000000002.000000,0.01562,-0.01562,0.50000")
        // 0.000005 is stored a little above itself (5.0000000000000004e-06): up, to 0.00001.
        #expect(lines.dropLast(2).last == "1000000001.000000,0.00001,1999.99999,-12.34567")
    }

    @Test func canonicalCorpusFileIsRewrittenByteForByte() throws {
        let dir = CSVTestDirectory()
        let source = csvSharedDataFolder() + "/dev/microbit_mltrainer_session01.csv"
        let (metadata, samples) = try RecordingReader.readAll(path: source)
        let copy = dir.file("copy.csv")
        try RecordingWriter.write(samples: samples, to: copy, metadata: metadata)
        let original = try String(contentsOfFile: source, encoding: .utf8)
        #expect(dir.text("copy.csv") == original)
    }

    /// `writtenTime` is the time the file will hold for a sample, to the microsecond, so that a
    /// label decided on it says what the row will mean when read back.
    @Test func writtenTimeIsTheTimeReadBack() throws {
        let dir = CSVTestDirectory()
        let times = [0, 0.0000014, 0.0000016, 1.5099999999, 2.0000049, 12.345_678_9, 1.7e9 + 0.1234567]
        let path = dir.file("times.csv")
        try RecordingWriter.write(samples: times.map { Sample(time: $0, x: 0, y: 0, z: 9.8) }, to: path)
        let read = try RecordingReader.readAll(path: path).samples.map(\.sample.time)
        #expect(times.map(RecordingWriter.writtenTime) == read)
        #expect(RecordingWriter.writtenTime(1.5099999999) == 1.51)
        #expect(RecordingWriter.writtenTime(0.0000016) == 0.000002)
    }

    @Test func anExistingFileIsNotOverwrittenUnlessAsked() throws {
        let dir = CSVTestDirectory()
        let path = dir.write("keep.csv", "precious\n")
        #expect {
            try RecordingWriter(path: path)
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .fileExists && e.path == path && e.description.contains("already exists")
        }
        #expect(dir.text("keep.csv") == "precious\n")
        #expect(!dir.exists("keep.csv.partial"))

        let writer = try RecordingWriter(path: path, overwrite: true)
        try writer.write(Sample(time: 0, x: 1, y: 2, z: 3))
        #expect(dir.text("keep.csv") == "precious\n", "the destination changes only at finish()")
        try writer.finish()
        #expect(dir.text("keep.csv") == "time_s,x,y,z\n0.000000,1.00000,2.00000,3.00000\n")
    }

    /// A file that appears at the destination while recording (another program, a second
    /// recording) is the user's: `finish()` leaves it alone and says where the recording is.
    @Test func aFileThatAppearsWhileRecordingIsNotReplaced() throws {
        let dir = CSVTestDirectory()
        let path = dir.file("rec.csv")
        let writer = try RecordingWriter(path: path)
        try writer.write(Sample(time: 0, x: 1, y: 2, z: 3))
        _ = dir.write("rec.csv", "precious\n")
        #expect {
            try writer.finish()
        } throws: { error in
            let e = try #require(error as? RecordingError)
            return e.kind == .fileExists && e.path == path
                && e.message == "appeared while recording and is left alone; the recording is kept in '\(path).partial'"
        }
        #expect(dir.text("rec.csv") == "precious\n")
        #expect(dir.text("rec.csv.partial") == "time_s,x,y,z\n0.000000,1.00000,2.00000,3.00000\n")
    }

    @Test func aLeftoverPartialFileIsKeptAndReported() throws {
        let dir = CSVTestDirectory()
        _ = dir.write("rec.csv.partial", "time_s,x,y,z\n0,0,0,9.8\n")
        #expect {
            try RecordingWriter(path: dir.file("rec.csv"))
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .fileExists && e.path.hasSuffix("rec.csv.partial") && e.message.contains("in progress")
        }
        #expect(dir.text("rec.csv.partial") == "time_s,x,y,z\n0,0,0,9.8\n")
    }

    @Test func aFlushedPartialFileIsAValidRecording() throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("live.csv"), metadata: [("rate_hz", "100")], labelled: true)
        #expect(try RecordingReader.readAll(path: writer.partialPath).samples.isEmpty, "header written at once")
        for row in csvTestSamples(count: 250) { try writer.write(row) }
        try writer.flush()
        #expect(!dir.exists("live.csv"))
        let partial = try RecordingReader.readAll(path: writer.partialPath)
        #expect(partial.samples.count == 250)
        #expect(partial.metadata.first?.value == "100")
        writer.discard()
        #expect(!dir.exists("live.csv.partial"))
        #expect(!dir.exists("live.csv"))
    }

    @Test func aWriterReleasedWithoutFinishLeavesItsRowsInThePartialFile() throws {
        let dir = CSVTestDirectory()
        do {
            let writer = try RecordingWriter(path: dir.file("crash.csv"))
            for row in csvTestSamples(count: 10) { try writer.write(row.sample) }
        }
        #expect(!dir.exists("crash.csv"))
        #expect(try RecordingReader.readAll(path: dir.file("crash.csv.partial")).samples.count == 10)
    }

    struct BadWrite: CustomTestStringConvertible, Sendable {
        var name: String
        var labelled: Bool
        var rows: [LabeledSample]
        var message: String
        var testDescription: String { name }
    }

    static let badWrites: [BadWrite] = [
        BadWrite(name: "NaN", labelled: false, rows: [LabeledSample(sample: Sample(time: 0, x: .nan, y: 0, z: 0))], message: "not finite"),
        BadWrite(name: "infinite time", labelled: false, rows: [LabeledSample(sample: Sample(time: .infinity, x: 0, y: 0, z: 0))], message: "not finite"),
        BadWrite(name: "time beyond 1e13 s", labelled: false, rows: [
            LabeledSample(sample: Sample(time: 0, x: 0, y: 0, z: 0)), LabeledSample(sample: Sample(time: 1.5e13, x: 0, y: 0, z: 0)),
        ], message: "beyond ±1e13 s"),
        BadWrite(name: "absurd negative time", labelled: false, rows: [LabeledSample(sample: Sample(time: -1e300, x: 0, y: 0, z: 0))],
                 message: "time -1e+300 s in sample 1 is beyond ±1e13 s"),
        BadWrite(name: "time backwards", labelled: false, rows: [
            LabeledSample(sample: Sample(time: 2, x: 0, y: 0, z: 0)), LabeledSample(sample: Sample(time: 1, x: 0, y: 0, z: 0)),
        ], message: "time goes backwards"),
        BadWrite(name: "absurd acceleration", labelled: false, rows: [LabeledSample(sample: Sample(time: 0, x: 0, y: 2500, z: 0))], message: "beyond"),
        BadWrite(name: "missing label", labelled: true, rows: [LabeledSample(sample: Sample(time: 0, x: 0, y: 0, z: 0))], message: "needs isShake"),
        BadWrite(name: "unexpected label", labelled: false, rows: [LabeledSample(sample: Sample(time: 0, x: 0, y: 0, z: 0), isShake: true)], message: "not labelled"),
    ]

    /// Times up to the reader's limit, ±1e13 s, are written and read back exactly (those beyond
    /// 2^53 µs are written in full by `description`, not to 6 decimals); one beyond is refused
    /// by the writer and by the reader alike.
    @Test func timesUpToTheLimitReadBackAndBeyondItAreRefusedByBoth() throws {
        let dir = CSVTestDirectory()
        let times = [-1e13, -9.5e12, 0, 1.7e9 + 0.125, 9.1e9 + 0.5, 1e12 + 0.25, 1e13]
        let path = dir.file("limit.csv")
        try RecordingWriter.write(samples: times.map { Sample(time: $0, x: 0, y: 0, z: 9.8) }, to: path)
        #expect(try RecordingReader.readAll(path: path).samples.map(\.sample.time) == times)
        #expect(throws: RecordingError.self) {
            try RecordingWriter.write(samples: [Sample(time: 1e13.nextUp, x: 0, y: 0, z: 9.8)], to: dir.file("beyond.csv"))
        }
        let beyond = dir.write("beyond.csv", "time_s,x,y,z\n0,0,0,9.8\n\(1e13.nextUp),0,0,9.8\n")
        #expect {
            try RecordingReader.readAll(path: beyond)
        } throws: { ($0 as? RecordingError).map { $0.kind == .outOfRange && $0.line == 3 && $0.column == 1 } ?? false }
    }

    @Test(arguments: badWrites)
    func valuesThatWouldNotReadBackAreRefused(_ bad: BadWrite) throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("bad.csv"), labelled: bad.labelled)
        var caught: RecordingError?
        do {
            for row in bad.rows { try writer.write(row) }
        } catch {
            caught = error
        }
        #expect(caught?.kind == .invalidArgument)
        #expect(caught?.message.contains(bad.message) == true, "\(String(describing: caught))")
        #expect(writer.samplesWritten == bad.rows.count - 1)
        try writer.finish()
        #expect(try RecordingReader.readAll(path: dir.file("bad.csv")).samples.count == bad.rows.count - 1)
    }

    /// Samples that share a time (a FIFO's batch stamped at once) do not go backwards: the
    /// writer takes them, as the reader does.
    @Test func samplesWithTheSameTimeAreWritten() throws {
        let dir = CSVTestDirectory()
        let path = dir.file("same.csv")
        let samples = [Sample(time: 1, x: 0, y: 0, z: 9.8), Sample(time: 1, x: 1, y: 0, z: 9.8), Sample(time: 1.01, x: 2, y: 0, z: 9.8)]
        try RecordingWriter.write(samples: samples, to: path)
        #expect(try RecordingReader.readAll(path: path).samples.map(\.sample) == samples)
    }

    /// ±2000 m/s² on any axis is the reader's limit, so it is written; beyond it, on any axis,
    /// the reader would refuse the file, so the writer refuses the sample.
    @Test func accelerationsUpToTheReadersLimitOnEveryAxisAreWrittenAndBeyondRefused() throws {
        let dir = CSVTestDirectory()
        let limit = 2000.0
        let atLimit = [Sample(time: 0, x: limit, y: -limit, z: limit), Sample(time: 1, x: -limit, y: limit, z: -limit)]
        try RecordingWriter.write(samples: atLimit, to: dir.file("limit.csv"))
        #expect(try RecordingReader.readAll(path: dir.file("limit.csv")).samples.map(\.sample) == atLimit)
        let beyond = limit.nextUp
        for (axis, sample) in [("x", Sample(time: 0, x: -beyond, y: 0, z: 0)), ("y", Sample(time: 0, x: 0, y: beyond, z: 0)),
                               ("z", Sample(time: 0, x: 0, y: 0, z: -beyond))] {
            #expect("\(axis) beyond the limit") {
                try RecordingWriter.write(samples: [sample], to: dir.file("\(axis).csv"))
            } throws: { error in
                let e = try #require(error as? RecordingError)
                return e.kind == .invalidArgument && e.message.hasPrefix("acceleration beyond ±2000.0 m/s² in sample 1")
            }
            #expect(!dir.exists("\(axis).csv") && !dir.exists("\(axis).csv.partial"))
        }
    }

    @Test func invalidMetadataIsRefusedBeforeAnythingIsCreated() {
        let dir = CSVTestDirectory()
        #expect(throws: RecordingError.self) {
            try RecordingWriter(path: dir.file("m.csv"), metadata: [("note", "two\nlines")])
        }
        #expect(!dir.exists("m.csv.partial"))
    }

    /// Whatever metadata the writer accepts reads back identically; what would not (the reader
    /// splits at the first ':' and trims spaces and tabs) is refused, naming the key, before any
    /// file is created.
    @Test func metadataTheWriterAcceptsReadsBackIdentically() throws {
        let accepted: [(key: String, value: String)] = [
            ("device", "rig: 100 Hz"), ("note", ""), ("#tag", "a#b"), ("ключ", "значение ✓"),
            ("multi word key", "x  y\tz"), ("nbsp", "\u{A0}kept\u{A0}"), ("thin\u{2009}", "\u{2009}"),
            ("combining", "e\u{301}"), ("space then mark", "v \u{301}"), ("k", String(repeating: "x", count: (1 << 20) - 5)),
            ("units", "m/s^2"), ("Units", "m/s²"), ("units", "furlongs"),
        ]
        let refused: [(key: String, value: String)] = [
            ("", "v"), (" ", "v"), ("\t", "v"), (" key", "v"), ("key ", "v"), ("key\t", "v"), (" \u{301}key", "v"),
            ("a:b", "v"), ("two\nlines", "v"), ("nul\0", "v"),
            ("padded", "  padded  "), ("leading", " v"), ("trailing", "v\t"),
            ("newline", "two\nlines"), ("return", "cr\r"), ("crlf", "a\r\nb"), ("nul", "a\0b"),
            ("long", String(repeating: "x", count: (1 << 20) - 4)),
            // The reader would take the m/s² rows to be in g or mg.
            ("units", "g"), ("UNITS", "mg"),
        ]
        let dir = CSVTestDirectory()
        for (index, entry) in accepted.enumerated() {
            let path = dir.file("ok\(index).csv")
            try RecordingWriter.write(samples: [Sample(time: 0, x: 0, y: 0, z: 9.8)], to: path, metadata: [entry])
            let read = try RecordingReader.readAll(path: path)
            #expect(read.metadata.map(\.key) == [entry.key], "\(entry.key.debugDescription)")
            #expect(read.metadata.map(\.value) == [entry.value], "\(entry.key.debugDescription)")
            #expect(read.samples.count == 1)
        }
        for (index, entry) in refused.enumerated() {
            let name = "bad\(index).csv"
            #expect("\(entry.key.debugDescription) → \(entry.value.prefix(20).debugDescription) is refused") {
                try RecordingWriter(path: dir.file(name), metadata: [("fine", "ok"), entry])
            } throws: { error in
                let error = try #require(error as? RecordingError)
                return error.kind == .invalidArgument && error.message.contains("key \(entry.key.debugDescription)")
                    && error.message.contains("would not read back")
            }
            #expect(!dir.exists(name + ".partial") && !dir.exists(name))
        }
    }

    @Test func aDirectoryIsNotADestination() {
        let dir = CSVTestDirectory()
        #expect {
            try RecordingWriter(path: dir.path, overwrite: true)
        } throws: { ($0 as? RecordingError)?.kind == .isDirectory }
    }

    @Test func aFullDiskIsReportedNamingTheFileAndKeepsWhatWasFlushed() throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("full.csv"))
        for row in csvTestSamples(count: 5) { try writer.write(row.sample) }
        try writer.flush()
        // From here on every write(2) of the writer goes to /dev/full, which answers ENOSPC.
        let full = open("/dev/full", O_WRONLY)
        #expect(full >= 0)
        #expect(dup2(full, writer.fileDescriptorForTesting!) >= 0)
        close(full)
        for row in csvTestSamples(count: 5, seed: 9) { try writer.write(Sample(time: 2000 + row.sample.time, x: 0, y: 0, z: 0)) }
        #expect {
            try writer.flush()
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .io && e.path.hasSuffix("full.csv.partial") && e.message.contains("disk full")
        }
        #expect(throws: RecordingError.self) { try writer.finish() }
        #expect(!dir.exists("full.csv"))
        #expect(try RecordingReader.readAll(path: dir.file("full.csv.partial")).samples.count == 5)
    }

    /// A long recording that is never flushed still reaches the disk every 64 KiB, in whole
    /// lines: a crash loses the last rows, not the whole session.
    @Test func rowsReachThePartialFileEvery64KiBWithoutAFlush() throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("long.csv"))
        let samples = csvTestSamples(count: 5000)
        for row in samples { try writer.write(row.sample) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: writer.partialPath)[.size] as? Int)
        #expect(size >= 64 << 10)
        let partial = try RecordingReader.readAll(path: writer.partialPath).samples
        #expect(partial.count > 0 && partial.count < samples.count)
        writer.discard()
    }

    /// After a failed write the writer keeps the partial file for the user; `discard()` is
    /// still how the user says it is not wanted, and then it is deleted.
    @Test func discardAfterAFailedWriteDeletesThePartialFile() throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("full.csv"))
        try writer.write(Sample(time: 0, x: 0, y: 0, z: 9.8))
        try writer.flush()
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        #expect(dup2(full, writer.fileDescriptorForTesting!) >= 0)
        close(full)
        try writer.write(Sample(time: 1, x: 0, y: 0, z: 9.8))
        #expect(throws: RecordingError.self) { try writer.flush() }
        #expect(dir.exists("full.csv.partial"))
        writer.discard()
        #expect(!dir.exists("full.csv.partial"))
        #expect(!dir.exists("full.csv"))
    }

    @Test func finishedWritersRefuseMoreRows() throws {
        let dir = CSVTestDirectory()
        let writer = try RecordingWriter(path: dir.file("done.csv"))
        try writer.finish()
        #expect {
            try writer.write(Sample(time: 0, x: 0, y: 0, z: 0))
        } throws: { ($0 as? RecordingError)?.message.contains("finished") == true }
        #expect(dir.text("done.csv") == "time_s,x,y,z\n")
    }
}
