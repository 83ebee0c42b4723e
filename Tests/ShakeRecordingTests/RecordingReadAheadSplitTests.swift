import Foundation
import Testing
@testable import ShakeRecording

/// A file parsed in parts on two threads (`RecordingReadAhead` with `Splitting`, here with parts
/// of a hundred-odd bytes, a few rows each) must read exactly like `RecordingReader`: the same
/// samples bit for bit and in order, the same counts, and for a bad row anywhere around a cut
/// the same error (message, line, column) after the same samples.
@Suite struct RecordingReadAheadSplitTests {
    /// What a reader gave: the samples (as bit patterns), then the counts or the error.
    struct Outcome: Equatable, CustomStringConvertible {
        var samples: [[UInt64]] = []
        var samplesRead: Int?
        var duplicates: Int?
        var largestGap: UInt64?
        var error: String?
        var errorLine = 0
        var errorColumn = 0
        /// Batches handed over without a sample (`RecordingReadAhead.next()` hands over none).
        var emptyBatches = 0

        mutating func add(_ sample: LabeledSample) {
            let s = sample.sample
            let label: UInt64 = sample.isShake.map { $0 ? 1 : 0 } ?? 2
            samples.append([s.time.bitPattern, s.x.bitPattern, s.y.bitPattern, s.z.bitPattern, label])
        }

        var description: String {
            "\(samples.count) samples, read \(samplesRead ?? -1), duplicates \(duplicates ?? -1), "
                + "gap \(largestGap.map { Double(bitPattern: $0) } ?? -1), error \(error ?? "none"), "
                + "\(emptyBatches) empty batches"
        }
    }

    static let options = CSVImportOptions(maximumLineBytes: 64)

    static func plain(_ path: String) -> Outcome {
        var outcome = Outcome()
        do {
            var reader = try RecordingReader(path: path, options: options)
            while let sample = try reader.next() { outcome.add(sample) }
            outcome.samplesRead = reader.samplesRead
            outcome.duplicates = reader.duplicateTimestampCount
            outcome.largestGap = reader.largestTimeGap.bitPattern
        } catch {
            (outcome.error, outcome.errorLine, outcome.errorColumn) = (error.description, error.line, error.column)
        }
        return outcome
    }

    static func split(_ path: String, partBytes: Int) -> (Outcome, wasSplit: Bool) {
        var outcome = Outcome()
        let reader = RecordingReadAhead(
            path: path, options: options,
            splitting: .init(minimumBytes: 0, partBytes: partBytes, depth: 2))
        do {
            while let batch = try reader.next() {
                for sample in batch { outcome.add(sample) }
                if batch.isEmpty { outcome.emptyBatches += 1 }
            }
            let statistics = reader.statistics
            outcome.samplesRead = statistics?.samplesRead
            outcome.duplicates = statistics?.duplicateTimestampCount
            outcome.largestGap = statistics?.largestTimeGap.bitPattern
        } catch {
            (outcome.error, outcome.errorLine, outcome.errorColumn) = (error.description, error.line, error.column)
        }
        return (outcome, reader.wasSplit)
    }

    /// How the generated file is written.
    struct Layout: CustomStringConvertible, Sendable {
        var crlf = false
        var labels = false
        /// A comment line and a blank line every this many rows (0: none).
        var commentsEvery = 0
        var finalNewline = true

        var description: String {
            "crlf \(crlf), labels \(labels), comments every \(commentsEvery), final newline \(finalNewline)"
        }
    }

    static let layouts: [Layout] = [
        Layout(),
        Layout(crlf: true, labels: true),
        Layout(commentsEvery: 3, finalNewline: false),
        Layout(crlf: true, commentsEvery: 5),
    ]

    /// Rows of a canonical recording: times 0.01 s apart with repeats and gaps, accelerations of
    /// varied shapes (signs, exponents, many digits).
    static func rows(_ count: Int, labels: Bool) -> [String] {
        var generator = SynthRandom(seed: 7, stream: 0)  // the synthesizer's own generator
        var time = 1.25
        return (0..<count).map { i in
            switch generator.next() % 10 {
            case 0: break  // a duplicate timestamp
            case 1: time += Double(generator.next() % 500) / 64  // a gap
            default: time += 0.01
            }
            let values = (0..<3).map { _ in
                let v = (Double(generator.next() % 200_000) - 100_000) / 7919
                switch generator.next() % 4 {
                case 0: return String(format: "%.7g", v / 1000)
                case 1: return "\(Int(v * 100))e-2"
                default: return String(format: "%.3f", v)
                }
            }
            let label = labels ? ",\(i / 7 % 2)" : ""
            return String(format: "%.4f,", time) + values.joined(separator: ",") + label
        }
    }

    static func text(_ rows: [String], _ layout: Layout) -> String {
        let newline = layout.crlf ? "\r\n" : "\n"
        var lines = ["# device: test", layout.labels ? "time_s,x,y,z,shake" : "time_s,x,y,z"]
        for (i, row) in rows.enumerated() {
            if layout.commentsEvery > 0, i > 2, i % layout.commentsEvery == 0 { lines += ["# note", ""] }
            lines.append(row)
        }
        return lines.joined(separator: newline) + (layout.finalNewline ? newline : "")
    }

    static func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "/shakekit-split-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test(arguments: layouts, [20, 66, 97, 150, 400])
    func validFilesReadTheSame(layout: Layout, partBytes: Int) throws {
        let path = try Self.write(Self.text(Self.rows(300, labels: layout.labels), layout))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = Self.plain(path)
        let (got, wasSplit) = Self.split(path, partBytes: partBytes)
        #expect(expected.error == nil && expected.samples.count == 300)
        #expect(wasSplit)
        #expect(got == expected, "\(got) against \(expected)")
    }

    /// A file that ends with its first rows (none, one, or the two a split waits for), or just
    /// after them, leaves nothing to split and reads like the plain reader.
    @Test(arguments: [0, 1, 2, 3])
    func aFileEndingWithItsFirstRowsReadsTheSame(rows: Int) throws {
        let path = try Self.write(Self.text(Self.rows(rows, labels: false), Layout()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = Self.plain(path)
        let (got, _) = Self.split(path, partBytes: 66)
        #expect(expected.error == nil && expected.samples.count == rows)
        #expect(got == expected, "\(got) against \(expected)")
    }

    /// A bad row in place of row `index`.
    enum Fault: String, CaseIterable, CustomStringConvertible, Sendable {
        case notANumber, timeBackwards, tooLong, missingField, emptyValue, outOfRange, timeOutOfRange
        /// Microseconds since 1970 in a column the header says is in seconds: the hint is to
        /// mend the header (which the rows after a split once forgot, and said to pass a unit).
        case epochTimeOutOfRange
        var description: String { rawValue }

        func apply(_ rows: inout [String], at index: Int) {
            var fields = rows[index].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            switch self {
            case .notANumber: fields[2] = "1.2.3"
            case .timeBackwards: fields[0] = "0.5"
            case .tooLong: fields[1] = String(repeating: "1", count: 60)
            case .missingField: fields.removeLast()
            case .emptyValue: fields[3] = ""
            case .outOfRange: fields[1] = "2500"
            case .timeOutOfRange: fields[0] = "2e13"
            case .epochTimeOutOfRange: fields[0] = "1700000000000000"
            }
            rows[index] = fields.joined(separator: ",")
        }
    }

    /// Every fault at every row of the first 40 (parts of about five rows: every place around
    /// several cuts), in every layout.
    @Test(arguments: Fault.allCases, layouts)
    func badRowsGiveTheSameErrorAfterTheSameSamples(fault: Fault, layout: Layout) throws {
        let clean = Self.rows(60, labels: layout.labels)
        for index in 0..<40 where !(fault == .timeBackwards && index == 0) {
            var rows = clean
            fault.apply(&rows, at: index)
            let path = try Self.write(Self.text(rows, layout))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let expected = Self.plain(path)
            let (got, wasSplit) = Self.split(path, partBytes: 110)
            #expect(expected.error != nil, "row \(index)")
            #expect(wasSplit || index < 2, "row \(index)")
            #expect(got == expected, "row \(index): \(got) against \(expected)")
        }
    }

    /// A fault on the last row, which has no line end.
    @Test(arguments: Fault.allCases)
    func aBadLastLineWithoutLineEndReadsTheSame(fault: Fault) throws {
        var rows = Self.rows(80, labels: false)
        fault.apply(&rows, at: rows.count - 1)
        let path = try Self.write(Self.text(rows, Layout(finalNewline: false)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = Self.plain(path)
        let (got, _) = Self.split(path, partBytes: 100)
        #expect(expected.error != nil)
        #expect(got == expected, "\(got) against \(expected)")
    }

    /// The unit guesses: a file whose first `calmRows` rows read |a| = 1 keeps the guess that
    /// it is in g open (an error at the 64th such row), and a header `time` without a unit is
    /// refused when its first interval exceeds 2 s (`firstGap`), but not for gaps later on.
    @Test(arguments: [0, 5, 63, 64, 70], [0.01, 3.0])
    func unitGuessesReadTheSame(calmRows: Int, firstGap: Double) throws {
        var rows = Self.rows(200, labels: false)
        for i in 0..<calmRows {
            var fields = rows[i].split(separator: ",").map(String.init)
            (fields[1], fields[2], fields[3]) = ("0", "0.6", "-0.8")
            rows[i] = fields.joined(separator: ",")
        }
        var fields = rows[1].split(separator: ",").map(String.init)
        fields[0] = String(format: "%.4f", Double(rows[0].split(separator: ",")[0])! + firstGap)
        rows[1] = fields.joined(separator: ",")
        let text = Self.text(rows, Layout()).replacingOccurrences(of: "time_s,x,y,z", with: "time,x,y,z")
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = Self.plain(path)
        let (got, wasSplit) = Self.split(path, partBytes: 100)
        #expect((expected.error != nil) == (calmRows >= 64 || firstGap > 2))
        #expect(wasSplit == (expected.error == nil))
        #expect(got == expected, "\(got) against \(expected)")
    }

    /// Rows appended after the reader started are read like the plain reader reads them: the
    /// last part reads to the end of the file as it is then, not as it was at the split.
    @Test func aFileGrowingWhileReadReadsToItsRealEnd() throws {
        let rows = Self.rows(400, labels: false)
        let path = try Self.write(Self.text(Array(rows[..<200]), Layout()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = RecordingReadAhead(
            path: path, options: Self.options, splitting: .init(minimumBytes: 0, partBytes: 120, depth: 2))
        var got = Outcome()
        // The first rows come before the split, which measures the file: it then grows.
        for sample in try #require(try reader.next()) { got.add(sample) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Array((rows[200...].joined(separator: "\n") + "\n").utf8))
        try handle.close()
        while let batch = try reader.next() {
            for sample in batch { got.add(sample) }
        }
        let statistics = reader.statistics
        (got.samplesRead, got.duplicates, got.largestGap) = (
            statistics?.samplesRead, statistics?.duplicateTimestampCount, statistics?.largestTimeGap.bitPattern)
        let expected = Self.plain(path)
        #expect(expected.samples.count == 400)
        #expect(reader.wasSplit)
        #expect(got == expected, "\(got) against \(expected)")
    }

    /// A caller that stops early lets both parsing threads go: the file is closed once they have.
    @Test func abandoningASplitReaderClosesTheFile() async throws {
        let path = try Self.write(Self.text(Self.rows(3000, labels: false), Layout()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let name = (path as NSString).lastPathComponent
        do {
            let reader = RecordingReadAhead(
                path: path, options: Self.options, splitting: .init(minimumBytes: 0, partBytes: 200, depth: 2))
            for _ in 0..<3 { _ = try reader.next() }
            #expect(reader.wasSplit)
            // Both threads have parsed ahead and wait for room with the file open.
            try await Task.sleep(for: .milliseconds(100))
            #expect(openDescriptorCount(on: name) == 1)
        }
        try await expectClosedSoon(name)
    }
}
