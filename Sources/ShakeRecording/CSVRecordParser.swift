#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeDetection

/// The engine behind `RecordingReader`: reads the metadata and header, then turns each row into a
/// `LabeledSample`, checking everything the reader documents.
///
/// Rows are parsed straight from the line buffer (no `String` per line or field); numbers go
/// through `DecimalParser`. A row that the fast path cannot take (spaces, quotes, an error) is
/// re-read by the careful path, which finds the exact problem and its column.
final class CSVRecordParser {
    /// What a column holds.
    enum Role: UInt8 {
        case ignored = 0, time, x, y, z, label
    }

    let source: CSVLineSource
    let options: CSVImportOptions
    private(set) var metadata: [(key: String, value: String)] = []
    private(set) var hasLabels = false
    /// The export the file is by its header and name when that export's acceleration has gravity
    /// taken out, whatever its values: "Sensor Logger's Accelerometer.csv"; nil for any other file.
    private(set) var gravityFreeExport: String?
    /// Header text of each column (or `#n` without a header), for messages.
    private(set) var columnNames: [String] = []
    private(set) var samplesRead = 0
    private(set) var duplicateTimestampCount = 0
    private(set) var largestTimeGap = 0.0

    private var path: String { source.path }
    /// Role of each column, `columnCount` entries.
    private let roles: UnsafeMutablePointer<Role>
    private var columnCount = 0
    private var separator = UInt8(ascii: ",")
    /// The separator a first line `sep=;` names (Excel's hint, written by some sensor apps).
    private var separatorLine: UInt8?
    private let point: UInt8
    private let maximumLineBytes: Int
    /// Time units in a second (1, 1e3, 1e6, 1e9): times are divided by it, which gives the
    /// nearest Double to the time in seconds (1400 ms is 1.4 s), where multiplying by 1e-3 is
    /// off by a unit in the last place for some (1.4000000000000001), and a labelled range's end
    /// would miss them.
    private var timeUnitsPerSecond = 1.0
    /// Seconds in a time unit (1 / `timeUnitsPerSecond`).
    private var timeScale: Double { 1 / timeUnitsPerSecond }
    private var xScale = 1.0
    private var yScale = 1.0
    private var zScale = 1.0
    /// True while the time unit came neither from the options nor from the header (so seconds
    /// are assumed) and no interval so far was shorter than `guessedSecondsShortestSlowInterval`:
    /// see `checkGuessedTimeUnit`.
    private var timeUnitGuessed = false
    /// The time unit the header states (in the column's name or unit), which no option overrides.
    private var headerTimeUnit: CSVImportOptions.TimeUnit?
    /// While the time unit is guessed: how many intervals were that long, and the first of them
    /// (its length as read, s, and where its later sample's time is).
    private var slowIntervalsWhileGuessing = 0
    private var firstSlowInterval = (gap: 0.0, line: 0, column: 0)
    /// An interval this long (s) or longer is a rate under 4 Hz, which no recording made for
    /// shakes has, but read in milliseconds it is a rate of up to 4 kHz, which accelerometers do
    /// reach: with the time unit guessed, it counts against seconds.
    static let guessedSecondsShortestSlowInterval = 0.25
    /// How many intervals at the start of a file with a guessed time unit must all be at least
    /// `guessedSecondsShortestSlowInterval` before the file is refused as not in seconds (all of
    /// them in a shorter file): 16. One shorter interval settles it (a first interval that is a
    /// pause does not).
    static let guessedTimeUnitCheckIntervals = 16
    /// True while the acceleration unit came neither from the options nor from the header (so
    /// m/s² is assumed) and every sample so far had |a| of about 1 (or about 1000): see
    /// `checkGuessedAccelerationUnit`.
    private var accelerationUnitGuessed = false
    /// How many samples at the start of a file with a guessed acceleration unit must all read
    /// |a| of about 1 (0.8 to 1.25) before the file is taken to be in g: 64 (0.64 s at 100 Hz).
    static let gUnitCheckSamples = 64
    /// Whether the first sample's |a| was about 1000 (mg at rest) rather than about 1 (g).
    private var restLooksLikeMilliG = false
    /// The first sample's raw time (in the file's unit), subtracted when rebasing.
    private var timeOrigin = 0.0
    /// The same when it was written as an integer that fits an `Int64` (exact).
    private var integerTimeOrigin: Int64?
    private var previousTime = -Double.infinity
    private var previousTimeLine = 0
    /// Set after the header: see `isCanonicalLayout()`; cleared when times are written as dates
    /// or clock times (those rows take the general path).
    private var canonicalLayout = false
    /// How the time column is written, once its first value was read as a date or clock time
    /// (`WrittenTime`); nil while times are numbers.
    private var writtenTimeForm: WrittenTime.Form?
    /// The first row's written time: its day (dates) and UTC offset, s, and its line.
    private var writtenTimeOrigin = (day: 0, utcOffset: 0, line: 0, hasUTCOffset: false)
    /// Periods added to clock times so far (a time of day that passed midnight), s.
    private var writtenTimeWraps = 0.0
    /// The previous row's written time as read, s (before rebasing).
    private var previousWrittenTime = 0.0
    /// A first row read while looking for the header (files without a header).
    private var pendingLine: CSVLineSource.Line?
    /// Samples of canonical rows parsed and checked ahead by `fillBatch()`; `next()` hands out
    /// `batch[batchNext ..< batchEnd]` and counts each into the statistics as it goes.
    private let batch: UnsafeMutablePointer<LabeledSample>
    private var batchNext = 0
    private var batchEnd = 0
    /// The line number before `batch[0]`'s line (the batch's rows are consecutive lines).
    private var batchLineBase = 0
    /// Rows parsed ahead at most: 256 (10 KiB of samples).
    static let batchCapacity = 256
    /// Read once per batch, so that the compiler does not fold them (see `WordConstants`).
    private var wordConstants = DecimalParser.WordConstants()

    init(source: CSVLineSource, options: CSVImportOptions) throws(RecordingError) {
        self.source = source
        self.options = options
        self.point = options.decimalSeparator.byte
        self.maximumLineBytes = max(64, options.maximumLineBytes)
        roles = .allocate(capacity: 1024)
        roles.initialize(repeating: .ignored, count: 1024)
        batch = .allocate(capacity: Self.batchCapacity)
        // On a throw, `deinit` runs (every property is set) and releases `roles`.
        try readHeader()
    }

    deinit {
        roles.deallocate()
        batch.deallocate()
    }

    /// What carries over from one row to the next: the previous sample's time and line, and the
    /// counts so far.
    struct Continuation: Sendable {
        var previousTime = -Double.infinity
        var previousTimeLine = 0
        var samplesRead = 0
        var duplicateTimestampCount = 0
        var largestTimeGap = 0.0
        /// Whether the header has a label column (also known when no row follows it).
        var hasLabels = false
        /// The header's `gravityFreeExport` (also known when no row follows it).
        var gravityFreeExport: String?
    }

    /// The state after the last row read.
    var continuation: Continuation {
        Continuation(
            previousTime: previousTime, previousTimeLine: previousTimeLine, samplesRead: samplesRead,
            duplicateTimestampCount: duplicateTimestampCount, largestTimeGap: largestTimeGap, hasLabels: hasLabels,
            gravityFreeExport: gravityFreeExport)
    }

    /// Whether rows may be parsed by `init(continuing:…)` parsers: the canonical layout, times not
    /// rebased, no row held back (headerless files), and the unit guesses settled (the guessed
    /// time unit on up to `guessedTimeUnitCheckIntervals` intervals, usually the first, the
    /// guessed acceleration unit on up to `gUnitCheckSamples` samples), so the rows still to come depend on the ones before only through
    /// `continuation`. No rows may be parsed ahead (`fillBatch()`), so the source's position is
    /// the next row's.
    var rowsMayBeSplit: Bool {
        canonicalLayout && !options.rebasesTime && pendingLine == nil && unitGuessesSettled && batchNext == batchEnd
    }

    /// Whether two samples were read and neither unit is still being guessed, so no later row can
    /// fail a unit guess: see `rowsMayBeSplit`.
    var unitGuessesSettled: Bool { samplesRead >= 2 && !accelerationUnitGuessed && !timeUnitGuessed }

    /// A parser for rows from `source` of the same file as `template` (after its header), set up
    /// like `template` and starting from `state`: the rows after a split (`RecordingReadAhead`).
    ///
    /// - Precondition: `template.rowsMayBeSplit`.
    init(continuing template: CSVRecordParser, source: CSVLineSource, state: Continuation) {
        self.source = source
        options = template.options
        point = template.point
        maximumLineBytes = template.maximumLineBytes
        roles = .allocate(capacity: 1024)
        roles.initialize(from: template.roles, count: 1024)
        batch = .allocate(capacity: Self.batchCapacity)
        metadata = template.metadata
        hasLabels = template.hasLabels
        gravityFreeExport = template.gravityFreeExport
        columnNames = template.columnNames
        columnCount = template.columnCount
        separator = template.separator
        (timeUnitsPerSecond, xScale, yScale, zScale) = (template.timeUnitsPerSecond, template.xScale, template.yScale, template.zScale)
        canonicalLayout = template.canonicalLayout
        // An out-of-range time's hint depends on it (mend the header, or pass a unit).
        headerTimeUnit = template.headerTimeUnit
        previousTime = state.previousTime
        previousTimeLine = state.previousTimeLine
        samplesRead = state.samplesRead
        duplicateTimestampCount = state.duplicateTimestampCount
        largestTimeGap = state.largestTimeGap
    }

    // MARK: Header

    /// `value` rounded to a whole number, as text, for any finite value (`Int(_:)` traps beyond
    /// `Int.max`).
    static func wholeNumber(_ value: Double) -> String {
        let rounded = value.rounded()
        return rounded.magnitude < 1e18 ? String(Int(rounded)) : "\(rounded)"
    }

    private func readHeader() throws(RecordingError) {
        // NaN or 0 or less: no limit that means anything (infinity is none, and is allowed).
        guard options.maximumAcceleration > 0 else {
            throw RecordingError(
                path: path, kind: .invalidArgument,
                message: "maximumAcceleration \(options.maximumAcceleration) m/s² must be above 0 (infinity for no limit)")
        }
        if options.decimalSeparator == .comma && options.separator == .comma {
            throw RecordingError(
                path: path, kind: .invalidArgument,
                message: "a decimal comma needs a ';', tab or '|' field separator, not ','")
        }
        var inLeadingComments = true
        var sawAnything = false
        while true {
            guard let line = try source.nextLine() else {
                throw RecordingError(
                    path: path, kind: .empty,
                    message: sawAnything
                        ? "no header line: the file holds only comments or blank lines"
                        : "file is empty")
            }
            sawAnything = true
            let bytes = Self.trimmedBytes(line)
            if bytes.isEmpty { continue }
            // NUL bytes first: binary data holds carriage returns too, and is not text at all.
            try checkText(bytes, line: line.number)
            if let carriageReturn = bytes.firstIndex(of: 0x0D) {
                // Lines ending in CR alone (classic Mac OS) read as one line holding the whole file.
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(bytes, carriageReturn), kind: .encoding,
                    message: "a carriage return inside the line: the file's lines end in CR alone (classic Mac OS), "
                        + "and only LF or CRLF line ends are read; convert them (e.g. tr '\\r' '\\n' < IN > OUT)")
            }
            if bytes[0] == UInt8(ascii: "#") {
                if inLeadingComments, let entry = Self.metadataEntry(bytes) { metadata.append(entry) }
                continue
            }
            // Excel's separator line comes first; comments after it are still leading ones.
            if separatorLine == nil, let named = try Self.separatorLine(bytes, path: path, line: line.number) {
                separatorLine = named
                continue
            }
            inLeadingComments = false
            try setUp(header: bytes, line: line)
            canonicalLayout = isCanonicalLayout()
            return
        }
    }

    /// Excel's separator line, `sep=;` (also `sep=,`, `sep=|` and `sep=` with a tab), before the header:
    /// the separator it names; nil for any other line. A separator ShakeKit does not read is
    /// an error naming the line.
    private static func separatorLine(_ bytes: [UInt8], path: String, line: Int) throws(RecordingError) -> UInt8? {
        guard bytes.count <= 5, bytes.count >= 4,
              String(decoding: bytes.prefix(4), as: UTF8.self).lowercased() == "sep=" else { return nil }
        // A tab at the line's end was trimmed with the spaces.
        let named = bytes.count == 5 ? bytes[4] : UInt8(ascii: "\t")
        guard [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")].contains(named) else {
            throw RecordingError(
                path: path, line: line, column: 5, kind: .header,
                message: "the separator line names '\(Character(Unicode.Scalar(named)))', and only ',', ';', tab and '|' "
                    + "separate fields here: replace it in the file (e.g. tr) and remove the line")
        }
        return named
    }

    /// The line's bytes without the line end and surrounding spaces.
    private static func trimmedBytes(_ line: CSVLineSource.Line) -> [UInt8] {
        var s = line.start
        var e = line.end
        while e > s, e[-1] == 0x0D || e[-1] == 0x20 || e[-1] == 0x09 { e -= 1 }
        while s < e, s.pointee == 0x20 || s.pointee == 0x09 { s += 1 }
        return Array(UnsafeBufferPointer(start: s, count: e - s))
    }

    /// `# key: value` → (key, value); other comments → nil.
    private static func metadataEntry(_ bytes: [UInt8]) -> (key: String, value: String)? {
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = String(text[..<colon]).trimmingSpaces()
        let value = String(text[text.index(after: colon)...]).trimmingSpaces()
        return key.isEmpty ? nil : (key, value)
    }

    /// Rejects NUL bytes: UTF-16 without a byte-order mark (at least a third of the bytes NUL, and
    /// nine in ten of them on the same side of their byte pair, as the high bytes of ASCII text
    /// are), or binary data (an executable's header, say, which has NULs on both sides).
    private func checkText(_ bytes: [UInt8], line: Int) throws(RecordingError) {
        guard let nul = bytes.firstIndex(of: 0) else { return }
        var zeros = 0, oddZeros = 0
        for (i, byte) in bytes.enumerated() where byte == 0 {
            zeros += 1
            oddZeros += i & 1
        }
        if zeros * 3 >= bytes.count && max(oddZeros, zeros - oddZeros) * 10 >= zeros * 9 {
            throw RecordingError(
                path: path, line: line, column: 1, kind: .encoding,
                message: "UTF-16 is not supported, convert the file to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)")
        }
        throw RecordingError(
            path: path, line: line, column: characterColumn(bytes, nul), kind: .encoding,
            message: "binary data (a NUL byte): not a text CSV file")
    }

    private func setUp(header bytes: [UInt8], line: CSVLineSource.Line) throws(RecordingError) {
        if let explicit = options.separator.byte {
            separator = explicit
        } else if let separatorLine {
            separator = separatorLine
        } else if let detected = CSVHeader.detectSeparator(bytes, allowComma: options.decimalSeparator == .point) {
            separator = detected
        } else {
            let which = options.hasHeader ? "header" : "first"
            if options.decimalSeparator == .comma,
               CSVHeader.detectSeparator(bytes, allowComma: true) == UInt8(ascii: ",") {
                let hint = RecordingError.OptionHint.commaIsDecimal
                throw RecordingError(
                    path: path, line: line.number, column: 1, kind: .header,
                    message: "the comma is the decimal separator, so it cannot also separate the fields, and the "
                        + "\(which) line \(quotedForMessage(bytes)) has no ';', tab or '|': \(hint.rawValue)",
                    optionHint: hint)
            }
            throw RecordingError(
                path: path, line: line.number, column: 1, kind: .header,
                message: "cannot find the field separator (',', ';', tab or '|') in the \(which) line \(quotedForMessage(bytes))")
        }
        let header = CSVHeader(line: bytes, separator: separator)
        // A separator chosen that the line does not contain, where it holds another one: say so
        // (rather than that the one column found is not the time).
        if options.separator.byte != nil, header.fields.count == 1,
           let used = CSVHeader.detectSeparator(bytes, allowComma: options.decimalSeparator == .point),
           used != separator {
            func name(_ byte: UInt8) -> String { byte == UInt8(ascii: "\t") ? "tab" : "'\(Character(Unicode.Scalar(byte)))'" }
            let hint = RecordingError.OptionHint.separator
            throw RecordingError(
                path: path, line: line.number, column: 1, kind: .header,
                message: "the \(options.hasHeader ? "header" : "first") line \(quotedForMessage(bytes)) has no "
                    + "\(name(separator)), the separator chosen; it seems to use \(name(used)): \(hint.rawValue)",
                optionHint: hint)
        }
        columnCount = header.fields.count
        guard columnCount <= 1024 else {
            throw RecordingError(
                path: path, line: line.number, column: 1, kind: .header,
                message: "the header has \(columnCount) columns; at most 1024 are supported")
        }
        func fail(_ message: String, kind: RecordingError.Kind = .header, column: Int = 1) -> RecordingError {
            RecordingError(path: path, line: line.number, column: column, kind: kind, message: message)
        }
        /// `fail`, for a message naming `hint`'s setting.
        func fail(
            _ message: String, kind: RecordingError.Kind = .header, column: Int = 1, hint: RecordingError.OptionHint
        ) -> RecordingError {
            RecordingError(path: path, line: line.number, column: column, kind: kind, message: message, optionHint: hint)
        }

        if !options.hasHeader {
            columnNames = (1 ... columnCount).map { "#\($0)" }
            var indices: [Int] = []
            for (column, fallback) in [(options.time, 1), (options.x, 2), (options.y, 3), (options.z, 4)] {
                switch column {
                case .named(let name)?:
                    throw fail("column '\(name)' is chosen by name, but \(RecordingError.OptionHint.headerless.rawValue): choose columns by index", kind: .invalidArgument, hint: .headerless)
                case .index(let i)?:
                    indices.append(i)
                case nil:
                    indices.append(fallback)
                }
            }
            var labelIndex: Int?
            if !options.ignoresLabels {
                switch options.label {
                case .named(let name)?:
                    throw fail("column '\(name)' is chosen by name, but \(RecordingError.OptionHint.headerless.rawValue): choose columns by index", kind: .invalidArgument, hint: .headerless)
                case .index(let i)?: labelIndex = i
                case nil: break
                }
            }
            for i in indices + (labelIndex.map { [$0] } ?? []) where i < 1 || i > columnCount {
                throw fail("column #\(i) does not exist: the first line has \(columnCount) fields", kind: .missingColumn)
            }
            try assign(time: indices[0] - 1, x: indices[1] - 1, y: indices[2] - 1, z: indices[3] - 1, label: labelIndex.map { $0 - 1 }, fail: fail)
            timeUnitsPerSecond = (options.timeUnit ?? .seconds).unitsPerSecond
            timeUnitGuessed = options.timeUnit == nil
            let a = (options.accelerationUnit ?? .metersPerSecondSquared).metersPerSecondSquared
            (xScale, yScale, zScale) = (a, a, a)
            accelerationUnitGuessed = options.accelerationUnit == nil
            pendingLine = line
            return
        }

        columnNames = header.fields.map(\.text)
        // A header made of numbers is a missing header.
        let looksNumeric = header.fields.allSatisfy { field in
            let utf8 = Array(field.text.utf8)
            return utf8.withUnsafeBufferPointer { b in
                guard let base = b.baseAddress, !b.isEmpty else { return false }
                guard let parsed = DecimalParser.parse(base, base + b.count, point: point) else { return false }
                return parsed.end == base + b.count
            }
        }
        if looksNumeric {
            throw fail("no header line: the first line holds numbers; expected a header like time_s,x,y,z (or \(RecordingError.OptionHint.noHeader.rawValue))", hint: .noHeader)
        }

        func find(
            _ role: String, _ column: CSVImportOptions.Column?, _ candidates: [String], preferring preferred: [String] = []
        ) throws(RecordingError) -> Int {
            let found: Int?
            do {
                found = try header.resolve(column, candidates: preferred + candidates)
            } catch {
                throw fail(error.message)
            }
            guard let index = found else {
                let wanted = column.map { "column \($0)" } ?? "a column named \(candidates.prefix(6).joined(separator: ", ")), …"
                let message = "no \(role) column: expected \(wanted) in header \(quotedForMessage(bytes))"
                // A '|'-separated header with a comma inside a name ("Acc X (m/s^2, raw)") is
                // detected as comma-separated: say that '|' may be the separator.
                let pipes = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "|") ? 1 : 0) }
                if separator != UInt8(ascii: "|"), pipes >= 3 {
                    throw fail(message + "; the header holds '|' \(pipes) times: if '|' separates its fields, "
                        + RecordingError.OptionHint.pipeSeparator.rawValue, kind: .missingColumn, hint: .pipeSeparator)
                }
                // phyphox's "Linear Acceleration x (m/s^2)", SensorLog's "motionUserAccelerationX(G)":
                // acceleration with gravity taken out, which no default name matches on purpose.
                if column == nil, role.count == 1, let gravityFree = header.fields.first(where: {
                    ($0.name.contains("linear") || $0.name.contains("user")) && $0.name.hasSuffix(role)
                }) {
                    throw fail(message + ". '\(gravityFree.text)' is acceleration without gravity: export it "
                        + "with gravity (the detector removes gravity itself), or \(RecordingError.OptionHint.axisColumns.rawValue) "
                        + "to read these columns as they are", kind: .missingColumn, hint: .axisColumns)
                }
                // Say which setting chooses the column (only when none chose it: a chosen
                // column that is not there is the setting's own mistake, named in `wanted`).
                if column == nil, role.count == 1 {
                    throw fail(message + "; if it has another name, \(RecordingError.OptionHint.axisColumns.rawValue)",
                               kind: .missingColumn, hint: .axisColumns)
                }
                if column == nil, role == "time" {
                    throw fail(message + "; if it has another name, \(RecordingError.OptionHint.timeColumn.rawValue)",
                               kind: .missingColumn, hint: .timeColumn)
                }
                throw fail(message, kind: .missingColumn)
            }
            return index
        }
        let t = try find("time", options.time, CSVImportOptions.timeColumnNames)
        // g-force columns first: Physics Toolbox's multi-record export holds `gFx` (g-force, with
        // gravity) beside `ax` (its linear accelerometer: without gravity, and all zeros when that
        // sensor is off), and `ax` comes first in the general list.
        let x = try find("x", options.x, CSVImportOptions.xColumnNames, preferring: CSVImportOptions.gForceColumnNames("x"))
        let y = try find("y", options.y, CSVImportOptions.yColumnNames, preferring: CSVImportOptions.gForceColumnNames("y"))
        let z = try find("z", options.z, CSVImportOptions.zColumnNames, preferring: CSVImportOptions.gForceColumnNames("z"))
        var label: Int?
        if !options.ignoresLabels {
            if options.label != nil {
                label = try find("label", options.label, CSVImportOptions.labelColumnNames)
            } else {
                do {
                    label = try header.resolve(nil, candidates: CSVImportOptions.labelColumnNames)
                } catch {
                    throw fail(error.message)
                }
            }
        }
        try assign(time: t, x: x, y: y, z: z, label: label, fail: fail)
        gravityFreeExport = Self.sensorLoggerGravityFreeExport(path, header)
        if options.x == nil && options.y == nil && options.z == nil, let sensor = Self.sensorLoggerOtherSensor(path, header) {
            throw fail("'\(sensor.file)' is Sensor Logger's \(sensor.what), not acceleration (its x, y and z columns are "
                + "laid out as the accelerometer's): read TotalAcceleration.csv (acceleration with gravity), or "
                + "\(RecordingError.OptionHint.axisColumns.rawValue) to read these columns as they are",
                kind: .missingColumn, hint: .axisColumns)
        }

        // Units: the header's, else the option's, else seconds and m/s². An option that
        // contradicts the header's unit is an error: one of them is wrong, and reading the file
        // either way could be silently wrong by a factor of 10 to 1000. A unit the header names
        // in a spelling not known here (`m/sec^2`, or `m/s²` from an export in another encoding)
        // is the option's: the user has said what it is; without the option it is an error.
        let timeField = header.fields[t]
        var headerTimeUnit: CSVImportOptions.TimeUnit?
        if let text = timeField.unit {
            if let unit = CSVImportOptions.TimeUnit(argument: text) {
                headerTimeUnit = unit
            } else if options.timeUnit == nil {
                throw fail("unknown time unit '\(text)' in column '\(timeField.text)': \(RecordingError.OptionHint.timeUnit.rawValue) (s, ms, us or ns) to say which it is", column: timeField.column, hint: .timeUnit)
            }
        } else {
            headerTimeUnit = Self.timeUnit(fromName: timeField.name)
        }
        self.headerTimeUnit = headerTimeUnit
        if let stated = headerTimeUnit, let given = options.timeUnit, given.seconds != stated.seconds {
            throw fail("column '\(timeField.text)' is in \(stated.rawValue), but \(given.rawValue) was given as the time unit: "
                + "\(RecordingError.OptionHint.noTimeUnit.rawValue) (the unit the file states is used), or correct the file if it is wrong",
                kind: .invalidArgument, column: timeField.column, hint: .noTimeUnit)
        }
        if let unit = headerTimeUnit ?? options.timeUnit {
            timeUnitsPerSecond = unit.unitsPerSecond
        } else {
            timeUnitsPerSecond = 1
            timeUnitGuessed = true
        }
        var scales: [Double] = []
        var guessedScales = 0
        // A `# units: m/s^2` line before the header, as `RecordingWriter` writes, states the unit
        // of columns whose header does not (a value that is no acceleration unit is left alone).
        let fileUnit = metadata.last { $0.key.lowercased() == "units" }.flatMap { CSVImportOptions.AccelerationUnit(argument: $0.value) }
        for index in [x, y, z] {
            let field = header.fields[index]
            var stated: CSVImportOptions.AccelerationUnit?
            var statedWhere = ""
            if let text = field.unit {
                if let unit = CSVImportOptions.AccelerationUnit(argument: text) {
                    stated = unit
                } else if options.accelerationUnit == nil {
                    throw fail("unknown acceleration unit '\(text)' in column '\(field.text)': \(RecordingError.OptionHint.accelerationUnit.rawValue) (m/s^2, g or mg) to say which it is", column: field.column, hint: .accelerationUnit)
                }
            } else if field.name.hasPrefix("gf") || field.name.hasPrefix("g_force") {
                stated = .g
            } else if let fileUnit {
                stated = fileUnit
                statedWhere = " (the file's '# units:' line)"
            }
            if let stated, let given = options.accelerationUnit, given != stated {
                throw fail("column '\(field.text)' is in \(stated.rawValue)\(statedWhere), but \(given.rawValue) was given as the acceleration unit: "
                    + "\(RecordingError.OptionHint.noAccelerationUnit.rawValue) (the unit the file states is used), or correct the file if it is wrong",
                    kind: .invalidArgument, column: field.column, hint: .noAccelerationUnit)
            }
            if let unit = stated ?? options.accelerationUnit {
                scales.append(unit.metersPerSecondSquared)
            } else {
                scales.append(1)
                guessedScales += 1
            }
        }
        (xScale, yScale, zScale) = (scales[0], scales[1], scales[2])
        accelerationUnitGuessed = guessedScales == 3
    }

    /// Sensor Logger writes each sensor to its own file, all with the accelerometer's header
    /// `time,seconds_elapsed,z,y,x`: for a file of that header named as one of its other sensors'
    /// (`Gyroscope.csv`, `Magnetometer.csv`, `Gravity.csv` and their uncalibrated versions), the
    /// file's name and what it holds; nil for any other file. The sensor's name is the last word
    /// of a `.csv` file's name other than a number, so copies and renamed files (`Gravity (1).csv`,
    /// `2024-01-31_Magnetometer.csv`) are told too, unless another word names acceleration
    /// (`Accelerometer with gravity.csv`); naming the axis columns reads one anyway.
    private static func sensorLoggerOtherSensor(_ path: String, _ header: CSVHeader) -> (file: String, what: String)? {
        guard let (file, words) = sensorLoggerFileWords(path, header) else { return nil }
        let acceleration = ["acc", "accel", "accelerometer", "accelerometeruncalibrated", "acceleration",
                            "totalacceleration"]
        if words.contains(where: { acceleration.contains(String($0)) }) { return nil }
        guard let last = words.last(where: { !$0.allSatisfy(\.isNumber) }) else { return nil }
        switch last {
        case "gyroscope", "gyroscopeuncalibrated": return (file, "gyroscope export (rotation rate, rad/s)")
        case "magnetometer", "magnetometeruncalibrated": return (file, "magnetometer export (magnetic field, µT)")
        case "gravity": return (file, "gravity export (gravity alone, without the motion)")
        default: return nil
        }
    }

    /// Sensor Logger's `Accelerometer.csv`, whose acceleration has gravity taken out (its
    /// `TotalAcceleration.csv` holds it with gravity): "Sensor Logger's Accelerometer.csv" for a file
    /// of its header whose name's last word other than a number is `accelerometer`, as in copies and
    /// renamed files (`Accelerometer (1).csv`, `2024-01-31_Accelerometer.csv`), and no word names
    /// gravity or a total (`Accelerometer with gravity.csv`, `total_accelerometer.csv`); nil for any
    /// other file. The values' early magnitude cannot tell it when a shake fills its first samples.
    private static func sensorLoggerGravityFreeExport(_ path: String, _ header: CSVHeader) -> String? {
        guard let (_, words) = sensorLoggerFileWords(path, header),
              words.last(where: { !$0.allSatisfy(\.isNumber) }) == "accelerometer",
              !words.contains(where: { $0.contains("gravity") || $0.contains("total") }) else { return nil }
        return "Sensor Logger's Accelerometer.csv"
    }

    /// For a file of Sensor Logger's header `time,seconds_elapsed,z,y,x` whose name ends in
    /// `.csv`: the name, and its words before `.csv`, lower-cased, split at anything but letters
    /// and digits (`Gravity (1).csv`: gravity, 1); nil for any other file.
    private static func sensorLoggerFileWords(_ path: String, _ header: CSVHeader) -> (file: String, words: [Substring])? {
        guard header.fields.map(\.name) == ["time", "seconds_elapsed", "z", "y", "x"] else { return nil }
        let file = String(path.split(separator: "/").last ?? "")
        guard file.lowercased().hasSuffix(".csv") else { return nil }
        return (file, file.lowercased().dropLast(4).split(whereSeparator: { !($0.isLetter || $0.isNumber) }))
    }

    private static func timeUnit(fromName name: String) -> CSVImportOptions.TimeUnit? {
        if name == "seconds_elapsed" || name == "seconds" || name == "elapsed" || name == "elapsed_time" { return .seconds }
        guard let underscore = name.lastIndex(of: "_") else { return nil }
        return CSVImportOptions.TimeUnit(rawValue: String(name[name.index(after: underscore)...]))
    }

    private func assign(
        time: Int, x: Int, y: Int, z: Int, label: Int?,
        fail: (String, RecordingError.Kind, Int) -> RecordingError
    ) throws(RecordingError) {
        let chosen = [(time, "time"), (x, "x"), (y, "y"), (z, "z")] + (label.map { [($0, "label")] } ?? [])
        for i in chosen.indices {
            for j in chosen.indices where j > i && chosen[i].0 == chosen[j].0 {
                throw fail("the \(chosen[i].1) and \(chosen[j].1) columns are the same column #\(chosen[i].0 + 1)", .invalidArgument, 1)
            }
        }
        roles[time] = .time
        roles[x] = .x
        roles[y] = .y
        roles[z] = .z
        if let label {
            roles[label] = .label
            hasLabels = true
        }
    }

    /// Set while skipping a row whose x, y and z are all empty (`skipsRowsWithoutAcceleration`).
    private var skippingRow = false

    // MARK: Rows

    /// The next sample, or nil at the end of the file.
    ///
    /// Inlined into `RecordingReader.next()`: a sample parsed ahead is handed out without a
    /// call; `nextFromSource()` parses the next batch or row.
    @inline(__always)
    func next() throws(RecordingError) -> LabeledSample? {
        if batchNext < batchEnd { return handOut() }
        return try nextFromSource()
    }

    /// The next sample of the batch, counted into the statistics as `checked` counts a row's.
    ///
    /// A batch is only parsed once two samples were read (`unitGuessesSettled`), so a gap is
    /// always measured and the guessed time unit no longer checked.
    @inline(__always)
    private func handOut() -> LabeledSample {
        let sample = batch[batchNext]
        batchNext &+= 1
        let t = sample.sample.time
        if t == previousTime {
            duplicateTimestampCount &+= 1
        } else {
            let gap = t - previousTime
            if gap > largestTimeGap { largestTimeGap = gap }
        }
        previousTime = t
        previousTimeLine = batchLineBase &+ batchNext
        samplesRead &+= 1
        return sample
    }

    /// `next()` once the batch is handed out: canonical rows are parsed straight from the read
    /// buffer (a batch of them once the unit guesses are settled, else one), their line end
    /// checked after; everything else goes to `nextGeneral()`.
    @inline(never)
    private func nextFromSource() throws(RecordingError) -> LabeledSample? {
        if canonicalLayout, pendingLine == nil, !source.mayContainNul {
            if unitGuessesSettled, options.maximumAcceleration >= 0 {
                fillBatch()
                if batchEnd > 0 { return handOut() }
            } else {
                let (start, available) = source.unconsumed
                if let (row, end, newline) = Self.canonicalRow(
                    start, available, separator: separator, point: point, labelled: columnCount == 5,
                    maximumLineBytes: maximumLineBytes, readable: source.readableEnd) {
                    let number = source.takeLine(endingAt: newline)
                    let line = CSVLineSource.Line(start: start, end: newline, number: number, hasNewline: true)
                    return try checked(row, line, start, end)
                }
            }
        }
        return try nextGeneral()
    }

    /// Parses up to `batchCapacity` canonical rows from the read buffer into `batch`, stopping
    /// before the first row that `canonicalRow` does not take or that `checked` would reject
    /// (its error is then found by `nextGeneral()`, after the batch is handed out), and takes
    /// their lines from the source.
    ///
    /// The samples are those `checked` makes (the same unit products); the statistics are
    /// counted as each is handed out.
    ///
    /// - Precondition: `canonicalLayout`, `unitGuessesSettled` (so `previousTime` is a time
    ///   `checked` accepted, within ±`CSVImportOptions.maximumTimeSeconds`),
    ///   `options.maximumAcceleration >= 0`, no pending line, no NUL byte read, and the previous
    ///   batch handed out.
    private func fillBatch() {
        // The usual file (`,` and `.`, seconds and m/s²) gets a copy of the loop with those
        // bytes as immediates and no unit products (a product by 1 is exact, so skipping it
        // changes no bit): fewer values then compete for registers.
        if separator == UInt8(ascii: ","), point == UInt8(ascii: "."),
           timeUnitsPerSecond == 1, xScale == 1, yScale == 1, zScale == 1 {
            fillBatch(CommaPointUnscaled())
        } else {
            fillBatch(BatchDialect(separator: separator, point: point))
        }
    }

    /// The separator and decimal point of a batch's rows, and whether units are converted.
    protocol BatchDialectProtocol {
        var separator: UInt8 { get }
        var point: UInt8 { get }
        var scaled: Bool { get }
    }

    /// Any dialect, with unit products.
    struct BatchDialect: BatchDialectProtocol {
        let separator: UInt8
        let point: UInt8
        var scaled: Bool { true }
    }

    /// `,` and `.` in seconds and m/s² (as constants in the specialized loop).
    struct CommaPointUnscaled: BatchDialectProtocol {
        var separator: UInt8 { UInt8(ascii: ",") }
        var point: UInt8 { UInt8(ascii: ".") }
        var scaled: Bool { false }
    }

    /// `fillBatch()` for `dialect`: specialized for each dialect type.
    @inline(never)
    private func fillBatch<Dialect: BatchDialectProtocol>(_ dialect: Dialect) {
        let separator = dialect.separator
        let point = dialect.point
        let labelled = columnCount == 5
        let maximumLineBytes = self.maximumLineBytes
        let readable = source.readableEnd
        let (timeUnitsPerSecond, xScale, yScale, zScale) = (self.timeUnitsPerSecond, self.xScale, self.yScale, self.zScale)
        let limitBits = options.maximumAcceleration.bitPattern
        let maximumTime = CSVImportOptions.maximumTimeSeconds
        let batch = self.batch
        let constants = wordConstants
        var (start, available) = source.unconsumed
        var previous = previousTime
        var count = 0
        while count < Self.batchCapacity, let (row, _, newline) = Self.canonicalRow(
            start, available, separator: separator, point: point, labelled: labelled,
            maximumLineBytes: maximumLineBytes, readable: readable, constants: constants) {
            var (t, x, y, z) = (row.t, row.x, row.y, row.z)
            if dialect.scaled {
                t /= timeUnitsPerSecond
                x *= xScale
                y *= yScale
                z *= zScale
            }
            // `checked`'s test in integers: for a limit that is not negative (nor NaN), a
            // magnitude is at most the limit exactly when its bit pattern is (NaN's is above
            // infinity's); and with `previous` a time `checked` or this loop accepted (so
            // within ±`maximumTime`), a time is within range and not before it exactly when it
            // is at least `previous` and at most `maximumTime` (one comparison each, as the
            // test for infinity it replaces).
            let magnitude = UInt64.max &>> 1
            guard t >= previous, t <= maximumTime, x.bitPattern & magnitude <= limitBits,
                  y.bitPattern & magnitude <= limitBits, z.bitPattern & magnitude <= limitBits
            else { break }
            (batch + count).initialize(to: LabeledSample(sample: Sample(time: t, x: x, y: y, z: z), isShake: row.label))
            previous = t
            count &+= 1
            start = newline + 1
        }
        batchLineBase = source.lineNumber
        if count > 0 { source.takeLines(endingAt: start - 1, count: count) }
        batchNext = 0
        batchEnd = count
    }

    /// `next()` for rows the canonical path does not take: comments, blank lines, other layouts,
    /// spaces, quotes, errors, the end of the buffer or file.
    @inline(never)
    private func nextGeneral() throws(RecordingError) -> LabeledSample? {
        while true {
            let line: CSVLineSource.Line
            if let pending = pendingLine {
                line = pending
                pendingLine = nil
            } else {
                guard let read = try source.nextLine() else {
                    try checkGuessedTimeUnitAtEnd()
                    return nil
                }
                line = read
            }
            var end = line.end
            if end > line.start, end[-1] == 0x0D { end -= 1 }
            let start = line.start
            if start == end { continue }
            let first = start.pointee
            if first == UInt8(ascii: "#") { continue }
            if first == 0x20 || first == 0x09 {
                var p = start
                while p < end, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
                // A blank line, or an indented comment (one before the header is read so too).
                if p == end || p.pointee == UInt8(ascii: "#") { continue }
            }
            if source.mayContainNul, let found = memchr(start, 0, end - start) {
                let nul = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(start, nul), kind: .encoding,
                    message: "binary data (a NUL byte): not a text CSV file")
            }
            let row = try parseFields(line, start, end)
            if skippingRow {  // x, y and z empty, and `skipsRowsWithoutAcceleration`
                skippingRow = false
                continue
            }
            return try checked(row, line, start, end)
        }
    }

    /// A row's values as written in the file, before units and checks.
    struct RawRow {
        var t = 0.0, x = 0.0, y = 0.0, z = 0.0
        var label: Bool?
        /// The time field when it is an integer (only read when rebasing).
        var timeInteger: Int64?
    }

    /// Whether columns are exactly `time,x,y,z[,label]` and times are not rebased, so
    /// `canonicalRow` may try a row first.
    private func isCanonicalLayout() -> Bool {
        (columnCount == 4 || (columnCount == 5 && roles[4] == .label))
            && roles[0] == .time && roles[1] == .x && roles[2] == .y && roles[3] == .z && !options.rebasesTime
    }

    /// The fast path for canonical rows: four plain numbers, an optional 0/1 and a line end
    /// (`\n` or `\r\n`), parsed from `start` without looking for the line end first.
    ///
    /// - Parameter available: end of the bytes read so far.
    /// - Returns: the row, where its content ends (before `\r\n` or `\n`) and its `\n`; nil for
    ///   anything else (spaces, quotes, comments, blank lines, errors, a line not yet read in full),
    ///   which the general path then handles.
    @inline(always)
    private static func canonicalRow(
        _ start: UnsafePointer<UInt8>, _ available: UnsafePointer<UInt8>, separator: UInt8, point: UInt8,
        labelled: Bool, maximumLineBytes: Int, readable: UnsafePointer<UInt8>,
        constants: DecimalParser.WordConstants = DecimalParser.WordConstants()
    ) -> (RawRow, end: UnsafePointer<UInt8>, newline: UnsafePointer<UInt8>)? {
        guard let t = Self.field(start, available, point: point, readable: readable, constants: constants), t.next == separator,
              let x = Self.field(t.end + 1, available, point: point, readable: readable, constants: constants), x.next == separator,
              let y = Self.field(x.end + 1, available, point: point, readable: readable, constants: constants), y.next == separator,
              let z = Self.field(y.end + 1, available, point: point, readable: readable, constants: constants)
        else { return nil }
        var row = RawRow(t: t.value, x: x.value, y: y.value, z: z.value)
        var r = z.end
        if labelled {
            guard available - r >= 2, z.next == separator else { return nil }
            let digit = r[1] &- UInt8(ascii: "0")
            guard digit < 2 else { return nil }
            row.label = digit == 1
            r += 2
        }
        // Every field may have ended past `available` (see `field`); the row's content ends
        // before it only if its last field does.
        if r >= available { return nil }
        let end = r
        if r.pointee == 0x0D {
            r += 1
            guard r < available else { return nil }
        }
        guard r.pointee == 0x0A, r - start <= maximumLineBytes else { return nil }
        return (row, end, r)
    }

    /// A number at `start` of a canonical row, the position after it and the byte there; nil when
    /// no number starts there. The caller checks that byte: a separator or line end (anything
    /// else means the row is not canonical).
    ///
    /// A plain number (`DecimalParser.parsePlain`) is not tested against `available`: it may end
    /// past it, in bytes that are not the file's, and the caller then rejects the row by its
    /// line end, which follows. Each field so starts at most 18 bytes after the one before, so a
    /// row that starts before `available` is read no further than 75 bytes past it, and
    /// `CSVLineSource.slackBytes` (128) leaves room for that.
    ///
    /// - Precondition: `start` at most 54 bytes past `available`, which is at most the buffer's
    ///   capacity; then `readable - start` is at least `DecimalParser.plainReadBytes`.
    @inline(always)
    private static func field(
        _ start: UnsafePointer<UInt8>, _ available: UnsafePointer<UInt8>, point: UInt8,
        readable: UnsafePointer<UInt8>, constants: DecimalParser.WordConstants
    ) -> (value: Double, end: UnsafePointer<UInt8>, next: UInt8)? {
        if let plain = DecimalParser.parsePlain(start, available, point: point, constants: constants, bounded: false) {
            return plain
        }
        guard start < available,
              let parsed = DecimalParser.parseGeneral(start, available, point: point, readable: readable),
              parsed.end < available
        else { return nil }
        return (parsed.value, parsed.end, parsed.end.pointee)
    }

    /// Splits and parses any row, throwing the precise error for a bad one.
    ///
    /// A row whose x, y and z fields are all empty when `skipsRowsWithoutAcceleration` is set
    /// (another sensor's row in a merged export) sets `skippingRow` instead, and its values are
    /// not read.
    private func parseFields(
        _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) -> RawRow {
        var row = RawRow()
        let rebasesTime = options.rebasesTime
        var q = start
        var field = 0
        let separator = self.separator
        let columnCount = self.columnCount
        while true {
            if field >= columnCount {
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(start, q), kind: .fieldCount,
                    message: "line has more fields than the \(columnCount) of the header\(truncationHint(line))")
            }
            let role = roles[field]
            switch role {
            case .ignored:
                q = skipField(q, end, separator)
            case .label:
                if q < end, q.pointee &- UInt8(ascii: "0") < 2, q + 1 == end || q[1] == separator {
                    row.label = q.pointee == UInt8(ascii: "1")
                    q += 1
                } else {
                    (row.label, q) = try slowLabel(line, start, q, end, field: field)
                }
            case .time where writtenTimeForm != nil:
                (row.t, q) = try writtenTime(line, start, q, end)
            case .time where rebasesTime:
                // Integer stamps (ns or ms since an epoch) are rebased exactly, in integers.
                if let parsed = DecimalParser.parseInteger(q, end), parsed.end == end || parsed.end.pointee == separator {
                    row.timeInteger = parsed.value
                    row.t = Double(parsed.value)
                    q = parsed.end
                } else {
                    (row.t, q) = try number(line, start, q, end, field: field)
                }
            default:
                let value: Double
                (value, q) = try number(line, start, q, end, field: field)
                switch role {
                case .time: row.t = value
                case .x: row.x = value
                case .y: row.y = value
                default: row.z = value
                }
            }
            field &+= 1
            if q == end { break }
            q += 1  // the separator
        }
        if skippingRow { return row }
        if field != columnCount {
            throw RecordingError(
                path: path, line: line.number, column: characterColumn(start, end), kind: .fieldCount,
                message: "line has \(field) field\(field == 1 ? "" : "s"), expected \(columnCount) like the header\(truncationHint(line))")
        }
        return row
    }

    /// For a row whose acceleration field `failing` (at `position`) is empty: returns when its x,
    /// y and z fields are all empty and such rows are skipped; otherwise throws the missing
    /// value (naming `skipsRowsWithoutAcceleration` when x, y and z are all empty).
    @inline(never)
    private func checkRowWithoutAcceleration(
        _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
        failing: Int, at position: UnsafePointer<UInt8>
    ) throws(RecordingError) {
        var emptyAxes = 0
        var q = start
        var field = 0
        while field < columnCount {
            if roles[field] == .x || roles[field] == .y || roles[field] == .z, try isEmptyField(line, start, q, end) {
                emptyAxes += 1
            }
            q = skipField(q, end, separator)
            field += 1
            if q == end { break }
            q += 1
        }
        if emptyAxes == 3 && options.skipsRowsWithoutAcceleration { return }
        var message = "missing value in column '\(columnNames[failing])'"
        var hint: RecordingError.OptionHint?
        if emptyAxes == 3 {
            hint = .skipRowsWithoutAcceleration
            message += " (x, y and z are all empty: a row of another sensor, as in a merged export? "
                + "\(RecordingError.OptionHint.skipRowsWithoutAcceleration.rawValue) to skip such rows)"
        }
        throw RecordingError(
            path: path, line: line.number, column: characterColumn(start, position), kind: .notANumber,
            message: message + truncationHint(line), optionHint: hint)
    }

    /// Whether the field at `q` is empty: nothing, spaces or `""` before the separator or the
    /// line end.
    private func isEmptyField(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) -> Bool {
        if q == end { return true }
        let b = q.pointee
        if b == separator { return true }
        guard b == 0x20 || b == 0x09 || b == UInt8(ascii: "\"") else { return false }
        let content = try fieldContent(line, lineStart, q, end)
        return content.start == content.end
    }

    /// Converts units and checks range and time order; counts duplicates and gaps.
    @inline(always)
    private func checked(
        _ row: RawRow, _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) -> LabeledSample {
        var t = row.t
        if options.rebasesTime {
            if samplesRead == 0 {
                timeOrigin = t
                integerTimeOrigin = row.timeInteger
            }
            if let i = row.timeInteger, let origin = integerTimeOrigin,
               case let (difference, overflow) = i.subtractingReportingOverflow(origin), !overflow {
                t = Double(difference)
            } else {
                t -= timeOrigin
            }
        }
        t /= timeUnitsPerSecond  // exact when it is 1
        let x = row.x * xScale
        let y = row.y * yScale
        let z = row.z * zScale
        let limit = options.maximumAcceleration
        // One test for the rare cases, which `checkRejected` then tells apart in order. The
        // time's range is tested in integers, as `fillBatch` tests accelerations: |t| is at most
        // the limit exactly when its bit pattern without the sign is (NaN and infinity are
        // above). Measured as fast as the `t.isFinite` it replaces (`shake-bench csv` on a file
        // the general path reads), where comparing `t.magnitude` as a Double was some 8 % slower.
        if !(t.bitPattern & (UInt64.max &>> 1) <= CSVImportOptions.maximumTimeSeconds.bitPattern
            && x.magnitude <= limit && y.magnitude <= limit && z.magnitude <= limit && t >= previousTime) {
            try checkRejected(t: t, written: row.t, x: x, y: y, z: z, line, start, end)
        }
        if accelerationUnitGuessed {
            try checkGuessedAccelerationUnit(x: x, y: y, z: z, line, start, end)
        }
        if t == previousTime {
            duplicateTimestampCount &+= 1
        } else if samplesRead > 0 {
            let gap = t - previousTime
            if timeUnitGuessed {
                try checkGuessedTimeUnit(gap: gap, line, start, end)
            }
            if gap > largestTimeGap { largestTimeGap = gap }
        }
        previousTime = t
        previousTimeLine = line.number
        samplesRead &+= 1
        return LabeledSample(sample: Sample(time: t, x: x, y: y, z: z), isShake: row.label)
    }

    /// Throws the error for a row whose time is not finite, a time beyond
    /// ±`CSVImportOptions.maximumTimeSeconds`, an acceleration beyond the limit, or time going
    /// backwards, in that order of precedence; returns for a row without any of them.
    ///
    /// - Parameter written: the time as written in the file (its unit, not rebased).
    @inline(never)
    private func checkRejected(
        t: Double, written: Double, x: Double, y: Double, z: Double,
        _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) {
        if !t.isFinite {
            throw numberOutOfRange(line, start, end, role: .time)
        }
        if t.magnitude > CSVImportOptions.maximumTimeSeconds {
            throw timeOutOfRange(t, written: written, line, start, end)
        }
        let limit = options.maximumAcceleration
        if !(x.magnitude <= limit && y.magnitude <= limit && z.magnitude <= limit) {
            for (value, role) in [(x, Role.x), (y, .y), (z, .z)] where !(value.magnitude <= limit) {
                if !value.isFinite { throw numberOutOfRange(line, start, end, role: role) }
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(start, fieldStart(of: role, start, end)), kind: .outOfRange,
                    message: "acceleration \(value) m/s² in column '\(columnNames[columnIndex(of: role)])' is beyond ±\(limit) m/s² (about \(Self.wholeNumber(limit / standardGravity)) g): a corrupt value or a wrong unit\(truncationHint(line))")
            }
        }
        if t < previousTime {
            throw RecordingError(
                path: path, line: line.number, column: characterColumn(start, fieldStart(of: .time, start, end)), kind: .timeBackwards,
                message: "time goes backwards: \(t) s after \(previousTime) s on line \(previousTimeLine)\(writtenTimeNote)")
        }
    }

    /// The error for a time `t` (s) beyond ±`CSVImportOptions.maximumTimeSeconds`, `written` in
    /// the file: when that number is seconds since 1970 of this century (2001 to 2099) in a
    /// smaller time unit than the one it was read in, it says so and names that unit; when it is
    /// not, but in nanoseconds is under about 3 years (1e8 s), it names nanoseconds since the
    /// device started, as Android's `SensorEvent` and Linux IIO stamp samples. (Boot time in
    /// nanoseconds had been named microseconds since 1978.)
    /// Seconds since 1970 that a recording's time can be named as: 2001-09-09 (1e9 s) to 2099.
    static let earliestEpochSeconds = 1e9
    static let latestEpochSeconds = 4.1e9
    /// Up to this many seconds (about 3 years), nanoseconds out of range read as time since boot.
    static let longestUptimeSeconds = 1e8

    private func timeOutOfRange(
        _ t: Double, written: Double, _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>
    ) -> RecordingError {
        var message = "time \(t) s in column '\(columnNames[columnIndex(of: .time)])' is out of range "
            + "(beyond ±\(CSVImportOptions.maximumTimeText))"
        var hint: RecordingError.OptionHint?
        let epochUnits: [(CSVImportOptions.TimeUnit, String)] = [
            (.milliseconds, "milliseconds"), (.microseconds, "microseconds"), (.nanoseconds, "nanoseconds"),
        ]
        typealias Reading = (unit: CSVImportOptions.TimeUnit, words: String)
        var epoch: (reading: Reading, year: Int)?
        if let (unit, name) = epochUnits.first(where: { unit, _ in
            unit.seconds < timeScale && (Self.earliestEpochSeconds...Self.latestEpochSeconds).contains(written * unit.seconds)
        }) {
            let year = 1970 + Int(written * unit.seconds / 31_556_952)
            epoch = ((unit, "\(name) since 1970"), year)
        }
        var uptime: Reading?
        let nanoseconds = CSVImportOptions.TimeUnit.nanoseconds
        if nanoseconds.seconds < timeScale, written > 0, written * nanoseconds.seconds < Self.longestUptimeSeconds,
           epoch?.reading.unit != nanoseconds {
            let seconds = written * nanoseconds.seconds
            let span = seconds < 2 * 86_400
                ? "\(FixedDecimals.format(seconds / 3600, decimals: 1)) hours"
                : "\(FixedDecimals.format(seconds / 86_400, decimals: 1)) days"
            uptime = (nanoseconds, "nanoseconds since the device started (\(span) in, as Android and Linux IIO stamp "
                + "samples)")
        }
        // Both can fit (12 days since boot in ns is 2002 in µs since 1970): the likelier first,
        // the other named too. A recording from before 2010 is rare; a device up for weeks is not.
        var reading: Reading?
        switch (epoch, uptime) {
        case let (epoch?, uptime?):
            let epochWords = "\(epoch.reading.words) (\(epoch.year))"
            reading = epoch.year >= 2010
                ? (epoch.reading.unit, "\(epochWords), or \(uptime.words)")
                : (uptime.unit, "\(uptime.words), or \(epochWords)")
        case let (epoch?, nil): reading = epoch.reading
        case let (nil, uptime?): reading = uptime
        case (nil, nil): reading = nil
        }
        if let reading {
            let rebase = options.rebasesTime ? "" : " (and \(RecordingError.OptionHint.rebaseTime.rawValue) to start at 0)"
            if let stated = headerTimeUnit {
                // The header's unit is wrong, and no option overrides a stated unit: only the
                // header can be mended.
                message += ": it looks like \(reading.words), not the \(stated.rawValue) its header states: correct the "
                    + "unit in the header to \(reading.unit.rawValue)" + rebase
            } else {
                hint = .timeUnit
                message += ": it looks like \(reading.words): \(RecordingError.OptionHint.timeUnit.rawValue) "
                    + "\(reading.unit.rawValue)" + rebase
            }
        } else {
            message += ": a corrupt value or a wrong unit"
        }
        return RecordingError(
            path: path, line: line.number, column: characterColumn(start, fieldStart(of: .time, start, end)), kind: .outOfRange,
            message: message + truncationHint(line), optionHint: hint)
    }

    /// While the acceleration unit is guessed (m/s²): a file whose first `gUnitCheckSamples`
    /// samples all have |a| between 0.8 and 1.25 is in g, not m/s² (|a| is 9.8 m/s² at rest, and
    /// a steady 1 m/s² is no motion a hand or a walk makes), and read as m/s² it would be
    /// silently wrong: no shake would ever reach a threshold. The same with |a| between 800 and
    /// 1250 is in mg (a steady 1000 m/s², 100 g, is no motion either: every sample would be a
    /// shake's strength). One sample outside the first sample's range settles it.
    @inline(never)
    private func checkGuessedAccelerationUnit(
        x: Double, y: Double, z: Double,
        _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) {
        let squared = x * x + y * y + z * z
        let inG = squared >= 0.8 * 0.8 && squared <= 1.25 * 1.25
        let inMilliG = squared >= 800 * 800 && squared <= 1250 * 1250
        if samplesRead == 0 { restLooksLikeMilliG = inMilliG }
        guard restLooksLikeMilliG ? inMilliG : inG else {
            accelerationUnitGuessed = false
            return
        }
        guard samplesRead + 1 >= Self.gUnitCheckSamples else { return }
        accelerationUnitGuessed = false
        let names = [Role.x, .y, .z].map { "'\(columnNames[columnIndex(of: $0)])'" }.joined(separator: ", ")
        let (range, unit) = restLooksLikeMilliG ? ("800 and 1250", "mg") : ("0.8 and 1.25", "g")
        throw RecordingError(
            path: path, line: line.number, column: characterColumn(start, fieldStart(of: .x, start, end)), kind: .header,
            message: "the acceleration columns \(names) have no unit and |a| stays between \(range) over the first "
                + "\(Self.gUnitCheckSamples) samples (to this line), where it would be 9.8 m/s² at rest: the file looks like "
                + "it is in \(unit): \(RecordingError.OptionHint.accelerationUnit.rawValue) \(unit) (or m/s^2 if the values really are m/s²)",
            optionHint: .accelerationUnit)
    }

    /// While the time unit is guessed (seconds): a file whose first
    /// `guessedTimeUnitCheckIntervals` intervals (`gap`, s, more than 0) are all at least
    /// `guessedSecondsShortestSlowInterval` is refused, as one in milliseconds read as seconds
    /// would be silently wrong (every interval a gap in the stream). One shorter interval settles it.
    @inline(never)
    private func checkGuessedTimeUnit(
        gap: Double, _ line: CSVLineSource.Line, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) {
        guard gap >= Self.guessedSecondsShortestSlowInterval else {
            timeUnitGuessed = false
            return
        }
        if slowIntervalsWhileGuessing == 0 {
            firstSlowInterval = (gap, line.number, characterColumn(start, fieldStart(of: .time, start, end)))
        }
        slowIntervalsWhileGuessing += 1
        if slowIntervalsWhileGuessing >= Self.guessedTimeUnitCheckIntervals { throw guessedTimeUnitError() }
    }

    /// At the end of a file whose time unit is still guessed: the error when each of its
    /// intervals was that long (fewer than `guessedTimeUnitCheckIntervals` of them).
    private func checkGuessedTimeUnitAtEnd() throws(RecordingError) {
        if timeUnitGuessed && slowIntervalsWhileGuessing > 0 { throw guessedTimeUnitError() }
    }

    /// The unit that puts an interval written as `interval` nearest 100 Hz on a log scale:
    /// `SampleStreamCheck.likelyTimeDivisor`'s rule, so the reader and the stream check agree.
    static func likelyUnit(interval: Double) -> CSVImportOptions.TimeUnit {
        switch SampleStreamCheck.likelyTimeDivisor(firstInterval: interval) {
        case 1000: .milliseconds
        case 1e6: .microseconds
        default: .nanoseconds
        }
    }

    /// ", but nanoseconds (100 Hz)": the likely unit and the rate it gives.
    static func likelyUnitWords(interval: Double) -> String {
        let unit = likelyUnit(interval: interval)
        let name = switch unit {
        case .milliseconds: "milliseconds"
        case .microseconds: "microseconds"
        default: "nanoseconds"
        }
        let hertz = 1 / (interval * unit.seconds)
        let rate = hertz >= 100 ? FixedDecimals.format(hertz, decimals: 0) : FixedDecimals.format(hertz, decimals: hertz >= 10 ? 1 : 2)
        return ", but \(name) (\(rate) Hz)"
    }

    /// The error for a guessed time unit (seconds) whose first intervals were all at least
    /// `guessedSecondsShortestSlowInterval`, at the first of them.
    private func guessedTimeUnitError() -> RecordingError {
        timeUnitGuessed = false
        let count = slowIntervalsWhileGuessing
        let intervals = count == 1
            ? "its first interval is \(firstSlowInterval.gap)"
            : "its first \(count) intervals are all \(Self.guessedSecondsShortestSlowInterval) or more (the first is \(firstSlowInterval.gap))"
        return RecordingError(
            path: path, line: firstSlowInterval.line, column: firstSlowInterval.column, kind: .header,
            message: "the time column '\(columnNames[columnIndex(of: .time)])' has no unit and \(intervals): in seconds "
                + "that is a rate under \(Int(1 / Self.guessedSecondsShortestSlowInterval)) Hz, so it is probably not seconds"
                + Self.likelyUnitWords(interval: firstSlowInterval.gap) + ": "
                + "\(RecordingError.OptionHint.timeUnit.rawValue) \(Self.likelyUnit(interval: firstSlowInterval.gap).rawValue) "
                + "(or \(["ms", "us", "ns"].filter { $0 != Self.likelyUnit(interval: firstSlowInterval.gap).rawValue }.joined(separator: " or ")); s if it really is seconds)",
            optionHint: .timeUnit)
    }

    /// Where the field holding `role` starts in a row that parsed (for error columns).
    private func fieldStart(of role: Role, _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
        let index = columnIndex(of: role)
        var q = start
        var field = 0
        while field < index, q < end {
            q = skipField(q, end, separator)
            if q < end { q += 1 }
            field += 1
        }
        return q
    }

    private func columnIndex(of role: Role) -> Int {
        var i = 0
        while i < columnCount && roles[i] != role { i += 1 }
        return i
    }

    private func truncationHint(_ line: CSVLineSource.Line) -> String {
        line.hasNewline ? "" : " (the last line has no line end: the file may be truncated)"
    }

    /// Skips one field that is not used: to the next unquoted separator or the end.
    @inline(always)
    private func skipField(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, _ separator: UInt8) -> UnsafePointer<UInt8> {
        var q = start
        var quoted = false
        while q < end {
            let b = q.pointee
            if b == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if b == separator && !quoted {
                break
            }
            q += 1
        }
        return q
    }

    /// The content of the field at `q` (spaces trimmed, quotes removed) and where the field ends.
    private func fieldContent(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) -> (start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, next: UnsafePointer<UInt8>) {
        var s = q
        while s < end, s.pointee == 0x20 || (s.pointee == 0x09 && separator != 0x09) { s += 1 }
        if s < end, s.pointee == UInt8(ascii: "\"") {
            var r = s + 1
            while r < end, r.pointee != UInt8(ascii: "\"") { r += 1 }
            if r == end {
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(lineStart, s), kind: .notANumber,
                    message: "unterminated quoted field (a quoted field must end on the same line)\(truncationHint(line))")
            }
            var after = r + 1
            while after < end, after.pointee == 0x20 || (after.pointee == 0x09 && separator != 0x09) { after += 1 }
            if after < end, after.pointee != separator {
                throw RecordingError(
                    path: path, line: line.number, column: characterColumn(lineStart, after), kind: .notANumber,
                    message: "unexpected text after a quoted field")
            }
            var cs = s + 1
            var ce = r
            while cs < ce, cs.pointee == 0x20 { cs += 1 }
            while ce > cs, ce[-1] == 0x20 { ce -= 1 }
            return (cs, ce, after)
        }
        var r = s
        while r < end, r.pointee != separator { r += 1 }
        var ce = r
        while ce > s, ce[-1] == 0x20 || (ce[-1] == 0x09 && separator != 0x09) { ce -= 1 }
        return (s, ce, r)
    }

    /// A number field: the fast path, else the careful one.
    @inline(always)
    private func number(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>, field: Int
    ) throws(RecordingError) -> (Double, UnsafePointer<UInt8>) {
        if let parsed = DecimalParser.parse(q, end, point: point, readable: source.readableEnd), parsed.end == end || parsed.end.pointee == separator {
            return (parsed.value, parsed.end)
        }
        return try slowNumber(line, lineStart, q, end, field: field)
    }

    /// A number field the fast path did not take: spaces, quotes, or an error to explain.
    @inline(never)
    private func slowNumber(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>, field: Int
    ) throws(RecordingError) -> (Double, UnsafePointer<UInt8>) {
        let content = try fieldContent(line, lineStart, q, end)
        let column = characterColumn(lineStart, q)
        let name = columnNames[field]
        if content.start == content.end, roles[field] != .time {
            try checkRowWithoutAcceleration(line, lineStart, end, failing: field, at: q)
            skippingRow = true  // read on to the line's end; `parseFields` and `nextGeneral` skip it
            return (0, end)
        }
        if content.start == content.end {
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .notANumber,
                message: "missing value in column '\(name)'\(truncationHint(line))")
        }
        if let parsed = DecimalParser.parse(content.start, content.end, point: point), parsed.end == content.end {
            return (parsed.value, content.next)
        }
        // `−1,5`: the minus sign U+2212 (E2 88 92), as Physics Toolbox writes numbers in some
        // locales, followed by an unsigned number.
        if content.end - content.start > 3, content.start[0] == 0xE2, content.start[1] == 0x88, content.start[2] == 0x92,
           content.start[3] != UInt8(ascii: "-"), content.start[3] != UInt8(ascii: "+"),
           let parsed = DecimalParser.parse(content.start + 3, content.end, point: point), parsed.end == content.end {
            return (-parsed.value, content.next)
        }
        let text = quotedForMessage(content.start, content.end)
        let lower = String(decoding: UnsafeBufferPointer(start: content.start, count: content.end - content.start), as: UTF8.self).lowercased()
        let unsigned = lower.hasPrefix("-") || lower.hasPrefix("+") ? String(lower.dropFirst()) : lower
        if ["nan", "inf", "infinity", "1.#inf", "1.#qnan", "nan(ind)"].contains(unsigned) {
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .notFinite,
                message: "\(text) in column '\(name)' is not a finite number: NaN and infinity are not valid samples")
        }
        var hint = ""
        var optionHint: RecordingError.OptionHint?
        if roles[field] == .time, lower.contains(":") || lower.filter({ $0 == "-" || $0 == "/" }).count >= 2 {
            // 12:00:00.5, 2024-01-01 12:00, 01/02/2024: a date or clock time.
            switch WrittenTime.parse(UnsafeBufferPointer(start: content.start, count: content.end - content.start)) {
            case .success(let time):
                return (try firstWrittenTime(time, text: text, line, column: column), content.next)
            case .failure(.invalid(let reason)):
                throw RecordingError(
                    path: path, line: line.number, column: column, kind: .notANumber,
                    message: "\(text) in column '\(name)' is not a valid time: \(reason)\(truncationHint(line))")
            case .failure(.notATime):
                optionHint = .timeColumn
                hint = " (a time written as a date or clock time is read in these forms only: "
                    + "\(Self.writtenTimeExamples); else \(RecordingError.OptionHint.timeColumn.rawValue), such as elapsed seconds)"
            }
        } else if point == UInt8(ascii: "."), lower.contains(","), separator != UInt8(ascii: ",") {
            optionHint = .decimalComma
            hint = " (for decimal commas \(RecordingError.OptionHint.decimalComma.rawValue))"
        }
        throw RecordingError(
            path: path, line: line.number, column: column, kind: .notANumber,
            message: "\(text) is not a number in column '\(name)'\(hint)\(truncationHint(line))", optionHint: optionHint)
    }

    /// For a message quoting times read from dates or clock times: how they became seconds.
    private var writtenTimeNote: String {
        guard let form = writtenTimeForm else { return "" }
        let origin = form == .minutesAndSeconds ? "hour" : "midnight"
        return " (the column holds \(form.pluralName), read as seconds since the first row's \(origin)"
            + (options.rebasesTime ? ", then shifted to start at 0)" : ")")
    }

    /// The written-time forms, as messages list them.
    static let writtenTimeExamples =
        "2024-01-31 13:05:10.25 (also with T, and Z or +01:00), 31-Jan-2024 13:05:10.250, 13:05:10.25, 13:05:10:250 and 05:10.25"

    /// The first row's time, written as a date or clock time: from now on every row's time must
    /// be written the same way, in seconds since the first row's midnight (minutes and seconds:
    /// since its hour).
    private func firstWrittenTime(
        _ time: WrittenTime, text: String, _ line: CSVLineSource.Line, column: Int
    ) throws(RecordingError) -> Double {
        let name = columnNames[columnIndex(of: .time)]
        guard samplesRead == 0 else {
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .notANumber,
                message: "\(text) in column '\(name)' is \(time.form.name), but the times before it are numbers (as on line \(previousTimeLine))")
        }
        if options.timeUnit != nil {
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .invalidArgument,
                message: "\(text) in column '\(name)' is \(time.form.name), which is read in seconds: \(RecordingError.OptionHint.noTimeUnit.rawValue) (it is for a column of numbers)",
                optionHint: .noTimeUnit)
        }
        writtenTimeForm = time.form
        writtenTimeOrigin = (time.day, time.utcOffset ?? 0, line.number, time.utcOffset != nil)
        previousWrittenTime = time.seconds
        canonicalLayout = false
        timeUnitsPerSecond = 1
        timeUnitGuessed = false
        return time.seconds
    }

    /// A time field of a file whose first time was written as a date or clock time: the same
    /// form, in seconds since the first row's midnight (or hour). A time of day smaller than the
    /// one before by more than half a day has passed midnight (and minutes and seconds, by more
    /// than half an hour, the full hour).
    private func writtenTime(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>
    ) throws(RecordingError) -> (Double, UnsafePointer<UInt8>) {
        let content = try fieldContent(line, lineStart, q, end)
        guard let form = writtenTimeForm else { preconditionFailure("the first time set the form") }
        let result = WrittenTime.parse(UnsafeBufferPointer(start: content.start, count: content.end - content.start))
        guard case .success(let time) = result, time.form == form else {
            let column = characterColumn(lineStart, q)
            let name = columnNames[columnIndex(of: .time)]
            let text = quotedForMessage(content.start, content.end)
            let message: String
            switch result {
            case _ where content.start == content.end:
                message = "missing value in column '\(name)'"
            case .failure(.invalid(let reason)):
                message = "\(text) in column '\(name)' is not a valid time: \(reason)"
            case .success(let other):
                message = "\(text) in column '\(name)' is \(other.form.name), but the column's first time (line \(writtenTimeOrigin.line)) is \(form.name)"
            case .failure(.notATime):
                message = "\(text) in column '\(name)' is not \(form.name) like the column's first time (line \(writtenTimeOrigin.line))"
            }
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .notANumber, message: message + truncationHint(line))
        }
        // A date and time without an offset after one with (or the other way round): whether it
        // is UTC or local time, nothing says, and either guess could put it hours off.
        if form.period == nil, (time.utcOffset != nil) != writtenTimeOrigin.hasUTCOffset {
            let first = writtenTimeOrigin.hasUTCOffset ? "has one" : "has none"
            throw RecordingError(
                path: path, line: line.number, column: characterColumn(lineStart, q), kind: .notANumber,
                message: "\(quotedForMessage(content.start, content.end)) in column '\(columnNames[columnIndex(of: .time)])' has "
                    + (time.utcOffset == nil ? "no UTC offset" : "a UTC offset")
                    + ", but the column's first time (line \(writtenTimeOrigin.line)) \(first): write every time the same way")
        }
        var t: Double
        if let period = form.period {
            t = time.seconds + writtenTimeWraps
            if t < previousWrittenTime - period / 2 {
                writtenTimeWraps += period
                t += period
            }
        } else {
            t = Double(time.day - writtenTimeOrigin.day) * 86_400 + time.seconds
                - Double((time.utcOffset ?? 0) - writtenTimeOrigin.utcOffset)
        }
        previousWrittenTime = t
        return (t, content.next)
    }

    private func numberOutOfRange(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, role: Role
    ) -> RecordingError {
        let fieldStart = fieldStart(of: role, lineStart, end)
        let content = (try? fieldContent(line, lineStart, fieldStart, end)) ?? (start: fieldStart, end: end, next: end)
        return RecordingError(
            path: path, line: line.number, column: characterColumn(lineStart, fieldStart), kind: .notFinite,
            message: "\(quotedForMessage(content.start, content.end)) in column '\(columnNames[columnIndex(of: role)])' is too large to be a sample")
    }

    @inline(never)
    private func slowLabel(
        _ line: CSVLineSource.Line, _ lineStart: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>,
        _ end: UnsafePointer<UInt8>, field: Int
    ) throws(RecordingError) -> (Bool, UnsafePointer<UInt8>) {
        let content = try fieldContent(line, lineStart, q, end)
        if content.end - content.start == 1, content.start.pointee &- UInt8(ascii: "0") < 2 {
            return (content.start.pointee == UInt8(ascii: "1"), content.next)
        }
        let column = characterColumn(lineStart, q)
        if content.start == content.end {
            throw RecordingError(
                path: path, line: line.number, column: column, kind: .badLabel,
                message: "missing label in column '\(columnNames[field])' (use 0 or 1)\(truncationHint(line))")
        }
        throw RecordingError(
            path: path, line: line.number, column: column, kind: .badLabel,
            message: "\(quotedForMessage(content.start, content.end)) is not a label in column '\(columnNames[field])' (use 0 or "
                + "1, or \(RecordingError.OptionHint.ignoreLabels.rawValue) to read the file without labels)"
                + truncationHint(line),
            optionHint: .ignoreLabels)
    }
}
