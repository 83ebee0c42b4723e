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
    public static func load(path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
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
        return try decode(data, path: path)
    }

    public static func decode(_ data: Data, path: String) throws(ConfigurationFileError) -> ShakeConfiguration {
        do {
            return try JSONDecoder().decode(ShakeConfiguration.self, from: data)
        } catch let error as DecodingError {
            throw ConfigurationFileError(path: path, kind: .malformed, message: describe(error, data: data))
        } catch {
            throw ConfigurationFileError(path: path, kind: .malformed, message: "\(error)")
        }
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
            throw ConfigurationFileError(path: path, kind: .unwritable, message: "already exists; not overwriting it")
        }
        do {
            try encode(configuration).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConfigurationFileError(path: path, kind: .unwritable, message: "cannot be written: \(error.localizedDescription)")
        }
    }

    static func describe(_ error: DecodingError, data: Data) -> String {
        func keyPath(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the top level" : "'" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".") + "'"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let detail = (context.underlyingError as NSError?)?.userInfo["NSDebugDescription"] as? String
                return "not valid JSON" + (detail.map { ": \($0)" } ?? "")
            }
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
}
