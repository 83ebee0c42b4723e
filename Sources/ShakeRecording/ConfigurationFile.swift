import Foundation
import ShakeDetection

/// A configuration file could not be read, parsed or written.
public struct ConfigurationFileError: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Hashable {
        /// The file does not exist, is a folder, or cannot be read.
        case unreadable
        /// The file is not a valid configuration.
        case malformed
        /// The file cannot be written (or exists and may not be overwritten).
        case unwritable
    }
    public var path: String
    public var kind: Kind
    public var message: String
    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// Loads and saves `ShakeConfiguration` as JSON: the format `shake tune` writes and
/// `replay`, `evaluate`, `live` and the library read.
///
/// Keys are the configuration's property names; units are in the names and doc comments
/// (seconds, hertz, m/s²). Keys left out take the `medium` preset's values.
public enum ConfigurationFile {
    /// Reads and decodes the file at `path`. Values are not checked: see `loadValidated(path:)`.
    public static func load(path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        try decode(contents(of: path), path: path)
    }

    /// The bytes of the file at `path`, or an `.unreadable` error saying why not.
    private static func contents(of path: String) throws(ConfigurationFileError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationFileError(path: path, kind: .unreadable, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw ConfigurationFileError(path: path, kind: .unreadable, message: "is a directory, not a configuration file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationFileError(path: path, kind: .unreadable, message: "cannot be read (permission denied?)")
        }
        return data
    }

    /// Decodes a configuration from JSON text; `path` names it in errors. Errors say where in the
    /// text the problem is (line and column, both from 1; columns count Unicode scalars), and
    /// name the key when there is one.
    /// Values are not checked: see `loadValidated(path:)` and `ShakeConfiguration.validate()`.
    public static func decode(_ data: Data, path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        do {
            return try JSONDecoder().decode(ShakeConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationFileError(path: path, kind: .malformed, message: describe(error, data: data))
        } catch {
            throw ConfigurationFileError(path: path, kind: .malformed, message: "\(error)")
        }
    }

    /// `load(path:)`, then `ShakeConfiguration.validate()`: a value the detector cannot work with
    /// is an error (kind `.malformed`) naming the key and where it is in the file.
    public static func loadValidated(path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        let data = try contents(of: path)
        let configuration = try decode(data, path: path)
        do {
            try configuration.validate()
        } catch {
            let place = JSONText(data).keyPosition(error.field).map { " (\($0))" } ?? ""
            throw ConfigurationFileError(path: path, kind: .malformed, message: "\(error)\(place)")
        }
        return configuration
    }

    /// The JSON text for `configuration`, keys sorted, pretty-printed, ending in a newline.
    public static func encode(_ configuration: ShakeConfiguration) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Encoding a struct of numbers cannot fail.
        var data = (try? encoder.encode(configuration)) ?? Data()
        data.append(0x0A)
        return data
    }

    /// Writes atomically (temporary file, then rename). An existing file is kept unless
    /// `overwrite` is true.
    public static func save(_ configuration: ShakeConfiguration, to path: String, overwrite: Bool = false)
        throws(ConfigurationFileError)
    {
        if !overwrite && FileManager.default.fileExists(atPath: path) {
            throw ConfigurationFileError(path: path, kind: .unwritable, message: "already exists (pass overwrite: true to replace it)")
        }
        do {
            try encode(configuration).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConfigurationFileError(path: path, kind: .unwritable, message: "cannot be written: \(error.localizedDescription)")
        }
    }

    static func describe(_ error: DecodingError, data: Data) -> String {
        let text = JSONText(data)
        func keyPath(_ path: [any CodingKey]) -> String {
            let name = path.isEmpty ? "the top level" : "'" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".") + "'"
            // Configuration keys are top-level, so the first key of the path is the one to find.
            guard let key = path.first?.stringValue, path.first?.intValue == nil,
                  let place = text.keyPosition(key) else { return name }
            return "\(name) (\(place))"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return describeUnparsable(text) }
            return "bad value at \(keyPath(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' in \(keyPath(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "wrong type at \(keyPath(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "missing value at \(keyPath(context.codingPath)): expected \(type)"
        @unknown default:
            return "\(error)"
        }
    }

    /// JSONDecoder says only "not valid JSON", without a place, both for text that is not JSON
    /// and for a number that does not fit its field (4.5 for a count, 1e999 for a Double).
    /// JSONSerialization tells them apart and gives the offset of a syntax error.
    private static func describeUnparsable(_ text: JSONText) -> String {
        if text.bytes.allSatisfy(JSONText.isWhitespace) {
            return "not valid JSON: the file is empty"
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.bytes), options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? ""
            if let offset = characterOffset(in: detail) {
                return "not valid JSON: unexpected text at \(text.position(ofByte: offset))"
            }
            if detail.hasPrefix("Unexpected end of file") {
                return "not valid JSON: the text ends early, at \(text.position(ofByte: text.bytes.count))"
            }
            if detail.hasPrefix("Number "), let number = detail.split(separator: " ").dropFirst().first {
                let place = text.numberPosition(String(number)).map { " at \($0)" } ?? ""
                return "number \(number)\(place) is out of the range of a Double"
            }
            return "not valid JSON" + (detail.isEmpty ? "" : ": \(detail)")
        }
        // Valid JSON that JSONDecoder refused: a number that does not fit its field (a fraction
        // or a huge number for a count). Found by decoding each key alone.
        if let fields = object as? [String: Any] {
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                guard let alone = try? JSONSerialization.data(withJSONObject: [key: value]) else { continue }
                do {
                    _ = try JSONDecoder().decode(ShakeConfiguration.self, from: alone)
                } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
                    let place = text.keyPosition(key).map { " (\($0))" } ?? ""
                    let number = (value as? NSNumber)?.doubleValue ?? .nan
                    let problem = number.rounded() == number ? "too large for a count" : "expected a whole number"
                    return "bad value at '\(key)'\(place): \(problem), got \(value)"
                } catch {
                    continue
                }
            }
        }
        return "not valid JSON"
    }

    /// N in Foundation's "… around character N." (a byte offset into the text).
    private static func characterOffset(in detail: String) -> Int? {
        guard let range = detail.range(of: "around character ") else { return nil }
        return Int(detail[range.upperBound...].prefix { $0.isNumber })
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

    /// JSON's whitespace: space, tab, line feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// "line L, column C" (both from 1; columns count Unicode scalars) of the byte at `offset`.
    func position(ofByte offset: Int) -> String {
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
        return "line \(line), column \(column)"
    }

    /// Where the top-level object's key `name` is written (its opening quote), or nil.
    func keyPosition(_ name: String) -> String? {
        let wanted = Array(name.utf8)
        var depth = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index = endOfString(openedAt: start)
                let content = bytes[min(start + 1, bytes.count)..<min(index - 1, bytes.count)]
                if depth == 1 && content.elementsEqual(wanted) && nextSignificantByte(from: index) == UInt8(ascii: ":") {
                    return position(ofByte: start)
                }
                continue
            }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
            index += 1
        }
        return nil
    }

    /// Where the number written as `literal` first appears outside strings, or nil.
    func numberPosition(_ literal: String) -> String? {
        let wanted = Array(literal.utf8)
        guard !wanted.isEmpty else { return nil }
        var index = 0
        while index + wanted.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "\"") {
                index = endOfString(openedAt: index)
                continue
            }
            if bytes[index..<index + wanted.count].elementsEqual(wanted) {
                return position(ofByte: index)
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
