/// Header-line handling: splitting fields, normalising names, finding units and resolving columns.
struct CSVHeader {
    /// One header field as written and as compared.
    struct Field {
        /// The text without surrounding spaces and quotes, for messages.
        var text: String
        /// Lower-cased, unit removed, other characters as `_` (see `CSVImportOptions`).
        var name: String
        /// The unit in trailing parentheses or brackets, if any.
        var unit: String?
        /// 1-based character column where the field starts.
        var column: Int
    }

    var fields: [Field]

    /// Splits a line into fields at `separator`, honouring double quotes.
    ///
    /// - Returns: for each field its raw bytes' range (quotes and spaces included) as offsets.
    static func split(_ bytes: [UInt8], separator: UInt8) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        var i = 0
        var quoted = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if b == separator && !quoted {
                result.append(start ..< i)
                start = i + 1
            }
            i += 1
        }
        result.append(start ..< bytes.count)
        return result
    }

    /// Counts unquoted occurrences of each candidate separator and returns the most frequent
    /// (ties: comma, then semicolon, then tab); when none occurs, `|` if it does (a name such as
    /// `|a|` in a line of commas does not outvote them); nil when none of the four occurs.
    static func detectSeparator(_ bytes: [UInt8], allowComma: Bool) -> UInt8? {
        var counts = [0, 0, 0]
        var pipes = 0
        var quoted = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ",") where !quoted: counts[0] += 1
            case UInt8(ascii: ";") where !quoted: counts[1] += 1
            case UInt8(ascii: "\t") where !quoted: counts[2] += 1
            case UInt8(ascii: "|") where !quoted: pipes += 1
            default: break
            }
        }
        if !allowComma { counts[0] = 0 }
        let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
        var best = -1
        for i in 0 ..< 3 where counts[i] > 0 && (best < 0 || counts[i] > counts[best]) { best = i }
        if best < 0 { return pipes > 0 ? UInt8(ascii: "|") : nil }
        return candidates[best]
    }

    init(line: [UInt8], separator: UInt8) {
        var fields: [Field] = []
        for range in Self.split(line, separator: separator) {
            let text = Self.unquote(String(decoding: line[range], as: UTF8.self))
            let (name, unit) = Self.normalise(text)
            let column = characterColumn(line, range.lowerBound)
            fields.append(Field(text: text, name: name, unit: unit, column: column))
        }
        self.fields = fields
    }

    /// Removes surrounding spaces and one pair of double quotes (a doubled quote inside becomes one).
    static func unquote(_ text: String) -> String {
        var s = text.trimmingSpaces()
        if s.count >= 2, s.first == "\"", s.last == "\"" {
            s = String(s.dropFirst().dropLast()).replacing("\"\"", with: "\"").trimmingSpaces()
        }
        return s
    }

    /// `"Acceleration x (m/s^2)"` → (`acceleration_x`, `m/s^2`); an index in brackets is part of
    /// the name, not a unit: `values[0]` → (`values_0`, nil).
    static func normalise(_ text: String) -> (name: String, unit: String?) {
        var base = Substring(text)
        var unit: String?
        for (open, close) in [("(", ")"), ("[", "]")] where base.hasSuffix(close) {
            if let openIndex = base.lastIndex(of: Character(open)) {
                let inner = base[base.index(after: openIndex) ..< base.index(before: base.endIndex)]
                let text = String(inner).trimmingSpaces()
                if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) { break }
                unit = text.isEmpty ? nil : text  // edge-ml's `sensor_AccelerometerX[]`: no unit
                base = base[..<openIndex]
                break
            }
        }
        var name: [UInt8] = []
        var pendingUnderscore = false
        for b in base.lowercased().utf8 {
            let isAlnum = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            if isAlnum {
                if pendingUnderscore && !name.isEmpty { name.append(UInt8(ascii: "_")) }
                pendingUnderscore = false
                name.append(b)
            } else {
                pendingUnderscore = true
            }
        }
        return (String(decoding: name, as: UTF8.self), unit)
    }

    /// Index of the field matching `column`, or of the first candidate name present.
    ///
    /// - Returns: nil when nothing matches.
    /// - Throws: a message when a name matches more than one field.
    func resolve(_ column: CSVImportOptions.Column?, candidates: [String]) throws(HeaderProblem) -> Int? {
        switch column {
        case .index(let i):
            guard i >= 1 && i <= fields.count else {
                throw HeaderProblem(message: "column #\(i) does not exist: the header has \(fields.count) columns")
            }
            return i - 1
        case .named(let wanted):
            let (name, _) = Self.normalise(Self.unquote(wanted))
            let exact = wanted.trimmingSpaces().lowercased()
            let matches = fields.indices.filter { fields[$0].name == name || fields[$0].text.lowercased() == exact }
            if matches.count > 1 { throw HeaderProblem(message: "column '\(wanted)' appears \(matches.count) times in the header") }
            return matches.first
        case nil:
            for candidate in candidates {
                let matches = fields.indices.filter { fields[$0].name == candidate }
                if matches.count > 1 {
                    throw HeaderProblem(message: "column '\(fields[matches[0]].text)' appears \(matches.count) times in the header")
                }
                if let only = matches.first { return only }
            }
            return nil
        }
    }

    /// Why the header cannot be resolved, as one sentence.
    struct HeaderProblem: Error {
        var message: String
    }
}

/// 1-based character column of byte `offset` in `line`: UTF-8 code points before it, plus one.
func characterColumn(_ line: [UInt8], _ offset: Int) -> Int {
    var column = 1
    for i in 0 ..< min(offset, line.count) where line[i] & 0xC0 != 0x80 { column += 1 }
    return column
}

/// 1-based character column of `position` in the line starting at `start`.
func characterColumn(_ start: UnsafePointer<UInt8>, _ position: UnsafePointer<UInt8>) -> Int {
    var column = 1
    var p = start
    while p < position {
        if p.pointee & 0xC0 != 0x80 { column += 1 }
        p += 1
    }
    return column
}

/// A field's text for an error message: control bytes escaped, at most 40 characters.
func quotedForMessage(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> String {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == 40 {
            out += "…"
            break
        }
        switch scalar.value {
        case 0: out += "\\0"
        case 9: out += "\\t"
        case 13: out += "\\r"
        case 0 ..< 32, 127: out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
        count += 1
    }
    return "'\(out)'"
}

/// Bytes as text for an error message (see `quotedForMessage(_:_:)`).
func quotedForMessage(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBufferPointer { b in
        guard let base = b.baseAddress else { return "''" }
        return quotedForMessage(base, base + b.count)
    }
}
