import ShakeDetection
import ShakeRecording
import Testing

/// Numbers in the shape recordings are written in (`-12.34567`), and every shape near it, read
/// to exactly the standard library's correctly rounded value in every dialect, and bad fields
/// among them are reported where they are.
@Suite struct CSVPlainNumberTests {
    struct Dialect: CustomTestStringConvertible, Sendable {
        var separator: CSVImportOptions.Separator
        var point: CSVImportOptions.DecimalSeparator
        var lineEnd: String
        var labelled: Bool

        var separatorText: String { separator.rawValue }
        var pointText: String { point.rawValue }
        var options: CSVImportOptions {
            // A small line limit keeps the read buffer near one 256 KiB chunk, so the rows below
            // cross several chunk boundaries.
            CSVImportOptions(
                separator: separator, decimalSeparator: point, maximumAcceleration: .infinity,
                maximumLineBytes: 256)
        }
        var testDescription: String {
            "separator \(separator), decimal \(point), \(lineEnd == "\n" ? "LF" : "CRLF")\(labelled ? ", labelled" : "")"
        }
    }

    static let dialects = [
        Dialect(separator: .comma, point: .point, lineEnd: "\n", labelled: false),
        Dialect(separator: .comma, point: .point, lineEnd: "\r\n", labelled: true),
        Dialect(separator: .semicolon, point: .comma, lineEnd: "\n", labelled: false),
        Dialect(separator: .tab, point: .point, lineEnd: "\r\n", labelled: false),
        Dialect(separator: .tab, point: .comma, lineEnd: "\n", labelled: true),
    ]

    /// Spellings at the edges of the plain shape (1…7 integer digits, 1…8 fraction digits).
    static let edgeSpellings = [
        "0.0", "-0.0", "+0.5", "-0.00000", "9.80665", "-12.34567", "1234567.12345678", "-9999999.99999999",
        "12345678.5", "1.123456789", "0.000000001", "123.", ".125", "-.5", "7", "-42", "1.5e3", "1.5E-3",
        "2.5e+1", "0.1e-22", "99999999999999999.9", "1234567890.1234567890", "0.30000000000000004",
        "00000001.50000000", "4503599627370497.5", "9007199254740993.0",
    ]

    private struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }

        mutating func digits(_ count: Int) -> String {
            String((0 ..< count).map { _ in Character(String(next(10))) })
        }

        /// A number mostly of the recorded shape, sometimes longer, signed or with an exponent.
        mutating func number() -> String {
            var text = ["", "", "", "-", "-", "+"][next(6)]
            let integerDigits = next(10) == 0 ? next(21) : next(8)
            let fractionDigits = next(10) == 0 ? next(21) : next(10)
            text += digits(integerDigits)
            if fractionDigits > 0 || integerDigits == 0 || next(8) == 0 {
                text += "." + digits(integerDigits == 0 ? max(1, fractionDigits) : fractionDigits)
            }
            if next(12) == 0 { text += ["e", "E"][next(2)] + ["", "-", "+"][next(3)] + String(next(40)) }
            return text
        }

        /// A time that is larger than every earlier one: `whole` then 0…9 fraction digits.
        mutating func time(whole: Int) -> String {
            let fractionDigits = next(10)
            return String(whole) + (fractionDigits == 0 && next(2) == 0 ? "" : "." + digits(fractionDigits))
        }
    }

    @Test(arguments: dialects)
    func everyShapeReadsToTheCorrectlyRoundedValue(_ dialect: Dialect) throws {
        var generator = Generator(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(dialect.testDescription.utf8.count))
        var expected: [(texts: [String], label: Bool?)] = []
        var csv = "time_s\(dialect.separatorText)x\(dialect.separatorText)y\(dialect.separatorText)z"
            + (dialect.labelled ? "\(dialect.separatorText)shake" : "") + dialect.lineEnd
        // Integer parts of time grow through 1, 7, 8, 10 and 13 digits, within the reader's
        // limit of 1e13 s (x, y and z take integer parts of up to 20 digits).
        let timeBases = [0, 1_000_000, 10_000_000, 1_700_000_000, 1_000_000_000_000]
        let rows = 14000
        for row in 0 ..< rows {
            let base = timeBases[row * timeBases.count / rows]
            var texts = [generator.time(whole: base + row)]
            for _ in 0 ..< 3 {
                texts.append(
                    row % 7 == 0 ? Self.edgeSpellings[generator.next(Self.edgeSpellings.count)] : generator.number())
            }
            let label: Bool? = dialect.labelled ? generator.next(2) == 1 : nil
            expected.append((texts, label))
            let fields = texts.map { $0.replacingPoint(with: dialect.pointText) } + (label.map { [$0 ? "1" : "0"] } ?? [])
            csv += fields.joined(separator: dialect.separatorText) + dialect.lineEnd
        }
        #expect(csv.utf8.count > 600_000, "the rows should span several read chunks")

        let (_, samples) = try RecordingReader.readAll(bytes: Array(csv.utf8), options: dialect.options)
        try #require(samples.count == rows)
        var wrong: [String] = []
        for (sample, row) in zip(samples, expected) {
            let want = row.texts.map { Double($0)! }
            let got = [sample.sample.time, sample.sample.x, sample.sample.y, sample.sample.z]
            if zip(got, want).contains(where: { $0.bitPattern != $1.bitPattern }) || sample.isShake != row.label {
                wrong.append("\(row.texts) \(row.label.map(String.init) ?? "-"): got \(got) \(sample.isShake.map(String.init) ?? "-")")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) rows differ, e.g. \(wrong.prefix(5))")
    }

    /// A small file's last row, without a line end, ends at the very end of the read buffer:
    /// its numbers are read there as exactly as anywhere else, in every dialect.
    @Test(arguments: dialects)
    func lastRowWithoutLineEndReadsToTheCorrectlyRoundedValue(_ dialect: Dialect) throws {
        let s = dialect.separatorText
        let header = "time_s\(s)x\(s)y\(s)z" + (dialect.labelled ? "\(s)shake" : "") + dialect.lineEnd
        for (index, spelling) in Self.edgeSpellings.enumerated() {
            let texts = ["\(index + 1).5", spelling, "-0.11598", spelling]
            let fields = texts.map { $0.replacingPoint(with: dialect.pointText) } + (dialect.labelled ? ["1"] : [])
            let csv = header + "0.5\(s)1\(s)2\(s)3".replacingPoint(with: dialect.pointText)
                + (dialect.labelled ? "\(s)0" : "") + dialect.lineEnd
                + fields.joined(separator: s)
            let (_, samples) = try RecordingReader.readAll(bytes: Array(csv.utf8), options: dialect.options)
            try #require(samples.count == 2, "\(texts)")
            let last = samples[1]
            let got = [last.sample.time, last.sample.x, last.sample.y, last.sample.z]
            let want = texts.map { Double($0)! }
            #expect(zip(got, want).allSatisfy { $0.bitPattern == $1.bitPattern }, "\(texts): got \(got)")
            #expect(last.isShake == (dialect.labelled ? true : nil))
        }
    }

    struct BadField: CustomTestStringConvertible, Sendable {
        var text: String
        var kind: RecordingError.Kind
        var testDescription: String { "'\(text)'" }
    }

    static let badFields = [
        BadField(text: "1.5.5", kind: .notANumber),
        BadField(text: "1.25x", kind: .notANumber),
        BadField(text: "1.2345678e", kind: .notANumber),
        BadField(text: "--1.5", kind: .notANumber),
        BadField(text: "1.5-", kind: .notANumber),
        BadField(text: "0.5 5", kind: .notANumber),
        BadField(text: "1e999", kind: .notFinite),
    ]

    /// A bad y field deep inside a large canonical file is named at its own line and column.
    @Test(arguments: badFields)
    func badFieldAmongPlainRowsIsReportedWhereItIs(_ bad: BadField) throws {
        var csv = "time_s,x,y,z\n"
        for row in 0 ..< 3000 { csv += "\(row).0000,0.08962,-0.11598,9.82237\n" }
        csv += "3000.0000,-0.26718,\(bad.text),9.24809\n"
        for row in 3001 ..< 4000 { csv += "\(row).0000,0.08962,-0.11598,9.82237\n" }
        let error = #expect(throws: RecordingError.self) { try RecordingReader.readAll(bytes: Array(csv.utf8)) }
        #expect(error?.line == 3002)
        #expect(error?.column == 20)
        #expect(error?.kind == bad.kind)
        #expect(error?.message.contains("'\(bad.text)'") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("column 'y'") == true, "\(error?.message ?? "")")
    }
}

extension String {
    fileprivate func replacingPoint(with point: String) -> String {
        point == "." ? self : String(map { $0 == "." ? Character(point) : $0 })
    }
}
