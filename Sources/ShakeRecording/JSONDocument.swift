import FoundationEssentials

/// A JSON text read the way Foundation's `JSONSerialization` (swift-corelibs-foundation, as in
/// Swift 6) reads it, for `ConfigurationFile`'s messages about a file `JSONDecoder` refused.
///
/// `JSONSerialization` is in full Foundation only, which would put ICU's data (about 34 MB) into
/// every program linked statically with ShakeRecording. The messages of a bad configuration file
/// were built from what it said (the byte offset in "… around character N.", "Unexpected end of
/// file …", "Number 1e999 is not representable …", the other texts as they were) and from the
/// numbers it made (`NSNumber` or `NSDecimalNumber`: their text, the JSON it wrote for them, their
/// `doubleValue`). This gives the same, so the messages stay byte for byte what they were; the
/// tests compare it with `JSONSerialization` on many texts.
///
/// It accepts what `JSONSerialization` accepts, a comma before `}` or `]` included, and nesting
/// up to 512 arrays or objects.
struct JSONDocument {
    indirect enum Value {
        case string(String)
        /// A number as written (valid JSON number syntax); `Number(literal:)` is its value.
        case number(String)
        case bool(Bool)
        case null
        case array([Value])
        /// Members in the order written; a key given twice keeps its last value (`members`).
        case object([(key: String, value: Value)])
    }

    /// A number as `JSONSerialization` keeps it: a 64-bit integer, a `Double`, or a `Decimal` (for
    /// more than 17 characters before the exponent, when a `Decimal` can hold it).
    enum Number {
        case integer(Int64)
        case unsigned(UInt64)
        case double(Double)
        case decimal(Decimal)

        /// The number `literal` (valid JSON number syntax) stands for, or nil when it is beyond a
        /// `Double` (`1e999`), which `JSONSerialization` refuses.
        init?(literal: String) {
            let bytes = Array(literal.utf8)
            let point = bytes.firstIndex(of: UInt8(ascii: "."))
            // Only a lower-case e counts as an exponent here, as in JSONSerialization: `1E5` is
            // taken as an integer (which fails), then as a Double.
            let exponentMark = bytes.firstIndex(of: UInt8(ascii: "e"))
            let charactersBeforeExponent = exponentMark ?? bytes.count
            if point == nil && exponentMark == nil {
                if bytes.first == UInt8(ascii: "-") {
                    if charactersBeforeExponent <= 19, let value = Int64(literal) {
                        self = .integer(value)
                        return
                    }
                } else if charactersBeforeExponent <= 20, let value = UInt64(literal) {
                    self = .unsigned(value)
                    return
                }
            }
            var exponent = 0
            if let exponentMark, let written = Int(String(decoding: bytes[(exponentMark + 1)...], as: UTF8.self)) {
                exponent = written
            }
            if charactersBeforeExponent > 17, (-128...127).contains(exponent),
               let decimal = Decimal(string: literal), decimal.isFinite {
                self = .decimal(decimal)
                return
            }
            if let double = Double(literal), double.isFinite {
                self = .double(double)
                return
            }
            return nil
        }

        /// The text of the `NSNumber` or `NSDecimalNumber` (its `description`).
        var text: String {
            switch self {
            case .integer(let value): return String(value)
            case .unsigned(let value): return String(value)
            case .double(let value): return value.description
            case .decimal(let value): return value.description
            }
        }

        /// What `JSONSerialization.data(withJSONObject:)` writes for it: a `Double` without a
        /// trailing `.0`.
        var jsonText: String {
            guard case .double(let value) = self else { return text }
            let description = value.description
            return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
        }

        /// `NSNumber.doubleValue`. A `Decimal`'s is `NSDecimalNumber`'s: the 16-bit words of its
        /// mantissa summed in a `Double`, then divided or multiplied by 10 once per unit of the
        /// exponent (not the nearest `Double`: 37.99999999999999999999992 gives
        /// 38.000000000000014).
        var doubleValue: Double {
            switch self {
            case .integer(let value): return Double(value)
            case .unsigned(let value): return Double(value)
            case .double(let value): return value
            case .decimal(let value): return Self.decimalNumberDouble(value)
            }
        }

        private static func decimalNumberDouble(_ decimal: Decimal) -> Double {
            guard decimal.isFinite else { return .nan }
            // The mantissa's 16-bit words, least significant first, from its decimal digits.
            var words: [UInt16] = []
            for digit in decimal.significand.magnitude.description.utf8 {
                var carry = UInt32(digit &- UInt8(ascii: "0"))
                for index in words.indices {
                    let product = UInt32(words[index]) * 10 + carry
                    words[index] = UInt16(truncatingIfNeeded: product)
                    carry = product >> 16
                }
                if carry > 0 { words.append(UInt16(carry)) }
            }
            var value = 0.0
            for word in words.reversed() { value = value * 65536 + Double(word) }
            var exponent = decimal.exponent
            while exponent < 0 {
                value /= 10
                exponent += 1
            }
            while exponent > 0 {
                value *= 10
                exponent -= 1
            }
            return decimal.sign == .minus ? -value : value
        }
    }

    /// Why the text is not JSON; `detail` is `JSONSerialization`'s `NSDebugDescription`, word for word.
    struct Failure: Error {
        var problem: Problem
        var detail: String { problem.detail }
    }

    /// The value of the JSON text `data` (UTF-8, or UTF-16 or UTF-32 told by a byte-order mark or
    /// by where its zero bytes are, as `JSONSerialization` tells them), or why it is not JSON.
    static func parse(_ data: [UInt8]) -> Result<Value, Failure> {
        do throws(Problem) {
            let bytes = try utf8(data)
            var parser = Parser(bytes: bytes)
            let value = try parser.document()
            try checkNumbers(value)
            return .success(value)
        } catch {
            return .failure(Failure(problem: error))
        }
    }

    /// The text as UTF-8, without a byte-order mark.
    private static func utf8(_ data: [UInt8]) throws(Problem) -> [UInt8] {
        var encoding = String.Encoding.utf8
        var skipped = 0
        if data.count >= 4 {
            if data.starts(with: [0xEF, 0xBB, 0xBF]) {
                skipped = 3
            } else if data.starts(with: [0, 0, 0xFE, 0xFF]) {
                (encoding, skipped) = (.utf32BigEndian, 4)
            } else if data.starts(with: [0xFF, 0xFE, 0, 0]) {
                (encoding, skipped) = (.utf32LittleEndian, 4)
            } else if data.starts(with: [0xFF, 0xFE]) {
                (encoding, skipped) = (.utf16LittleEndian, 2)
            } else if data.starts(with: [0xFE, 0xFF]) {
                (encoding, skipped) = (.utf16BigEndian, 2)
            }
        }
        if skipped == 0 {
            if data.count >= 4 {
                switch (data[0], data[1], data[2], data[3]) {
                case (0, 0, 0, _): encoding = .utf32BigEndian
                case (_, 0, 0, 0): encoding = .utf32LittleEndian
                case (0, _, 0, _): encoding = .utf16BigEndian
                case (_, 0, _, 0): encoding = .utf16LittleEndian
                default: break
                }
            } else if data.count >= 2 {
                if data[0] == 0 {
                    encoding = .utf16BigEndian
                } else if data[1] == 0 {
                    encoding = .utf16LittleEndian
                }
            }
        }
        if encoding == .utf8 { return Array(data[skipped...]) }
        guard let text = String(bytes: data[skipped...], encoding: encoding) else { throw .notConvertible }
        return Array(text.utf8)
    }

    /// Every number must fit a `Double` (or an integer or a `Decimal`); the first that does not
    /// is the error. (`JSONSerialization` converts an object's values in the order of its hash
    /// table, so with two such numbers in one object it names either; this names the first written.)
    private static func checkNumbers(_ value: Value) throws(Problem) {
        switch value {
        case .number(let literal):
            if Number(literal: literal) == nil { throw .notRepresentable(literal) }
        case .array(let elements):
            for element in elements { try checkNumbers(element) }
        case .object:
            for member in value.members { try checkNumbers(member.value) }
        case .string, .bool, .null:
            break
        }
    }

    /// What went wrong, as `JSONSerialization`'s parser tells it.
    enum Problem: Error, Equatable {
        case unexpectedCharacter(at: Int)
        case endOfFile
        case tooDeep(at: Int)
        case invalidHexDigits(String, at: Int)
        case invalidEscape(at: Int)
        case controlCharacter(at: Int)
        case missingLowSurrogate
        case invalidScalar
        case leadingZero(at: Int)
        case notRepresentable(String)
        case invalidUTF8(count: Int, at: Int)
        case notConvertible

        /// The byte offset `detail` gives as "around character N", for the problems it gives one.
        var offset: Int? {
            switch self {
            case .unexpectedCharacter(let index), .controlCharacter(let index), .leadingZero(let index): return index
            case .tooDeep(let index): return index + 1
            case .invalidEscape(let index): return index - 1
            default: return nil
            }
        }

        /// Whether the text ended before its value did ("Unexpected end of file …").
        var endsEarly: Bool { self == .endOfFile || self == .missingLowSurrogate }

        var detail: String {
            switch self {
            case .unexpectedCharacter(let index): return "Invalid value around character \(index)."
            case .endOfFile: return "Unexpected end of file during JSON parse."
            case .tooDeep(let index): return "Too many nested arrays or dictionaries around character \(index + 1)."
            case .invalidHexDigits(let text, let index): return "Invalid hex encoded sequence in \"\(text)\" at \(index)."
            case .invalidEscape(let index): return "Invalid escape sequence around character \(index - 1)."
            case .controlCharacter(let index): return "Unescaped control character around character \(index)."
            case .missingLowSurrogate:
                return "Unexpected end of file during string parse (expected low-surrogate code point but did not find one)."
            case .invalidScalar: return "Unable to convert hex escape sequence (no high character) to UTF8-encoded character."
            case .leadingZero(let index): return "Number with leading zero around character \(index)."
            case .notRepresentable(let literal): return "Number \(literal) is not representable in Swift."
            case .invalidUTF8(let count, let index): return "Invalid UTF-8 sequence \(count) bytes starting from character \(index)."
            case .notConvertible: return "Cannot convert input string to valid utf8 input."
            }
        }
    }

    /// A recursive-descent parser over UTF-8 bytes that stops where `JSONSerialization`'s does and
    /// reports the same offsets (some of them quirky: `tru}` is an early end of the file).
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        mutating func document() throws(Problem) -> Value {
            try skipWhitespace()
            let value = try parseValue()
            var end = index
            while end < bytes.count {
                guard Self.isWhitespace(bytes[end]) else { throw .unexpectedCharacter(at: end) }
                end += 1
            }
            return value
        }

        /// Moves to the next byte that is not whitespace and returns it; the end of the text is
        /// an error.
        @discardableResult
        mutating func skipWhitespace() throws(Problem) -> UInt8 {
            while index < bytes.count {
                if !Self.isWhitespace(bytes[index]) { return bytes[index] }
                index += 1
            }
            throw .endOfFile
        }

        mutating func parseValue() throws(Problem) -> Value {
            var ahead = index
            while ahead < bytes.count {
                let byte = bytes[ahead]
                if Self.isWhitespace(byte) {
                    ahead += 1
                    continue
                }
                switch byte {
                case Self.quote:
                    index = ahead
                    return .string(try readString())
                case UInt8(ascii: "{"):
                    index = ahead
                    return try parseObject()
                case UInt8(ascii: "["):
                    index = ahead
                    return try parseArray()
                case UInt8(ascii: "t"):
                    index = ahead
                    try readWord("true")
                    return .bool(true)
                case UInt8(ascii: "f"):
                    index = ahead
                    try readWord("false")
                    return .bool(false)
                case UInt8(ascii: "n"):
                    index = ahead
                    try readWord("null")
                    return .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    index = ahead
                    // Checked against a Double's range after the whole text is parsed (`checkNumbers`),
                    // as JSONSerialization converts numbers after parsing.
                    return .number(try readNumber())
                default:
                    // The index before the whitespace, as JSONSerialization gives it.
                    throw .unexpectedCharacter(at: index)
                }
            }
            throw .endOfFile
        }

        mutating func parseArray() throws(Problem) -> Value {
            index += 1
            guard depth < 512 else { throw .tooDeep(at: index - 1) }
            depth += 1
            defer { depth -= 1 }
            var elements: [Value] = []
            if try skipWhitespace() == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                elements.append(try parseValue())
                switch try skipWhitespace() {
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                case UInt8(ascii: ","):
                    index += 1
                    if try skipWhitespace() == UInt8(ascii: "]") {
                        index += 1
                        return .array(elements)
                    }
                default:
                    throw .unexpectedCharacter(at: index)
                }
            }
        }

        mutating func parseObject() throws(Problem) -> Value {
            index += 1
            guard depth < 512 else { throw .tooDeep(at: index - 1) }
            depth += 1
            defer { depth -= 1 }
            var members: [(key: String, value: Value)] = []
            if try skipWhitespace() == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                let key = try readString()
                guard try skipWhitespace() == UInt8(ascii: ":") else { throw .unexpectedCharacter(at: index) }
                index += 1
                try skipWhitespace()
                members.append((key, try parseValue()))
                switch try skipWhitespace() {
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                case UInt8(ascii: ","):
                    index += 1
                    if try skipWhitespace() == UInt8(ascii: "}") {
                        index += 1
                        return .object(members)
                    }
                default:
                    throw .unexpectedCharacter(at: index)
                }
            }
        }

        /// `true`, `false` or `null` at `index`. A wrong letter is unexpected, unless it is the
        /// last byte of the text: then the text ends early.
        mutating func readWord(_ word: StaticString) throws(Problem) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for letter in expected {
                guard index < bytes.count else { throw .endOfFile }
                let byte = bytes[index]
                index += 1
                if byte != letter {
                    if index >= bytes.count { throw .endOfFile }
                    throw .unexpectedCharacter(at: index - 1)
                }
            }
        }

        /// The bytes `range` as a string; invalid UTF-8 is an error naming the range's start.
        func text(_ range: Range<Int>) throws(Problem) -> String {
            // As JSONSerialization checks it (FoundationEssentials' conversion, which it uses too).
            guard let text = String(bytes: bytes[range], encoding: .utf8) else {
                throw .invalidUTF8(count: range.count, at: range.lowerBound)
            }
            return text
        }

        /// The string whose opening quote is at `index`, escapes decoded; `index` moves past its
        /// closing quote.
        mutating func readString() throws(Problem) -> String {
            guard bytes[index] == Self.quote else { throw .unexpectedCharacter(at: index) }
            index += 1
            var output = ""
            var start = index
            var end = start
            while end < bytes.count {
                let byte = bytes[end]
                if byte == Self.quote {
                    output += try text(start..<end)
                    index = end + 1
                    return output
                }
                if byte < 0x20 {
                    _ = try text(start..<(end + 1))
                    throw .controlCharacter(at: end)
                }
                if byte == Self.backslash {
                    output += try text(start..<end)
                    index = end
                    output.unicodeScalars.append(try readEscape())
                    start = index
                    end = start
                    continue
                }
                end += 1
            }
            throw .endOfFile
        }

        /// The escape at `index` (its backslash); `index` moves past it.
        mutating func readEscape() throws(Problem) -> Unicode.Scalar {
            let escapeStart = index
            index += 1
            guard index < bytes.count else { throw .endOfFile }
            let letter = bytes[index]
            index += 1
            switch letter {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"): break
            default:
                _ = try text(escapeStart..<index)
                throw .invalidEscape(at: index - 1)
            }
            let unit = try readHexDigits()
            if unit & 0xFC00 == 0xD800 {
                // A high surrogate: `\u` and a low one must follow.
                guard index + 1 < bytes.count else {
                    index = bytes.count
                    throw .endOfFile
                }
                let next = (bytes[index], bytes[index + 1])
                index += 2
                guard next == (Self.backslash, UInt8(ascii: "u")) else {
                    _ = try text(escapeStart..<index)
                    throw .missingLowSurrogate
                }
                let low = try readHexDigits()
                guard low & 0xFC00 == 0xDC00 else {
                    _ = try text(escapeStart..<index)
                    throw .missingLowSurrogate
                }
                // Always a valid scalar: 0x10000 to 0x10FFFF.
                return Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(low) - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(unit) else {
                _ = try text(escapeStart..<index)
                throw .invalidScalar
            }
            return scalar
        }

        /// The four hex digits at `index`, as a UTF-16 code unit.
        mutating func readHexDigits() throws(Problem) -> UInt16 {
            let start = index
            guard index + 4 <= bytes.count else {
                index = bytes.count
                throw .endOfFile
            }
            let digits = bytes[index..<(index + 4)]
            index += 4
            var unit: UInt16 = 0
            for digit in digits {
                let value: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
                default: throw .invalidHexDigits(String(decoding: digits, as: UTF8.self), at: start)
                }
                unit = unit << 4 | UInt16(value)
            }
            return unit
        }

        /// The number at `index` as written; `index` moves past it. Checked as JSONSerialization
        /// checks it: digits after a sign, point or exponent, no leading zero, and the number must
        /// end at whitespace, `,`, `]`, `}` or the end of the text.
        mutating func readNumber() throws(Problem) -> String {
            enum Last { case digitsOrSign, point, exponent, exponentSign }
            var last = Last.digitsOrSign
            var digitsSinceMark = bytes[index] == UInt8(ascii: "-") ? 0 : 1
            var leadingZero = bytes[index] == UInt8(ascii: "0")
            var end = index + 1
            while end < bytes.count {
                let byte = bytes[end]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if leadingZero { throw .leadingZero(at: end) }
                    if byte == UInt8(ascii: "0") && digitsSinceMark == 0 && last == .digitsOrSign { leadingZero = true }
                    digitsSinceMark += 1
                case UInt8(ascii: "."):
                    guard digitsSinceMark > 0, last == .digitsOrSign else { throw .unexpectedCharacter(at: end) }
                    (last, leadingZero, digitsSinceMark) = (.point, false, 0)
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    guard digitsSinceMark > 0, last == .digitsOrSign || last == .point else {
                        throw .unexpectedCharacter(at: end)
                    }
                    (last, leadingZero, digitsSinceMark) = (.exponent, false, 0)
                case UInt8(ascii: "+"), UInt8(ascii: "-"):
                    guard digitsSinceMark == 0, last == .exponent else { throw .unexpectedCharacter(at: end) }
                    (last, digitsSinceMark) = (.exponentSign, 0)
                case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    guard digitsSinceMark > 0 else { throw .unexpectedCharacter(at: end) }
                    let literal = String(decoding: bytes[index..<end], as: UTF8.self)
                    index = end
                    return literal
                default:
                    throw .unexpectedCharacter(at: end)
                }
                end += 1
            }
            guard digitsSinceMark > 0 else { throw .endOfFile }
            let literal = String(decoding: bytes[index...], as: UTF8.self)
            index = bytes.count
            return literal
        }
    }
}

extension JSONDocument.Value {
    /// An object's members with a key given twice kept once, at its first place, with its last
    /// value (as a dictionary built member by member keeps it); empty for anything else.
    var members: [(key: String, value: JSONDocument.Value)] {
        guard case .object(let written) = self else { return [] }
        var position: [String: Int] = [:]
        var members: [(key: String, value: JSONDocument.Value)] = []
        for member in written {
            if let earlier = position[member.key] {
                members[earlier].value = member.value
            } else {
                position[member.key] = members.count
                members.append(member)
            }
        }
        return members
    }
}
