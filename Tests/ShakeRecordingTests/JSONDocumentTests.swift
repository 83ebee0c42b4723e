import Foundation
@testable import ShakeRecording
import Testing

/// `JSONDocument` against what it replaces in `ConfigurationFile`, Foundation's JSONSerialization:
/// the same texts accepted, the same `NSDebugDescription` for the others (its offsets make the
/// line and column of a message), and the same numbers (their text, the JSON written for them,
/// their `doubleValue`), which decide and word the message about a number that does not fit.
@Suite struct JSONDocumentTests {
    /// JSONSerialization's verdict on `bytes`: nil and its value, or its debug description.
    static func reference(_ bytes: [UInt8]) -> (detail: String?, value: Any?) {
        do {
            return (nil, try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
        } catch {
            return ((error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)", nil)
        }
    }

    /// How `JSONDocument.parse(bytes)` differs from JSONSerialization, or nil.
    static func difference(_ bytes: [UInt8]) -> String? {
        let reference = reference(bytes)
        switch JSONDocument.parse(bytes) {
        case .success(let value):
            if let detail = reference.detail { return "accepted; JSONSerialization: \(detail)" }
            guard let theirs = reference.value else { return "no value" }
            return difference(value, theirs)
        case .failure(let failure):
            return failure.detail == reference.detail ? nil : "\(failure.detail); JSONSerialization: \(reference.detail ?? "accepted")"
        }
    }

    static func difference(_ value: JSONDocument.Value, _ theirs: Any) -> String? {
        switch value {
        case .string(let text):
            return theirs as? String == text ? nil : "string \(text.debugDescription) vs \(theirs)"
        case .null:
            return theirs is NSNull ? nil : "null vs \(theirs)"
        case .bool(let flag):
            return (theirs as? NSNumber)?.boolValue == flag ? nil : "\(flag) vs \(theirs)"
        case .number(let literal):
            guard let number = JSONDocument.Number(literal: literal), let nsNumber = theirs as? NSNumber else {
                return "number \(literal) vs \(theirs)"
            }
            if number.text != "\(theirs)" { return "text of \(literal): \(number.text) vs \(theirs)" }
            let written = (try? JSONSerialization.data(withJSONObject: ["k": theirs])).map { String(decoding: $0, as: UTF8.self) }
            if written != "{\"k\":\(number.jsonText)}" { return "JSON of \(literal): \(number.jsonText) vs \(written ?? "-")" }
            let double = number.doubleValue, theirDouble = nsNumber.doubleValue
            if double != theirDouble && !(double.isNaN && theirDouble.isNaN) { return "doubleValue of \(literal): \(double) vs \(theirDouble)" }
            return nil
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { return "array vs \(theirs)" }
            return zip(elements, array).lazy.compactMap { difference($0, $1) }.first
        case .object:
            guard let dictionary = theirs as? [String: Any] else { return "object vs \(theirs)" }
            let members = value.members
            if members.count != dictionary.count { return "\(members.count) keys vs \(dictionary.count)" }
            for (key, member) in members {
                guard let their = dictionary[key] else { return "key \(key) missing" }
                if let difference = difference(member, their) { return difference }
            }
            return nil
        }
    }

    static let configuration = """
        {
          "gravityTimeConstantSeconds" : 0.5,
          "minimumHalfWaves" : 4,
          "onsetAcceleration" : 7.25e0,
          "name" : "caf\\u00e9 \\ud83d\\ude00 \\n \\/ \\"x\\" é",
          "list" : [1, -0, 0.5, true, false, null, {"a": []}],
          "ré" : -12345678901234567890
        }
        """

    static let texts: [String] = [
        configuration, "", " ", "{", "}", "[", "]", "{}", "[]", "[,]", "{,}", "[1,]", "{\"a\":1,}", "[1,,2]", "[1 2]",
        "tru", "true", "truex", "tru}", "nul", "null", "nulx", "fals", "false", "\"abc", "\"a\\", "\"\\u12", "\"\\u12G4\"",
        "\"\\uD800\"", "\"\\uD800\\uD800\"", "\"\\uDC00\"", "\"\\uD800x\"", "\"\\uD800\\u\"", "\"\\q\"", "[\"\u{1}\"]",
        "[\"\u{1F}\"]", "\"\\uZZZZ",
        "-", "-0", "-01", "01", "0.", "0.e1", "1e", "1e+", "1e+5", "1E5", "1.5E400", "1e400", "-1e400", "1e-400",
        "{\"a\" 1}", "{\"a\":}", "{1:2}", "[] x", "{} \n\t ", "\u{FEFF}{}", "{\"a\":1,\"a\":2}", "{\"a\":1e999,\"a\":2}",
        "{\"é\":1,\"e\u{301}\":2}", "{\"minimumHalfWaves\": 4.5}", "{\"onsetAcceleration\": 1e999}",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        String(repeating: "{\"a\":", count: 600),
    ]

    @Test("Texts that are JSON, are not, or are at its edges: the same verdict and message")
    func edgeTextsMatchJSONSerialization() {
        for text in Self.texts {
            #expect(Self.difference(Array(text.utf8)) == nil, "\(text.prefix(60).debugDescription)")
        }
        let bytes: [[UInt8]] = [
            [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE, 0x7B, 0, 0x7D, 0], [0x7B, 0, 0x7D, 0],
            [0, 0x7B, 0, 0x7D], [0x7B, 0], [0xFE, 0xFF, 0, 0x7B, 0, 0x7D], [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22],
            [0x22, 0x5C, 0xC3, 0xA9, 0x22], [0x22, 0x5C, 0x75, 0x44, 0x38, 0x30, 0x30, 0xC3, 0xA9, 0x22], [0x22, 0xC3, 0x01, 0x22],
        ]
        for text in bytes {
            #expect(Self.difference(text) == nil, "\(text)")
        }
    }

    @Test("Numbers of every size and form: the same NSNumber or NSDecimalNumber, text, JSON and doubleValue")
    func numbersMatchJSONSerialization() {
        var generator = SynthRandom(seed: 0x4A53_4F4E, stream: 0)
        var mismatches: [String] = []
        let digits = Array("0123456789")
        func digitRun(_ count: Int) -> String { String((0..<count).map { _ in digits[generator.below(10)] }) }
        for _ in 0..<4_000 {
            var literal = generator.below(2) == 0 ? "-" : ""
            literal += digitRun(1 + generator.below(25))
            if generator.below(2) == 0 { literal += "." + digitRun(1 + generator.below(25)) }
            if generator.below(3) == 0 {
                literal += ["e", "E"][generator.below(2)] + ["", "+", "-"][generator.below(3)] + String(generator.below(500))
            }
            for text in ["{\"k\": \(literal)}", "[\(literal)]"] {
                if let difference = Self.difference(Array(text.utf8)) { mismatches.append("\(text): \(difference)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("A configuration mutated at random, in UTF-8, UTF-16 and UTF-32: the same verdict, message and values")
    func mutatedConfigurationsMatchJSONSerialization() {
        var generator = SynthRandom(seed: 0x5EED_1234, stream: 0)
        let pieces: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "u", "D8", "DC00", "0", "1", "-", "+", ".", "e",
                                 "E", " ", "\n", "t", "n", "f", "é", "\u{1}", "/", "x"].map { Array($0.utf8) }
            + [[0], [0xFF], [0xC3], [0xEF, 0xBB, 0xBF], [0xFE]]
        let base = Array(Self.configuration.utf8)
        var mismatches: [String] = []
        for round in 0..<12_000 {
            var bytes = base
            for _ in 0...generator.below(4) {
                let position = generator.below(bytes.count + 1)
                switch generator.below(3) {
                case 0: bytes.insert(contentsOf: pieces[generator.below(pieces.count)], at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                default:
                    if position < bytes.count {
                        bytes.replaceSubrange(position..<(position + 1), with: pieces[generator.below(pieces.count)])
                    }
                }
            }
            if generator.below(20) == 0 { bytes = Array(bytes.prefix(generator.below(bytes.count + 1))) }
            if round % 10 == 0 {
                let encodings: [String.Encoding] = [.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian, .utf16, .utf32]
                bytes = Array(String(decoding: bytes, as: UTF8.self).data(using: encodings[generator.below(encodings.count)]) ?? Data())
                if generator.below(5) == 0, !bytes.isEmpty { bytes.remove(at: generator.below(bytes.count)) }
            }
            if let difference = Self.difference(bytes) {
                mismatches.append("\(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription): \(difference)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("A 1 MB configuration: the same verdict")
    func largeTextMatchesJSONSerialization() {
        let padding = String(repeating: " ", count: 1 << 20)
        #expect(Self.difference(Array(("{\"onsetAcceleration\": 12" + padding + "}").utf8)) == nil)
        #expect(Self.difference(Array(("{\"onsetAcceleration\": 12" + padding + "x}").utf8)) == nil)
        #expect(Self.difference(Array(("[" + String(repeating: "1.5,", count: 200_000) + "2]").utf8)) == nil)
    }
}
