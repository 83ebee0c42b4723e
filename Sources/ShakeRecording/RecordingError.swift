/// An error reading or writing a recording, naming the file and, where it applies, the line and
/// column.
///
/// `description` reads like a compiler diagnostic, so editors and terminals can jump to it:
/// `data.csv:12:7: error: 'abc' is not a number in column 'x'`.
///
/// - `line` is 1-based and counts every physical line of the file (comments and blank lines
///   included); 0 when the error concerns the whole file (it cannot be opened, it is empty, …).
/// - `column` is the 1-based *character* column (UTF-8 code points, a leading byte-order mark
///   not counted) where the offending field starts; 0 when the error concerns a whole line or file.
public struct RecordingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for programs that react to it (the message is for people).
    public enum Kind: String, Sendable, Hashable {
        /// The file cannot be opened, read, written, synced or renamed (see the message for errno).
        case io
        /// The path names a directory, not a file.
        case isDirectory
        /// The destination (or its `.partial` file) already exists and `overwrite` is false.
        case fileExists
        /// Zero bytes, or only comments and blank lines: no header.
        case empty
        /// UTF-16/UTF-32 text, or NUL bytes (binary data): only UTF-8 (or ASCII) is read.
        case encoding
        /// A line is longer than `CSVImportOptions.maximumLineBytes`.
        case lineTooLong
        /// The header is missing, has no usable separator, names a column twice, or has an unknown
        /// unit; or it states no unit where the data needs one said (acceleration that looks like g
        /// or mg, times that look like milliseconds or an epoch): such an error is placed at the
        /// row where the data showed it, and its `optionHint` names the setting.
        case header
        /// A column the options ask for (time, x, y, z, or an explicit label column) is not in the header.
        case missingColumn
        /// A row has fewer or more fields than the header.
        case fieldCount
        /// A field is not a plain decimal number (or is empty), or a time is not written like the
        /// column's first (a date or clock time, `CSVImportOptions`).
        case notANumber
        /// A field is NaN or infinity, or a number too large for a `Double`.
        case notFinite
        /// An acceleration beyond `CSVImportOptions.maximumAcceleration`, or a time beyond
        /// ±`CSVImportOptions.maximumTimeSeconds` (after unit conversion and rebasing).
        case outOfRange
        /// A timestamp smaller than the one before it.
        case timeBackwards
        /// A `shake` label other than 0 or 1.
        case badLabel
        /// Invalid options or writer input (non-finite value, time going backwards, missing label, …).
        case invalidArgument
    }

    /// A `CSVImportOptions` setting (or writer parameter) that the message names, in the words
    /// of this library (`rawValue`, a phrase found verbatim in `message`), so a tool can say it in
    /// its own terms (a command-line flag, say) by replacing that phrase.
    public enum OptionHint: String, Sendable, Hashable, CaseIterable {
        /// Numbers may use a decimal comma: `decimalSeparator = .comma`.
        case decimalComma = "set decimalSeparator: .comma"
        /// The time unit can be given: `timeUnit`.
        case timeUnit = "set timeUnit"
        /// The acceleration unit can be given: `accelerationUnit`.
        case accelerationUnit = "set accelerationUnit"
        /// Another column may hold the time as a number: `time`.
        case timeColumn = "set time to a column of numbers"
        /// Times written as dates or clock times, or a header that states the time unit, take no
        /// other time unit: `timeUnit` must be nil.
        case noTimeUnit = "leave timeUnit unset"
        /// A header that states the acceleration unit takes no other: `accelerationUnit` must be nil.
        case noAccelerationUnit = "leave accelerationUnit unset"
        /// The acceleration columns can be chosen: `x`, `y` and `z`.
        case axisColumns = "set x, y and z"
        /// The file may have no header: `hasHeader = false`.
        case noHeader = "set hasHeader: false"
        /// `hasHeader` is false, so columns cannot be chosen by name.
        case headerless = "hasHeader is false"
        /// `RecordingWriter`'s `overwrite` parameter replaces an existing file.
        case overwrite = "pass overwrite: true"
        /// Rows of other sensors in a merged export can be skipped: `skipsRowsWithoutAcceleration`.
        case skipRowsWithoutAcceleration = "set skipsRowsWithoutAcceleration: true"
        /// The separator chosen is not the file's: `separator` should be the one it uses (or
        /// `.auto`).
        case separator = "set separator to the one the file uses"
        /// A header read with another separator holds '|' between its names: `separator = .pipe`.
        case pipeSeparator = "set separator to .pipe"
        /// With a decimal comma the fields need another separator: `separator` (semicolon or
        /// tab), or `decimalSeparator = .point`.
        case commaIsDecimal = "set separator to semicolon, tab or pipe, or leave decimalSeparator at .point"
        /// A column taken for the labels holds something else (an export's activity names, say):
        /// `ignoresLabels = true` reads the file without labels.
        case ignoreLabels = "set ignoresLabels: true"
        /// Times can be shifted to start at 0: `rebasesTime = true`. Named beside another hint
        /// (an epoch time in the wrong unit), never as `optionHint` itself.
        case rebaseTime = "set rebasesTime: true"
    }

    /// The file the error is about, as the caller named it (`-` for standard input).
    public var path: String
    /// 1-based physical line, or 0 for the whole file.
    public var line: Int
    /// 1-based character column where the offending field starts, or 0 for the whole line.
    public var column: Int
    public var kind: Kind
    /// One sentence for a person, without the location prefix.
    public var message: String
    /// The setting `message` names, if any (its `rawValue` is in `message`).
    public var optionHint: OptionHint?

    public init(path: String, line: Int = 0, column: Int = 0, kind: Kind, message: String,
                optionHint: OptionHint? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.kind = kind
        self.message = message
        self.optionHint = optionHint
    }

    /// `message` with each setting it names (`optionHint`'s phrase, and any other `OptionHint`
    /// phrase it holds, such as `rebaseTime` beside `timeUnit`) said as `phrase` returns it (a
    /// tool's flag, say). No phrase is part of another, so each is replaced whole.
    public func message(naming phrase: (OptionHint) -> String) -> String {
        var text = message
        for hint in OptionHint.allCases where text.contains(hint.rawValue) {
            text = text.replacing(hint.rawValue, with: phrase(hint))
        }
        return text
    }

    /// How messages name the recording at `path`: `<stdin>` for `-` (standard input, which the
    /// readers take `-` to mean), as compilers name it; any other path as it is.
    public static func displayName(ofPath path: String) -> String {
        path == "-" ? "<stdin>" : path
    }

    /// `path` as messages name it: `<stdin>` for standard input (see `displayName(ofPath:)`).
    public var displayPath: String { Self.displayName(ofPath: path) }

    /// `path:line:column: error: message`, leaving out a line or column of 0; standard input is
    /// named `<stdin>`.
    public var description: String {
        var location = displayPath
        if line > 0 {
            location += ":\(line)"
            if column > 0 { location += ":\(column)" }
        }
        return "\(location): error: \(message)"
    }
}
