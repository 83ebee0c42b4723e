import Foundation
import ShakeRecording
import Testing

/// Messages about configuration files that JSONDecoder refuses as a whole, which
/// `ConfigurationFile` explains from what Foundation's JSONSerialization said (now `JSONDocument`):
/// each text below with the message the tool gave while ShakeRecording used JSONSerialization
/// (shake at 0351c5a, `shake config --config NAME.json`), word for word, but for bytes that are
/// not UTF-8, now placed by line and column.
@Suite struct ConfigurationFileSyntaxTests {
    static let cases: [(name: String, bytes: [UInt8], says: String)] = [
        ("fraction-count", Array("{\"minimumHalfWaves\": 4.5}".utf8),
         "fraction-count.json:1:2: bad value at 'minimumHalfWaves': expected a whole number, got 4.5"),
        ("huge-count", Array("{\"minimumHalfWaves\": 99999999999999999999}".utf8),
         "huge-count.json:1:2: bad value at 'minimumHalfWaves': too large for a count, got 99999999999999999999"),
        ("double-count", Array("{\n  \"quietSeconds\": 0.3,\n  \"minimumHalfWaves\": 1e20\n}".utf8),
         "double-count.json:3:3: bad value at 'minimumHalfWaves': too large for a count, got 1e+20"),
        ("decimal-count", Array("{\"minimumHalfWaves\": 4.0000000000000000001, \"ongoingMotionStrongHalfWaves\": 2.5}".utf8),
         "decimal-count.json:1:45: bad value at 'ongoingMotionStrongHalfWaves': expected a whole number, got 2.5"),
        ("upper-exponent", Array("{\"onsetAcceleration\": 1E400}".utf8),
         "upper-exponent.json:1:23: number 1E400 is out of the range of a Double"),
        ("beyond-double", Array("{\"quietSeconds\": 0.3,\n \"onsetAcceleration\": -1e999}".utf8),
         "beyond-double.json:2:23: number -1e999 is out of the range of a Double"),
        ("below-double", Array("{\"quietSeconds\": 0.3,\n \"onsetAcceleration\": 1e-400}".utf8),
         "below-double.json:2:23: number 1e-400 is too close to 0 for a Double: write 0 or a larger number"),
        ("early-end-word", Array("{\n  \"onsetAcceleration\": 12,\n  \"x\": tru}".utf8),
         "early-end-word.json:3:12: not valid JSON: the text ends early"),
        ("leading-zero", Array("{\"onsetAcceleration\": 012}".utf8),
         "leading-zero.json:1:24: not valid JSON: unexpected text"),
        ("deep", Array(("{\"a\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}").utf8),
         "deep.json:1:518: not valid JSON: unexpected text"),
        ("trailing-commas", Array("{\"onsetAcceleration\": [1,],}".utf8),
         "trailing-commas.json:1:25: not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it"),
        ("utf16-fraction", Array("{\"minimumHalfWaves\": 4.5}".data(using: .utf16)!),
         "utf16-fraction.json:1:2: bad value at 'minimumHalfWaves': expected a whole number, got 4.5"),
        ("bad-utf8", [0x7B, 0x22, 0x6F, 0x6E, 0x73, 0x65, 0x74, 0x41, 0x63, 0x63, 0x65, 0x6C, 0x65, 0x72, 0x61, 0x74, 0x69, 0x6F, 0x6E, 0x22, 0x3A, 0x20, 0x31, 0x32, 0x20, 0x2C, 0x0A, 0x20, 0x22, 0xC3, 0x78, 0x22, 0x3A, 0x20, 0x31, 0x7D],
         // Until stop 54 as JSONSerialization said it, without a line: "bad-utf8.json: not valid
         // JSON: Invalid UTF-8 sequence 2 bytes starting from character 29."
         "bad-utf8.json:2:3: not valid JSON: bytes that are not UTF-8 (save the file as UTF-8)"),
        // A valid character before the byte that is not: the place is the byte's.
        ("latin1-key", Array("{\n  \"onsetAcceleration\": 10,\n  \"ca".utf8) + [0xE9] + Array("\": 4\n}\n".utf8),
         "latin1-key.json:3:6: not valid JSON: bytes that are not UTF-8 (save the file as UTF-8)"),
        ("text-after", Array("{\"onsetAcceleration\": 12} x".utf8),
         "text-after.json:1:27: not valid JSON: unexpected text"),
        ("unclosed", Array("  {\"onsetAcceleration\": 12".utf8),
         "unclosed.json:1:27: not valid JSON: the text ends early"),
        ("lone-surrogate", Array("{\"x\\ud800\": 1}".utf8),
         "lone-surrogate.json:1:15: not valid JSON: the text ends early"),
    ]

    @Test func messagesAreThoseJSONSerializationGave() {
        for (name, bytes, says) in Self.cases {
            do {
                _ = try ConfigurationFile.decode(Data(bytes), path: name + ".json")
                Issue.record("\(name) loaded")
            } catch {
                #expect(error.description == says, "\(name)")
            }
        }
    }
}
