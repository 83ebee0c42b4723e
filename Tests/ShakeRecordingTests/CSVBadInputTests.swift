import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// The catalogue of bad CSV input (issue 7): each must give a clear error naming the line and the
/// character column, and never crash or hang.
@Suite struct CSVBadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var kind: RecordingError.Kind
        var line: Int
        var column: Int
        /// Words the message must contain.
        var says: [String]
        var options = CSVImportOptions.canonical
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ kind: RecordingError.Kind, line: Int, column: Int, says: [String], options: CSVImportOptions = .canonical) {
            self.init(name, Array(text.utf8), kind, line: line, column: column, says: says, options: options)
        }

        init(_ name: String, _ bytes: [UInt8], _ kind: RecordingError.Kind, line: Int, column: Int, says: [String], options: CSVImportOptions = .canonical) {
            self.name = name
            self.bytes = bytes
            self.kind = kind
            self.line = line
            self.column = column
            self.says = says
            self.options = options
        }
    }

    static let header = "time_s,x,y,z\n"

    static let cases: [Case] = [
        Case("empty file", "", .empty, line: 0, column: 0, says: ["file is empty"]),
        Case("only comments and blank lines", "# source: nowhere\n\n   \n", .empty, line: 0, column: 0, says: ["no header line"]),
        Case("missing column", "time_s,x,y\n0,1,2\n", .missingColumn, line: 1, column: 1, says: ["no z column", "'time_s,x,y'",
             "expected a column named z, az, acc_z, accel_z, acceleration_z, accelerometer_z, …"]),
        Case("missing explicit column", "time_s,x,y,z\n0,1,2,3\n", .missingColumn, line: 1, column: 1, says: ["no label column", "'mark'"],
             options: CSVImportOptions(label: .named("mark"))),
        Case("row with too few fields", header + "0,1,2,3\n0.01,1,2\n0.02,1,2,3\n", .fieldCount, line: 3, column: 9, says: ["3 fields", "expected 4"]),
        Case("row with one field", header + "0,1,2,3\n0.01\n", .fieldCount, line: 3, column: 5, says: ["line has 1 field, expected 4"]),
        Case("row with too many fields", header + "0,1,2,3,4\n", .fieldCount, line: 2, column: 9, says: ["more fields than the 4"]),
        Case("decimal comma in a comma file", header + "0,1,5,2,3\n", .fieldCount, line: 2, column: 9, says: ["more fields"]),
        Case("not a number", header + "0,1,abc,3\n", .notANumber, line: 2, column: 5, says: ["'abc' is not a number in column 'y'"]),
        Case("number with trailing junk", header + "0,1.5x,2,3\n", .notANumber, line: 2, column: 3, says: ["'1.5x'", "column 'x'"]),
        Case("empty field", header + "0,,2,3\n", .notANumber, line: 2, column: 3, says: ["missing value in column 'x'"]),
        Case("x, y and z empty: another sensor's row", header + "0,1,2,3\n0.01,,,\n", .notANumber, line: 3, column: 6,
             says: ["missing value in column 'x'", "all empty", "skipsRowsWithoutAcceleration"]),
        Case("y and z empty, rows without acceleration skipped", header + "0,1,2,3\n0.01,4, ,\"\"\n0.02,,,\n", .notANumber,
             line: 3, column: 8, says: ["missing value in column 'y'"],
             options: CSVImportOptions(skipsRowsWithoutAcceleration: true)),
        Case("MSVC's infinity", header + "0,1,2,1.#INF\n", .notFinite, line: 2, column: 7, says: ["'1.#INF' in column 'z' is not a finite number"]),
        Case("NaN", header + "0,NaN,2,3\n", .notFinite, line: 2, column: 3, says: ["'NaN'", "NaN and infinity"]),
        Case("negative infinity", header + "0,1,2,-inf\n", .notFinite, line: 2, column: 7, says: ["'-inf'", "column 'z'"]),
        Case("infinity in time", header + "Infinity,1,2,3\n", .notFinite, line: 2, column: 1, says: ["'Infinity'", "column 'time_s'"]),
        Case("number overflowing a Double", header + "0,1e999,2,3\n", .notFinite, line: 2, column: 3, says: ["'1e999'", "too large"]),
        // 10^-1234 × 10^12345 overflows however long the exponent: not 10^-1234 × 10^1234 = 1.
        Case("a long number overflowing a Double", header + "0,0.\(String(repeating: "0", count: 1233))1e12345,2,3\n", .notFinite, line: 2, column: 3,
             says: ["too large"]),
        Case("absurd magnitude", header + "0,1,2,2500\n", .outOfRange, line: 2, column: 7, says: ["2500.0 m/s²", "column 'z'", "2000"]),
        Case("absurd magnitude after unit conversion", "time_s,x (g),y (g),z (g)\n0,0,-300,1\n", .outOfRange, line: 2, column: 5, says: ["column 'y (g)'", "wrong unit"]),
        Case("absurd time", header + "0,1,2,9.8\n1e300,1,2,9.8\n", .outOfRange, line: 3, column: 1,
             says: ["time 1e+300 s in column 'time_s' is out of range", "beyond ±1e13 s", "a corrupt value or a wrong unit"]),
        Case("absurd negative time", header + "-2e13,1,2,9.8\n", .outOfRange, line: 2, column: 1,
             says: ["time -20000000000000.0 s", "out of range", "a corrupt value or a wrong unit"]),
        Case("epoch nanoseconds without a unit", "timestamp,x,y,z\n1700000000000000000,0,0,9.8\n1700000000010000000,0,0,9.8\n", .outOfRange,
             line: 2, column: 1, says: ["time 1.7e+18 s in column 'timestamp' is out of range", "nanoseconds since 1970", "set timeUnit ns (and set rebasesTime: true to start at 0)"]),
        Case("epoch microseconds in a seconds column", "x,y,z,time_s\n0,0,9.8,1700000000000000\n", .outOfRange,
             line: 2, column: 9, says: ["microseconds since 1970 (2023), or nanoseconds since the device started (19.7 days in, as Android and Linux IIO stamp samples), not the s its header states: correct the unit in the header to us (and set rebasesTime: true to start at 0)"]),
        // Nanoseconds since boot (Android's SensorEvent, Linux IIO): not "microseconds since 1978".
        Case("boot-time nanoseconds without a unit", "timestamp,x,y,z\n261234567890123,0,0,9.8\n", .outOfRange,
             line: 2, column: 1, says: ["nanoseconds since the device started (3.0 days in, as Android and Linux IIO stamp samples): set timeUnit ns"]),
        Case("boot-time nanoseconds, 5 hours in", "timestamp,x,y,z\n18000000000000,0,0,9.8\n", .outOfRange,
             line: 2, column: 1, says: ["nanoseconds since the device started (5.0 hours in, as Android and Linux IIO stamp samples): set timeUnit ns"]),
        // 12 days since boot in ns reads as 2002 in µs since 1970: both named, boot time first.
        Case("boot-time nanoseconds that also read as old epoch microseconds", "timestamp,x,y,z\n1036800000000000,0,0,9.8\n",
             .outOfRange, line: 2, column: 1,
             says: ["nanoseconds since the device started (12.0 days in, as Android and Linux IIO stamp samples), or microseconds since 1970 (2002): set timeUnit ns"]),
        Case("epoch nanoseconds in a milliseconds column", "time_ms,x,y,z\n1700000000000000000,0,0,9.8\n", .outOfRange,
             line: 2, column: 1, says: ["time 1700000000000000.0 s", "nanoseconds since 1970, not the ms its header states: correct the unit in the header to ns"]),
        Case("epoch nanoseconds in seconds, rebased, past the limit", "time_s,x,y,z\n1700000000000000000,0,0,9.8\n1700020000000000000,0,0,9.8\n",
             .outOfRange, line: 3, column: 1, says: ["time 20000000000000.0 s", "nanoseconds since 1970, not the s its header states: correct the unit in the header to ns"],
             options: CSVImportOptions(rebasesTime: true)),
        Case("a separator line naming a separator not read", "sep=:\ntime_s:x:y:z\n0:0:0:9.8\n", .header, line: 1, column: 5,
             says: ["the separator line names ':', and only ',', ';', tab and '|' separate fields here"]),
        Case("time going backwards", header + "1,0,0,9.8\n1.5,0,0,9.8\n0.5,0,0,9.8\n", .timeBackwards, line: 4, column: 1, says: ["time goes backwards", "0.5 s after 1.5 s on line 3"]),
        Case("truncated last line", header + "0,1,2,3\n0.01,1,2", .fieldCount, line: 3, column: 9, says: ["3 fields", "truncated"]),
        Case("last line cut inside a number", header + "0,1,2,3\n0.01,1,2,3e", .notANumber, line: 3, column: 10, says: ["'3e'", "truncated"]),
        Case("binary garbage", Array(header.utf8) + [0x30, 0x2C, 0x31, 0x2C, 0x00, 0x07, 0xFF, 0x2C, 0x33, 0x0A], .encoding, line: 2, column: 5, says: ["NUL", "binary"]),
        Case("binary file", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x0A], .encoding, line: 1, column: 8, says: ["binary"]),
        // An executable's header: NULs on both sides of their byte pairs, so binary data, not UTF-16.
        Case("binary file with many NULs", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x3E, 0x00, 0x0A],
             .encoding, line: 1, column: 8, says: ["binary data (a NUL byte)"]),
        Case("binary file with a carriage return after a NUL", [0x7F, 0x45, 0x4C, 0x46, 0x00, 0x0D, 0x41, 0x0A], .encoding, line: 1, column: 5, says: ["binary"]),
        Case("gzip-compressed file", [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x2B, 0xC9, 0xCC, 0x0A], .encoding, line: 1, column: 1,
             says: ["gzip-compressed data, not a text CSV file", "gzip -dc FILE > OUT.csv"]),
        Case("xz-compressed file", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04, 0xE6, 0xD6], .encoding, line: 1, column: 1, says: ["xz-compressed", "xz -dc"]),
        Case("Zstandard-compressed file", [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x0D, 0x69, 0x00], .encoding, line: 1, column: 1, says: ["Zstandard-compressed", "zstd -dc"]),
        Case("bzip2-compressed file", Array("BZh91AY&SY".utf8) + [0x8A, 0x0A], .encoding, line: 1, column: 1, says: ["bzip2-compressed", "bzip2 -dc"]),
        Case("spreadsheet workbook (a zip archive)", Array("PK".utf8) + [0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00], .encoding, line: 1, column: 1,
             says: ["a zip archive", ".xlsx", "export the sheet as CSV"]),
        Case("phyphox's CSV export (a zip archive of CSV files)",
             Array("PK".utf8) + [0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00] + Array(repeating: 0, count: 16) + [12, 0, 0, 0]
                + Array("Raw Data.csv".utf8) + [0x4B, 0x4C],
             .encoding, line: 1, column: 1,
             says: ["a zip archive (as phyphox and Sensor Logger export CSV files), its first file 'Raw Data.csv'",
                    "unzip -p FILE 'Raw Data.csv' > OUT.csv"]),
        Case("header that merely starts like bzip2's magic", "BZh9,x,y,z\n0,1,2,3\n", .missingColumn, line: 1, column: 1, says: ["no time column"]),
        Case("UTF-16 with byte-order mark", [0xFF, 0xFE] + Array("time_s,x,y,z\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), .encoding, line: 1, column: 1, says: ["UTF-16 is not supported", "UTF-8"]),
        Case("UTF-32 little-endian with byte-order mark", [0xFF, 0xFE, 0x00, 0x00] + Array("time_s,x,y,z\n".unicodeScalars.flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }), .encoding, line: 1, column: 1, says: ["UTF-32 is not supported", "iconv -f UTF-32 -t UTF-8"]),
        Case("UTF-32 big-endian with byte-order mark", [0x00, 0x00, 0xFE, 0xFF] + Array("time_s,x,y,z\n".unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value & 0xFF)] }), .encoding, line: 1, column: 1, says: ["UTF-32 is not supported", "iconv -f UTF-32 -t UTF-8"]),
        Case("UTF-16 without byte-order mark", Array("time_s,x,y,z\n".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), .encoding, line: 1, column: 1, says: ["UTF-16 is not supported"]),
        // "Ā" (U+0100) is 00 01 little-endian: one NUL on the other side of its pair.
        Case("UTF-16 without byte-order mark, a character with a NUL low byte", Array("time_s,x,y,z,Āa\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
             .encoding, line: 1, column: 1, says: ["UTF-16 is not supported"]),
        Case("label other than 0 or 1", "time_s,x,y,z,shake\n0,1,2,3,2\n", .badLabel, line: 2, column: 9, says: ["'2' is not a label in column 'shake'", "0 or 1"]),
        Case("label as a word", "time_s,x,y,z,shake\n0,1,2,3,yes\n", .badLabel, line: 2, column: 9, says: ["'yes'"]),
        Case("unterminated quote", header + "0,\"1,2,3\n", .notANumber, line: 2, column: 3, says: ["unterminated quoted field"]),
        Case("numbers where the header should be", "0,1,2,3\n0.01,1,2,3\n", .header, line: 1, column: 1, says: ["no header line", "time_s,x,y,z"]),
        Case("no separator in the header", "time_s x y z\n", .header, line: 1, column: 1, says: ["cannot find the field separator (',', ';', tab or '|')"]),
        Case("decimal comma in a comma-separated file", "time_s,x,y,z\n0,1,2,3\n", .header, line: 1, column: 1,
             says: ["the comma is the decimal separator, so it cannot also separate the fields",
                    "'time_s,x,y,z' has no ';', tab or '|'", RecordingError.OptionHint.commaIsDecimal.rawValue],
             options: CSVImportOptions(decimalSeparator: .comma)),
        Case("separator chosen that the header does not use", "time_s,x,y,z\n0,1,2,3\n", .header, line: 1, column: 1,
             says: ["'time_s,x,y,z' has no ';', the separator chosen; it seems to use ','",
                    RecordingError.OptionHint.separator.rawValue],
             options: CSVImportOptions(separator: .semicolon)),
        Case("tab chosen, semicolons used", "time_s;x;y;z\n0;1;2;3\n", .header, line: 1, column: 1,
             says: ["has no tab, the separator chosen; it seems to use ';'"],
             options: CSVImportOptions(separator: .tab)),
        Case("comma chosen, pipes used", "time_s|x|y|z\n0|1|2|3\n", .header, line: 1, column: 1,
             says: ["has no ',', the separator chosen; it seems to use '|'"],
             options: CSVImportOptions(separator: .comma)),
        Case("pipe chosen, commas used", "time_s,x,y,z\n0,1,2,3\n", .header, line: 1, column: 1,
             says: ["has no '|', the separator chosen; it seems to use ','"],
             options: CSVImportOptions(separator: .pipe)),
        // A comma inside a name outvotes the '|' separator: the missing column's error says so.
        Case("pipes with a comma inside a name", "Time (s)|Acc X (m/s^2, raw)|Acc Y|Acc Z\n0|1|2|9.8\n", .missingColumn, line: 1, column: 1,
             says: ["no time column", "the header holds '|' 3 times: if '|' separates its fields, "
                    + RecordingError.OptionHint.pipeSeparator.rawValue]),
        Case("column named twice", "time_s,x,x,y,z\n", .header, line: 1, column: 1, says: ["'x' appears 2 times"]),
        Case("unknown acceleration unit", "time_s,x (ft/s^2),y (ft/s^2),z (ft/s^2)\n", .header, line: 1, column: 8, says: ["unknown acceleration unit 'ft/s^2'"]),
        Case("unknown time unit", "Time (h),x,y,z\n", .header, line: 1, column: 1, says: ["unknown time unit 'h'"]),
        Case("decimal comma without the option", "time_s;x;y;z\n0;1,5;2;3\n", .notANumber, line: 2, column: 3, says: ["'1,5'", "decimalSeparator"]),
        Case("time without unit that is not in seconds", "timestamp,x,y,z\n1700000000000,0,0,9.8\n1700000000010,0,0,9.8\n", .header, line: 3, column: 1, says: ["no unit", "probably not seconds, but milliseconds (100 Hz): set timeUnit ms (or us or ns; s if it really is seconds)"]),
        Case("time since boot without unit that is not in seconds", "timestamp,x,y,z\n86400000,0,0,9.8\n86400010,0,0,9.8\n", .header, line: 3, column: 1, says: ["no unit", "its first interval is 10.0", "a rate under 4 Hz", "set timeUnit ms (or us or ns"]),
        // Nanoseconds since boot in an unnamed column, short of the out-of-range limit: named by the interval.
        Case("nanoseconds without unit, under the range limit", "timestamp,x,y,z\n1834567890123,0,0,9.8\n1834577890123,0,0,9.8\n", .header,
             line: 3, column: 1, says: ["but nanoseconds (100 Hz): set timeUnit ns (or ms or us; s if it really is seconds)"]),
        Case("microseconds without unit", "timestamp,x,y,z\n0,0,0,9.8\n2500,0,0,9.8\n", .header,
             line: 3, column: 1, says: ["but microseconds (400 Hz): set timeUnit us (or ms or ns"]),
        // 500 Hz in milliseconds, its first interval 2 ms: each interval read as seconds would be
        // a gap in the stream, and a first interval alone (under 2) did not tell.
        Case("milliseconds at 500 Hz without a unit", "timestamp,x,y,z\n" + (0...20).map { "\($0 * 2),0,0,9.8\n" }.joined(),
             .header, line: 3, column: 1, says: ["no unit", "its first 16 intervals are all 0.25 or more (the first is 2.0)", "set timeUnit"]),
        Case("milliseconds whose first interval is short", "timestamp,x,y,z\n0,0,0,9.8\n1,0,0,9.8\n" + (1...20).map { "\(1 + $0 * 10),0,0,9.8\n" }.joined(),
             .header, line: 3, column: 1, says: ["its first 16 intervals are all 0.25 or more (the first is 1.0)"]),
        Case("acceleration in g without a unit", gRows(64), .header, line: 65, column: 6,
             says: ["'x', 'y', 'z' have no unit", "between 0.8 and 1.25 over the first 64 samples", "looks like it is in g: set accelerationUnit g"]),
        // An option that contradicts the unit the header states: one of them is wrong.
        Case("time unit given against the header's", "time_s,x,y,z\n0,0,0,9.8\n", .invalidArgument, line: 1, column: 1,
             says: ["column 'time_s' is in s, but ms was given as the time unit: leave timeUnit unset (the unit the file states is used)"],
             options: CSVImportOptions(timeUnit: .milliseconds)),
        Case("acceleration unit given against the header's", "time_s,x (m/s^2),y (m/s^2),z (m/s^2)\n0,0,0,9.8\n", .invalidArgument, line: 1, column: 8,
             says: ["column 'x (m/s^2)' is in m/s^2, but g was given as the acceleration unit: leave accelerationUnit unset"],
             options: CSVImportOptions(accelerationUnit: .g)),
        Case("acceleration unit given against g-force columns", "time,gFx,gFy,gFz\n0,0,0,1\n", .invalidArgument, line: 1, column: 6,
             says: ["column 'gFx' is in g, but m/s^2 was given"], options: CSVImportOptions(accelerationUnit: .metersPerSecondSquared)),
        Case("acceleration unit given against the file's units line", "# units: m/s^2\ntime_s,x,y,z\n0,0,0,9.8\n", .invalidArgument, line: 2, column: 8,
             says: ["column 'x' is in m/s^2 (the file's '# units:' line), but g was given"], options: CSVImportOptions(accelerationUnit: .g)),
        Case("acceleration in mg without a unit", header + (0..<64).map { "\(Double($0) / 100),0,800,600\n" }.joined(), .header, line: 65, column: 6,
             says: ["'x', 'y', 'z' have no unit", "between 800 and 1250 over the first 64 samples", "looks like it is in mg: set accelerationUnit mg"]),
        Case("acceleration in g without a unit, no header", String(gRows(64).dropFirst(header.count)), .header, line: 64, column: 6,
             says: ["looks like it is in g"], options: CSVImportOptions(hasHeader: false)),
        Case("lines ending in CR alone", "time_s,x,y,z\r0,0,0,9.8\r0.01,0,0,9.8\r", .encoding, line: 1, column: 13,
             says: ["lines end in CR alone", "only LF or CRLF line ends are read"]),
        Case("lines ending in CR alone after a comment", "# source: old Mac\rtime_s,x,y,z\r0,0,0,9.8\r", .encoding, line: 1, column: 18,
             says: ["lines end in CR alone"]),
        Case("decimal comma with comma separator", header + "0,1,2,3\n", .invalidArgument, line: 0, column: 0, says: ["decimal comma"],
             options: CSVImportOptions(separator: .comma, decimalSeparator: .comma)),
        Case("column by name without a header", "0,1,2,3\n", .invalidArgument, line: 1, column: 1, says: ["hasHeader is false"],
             options: CSVImportOptions(x: .named("x"), hasHeader: false)),
        Case("column index beyond the header", header, .header, line: 1, column: 1, says: ["#9 does not exist"], options: CSVImportOptions(z: .index(9))),
        Case("column index one past the header", header, .header, line: 1, column: 1, says: ["column #5 does not exist: the header has 4 columns"],
             options: CSVImportOptions(z: .index(5))),
        Case("column chosen by a name the header has twice", "time_s,x,acc,acc,z\n", .header, line: 1, column: 1,
             says: ["column 'acc' appears 2 times in the header"], options: CSVImportOptions(y: .named("acc"))),
        // A field is quoted in a message to 40 characters, then an ellipsis.
        Case("a long word where a number should be", header + "0,\(String(repeating: "a", count: 45)),2,3\n", .notANumber, line: 2, column: 3,
             says: ["'\(String(repeating: "a", count: 40))…' is not a number in column 'x'"]),
        // 65 bytes, every field one the fast path reads, one past a limit of 64.
        Case("a row one byte over the line limit", header + "0,0,0,9.8\n0000001.00000000,-0000000.50000000,-0000000.25000000,+0000009.800\n",
             .lineTooLong, line: 3, column: 65, says: ["longer than the limit of 64 bytes"], options: CSVImportOptions(maximumLineBytes: 64)),
        Case("a line of 2 MiB", Array(header.utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 2 << 20) + [0x0A], .lineTooLong, line: 2, column: 1_048_577, says: ["longer than the limit of 1 MiB (1048576 bytes)"]),
        Case("a header of 2 MiB without line end", [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20), .lineTooLong, line: 1, column: 1_048_577, says: ["longer than the limit of 1 MiB"]),
    ]

    /// A device at rest written in g: |a| is 1 (0.8 on y, 0.6 on z), at 100 Hz.
    static func gRows(_ count: Int, replacing row: Int? = nil, with text: String = "") -> String {
        header + (0..<count).map { $0 == row ? text : "\(Double($0) / 100),0,0.8,0.6\n" }.joined()
    }

    /// The check for g read as m/s² leaves alone every file that says its unit, or is not at rest
    /// at 1 throughout its first 64 samples.
    @Test(arguments: [(String, String, CSVImportOptions, Double)]([
        ("unit g given", gRows(200), CSVImportOptions(accelerationUnit: .g), 9.80665),
        ("m/s² given", gRows(200), CSVImportOptions(accelerationUnit: .metersPerSecondSquared), 1),
        ("unit in the header", "time_s,x (g),y (g),z (g)\n" + String(gRows(200).dropFirst(header.count)), CSVImportOptions.canonical, 9.80665),
        ("one sample at 9.8", gRows(200, replacing: 40, with: "0.4,0,9.8,0\n"), CSVImportOptions.canonical, 1),
        ("only 63 samples", gRows(63), CSVImportOptions.canonical, 1),
        ("unit in the header, and the same given", "time_s,x (g),y (g),z (g)\n" + String(gRows(200).dropFirst(header.count)), CSVImportOptions(accelerationUnit: .g), 9.80665),
        ("a units line in g", "# units: g\n" + gRows(200), CSVImportOptions.canonical, 9.80665),
        ("a units line that is no unit", "# units: counts\n" + gRows(200, replacing: 40, with: "0.4,0,9.8,0\n"), CSVImportOptions(accelerationUnit: .g), 9.80665),
        ("mg given", header + (0..<100).map { "\(Double($0) / 100),0,800,600\n" }.joined(), CSVImportOptions(accelerationUnit: .milliG), 9.80665),
        ("g, then mg", gRows(1) + (1..<100).map { "\(Double($0) / 100),0,800,600\n" }.joined(), CSVImportOptions.canonical, 1),
        // Of two units lines the last counts.
        ("a units line in m/s², then one in g", "# units: m/s^2\n# units: g\n" + gRows(200), CSVImportOptions.canonical, 9.80665),
        // One axis's unit stated: the unit is not guessed (nor its rest at 1 refused).
        ("one axis's unit in the header", "time_s,x (m/s^2),y,z\n" + String(gRows(200).dropFirst(header.count)), CSVImportOptions.canonical, 1),
        // Just outside 0.8 to 1.25 (and 800 to 1250) at rest: not g (nor mg).
        ("at rest at 0.79", header + (0..<100).map { "\(Double($0) / 100),0,0,0.79\n" }.joined(), CSVImportOptions.canonical, 0.79),
        ("at rest at 1.26", header + (0..<100).map { "\(Double($0) / 100),0,0,1.26\n" }.joined(), CSVImportOptions.canonical, 1.26),
        ("at rest at 790", header + (0..<100).map { "\(Double($0) / 100),0,0,790\n" }.joined(), CSVImportOptions.canonical, 790),
        ("at rest at 1260", header + (0..<100).map { "\(Double($0) / 100),0,0,1260\n" }.joined(), CSVImportOptions.canonical, 1260),
    ]))
    func aFileThatSaysItsUnitOrMovesIsReadAsItSays(name: String, text: String, options: CSVImportOptions, magnitude: Double) throws {
        let samples = try RecordingReader.readAll(bytes: Array(text.utf8), name: "rest.csv", options: options).samples
        #expect(samples.count == (text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count - 1), "\(name)")
        let first = try #require(samples.first?.sample)
        #expect(abs((first.x * first.x + first.y * first.y + first.z * first.z).squareRoot() - magnitude) < 1e-9, "\(name)")
    }

    /// A file without a time unit is read in seconds when any of its first intervals is under
    /// 0.25 s, even if the first one is a pause (seconds are refused only when none is).
    @Test func aFileInSecondsThatStartsWithAPauseIsReadInSeconds() throws {
        let text = "timestamp,x,y,z\n0,0,0,9.8\n3,0,0,9.8\n" + (1...20).map { "\(3 + Double($0) / 100),0,0,9.8\n" }.joined()
        let samples = try RecordingReader.readAll(bytes: Array(text.utf8), name: "pause.csv", options: .init()).samples
        let expected: [Double] = [0, 3] + (1...20).map { (i: Int) -> Double in 3 + Double(i) / 100 }
        #expect(samples.map(\.sample.time) == expected)
    }

    /// A comma inside a quoted number of a comma-separated file points to no decimal-comma
    /// setting: a decimal comma cannot be read where the comma separates fields.
    @Test func aQuotedCommaInACommaSeparatedFileNamesNoDecimalComma() {
        do {
            _ = try RecordingReader.readAll(bytes: Array("time_s,x,y,z\n0,\"1,5\",2,3\n".utf8), name: "data.csv")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("'1,5' is not a number in column 'x'"), "\(error)")
            #expect(!error.message.contains("decimalSeparator"), "\(error)")
            #expect(error.optionHint == nil)
        }
    }

    /// A time column named as seconds (`seconds_elapsed`, `seconds`, `elapsed`, `elapsed_time`)
    /// states its unit: its slow intervals (1 s, 17 of them) are read in seconds, not refused as
    /// milliseconds.
    @Test(arguments: ["seconds_elapsed", "seconds", "elapsed", "elapsed_time"])
    func aTimeColumnNamedAsSecondsIsInSeconds(name: String) throws {
        let text = "\(name),x,y,z\n" + (0...17).map { "\($0),0,0,9.8\n" }.joined()
        let samples = try RecordingReader.readAll(bytes: Array(text.utf8), name: "slow.csv").samples
        #expect(samples.map(\.sample.time) == (0...17).map { Double($0) })
    }

    @Test(arguments: cases)
    func badInputGivesAClearErrorAtTheRightPlace(_ bad: Case) {
        do {
            var reader = try RecordingReader(bytes: bad.bytes, name: "data.csv", options: bad.options)
            while try reader.next() != nil {}
            Issue.record("no error for \(bad.name)")
        } catch {
            #expect(error.kind == bad.kind, "\(error)")
            #expect(error.path == "data.csv")
            #expect(error.line == bad.line, "\(error)")
            #expect(error.column == bad.column, "\(error)")
            for words in bad.says { #expect(error.message.contains(words), "\(error)") }
            let location = bad.line == 0 ? "data.csv: error: " : bad.column == 0 ? "data.csv:\(bad.line): error: " : "data.csv:\(bad.line):\(bad.column): error: "
            #expect(error.description.hasPrefix(location), "\(error)")
        }
    }

    /// Options that mean nothing are an error when reading starts, not a trap: a NaN, zero or
    /// negative `maximumAcceleration` (infinity is no limit), a `maximumLineBytes` whose buffer
    /// size overflowed; a value beyond a huge limit is said without trapping.
    @Test func meaninglessLimitsAreAnErrorNotATrap() throws {
        let text = Array("time_s,x,y,z\n0,0,0,9.8\n".utf8)
        for limit in [Double.nan, -1, 0] {
            do {
                _ = try RecordingReader.readAll(bytes: text, name: "r.csv", options: CSVImportOptions(maximumAcceleration: limit))
                Issue.record("no error for \(limit)")
            } catch {
                #expect(error.kind == .invalidArgument && error.message.contains("maximumAcceleration"), "\(error)")
            }
        }
        #expect(try RecordingReader.readAll(bytes: text, name: "r.csv", options: CSVImportOptions(maximumAcceleration: .infinity)).samples.count == 1)
        // A value beyond a huge limit is named in g without trapping (Int(_:) did beyond Int.max).
        let huge = Array("time_s,x,y,z\n0,2e20,0,9.8\n".utf8)
        do {
            _ = try RecordingReader.readAll(bytes: huge, name: "r.csv", options: CSVImportOptions(maximumAcceleration: 1e20))
            Issue.record("no error for 2e20 beyond 1e20")
        } catch {
            #expect(error.kind == .outOfRange && error.message.contains("is beyond ±1e+20 m/s² (about 1.019716212977928"), "\(error)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString).csv").path
        try Data(text).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: RecordingError.self) { _ = try RecordingReader(path: path, options: CSVImportOptions(maximumLineBytes: .max)) }
        #expect(try RecordingReader.readAll(path: path, options: CSVImportOptions(maximumLineBytes: 10)).samples.count == 1)
    }

    /// Sensor Logger writes every sensor with the accelerometer's header: its gyroscope,
    /// magnetometer and gravity files would read as acceleration without a word.
    @Test(arguments: [("Gyroscope.csv", "gyroscope"), ("export/MagnetometerUncalibrated.csv", "magnetometer"), ("GRAVITY.CSV", "gravity"),
                      // Copies and renamed files: a browser's download copy, a prefix, a date.
                      ("Gravity (1).csv", "gravity"), ("SL_Gravity.csv", "gravity"), ("2024-01-31_Magnetometer.csv", "magnetometer"),
                      ("walk 3 - Gyroscope.csv", "gyroscope")])
    func sensorLoggersOtherSensorsAreNotReadAsAcceleration(name: String, what: String) throws {
        let bytes = Array("time,seconds_elapsed,z,y,x\n1700000000000000000,0.00,0.01,-0.02,0.03\n".utf8)
        do {
            _ = try RecordingReader.readAll(bytes: bytes, name: name)
            Issue.record("no error for \(name)")
        } catch {
            #expect(error.kind == .missingColumn, "\(error)")
            #expect(error.line == 1 && error.column == 1, "\(error)")
            #expect(error.message.contains("Sensor Logger's \(what) export"), "\(error)")
            #expect(error.message.contains("read TotalAcceleration.csv"), "\(error)")
            #expect(error.optionHint == .axisColumns)
        }
        let chosen = CSVImportOptions(x: .named("x"), y: .named("y"), z: .named("z"))
        #expect(try RecordingReader.readAll(bytes: bytes, name: name, options: chosen).samples.count == 1)
        // A word naming acceleration, or the sensor's word not last: the user's own file, read.
        for acceleration in ["TotalAcceleration.csv", "Accelerometer.csv", "gravity.csv.bak", "<stdin>", "antigravity.csv",
                             "Accelerometer with gravity.csv", "no-gravity-accel.csv", "gravity test walk.csv",
                             "Accelerometer (1).csv"] {
            #expect(try RecordingReader.readAll(bytes: bytes, name: acceleration).samples.count == 1)
        }
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // "é" takes two bytes: the bad field starts at character 10, byte 11.
        let text = "note,time_s,x,y,z\né,0,1,2,3\né,0.01,1,abc,3\n"
        #expect {
            try RecordingReader.readAll(bytes: Array(text.utf8), name: "u.csv")
        } throws: { ($0 as? RecordingError).map { $0.line == 3 && $0.column == 10 } ?? false }
    }

    @Test func aMissingFileIsNamed() {
        let path = NSTemporaryDirectory() + "/shakekit-no-such-\(UUID().uuidString).csv"
        #expect {
            try RecordingReader(path: path)
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .io && e.path == path && e.description.contains(path) && e.message.contains("No such file")
        }
    }

    @Test func aDirectoryIsNotARecording() {
        let dir = CSVTestDirectory()
        #expect {
            try RecordingReader(path: dir.path)
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .isDirectory && e.path == dir.path && e.message.contains("directory")
        }
    }

    @Test func aHundredMegabyteLineIsRejectedWithoutReadingItAll() throws {
        let dir = CSVTestDirectory()
        let path = dir.file("long.csv")
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.header.utf8))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let chunk = Data(repeating: UInt8(ascii: "7"), count: 1 << 20)
        for _ in 0 ..< 100 { handle.write(chunk) }
        try handle.close()
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            try RecordingReader.readAll(path: path)
        } throws: { error in
            let e = error as! RecordingError
            return e.kind == .lineTooLong && e.line == 2 && e.path == path
        }
        #expect(clock.now - start < .seconds(5))
    }

    /// A tool says every setting a message names in its own words: the epoch-time message names
    /// the time unit and rebasing, and both are replaced. No phrase is part of another, so a
    /// replacement never cuts into a second one.
    @Test func everySettingAMessageNamesIsSaidInTheToolsWords() throws {
        let dir = CSVTestDirectory()
        let path = dir.file("epoch.csv")
        try "timestamp,x,y,z\n1700000000000000000,0,0,9.8\n".write(toFile: path, atomically: true, encoding: .utf8)
        var thrown: RecordingError?
        do { _ = try RecordingReader.readAll(path: path) } catch { thrown = error }
        let error = try #require(thrown)
        #expect(error.optionHint == .timeUnit)
        let said = error.message(naming: { "<\($0)>" })
        #expect(said.hasSuffix("it looks like nanoseconds since 1970: <timeUnit> ns (and <rebaseTime> to start at 0)"), "\(said)")
        for hint in RecordingError.OptionHint.allCases {
            for other in RecordingError.OptionHint.allCases where other != hint {
                #expect(!hint.rawValue.contains(other.rawValue), "'\(hint.rawValue)' holds '\(other.rawValue)'")
            }
        }
    }
}
