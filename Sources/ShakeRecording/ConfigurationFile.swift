import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeDetection

/// A configuration file could not be read, parsed or written.
public struct ConfigurationFileError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Hashable {
        /// The file does not exist, is a folder, or cannot be read.
        case unreadable
        /// The file is not a valid configuration (for `save`: the configuration given is not
        /// valid, and nothing was written).
        case malformed
        /// The file cannot be written (or exists and may not be overwritten).
        case unwritable
    }
    public var path: String
    public var kind: Kind
    /// One sentence for a person, without the location.
    public var message: String
    /// 1-based line of the problem in the file; 0 when it is about the whole file (or a key
    /// left out of it).
    public var line: Int
    /// 1-based column (Unicode scalars) of the problem; 0 with line 0.
    public var column: Int
    public init(path: String, kind: Kind, message: String, line: Int = 0, column: Int = 0) {
        self.path = path
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }
    /// `file:line:column: message`, the place as compilers write it (so editors and terminals can
    /// jump to it), or `file: message` when no place in the text is meant. Unlike
    /// `RecordingError`'s, it has no `error:` after the place.
    public var description: String {
        line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)"
    }
}

/// A problem found in a configuration's text, and where it is (a byte offset), if anywhere.
struct LocatedProblem {
    var message: String
    var offset: Int?
}

/// Loads and saves `ShakeConfiguration` as JSON: the format `shake tune` writes and
/// `replay`, `evaluate`, `live` and the library read.
///
/// Keys are the configuration's property names: those ending in `Seconds` are in seconds, those
/// ending in `Acceleration` in m/s², the rest are counts, a cosine or ratios (see their doc
/// comments). Keys left out take the `medium` preset's values.
public enum ConfigurationFile {
    /// Reads, decodes and validates the file at `path` (see `decode(_:path:)`). `-` reads standard
    /// input (named `<stdin>` in errors), as `RecordingReader` does; a named pipe or a process
    /// substitution (`<(…)`, a `/dev/fd/N` path) is read like a file.
    public static func load(path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        try decode(contents(of: path), path: RecordingError.displayName(ofPath: path))
    }

    /// `load(path:)`, which now validates too.
    @available(*, deprecated, renamed: "load(path:)", message: "load(path:) validates the values now")
    public static func loadValidated(path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        try load(path: path)
    }

    /// The most a configuration file may hold: one is under 1 KB; this keeps `/dev/zero` or a
    /// recording given by mistake from filling memory.
    static let largestFileBytes = 1 << 20

    /// The bytes of the file at `path` (`-`: standard input), or an `.unreadable` error saying
    /// why not, in the system's words ("Permission denied (errno 13)").
    private static func contents(of path: String) throws(ConfigurationFileError) -> Data {
        let name = RecordingError.displayName(ofPath: path)
        func unreadable(_ message: String) -> ConfigurationFileError {
            ConfigurationFileError(path: name, kind: .unreadable, message: message)
        }
        var fd: CInt
        repeat {
            fd = path == "-" ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            throw unreadable(code == ENOENT ? "no such file" : "cannot be read: \(errnoText(code))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw unreadable("is a directory, not a configuration file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw unreadable("cannot be read: \(errnoText(errno))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > largestFileBytes {
                throw ConfigurationFileError(
                    path: name, kind: .malformed,
                    message: "larger than \(largestFileBytes >> 20) MiB: not a configuration file")
            }
        }
        return Data(bytes)
    }

    /// Decodes a configuration from JSON text and validates it; `path` names it in errors
    /// (kind `.malformed`). Errors say where in the text the problem is (`line` and `column`, both
    /// from 1, columns counting Unicode scalars; the description is `file:line:column: message`),
    /// and name the key when there is one: text that is
    /// not JSON, a key given twice, an unknown key, `null`, a value of the wrong type, and a value
    /// `ShakeConfiguration.validate()` rejects (the detector assumes a valid configuration).
    public static func decode(_ data: Data, path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        let text = JSONText(data)
        func malformed(_ problem: LocatedProblem) -> ConfigurationFileError {
            let place = problem.offset.map { text.lineAndColumn(ofByte: $0) }
            return ConfigurationFileError(path: path, kind: .malformed, message: problem.message,
                                          line: place?.line ?? 0, column: place?.column ?? 0)
        }
        if let problem = describeTrailingComma(text) {
            throw malformed(problem)
        }
        let configuration: ShakeConfiguration
        do {
            configuration = try JSONDecoder().decode(ShakeConfiguration.self, from: data)
        } catch {
            // A key given twice explains a type error in either of its values; it is looked for
            // only in valid JSON, where a syntax error cannot make a value look like a key.
            if isJSON(data), let duplicate = describeDuplicateKey(text) {
                throw malformed(duplicate)
            }
            throw malformed((error as? DecodingError).map { describe($0, text: text) }
                ?? LocatedProblem(message: "\(error)"))
        }
        if let duplicate = describeDuplicateKey(text) {
            throw malformed(duplicate)
        }
        do {
            try configuration.validate()
        } catch {
            // A key left out takes the medium preset's value, which may not suit the keys given
            // (an onset lowered under medium's release): say that it is not in the file.
            guard let offset = text.keyOffset(error.field) else {
                throw malformed(LocatedProblem(
                    message: "\(error) (\(error.field) is not in the file: keys left out take the medium preset's "
                        + "values; add \"\(error.field)\" with a value that fits)"))
            }
            throw malformed(LocatedProblem(message: "\(error)", offset: offset))
        }
        return configuration
    }

    private static func isJSON(_ data: Data) -> Bool {
        if case .success = JSONDocument.parse(Array(data)) { return true }
        return false
    }

    /// Foundation's JSON parsers accept a comma after the last value of an object or array
    /// (`{"onsetAcceleration": 7,}`), which JSON does not: such a file would load here and be
    /// refused by every other JSON reader. Said when it is the first syntax error in the text.
    private static func describeTrailingComma(_ text: JSONText) -> LocatedProblem? {
        guard let comma = text.firstTrailingComma() else { return nil }
        var firstError = Int.max
        if case .failure(let failure) = JSONDocument.parse(text.bytes) {
            firstError = failure.problem.offset ?? (failure.problem.endsEarly ? text.bytes.count : 0)
        }
        guard comma < firstError else { return nil }
        return LocatedProblem(
            message: "not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it",
            offset: comma)
    }

    /// JSONDecoder takes the first of two values for one key and ignores the other, so a value
    /// appended to override one earlier in the file would be ignored without a word.
    private static func describeDuplicateKey(_ text: JSONText) -> LocatedProblem? {
        var first: [String: Int] = [:]
        for (name, offset) in text.topLevelKeys() {
            if let earlier = first[name] {
                return LocatedProblem(
                    message: "duplicate key '\(name)': already given at \(text.position(ofByte: earlier)); give each key once",
                    offset: offset)
            }
            first[name] = offset
        }
        return nil
    }

    /// `decode(_:path:)` for JSON text held in a string (a settings field, a value from a
    /// key-value store), without `Data`.
    public static func decode(_ text: String, path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        try decode(Data(text.utf8), path: path)
    }

    /// `encode(_:)` as a string.
    public static func encodedText(_ configuration: ShakeConfiguration) -> String {
        String(decoding: encode(configuration), as: UTF8.self)
    }

    /// What JSON writes for the `+infinity` that `saturationAcceleration` and
    /// `ongoingMotionPeakAcceleration` may hold (JSON has no infinity): 10⁶ m/s², the documented
    /// "off" value, beyond any reading the detector accepts (10⁴ m/s²), so it behaves the same.
    public static let infinityInJSON = 1e6

    /// The JSON text for `configuration`, keys sorted, pretty-printed, ending in a newline.
    /// `+infinity` (allowed for `saturationAcceleration` and `ongoingMotionPeakAcceleration`) is
    /// written as `infinityInJSON`, which loads back to a detector that behaves the same. For a
    /// configuration that `validate()` refuses the text need not load back, and one holding a NaN
    /// or another infinity (which JSON cannot hold) gives a newline alone: `save` refuses both.
    public static func encode(_ configuration: ShakeConfiguration) -> Data {
        var finite = configuration
        if finite.saturationAcceleration == .infinity { finite.saturationAcceleration = infinityInJSON }
        if finite.ongoingMotionPeakAcceleration == .infinity { finite.ongoingMotionPeakAcceleration = infinityInJSON }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Only a non-finite number could make this fail; validate() allows none but the two above.
        var data = (try? encoder.encode(finite)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// Writes the file whole or not at all (a temporary file beside it, `fsync`, then a rename). An
    /// existing file is kept unless `overwrite` is true, even one that appears while writing.
    /// A configuration that `validate()` refuses is not written (`load` would refuse the file, and
    /// JSON cannot hold a NaN).
    /// - Throws: `ConfigurationFileError` (`.unwritable`) naming the path and why, in the
    ///   system's words ("the folder 'x' does not exist", "No space left on device (errno 28)");
    ///   `.malformed` for an invalid configuration, naming the field.
    public static func save(_ configuration: ShakeConfiguration, to path: String, overwrite: Bool = false)
        throws(ConfigurationFileError)
    {
        do {
            try configuration.validate()
        } catch {
            throw ConfigurationFileError(path: path, kind: .malformed, message: "not written: \(error)")
        }
        do throws(WholeFileWriter.Failure) {
            try WholeFileWriter.write(Array(encode(configuration)), to: path, overwrite: overwrite)
        } catch {
            throw ConfigurationFileError(path: path, kind: .unwritable, message: error.message)
        }
    }

    static func describe(_ error: DecodingError, text: JSONText) -> LocatedProblem {
        func keyPath(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : "'" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".") + "'"
        }
        /// Where the problem is: the key (configuration keys are top-level, so the first key of
        /// the path is the one to find).
        func located(_ message: String, _ path: [any CodingKey]) -> LocatedProblem {
            guard let key = path.first?.stringValue, path.first?.intValue == nil else { return LocatedProblem(message: message) }
            return LocatedProblem(message: message, offset: text.keyOffset(key))
        }
        /// What the JSON text at a coding path is ("a string", "an array", …), for a one-key path
        /// or the top level; for a number expected and a string found that holds one (`"12"`,
        /// `"0.3 s"`), that string and the number to write instead.
        func found(_ path: [any CodingKey], expecting type: Any.Type? = nil) -> String {
            let kind: String?
            switch path.count {
            case 0: kind = text.topLevelValueKind()
            case 1: kind = path[0].intValue == nil ? text.valueKind(ofKey: path[0].stringValue) : nil
            default: kind = nil
            }
            guard kind == "a string", path.count == 1, let written = text.stringValue(ofKey: path[0].stringValue),
                  type == Double.self || type == Int.self else {
                return kind.map { ", got \($0)" } ?? ""
            }
            // A number in quotes, or with its unit: the number to write instead.
            let trimmed = written.trimmingSpaces()
            if Double(trimmed)?.isFinite == true, trimmed.first != "+" {
                return ", got the string \(JSONText.quoted(written)): write the number without quotes (\(trimmed))"
            }
            let number = String(trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
            if !number.isEmpty, Double(number) != nil, trimmed.dropFirst(number.count).first.map({ $0 == " " || $0.isLetter || $0 == "/" }) == true {
                return ", got the string \(JSONText.quoted(written)): write the number alone, without quotes or unit (\(number))"
            }
            return ", got \(kind ?? "a string")"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return describeUnparsable(text) }
            // A key unknown or renamed: the decoder's text names the key, and there is no value at fault.
            let key = context.codingPath.last?.stringValue ?? ""
            if context.debugDescription.hasPrefix("unknown configuration key '\(key)'")
                || context.debugDescription.hasPrefix("'\(key)' was replaced by") {
                return located(context.debugDescription, context.codingPath)
            }
            return located("bad value at \(keyPath(context.codingPath)): \(context.debugDescription)", context.codingPath)
        case .keyNotFound(let key, let context):
            return located("missing key '\(key.stringValue)' in \(keyPath(context.codingPath))", context.codingPath)
        case .typeMismatch(let type, let context):
            return located("wrong type at \(keyPath(context.codingPath)): expected "
                + jsonDescription(of: type, at: context.codingPath) + found(context.codingPath, expecting: type), context.codingPath)
        case .valueNotFound(let type, let context):
            // ShakeConfiguration's decoder says what to write instead of null.
            let advice = context.debugDescription.hasPrefix("give ")
                ? context.debugDescription : "expected \(jsonDescription(of: type, at: context.codingPath))"
            return located("null at \(keyPath(context.codingPath)): \(advice)", context.codingPath)
        @unknown default:
            return LocatedProblem(message: "\(error)")
        }
    }

    /// What the user must write in JSON for a value of `type`, instead of the Swift type's name.
    private static func jsonDescription(of type: Any.Type, at path: [any CodingKey]) -> String {
        switch type {
        case is Int.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is String.Type: return "a string in quotes"
        case is Bool.Type: return "true or false"
        default:
            if path.isEmpty { return "a JSON object { \"key\": value, … } at the top level" }
            return String(describing: type).hasPrefix("Array") ? "a JSON array [ … ]" : "a JSON object { … }"
        }
    }

    /// JSONDecoder says only "not valid JSON", without a place, both for text that is not JSON
    /// and for a number that does not fit its field (4.5 for a count, 1e999 for a Double).
    /// `JSONDocument` (what Foundation's JSONSerialization said, which this used before) tells them
    /// apart and gives the offset of a syntax error.
    private static func describeUnparsable(_ text: JSONText) -> LocatedProblem {
        if text.bytes.allSatisfy(JSONText.isWhitespace) {
            return LocatedProblem(message: "not valid JSON: the file is empty")
        }
        let document: JSONDocument.Value
        switch JSONDocument.parse(text.bytes) {
        case .success(let value):
            document = value
        case .failure(let failure):
            if let offset = failure.problem.offset {
                let reason = failure.problem == .unexpectedCharacter(at: offset) ? text.handEditMistake(at: offset) : nil
                return LocatedProblem(message: "not valid JSON: \(reason ?? "unexpected text")", offset: offset)
            }
            if failure.problem.endsEarly {
                return LocatedProblem(message: "not valid JSON: the text ends early", offset: text.bytes.count)
            }
            if case .invalidUTF8(let count, let start) = failure.problem {
                // The first byte of the string that does not decode (JSONSerialization named the
                // string's start, as a character count, without a line).
                var bytes = text.bytes[start..<min(start + count, text.bytes.count)].makeIterator()
                var parser = Unicode.UTF8.ForwardParser()
                var offset = start
                scan: while true {
                    switch parser.parseScalar(from: &bytes) {
                    case .valid(let scalar): offset += scalar.count
                    case .error, .emptyInput: break scan
                    }
                }
                return LocatedProblem(message: "not valid JSON: bytes that are not UTF-8 (save the file as UTF-8)", offset: offset)
            }
            if case .notRepresentable(let number) = failure.problem {
                return LocatedProblem(message: "number \(number) is out of the range of a Double",
                                      offset: text.numberOffset(number))
            }
            return LocatedProblem(message: "not valid JSON: \(failure.detail)")
        }
        // Valid JSON that JSONDecoder refused: a number that does not fit its field (a fraction
        // or a huge number for a count). Found by decoding each key alone, its number written as
        // JSONSerialization wrote it. (Only a number can be refused so: any other value of a
        // known key is of the wrong type, and an unknown key is named with its path.)
        for (key, value) in document.members.sorted(by: { $0.key < $1.key }) {
            guard case .number(let literal) = value, let number = JSONDocument.Number(literal: literal) else { continue }
            // A number too close to 0 for a Double (1e-400): JSONDecoder refuses it.
            if number.doubleValue == 0, literal.prefix(while: { $0 != "e" && $0 != "E" }).contains(where: { ("1"..."9").contains($0) }) {
                return LocatedProblem(message: "number \(literal) is too close to 0 for a Double: write 0 or a larger number",
                                      offset: text.numberOffset(literal))
            }
            let alone = Data(("{" + JSONText.quoted(key) + ":" + number.jsonText + "}").utf8)
            do {
                _ = try JSONDecoder().decode(ShakeConfiguration.self, from: alone)
            } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                let double = number.doubleValue
                let problem = double.rounded() == double ? "too large for a count" : "expected a whole number"
                return LocatedProblem(message: "bad value at '\(key)': \(problem), got \(number.text)", offset: text.keyOffset(key))
            } catch {
                continue
            }
        }
        return LocatedProblem(message: "not valid JSON")
    }
}

/// A JSON text as UTF-8 without a byte-order mark, for telling where something in it is.
struct JSONText {
    let bytes: [UInt8]

    /// UTF-8 is taken as it is, without its byte-order mark (JSONSerialization's offsets do not
    /// count it); UTF-16 and UTF-32 with a byte-order mark, which the loader also accepts, are
    /// converted, so that lines, columns and keys are found in them too.
    init(_ data: Data) {
        let raw = Array(data)
        let encoding: String.Encoding? =
            raw.starts(with: [0xFF, 0xFE, 0, 0]) || raw.starts(with: [0, 0, 0xFE, 0xFF]) ? .utf32
            : raw.starts(with: [0xFF, 0xFE]) || raw.starts(with: [0xFE, 0xFF]) ? .utf16 : nil
        var text = raw
        if let encoding, let decoded = String(data: data, encoding: encoding) {
            text = Array(decoded.utf8)
        }
        bytes = text.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(text.dropFirst(3)) : text
    }

    /// `text` as a JSON string, in quotes, with `"`, `\\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// What a hand edit that JSON does not allow looks like, for the byte at `offset` where the
    /// parser stopped: a file that is no object from its start, a comment (`//`, `/*`, `#`), single quotes, a key without quotes, a unit
    /// after a number (`12m/s2`), a missing comma between two keys, a decimal comma (`8,5`), a
    /// number without its leading zero (`.3`), a missing value (`"quietSeconds": ,`); nil for
    /// anything else.
    func handEditMistake(at offset: Int) -> String? {
        guard offset >= 0, offset < bytes.count else { return nil }
        let byte = bytes[offset]
        let next: UInt8? = offset + 1 < bytes.count ? bytes[offset + 1] : nil
        let previousIndex = bytes[..<offset].lastIndex { !Self.isWhitespace($0) }
        let previous = previousIndex.map { bytes[$0] }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F }
        /// The run of bytes ending (or starting) at an index that `belongs` says make one token.
        func token(endingAt end: Int, _ belongs: (UInt8) -> Bool) -> String {
            var start = end
            while start > 0 && belongs(bytes[start - 1]) { start -= 1 }
            return String(decoding: bytes[start...end], as: UTF8.self)
        }
        func token(startingAt start: Int, _ belongs: (UInt8) -> Bool) -> String {
            var end = start
            while end + 1 < bytes.count && belongs(bytes[end + 1]) { end += 1 }
            return String(decoding: bytes[start...end], as: UTF8.self)
        }
        let isComment = byte == UInt8(ascii: "#")
            || (byte == UInt8(ascii: "/") && (next == UInt8(ascii: "/") || next == UInt8(ascii: "*")))
        // Not an object from the start (a recording, whose '# key: value' lines are no comment
        // before an object, or another kind of file).
        if offset == bytes.firstIndex(where: { !Self.isWhitespace($0) }),
           !(isComment && bytes[offset...].contains(UInt8(ascii: "{"))) {
            return "the file does not begin with '{': a configuration is a JSON object, { \"key\": value, … }, as "
                + "'shake config --preset medium' prints"
        }
        if isComment { return "a comment, which JSON does not allow: remove it" }
        if byte == UInt8(ascii: "'") { return "single quotes: JSON strings take double quotes (\")" }
        if isLetter(byte), previous == UInt8(ascii: "{") || previous == UInt8(ascii: ",") {
            let key = token(startingAt: offset) { isLetter($0) || isDigit($0) }
            return "a key without quotes: write it in double quotes (\"\(key)\")"
        }
        if let previousIndex, isDigit(previous),
           isLetter(byte) || byte >= 0x80 || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "%") {
            let number = token(endingAt: previousIndex) { isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            return "a unit after the number \(number): write the number alone (keys ending in Seconds are in s, keys "
                + "ending in Acceleration in m/s²)"
        }
        if byte == UInt8(ascii: "\""), let previous,
           isDigit(previous) || [UInt8(ascii: "\""), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "e"),
                                 UInt8(ascii: "l")].contains(previous) {
            return "a comma is missing before this key (after the value before it)"
        }
        if isDigit(byte), let previousIndex, previous == UInt8(ascii: ","), previousIndex == offset - 1,
           previousIndex > 0, isDigit(bytes[previousIndex - 1]) {
            let whole = token(endingAt: previousIndex - 1) { isDigit($0) || $0 == UInt8(ascii: "-") }
            let fraction = token(startingAt: offset) { isDigit($0) }
            return "a decimal comma? JSON numbers take a point (\(whole).\(fraction))"
        }
        if byte == UInt8(ascii: "."), isDigit(next) {
            return "a number begins with a digit (0\(token(startingAt: offset) { isDigit($0) }), not "
                + "\(token(startingAt: offset) { isDigit($0) }))"
        }
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}"), previous == UInt8(ascii: ":") {
            return "a value is missing after ':'"
        }
        return nil
    }

    /// The line and column (both from 1; columns count Unicode scalars) of the byte at `offset`.
    func lineAndColumn(ofByte offset: Int) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte
                column += 1
            }
        }
        return (line, column)
    }

    /// "line L, column C" of the byte at `offset`, for a second place in a message.
    func position(ofByte offset: Int) -> String {
        let place = lineAndColumn(ofByte: offset)
        return "line \(place.line), column \(place.column)"
    }

    /// The byte offset where the top-level object's key `name` is first written (its opening
    /// quote), or nil.
    func keyOffset(_ name: String) -> Int? {
        topLevelKeys().first { $0.name == name }?.offset
    }

    /// The top-level object's keys in the order written (escapes such as `\u0041` decoded), each
    /// with the byte offset of its opening quote.
    func topLevelKeys() -> [(name: String, offset: Int)] {
        var keys: [(name: String, offset: Int)] = []
        var depth = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index = endOfString(openedAt: start)
                if depth == 1 && nextSignificantByte(from: index) == UInt8(ascii: ":") {
                    keys.append((Self.unescaped(bytes[min(start + 1, bytes.count)..<min(index - 1, bytes.count)]), start))
                }
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
            index += 1
        }
        return keys
    }

    /// What kind of JSON value the top-level key `name` first has ("a string", "an array", …),
    /// or nil.
    func valueKind(ofKey name: String) -> String? {
        guard let key = topLevelKeys().first(where: { $0.name == name }) else { return nil }
        var index = endOfString(openedAt: key.offset)
        while index < bytes.count && (Self.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ":")) { index += 1 }
        return kind(ofValueAt: index)
    }

    /// The top-level object's string value of the key `name`, decoded; nil when it is no string.
    func stringValue(ofKey name: String) -> String? {
        guard case .success(let document) = JSONDocument.parse(bytes) else { return nil }
        for member in document.members where member.key == name {
            if case .string(let value) = member.value { return value }
        }
        return nil
    }

    /// What kind of JSON value the whole text is ("an array", …), or nil.
    func topLevelValueKind() -> String? {
        kind(ofValueAt: bytes.firstIndex { !Self.isWhitespace($0) } ?? bytes.count)
    }

    private func kind(ofValueAt index: Int) -> String? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"): return "true"
        case UInt8(ascii: "f"): return "false"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return nil
        }
    }

    /// A JSON string's content (between its quotes) with its escapes decoded.
    private static func unescaped(_ content: ArraySlice<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll()
        }
        var pendingHighSurrogate: UInt32?
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.endIndex else {
                utf8.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                let hex = content[index..<min(index + 4, content.endIndex)]
                index = hex.endIndex
                guard hex.count == 4, let unit = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else { continue }
                flush()
                if (0xD800..<0xDC00).contains(unit) {
                    pendingHighSurrogate = unit
                    continue
                }
                if (0xDC00..<0xE000).contains(unit), let high = pendingHighSurrogate,
                   let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (unit - 0xDC00)) {
                    scalars.append(scalar)
                } else if let scalar = Unicode.Scalar(unit) {
                    scalars.append(scalar)
                }
            default: utf8.append(escape)  // \" \\ \/
            }
            pendingHighSurrogate = nil
        }
        flush()
        return String(scalars)
    }

    /// The byte offset of the first comma, outside strings, that only whitespace separates from
    /// a closing `}` or `]`, or nil.
    func firstTrailingComma() -> Int? {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = endOfString(openedAt: index)
                continue
            case UInt8(ascii: ","):
                let next = nextSignificantByte(from: index + 1)
                if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") { return index }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The byte offset where the number written as `literal` first appears outside strings, or nil.
    func numberOffset(_ literal: String) -> Int? {
        let wanted = Array(literal.utf8)
        guard !wanted.isEmpty else { return nil }
        var index = 0
        while index + wanted.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                index = endOfString(openedAt: index)
                continue
            }
            if bytes[index..<index + wanted.count].elementsEqual(wanted) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// The index just past the closing quote of the string whose opening quote is at `start`
    /// (past the end of the text if it is not closed), skipping escaped characters.
    private func endOfString(openedAt start: Int) -> Int {
        var index = start + 1
        while index < bytes.count && bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }

    private func nextSignificantByte(from start: Int) -> UInt8? {
        bytes[min(start, bytes.count)...].first { !Self.isWhitespace($0) }
    }
}
