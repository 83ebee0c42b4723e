import ShakeDetection

/// Reads a CSV recording one sample at a time, in constant memory.
///
/// The file is read in 256 KiB chunks; memory stays at about `maximumLineBytes` + 256 KiB
/// (1.25 MiB by default) however large the file. Numbers are parsed straight from the bytes,
/// exactly (correctly rounded).
///
/// ```swift
/// var reader = try RecordingReader(path: "walk.csv")
/// while let row = try reader.next() {
///     if let event = detector.process(row.sample) { print(event.phase, event.time) }
/// }
/// ```
///
/// ## Format
/// Optional leading `# key: value` lines (`metadata`), a header line, then one row per sample.
/// See `CSVImportOptions` for separators, column names and units of foreign files.
///
/// ## Errors
/// Every problem throws a `RecordingError` naming the file, line and character column:
/// an empty file; a file with comments only; UTF-16/UTF-32 text; NUL bytes (binary data); a
/// compressed file or archive (gzip, bzip2, xz, Zstandard, zip: the message says how to decompress it);
/// a line longer than `maximumLineBytes`; a missing column; a row with fewer or more fields than
/// the header; a field that is empty or not a plain decimal number; NaN or infinity; an acceleration
/// beyond `maximumAcceleration` (2000 m/s² by default); a time beyond
/// ±`CSVImportOptions.maximumTimeSeconds` (10¹³ s: epoch microseconds or nanoseconds read as
/// seconds, whose unit the message names); time going backwards; a label other than
/// 0 or 1; an unterminated quote; an error on the last line says when that line has no line end
/// (a truncated file).
///
/// ## Tolerated (documented) oddities
/// - A header without samples: a valid, empty recording (`next()` returns nil at once; `samplesRead`
///   stays 0, so a tool can warn).
/// - Columns the options do not use are ignored (their contents are not checked, apart from NUL bytes).
/// - CRLF line ends, a UTF-8 byte-order mark, blank (or all-space) lines, `#` comment lines
///   anywhere, also indented (only leading ones become metadata), a last line without a line
///   end, and Excel's separator line (`sep=;`, `sep=,` or `sep=` and a tab) before the header,
///   which sets the separator unless `CSVImportOptions.separator` names one.
/// - Fields in double quotes (quotes stripped; a field cannot span lines) and spaces around fields.
/// - Numbers: `-12.5`, `+3`, `.5`, `5.`, `1e-3`; no `nan`, `inf`, hexadecimal or thousands separators.
/// - Equal consecutive timestamps (counted in `duplicateTimestampCount`) and gaps of any length
///   (the largest is `largestTimeGap`; the detector cancels a shake across a gap).
///
/// Copies of a reader share one position in the file. Not `Sendable`: use it from one task.
public struct RecordingReader {
    private let parser: CSVRecordParser

    /// Opens a recording.
    ///
    /// - Parameters:
    ///   - path: the CSV file; `-` reads standard input (errors then name it `<stdin>`: see
    ///     `RecordingError.displayName(ofPath:)`).
    ///   - options: separator, columns and units (default `.canonical`, which also detects
    ///     common phone-app exports).
    /// - Throws: `RecordingError` when the file cannot be opened or its header is unusable.
    public init(path: String, options: CSVImportOptions = .canonical) throws(RecordingError) {
        let source = try CSVLineSource(path: path, maximumLineBytes: options.maximumLineBytes)
        parser = try CSVRecordParser(source: source, options: options)
        earlyMagnitude.gravityFreeExport = parser.gravityFreeExport
    }

    /// Reads a recording held in memory (tests, fuzzing, network input); `name` stands for the
    /// path in errors.
    public init(bytes: [UInt8], name: String = "<memory>", options: CSVImportOptions = .canonical) throws(RecordingError) {
        let source = CSVLineSource(bytes: bytes, name: name, maximumLineBytes: options.maximumLineBytes)
        parser = try CSVRecordParser(source: source, options: options)
        earlyMagnitude.gravityFreeExport = parser.gravityFreeExport
    }

    /// The next sample, or nil at the end of the recording.
    ///
    /// - Throws: `RecordingError` naming the line and column of the first bad row; reading
    ///   after an error is not supported.
    public mutating func next() throws(RecordingError) -> LabeledSample? {
        let row = try parser.next()
        // Kept here, not in the parser: a class's stored property would be checked for
        // exclusive access on every row (about 140 instructions a row, measured with callgrind).
        if let row { earlyMagnitude.add(row.sample) }
        return row
    }

    /// The mean |a| over the first samples read (after unit conversion), and the export the header
    /// and file name tell (`EarlyMagnitude.gravityFreeExport`, known once the reader is open):
    /// whether the acceleration looks like it has gravity taken out.
    public private(set) var earlyMagnitude = EarlyMagnitude()

    /// The leading `# key: value` lines, in file order (keys and values trimmed; comment lines
    /// without a colon are skipped).
    public var metadata: [(key: String, value: String)] { parser.metadata }

    /// Whether rows carry a `shake` label (then every `isShake` is non-nil).
    public var hasLabels: Bool { parser.hasLabels }

    /// The file's path as given (or the `name` of an in-memory recording).
    public var path: String { parser.source.path }

    /// The header's column names as written (quotes and spaces removed), or `#1`, `#2`, … when the
    /// options say there is no header.
    public var columnNames: [String] { parser.columnNames }

    /// Samples returned so far.
    public var samplesRead: Int { parser.samplesRead }

    /// The line of the last sample returned (0 before the first): for messages about a sample
    /// that the reader accepted but its caller does not (as `shake convert` compares two files).
    public var lineOfLastSample: Int { parser.samplesRead == 0 ? 0 : parser.continuation.previousTimeLine }

    /// Rows so far whose time equals the previous row's (tolerated).
    public var duplicateTimestampCount: Int { parser.duplicateTimestampCount }

    /// Largest interval between consecutive samples so far, s (0 before the second sample).
    public var largestTimeGap: Double { parser.largestTimeGap }

    /// Reads a whole (small) recording into memory.
    ///
    /// - Complexity: O(n) time and memory in the number of rows; use `next()` for large files.
    public static func readAll(
        path: String, options: CSVImportOptions = .canonical
    ) throws(RecordingError) -> (metadata: [(key: String, value: String)], samples: [LabeledSample]) {
        var reader = try RecordingReader(path: path, options: options)
        var samples: [LabeledSample] = []
        while let row = try reader.next() { samples.append(row) }
        return (reader.metadata, samples)
    }

    /// Reads a whole recording held in memory.
    public static func readAll(
        bytes: [UInt8], name: String = "<memory>", options: CSVImportOptions = .canonical
    ) throws(RecordingError) -> (metadata: [(key: String, value: String)], samples: [LabeledSample]) {
        var reader = try RecordingReader(bytes: bytes, name: name, options: options)
        var samples: [LabeledSample] = []
        while let row = try reader.next() { samples.append(row) }
        return (reader.metadata, samples)
    }
}
