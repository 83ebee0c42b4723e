import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// Oddities the reader accepts (documented on `RecordingReader`), each read exactly.
@Suite struct CSVToleratedInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var samples: [Sample]
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ samples: [Sample]) {
            self.init(name, Array(text.utf8), samples)
        }

        init(_ name: String, _ bytes: [UInt8], _ samples: [Sample]) {
            self.name = name
            self.bytes = bytes
            self.samples = samples
        }
    }

    static let two = [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.01, x: -1.5, y: 0.25, z: 9.80665)]

    static let cases: [Case] = [
        Case("canonical", "time_s,x,y,z\n0,1,2,3\n0.01,-1.5,0.25,9.80665\n", two),
        Case("CRLF line ends", "time_s,x,y,z\r\n0,1,2,3\r\n0.01,-1.5,0.25,9.80665\r\n", two),
        Case("UTF-8 byte-order mark", [0xEF, 0xBB, 0xBF] + Array("time_s,x,y,z\n0,1,2,3\n0.01,-1.5,0.25,9.80665\n".utf8), two),
        Case("blank and space-only lines", "\ntime_s,x,y,z\n\n0,1,2,3\n  \n\t\n0.01,-1.5,0.25,9.80665\n\n", two),
        Case("last line without line end", "time_s,x,y,z\n0,1,2,3\n0.01,-1.5,0.25,9.80665", two),
        Case("comment lines between rows", "time_s,x,y,z\n0,1,2,3\n# pause\n0.01,-1.5,0.25,9.80665\n", two),
        // Defect: an indented comment among the rows was "'# pause' is not a number in column 'time_s'"
        // (one before the header was read as a comment).
        Case("indented comment lines", "  # recorded on the bench\ntime_s,x,y,z\n0,1,2,3\n  # pause\n\t# again\n0.01,-1.5,0.25,9.80665\n", two),
        Case("quoted fields and header", "\"time_s\",\"x\",\"y\",\"z\"\n\"0\",\"1\",\"2\",\"3\"\n0.01,\" -1.5 \",0.25,9.80665\n", two),
        Case("spaces around fields", "time_s, x, y, z\n 0 , 1 ,2, 3\n0.01,-1.5 ,0.25 , 9.80665\n", two),
        Case("extra columns are ignored", "time_s,x,y,z,temperature,note\n0,1,2,3,21.5,\"a, b\"\n0.01,-1.5,0.25,9.80665,oops,\n", two),
        Case("number spellings", "time_s,x,y,z\n0e0,+1,2.,3.000\n1e-2,-1.5E0,.25,980665e-5\n", two),
        Case("header only", "time_s,x,y,z\n", []),
        Case("duplicate timestamps", "time_s,x,y,z\n0,1,2,3\n0,1,2,3\n", [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0, x: 1, y: 2, z: 3)]),
        Case("a gap of a day", "time_s,x,y,z\n0,1,2,3\n0.01,1,2,3\n86400,1,2,3\n", [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.01, x: 1, y: 2, z: 3), Sample(time: 86400, x: 1, y: 2, z: 3)]),
        Case("minus sign U+2212 before a single digit", "time_s,x,y,z\n0,\u{2212}1,2,\u{2212}3\n", [Sample(time: 0, x: -1, y: 2, z: -3)]),
        Case("columns in another order", "z,y,x,time_s\n3,2,1,0\n9.80665,0.25,-1.5,0.01\n", two),
        // Separators as frequent as each other in the header: the comma, then the semicolon, then
        // the tab separates (read by the later one, these headers lack a y column).
        Case("as many semicolons as commas in the header", "time;s,acc;x,acc;y,z\n0,1,2,3\n0.01,-1.5,0.25,9.80665\n", two),
        Case("as many tabs as semicolons in the header", "time\ts;acc\tx;acc\ty;z\n0;1;2;3\n0.01;-1.5;0.25;9.80665\n", two),
    ]

    @Test(arguments: cases)
    func toleratedInputIsReadExactly(_ c: Case) throws {
        let (_, rows) = try RecordingReader.readAll(bytes: c.bytes, name: c.name)
        #expect(rows.map(\.sample) == c.samples)
        #expect(rows.allSatisfy { $0.isShake == nil })
    }

    @Test func duplicatesAndGapsAreCountedForWarnings() throws {
        var reader = try RecordingReader(bytes: Array("time_s,x,y,z\n0,0,0,0\n0,0,0,0\n0.01,0,0,0\n0.01,0,0,0\n3.5,0,0,0\n".utf8))
        while try reader.next() != nil {}
        #expect(reader.samplesRead == 5)
        #expect(reader.duplicateTimestampCount == 2)
        #expect(abs(reader.largestTimeGap - 3.49) < 1e-12)
    }

    @Test func metadataComesFromLeadingCommentsOnly() throws {
        // A comment whose colon has no key before it is a remark, not metadata.
        let text = "# source: lab: bench 3\n#units:m/s^2\n# just a remark\n# : no key\ntime_s,x,y,z,shake\n# later: ignored\n0,1,2,3,1\n0.5,1,2,3,0\n"
        let reader = try RecordingReader(bytes: Array(text.utf8))
        #expect(reader.metadata.map(\.key) == ["source", "units"])
        #expect(reader.metadata.map(\.value) == ["lab: bench 3", "m/s^2"])
        #expect(reader.hasLabels)
        let (_, rows) = try RecordingReader.readAll(bytes: Array(text.utf8))
        #expect(rows.map(\.isShake) == [true, false])
        let ignored = try RecordingReader.readAll(bytes: Array(text.utf8), options: CSVImportOptions(ignoresLabels: true))
        #expect(ignored.samples.map(\.isShake) == [nil, nil])
    }

    /// A header field of a pair of quotes alone is an empty name: the column's name is what the
    /// header says once the quotes are removed, as for any other field.
    @Test func aHeaderFieldOfTwoQuotesIsAnEmptyName() throws {
        let reader = try RecordingReader(bytes: Array("time_s,x,y,z,\"\",\"n\"\n0,1,2,3,,\n".utf8))
        #expect(reader.columnNames == ["time_s", "x", "y", "z", "", "n"])
    }

    @Test(arguments: [false, true])
    func rowsAcrossChunkBoundariesReadLikeAnyOther(labelled: Bool) throws {
        // 300 000 rows (about 9 MB), CRLF on every third, cross dozens of 256 KiB chunk
        // boundaries anywhere in a line, including between \r and \n.
        var text = labelled ? "time_s,x,y,z,shake\n" : "time_s,x,y,z\n"
        let count = 300_000
        text.reserveCapacity(count * 34)
        for i in 0 ..< count {
            text += "\(i),\(i % 1000).5,-\(i % 7).25,9.75"
            if labelled { text += i % 5 == 0 ? ",1" : ",0" }
            text += i % 3 == 0 ? "\r\n" : "\n"
        }
        var reader = try RecordingReader(bytes: Array(text.utf8))
        var n = 0
        var wrong = 0
        while let row = try reader.next() {
            if row.sample != Sample(time: Double(n), x: Double(n % 1000) + 0.5, y: -Double(n % 7) - 0.25, z: 9.75) { wrong += 1 }
            if row.isShake != (labelled ? n % 5 == 0 : nil) { wrong += 1 }
            n += 1
        }
        #expect(n == count)
        #expect(wrong == 0)
    }
}
