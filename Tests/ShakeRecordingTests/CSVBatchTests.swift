import ShakeDetection
import ShakeRecording
import Testing

/// `RecordingReader` parses canonical rows ahead, a batch of up to 256 at a time. What a caller
/// sees must not show it: the counts read between two samples are those of the samples handed
/// out so far, and a bad row anywhere around a batch's end fails on its own line and column,
/// after exactly the rows before it, naming the line of the sample before it.
@Suite struct CSVBatchTests {
    /// Rows of a canonical recording 0.01 s apart, with repeated times and gaps of varied length
    /// in a pattern that does not repeat with the batch length.
    static func rows(_ count: Int) -> [String] {
        var time = 3.5
        return (0..<count).map { i in
            if i % 7 == 3 {
                // a duplicate timestamp
            } else if i % 97 == 41 {
                time += Double(i % 13) * 0.25  // a gap, the largest growing along the file
            } else {
                time += 0.01
            }
            let x = Double((i * 7919) % 2001 - 1000) / 97
            return String(format: "%.4f,%.5f,%.5f,%.5f", time, x, -x / 3, 9.81 + x / 100)
        }
    }

    /// The file: metadata, the header, and blank and comment lines (which end a batch) at some
    /// rows; the 1-based line number of each row.
    static func file(_ rows: [String], commentsAt: Set<Int>) -> (text: String, lineOfRow: [Int]) {
        var lines = ["# device: test", "# rate: 100 Hz", "time_s,x,y,z"]
        var lineOfRow: [Int] = []
        for (i, row) in rows.enumerated() {
            if commentsAt.contains(i) { lines += ["# note", ""] }
            lines.append(row)
            lineOfRow.append(lines.count)
        }
        return (lines.joined(separator: "\n") + "\n", lineOfRow)
    }

    static let commentPlacements: [Set<Int>] = [[], [100, 300, 301, 700], [255, 256, 512]]

    @Test(arguments: commentPlacements)
    func countsBetweenSamplesAreThoseOfTheSamplesSoFar(commentsAt: Set<Int>) throws {
        let rows = Self.rows(1300)
        var reader = try RecordingReader(bytes: Array(Self.file(rows, commentsAt: commentsAt).text.utf8))
        var times: [Double] = []
        var mismatches: [String] = []
        while let sample = try reader.next() {
            times.append(sample.sample.time)
            var duplicates = 0
            var largestGap = 0.0
            for (earlier, later) in zip(times, times.dropFirst()) {
                if later == earlier { duplicates += 1 } else { largestGap = max(largestGap, later - earlier) }
            }
            if reader.samplesRead != times.count || reader.duplicateTimestampCount != duplicates
                || reader.largestTimeGap.bitPattern != largestGap.bitPattern {
                mismatches.append(
                    "after \(times.count): read \(reader.samplesRead), duplicates \(reader.duplicateTimestampCount) "
                        + "(\(duplicates)), gap \(reader.largestTimeGap) (\(largestGap))")
            }
        }
        #expect(times.count == rows.count)
        #expect(times.map(\.bitPattern) == rows.map { Double($0.split(separator: ",")[0])!.bitPattern })
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    /// A bad row in place of a row.
    enum Fault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case timeBackwards, outOfRange, timeOutOfRange, notANumber, missingField
        var testDescription: String { rawValue }

        /// The row with the fault, and the field (0-based) the error must point at.
        func apply(to row: String, previous: String) -> (row: String, field: Int) {
            var fields = row.split(separator: ",").map(String.init)
            switch self {
            case .timeBackwards:
                fields[0] = String(format: "%.4f", Double(previous.split(separator: ",")[0])! - 0.5)
                return (fields.joined(separator: ","), 0)
            case .outOfRange:
                fields[2] = "2500.12345"
                return (fields.joined(separator: ","), 2)
            case .timeOutOfRange:
                fields[0] = "20000000000000.5"  // 2e13 s, after every earlier time
                return (fields.joined(separator: ","), 0)
            case .notANumber:
                fields[3] = "9.8x"
                return (fields.joined(separator: ","), 3)
            case .missingField:
                return (fields.dropLast().joined(separator: ","), 3)
            }
        }
    }

    /// Rows just before, at and after the ends of the first batches, and later ones.
    static let faultRows = [2, 3, 254, 255, 256, 257, 258, 511, 512, 513, 767, 1000]

    @Test(arguments: Fault.allCases, commentPlacements)
    func aBadRowFailsOnItsLineAfterTheRowsBeforeIt(fault: Fault, commentsAt: Set<Int>) throws {
        let clean = Self.rows(1100)
        for index in Self.faultRows {
            var rows = clean
            let (bad, field) = fault.apply(to: rows[index], previous: rows[index - 1])
            rows[index] = bad
            let (text, lineOfRow) = Self.file(rows, commentsAt: commentsAt)
            var reader = try RecordingReader(bytes: Array(text.utf8))
            var read = 0
            let error = #expect(throws: RecordingError.self) {
                while try reader.next() != nil { read += 1 }
            }
            // Columns count characters from 1; the rows are ASCII.
            let column = bad.split(separator: ",", omittingEmptySubsequences: false)
                .prefix(field).reduce(1) { $0 + $1.count + 1 }
            #expect(read == index, "row \(index)")
            #expect(error?.line == lineOfRow[index], "row \(index)")
            #expect(error?.column == (fault == .missingField ? bad.count + 1 : column), "row \(index): \(error?.description ?? "")")
            if fault == .timeBackwards {
                #expect(error?.message.hasSuffix("on line \(lineOfRow[index - 1])") == true, "row \(index): \(error?.message ?? "")")
            }
        }
    }
}

/// A row is parsed from the read buffer before its line end is found; a row that runs past the
/// bytes read so far must wait for the rest of its line, however the bytes after them (left
/// from an earlier read) look.
@Suite struct CSVReadBufferEdgeTests {
    /// Files just over one 256 KiB read whose last line (without line end) is cut inside its
    /// last number: after the second read, the buffer holds, past the last line, bytes of the
    /// first read; the last sample must be the cut line's own numbers.
    @Test func aLastLineCutShortReadsItsOwnNumbers() throws {
        var rows: [String] = []
        var time = 0.0
        var length = 13  // the header's
        var i = 0
        while length < (256 << 10) + 600 {
            time += 0.01
            let x = Double((i * 7919) % 2001) / 97
            rows.append(String(format: "%.4f,%.5f,%.5f,%.5f", time, x, x / 3, 9.81 + x / 100))
            length += rows.last!.utf8.count + 1
            i += 1
        }
        let text = Array(("time_s,x,y,z\n" + rows.joined(separator: "\n")).utf8)
        let options = CSVImportOptions(maximumLineBytes: 64)
        var wrong: [String] = []
        var cuts = 0
        for cut in (256 << 10) + 100 ..< text.count {
            // Cut inside a last number's fraction digits, so the last line is a whole row.
            guard text[cut - 1] >= UInt8(ascii: "0"), text[cut - 1] <= UInt8(ascii: "9"),
                  let lineStart = text[..<cut].lastIndex(of: 0x0A).map({ $0 + 1 }),
                  text[lineStart..<cut].count(where: { $0 == UInt8(ascii: ",") }) == 3,
                  let lastComma = text[lineStart..<cut].lastIndex(of: UInt8(ascii: ",")),
                  text[lastComma..<cut].contains(UInt8(ascii: "."))
            else { continue }
            cuts += 1
            let expected = String(decoding: text[lineStart..<cut], as: UTF8.self).split(separator: ",").map { Double($0)! }
            let samples: [LabeledSample]
            do {
                samples = try RecordingReader.readAll(bytes: Array(text[..<cut]), options: options).samples
            } catch {
                wrong.append("cut at \(cut): \(error)")
                continue
            }
            let last = samples.last?.sample
            if samples.count != text[..<cut].count(where: { $0 == 0x0A }) || last.map({ [$0.time, $0.x, $0.y, $0.z] }) != expected {
                wrong.append("cut at \(cut): \(samples.count) samples, last \(String(describing: last)), want \(expected)")
            }
        }
        #expect(cuts > 50)
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(3))")
    }
}
