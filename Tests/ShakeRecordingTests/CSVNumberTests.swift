import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// The reader's own number parser must agree exactly with the standard library's correctly
/// rounded conversion.
@Suite struct CSVNumberTests {
    static let spellings = [
        "0", "-0", "+0.0", "0.1", "0.2", "0.3", "-12.34567", ".5", "5.", "1e-3", "1E+2", "-2.5e-1",
        "9007199254740991", "9007199254740993", "18446744073709551615", "123456789012345678901234567890",
        "0.000000000000000000000000001234", "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
        "1e22", "1e23", "8.589973e9", "0.1e-22", "3.0000000000000004", "1234567890123456789e-10",
        "00000000000000000000000000000000000001.5", "9.80665", "1999.99999", "1e-400",
    ]

    @Test func specialSpellingsMatchTheStandardLibrary() throws {
        try expectExact(Self.spellings)
    }

    @Test func randomDecimalsMatchTheStandardLibrary() throws {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var texts: [String] = []
        for _ in 0 ..< 20000 {
            let digits = Int(next() % 21) + 1
            var mantissa = ""
            for _ in 0 ..< digits { mantissa += String(next() % 10) }
            let pointAt = Int(next() % UInt64(digits + 1))
            var text = String(mantissa.prefix(pointAt)) + "." + String(mantissa.dropFirst(pointAt))
            if text == "." { text = "0" }
            if next() % 3 == 0 { text += "e\(Int(next() % 60) - 30)" }
            if next() % 2 == 0 { text = "-" + text }
            texts.append(text)
        }
        try expectExact(texts)
    }

    /// Reads `texts` as the x column of a recording (1e6 s apart, unchecked magnitude) and compares.
    private func expectExact(_ texts: [String]) throws {
        var csv = "time_s,x,y,z\n"
        for (i, t) in texts.enumerated() { csv += "\(i),\(t),0,0\n" }
        let options = CSVImportOptions(maximumAcceleration: .infinity)
        // Out-of-range spellings (overflow to infinity) are errors; keep the finite ones here.
        let finite = texts.filter { Double($0)!.isFinite }
        #expect(finite.count == texts.count)
        let (_, rows) = try RecordingReader.readAll(bytes: Array(csv.utf8), options: options)
        try #require(rows.count == texts.count)
        let wrong = zip(rows, texts).filter { row, text in row.sample.x.bitPattern != Double(text)!.bitPattern }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map { "\($0.1): got \($0.0.sample.x), want \(Double($0.1)!)" })")
    }
}
