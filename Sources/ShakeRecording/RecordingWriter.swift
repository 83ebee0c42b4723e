#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeDetection

/// Writes a canonical CSV recording safely: nothing half-written ever appears at the destination.
///
/// Output: the `# key: value` metadata lines, the header `time_s,x,y,z` (plus `,shake` when
/// labelled), then one row per sample with time in seconds to 6 decimals (1 µs) and accelerations
/// in m/s² to 5 decimals, e.g. `0.019608,0.00000,-0.39227,-10.59118,0`. Reading the file back with
/// `RecordingReader` gives the same samples to within half a unit of the last decimal.
///
/// Safety:
/// - Rows go to `<path>.partial` in the same directory. `finish()` flushes, `fsync`s and then
///   moves the file to `path` atomically (a hard link, so an existing file is never replaced
///   unless `overwrite` is true, then `rename`).
/// - The partial file holds only whole lines, starting with the header, so after `init` and after
///   every `flush()` it is a valid recording (a crash loses at most the unflushed rows).
///   `flush()` hands the rows to the kernel (`write(2)`), without `fsync`.
/// - An existing `path` is an error unless `overwrite` is true; an existing `<path>.partial` is
///   always an error (another recording in progress, or the leftovers of a stopped one, which are
///   the user's data).
/// - A failed write (disk full, I/O error) truncates the partial file back to its last whole line,
///   throws an error naming the file, and leaves the writer failed: later calls throw.
/// - `discard()` deletes the partial file. A writer released without `finish()` or `discard()`
///   flushes what it holds and leaves `<path>.partial` for recovery.
///
/// Every value is checked before it is written, so the file reads back: times must be within
/// ±`CSVImportOptions.maximumTimeSeconds` (10¹³ s, as the reader requires) and must not
/// decrease, accelerations finite and within ±2000 m/s² (the reader's default limit), and
/// `isShake` given exactly when the recording is labelled. One exception: a recording whose
/// first 64 samples all have |a| between 0.8 and 1.25 m/s² (or 800 and 1250) reads as one in g
/// (or mg), which the reader refuses without a unit, unless its metadata holds
/// `units: m/s^2` (`shake synth` and `shake record` write that line; pass it in `metadata`
/// for such samples).
///
/// Not `Sendable`: use a writer from one task at a time.
public final class RecordingWriter {
    /// The destination file.
    public let path: String
    /// What is appended to the path for the file written first: `.partial`.
    public static let partialSuffix = ".partial"

    /// Where rows are written until `finish()`: `path` + `.partial`.
    public var partialPath: String { path + Self.partialSuffix }
    /// Whether rows carry a `shake` label.
    public let isLabelled: Bool
    /// Samples accepted by `write` so far (flushed or still buffered).
    public private(set) var samplesWritten = 0

    fileprivate enum State {
        case open(CInt)
        case finished
        case discarded
        case failed
    }

    fileprivate var state: State
    private let overwrite: Bool
    private var buffer: [UInt8] = []
    private var previousTime = -Double.infinity
    /// Buffered bytes beyond this are written by `write` without waiting for `flush()`: 64 KiB.
    private static let bufferBytes = 64 << 10
    /// Largest acceleration accepted, m/s²: the reader's default `maximumAcceleration`.
    private static let maximumAcceleration = CSVImportOptions.canonical.maximumAcceleration

    /// Starts a recording: creates `<path>.partial` holding the metadata and header.
    ///
    /// - Parameters:
    ///   - path: the destination file.
    ///   - metadata: `# key: value` lines, in order. Each pair must read back identically with
    ///     `RecordingReader`, which splits the line at its first `:` and trims spaces and tabs
    ///     around key and value, so: a key must be non-empty, without `:`, and not start or
    ///     end with a space or tab; a value must not start or end with a space or tab (it may
    ///     be empty and may hold `:`); neither may hold a line break (`Character.isNewline`) or
    ///     a NUL character; and the line must fit the reader's default line limit (1 MiB). A
    ///     `units` key may name only m/s² (the reader takes it as the unit of the rows).
    ///   - labelled: whether rows carry a `shake` column (then every `write` passes `isShake`).
    ///   - overwrite: whether `finish()` may replace an existing file at `path`. Default false.
    /// - Throws: `RecordingError` naming the file when it exists (and `overwrite` is false), its
    ///   `.partial` exists, the directory is not writable, or a metadata key or value breaks a
    ///   rule above (`invalidArgument`, naming the key; nothing is created).
    public init(
        path: String, metadata: [(key: String, value: String)] = [], labelled: Bool = false,
        overwrite: Bool = false
    ) throws(RecordingError) {
        self.path = path
        self.isLabelled = labelled
        self.overwrite = overwrite
        self.state = .failed
        for (key, value) in metadata {
            if let problem = Self.metadataProblem(key: key, value: value) {
                throw RecordingError(path: path, kind: .invalidArgument, message: "invalid metadata \(problem); it would not read back as written")
            }
        }
        if let problem = Self.destinationProblem(path) {
            throw RecordingError(path: path, kind: .invalidArgument, message: problem)
        }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                throw RecordingError(path: path, kind: .isDirectory, message: "is a directory; give a file name for the recording")
            }
            if !overwrite {
                throw RecordingError(
                    path: path, kind: .fileExists,
                    message: "already exists (\(RecordingError.OptionHint.overwrite.rawValue) to replace it)",
                    optionHint: .overwrite)
            }
        }
        let partial = path + Self.partialSuffix
        var fd: CInt
        repeat {
            fd = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        } while fd < 0 && errno == EINTR
        if fd < 0 {
            let code = errno
            if code == EEXIST { throw Self.leftoverPartial(of: path) }
            throw RecordingError(path: partial, kind: .io, message: "cannot create: \(errnoText(code))")
        }
        state = .open(fd)
        for (key, value) in metadata {
            buffer.append(contentsOf: "# \(key): \(value)\n".utf8)
        }
        buffer.append(contentsOf: (labelled ? "time_s,x,y,z,shake\n" : "time_s,x,y,z\n").utf8)
        buffer.reserveCapacity(Self.bufferBytes + 256)
        try flush()
    }

    /// Why an existing `path` cannot be a destination even with `overwrite`, as a phrase that
    /// follows the path ("is a named pipe, not a regular file: …"); nil when it can (a regular
    /// file, or nothing there). A finished file is moved into place with `rename`, which
    /// replaces the *name*: a symbolic link would be replaced by the file (its target left as
    /// it was), and `/dev/stdout` (a link), `/dev/null` or a named pipe would stop being one
    /// (as root, a system file). Directories are left to the caller's own message.
    public static func destinationProblem(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let movedIntoPlace = "the output is written to a new file and moved into place when done, which would replace"
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR:
            return nil
        case S_IFLNK:
            var target = [CChar](repeating: 0, count: 4097)
            let count = readlink(path, &target, 4096)
            let to = count > 0 ? " to '\(String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))'" : ""
            var followed = stat()
            if stat(path, &followed) == 0 && followed.st_mode & S_IFMT == S_IFDIR { return nil }
            return "is a symbolic link\(to): \(movedIntoPlace) the link, not the file it leads to; "
                + "give the file's own name"
        case S_IFCHR: return "is a character device, not a regular file: \(movedIntoPlace) it; give a file name"
        case S_IFBLK: return "is a block device, not a regular file: \(movedIntoPlace) it; give a file name"
        case S_IFIFO: return "is a named pipe, not a regular file: \(movedIntoPlace) it; give a file name"
        case S_IFSOCK: return "is a socket, not a regular file: \(movedIntoPlace) it; give a file name"
        default: return "is not a regular file: \(movedIntoPlace) it; give a file name"
        }
    }

    deinit {
        if case .open(let fd) = state {
            try? writeBuffer(fd)
            close(fd)
        }
    }

    /// The time a reader reads back for a sample written at `time` s: `time` to 6 decimals, as
    /// the row holds it (1.5099999999 is written, and read, as 1.51). A label decided by time
    /// is decided on this, so that the row says what the file will mean.
    /// - Precondition: `time` is finite.
    public static func writtenTime(_ time: Double) -> Double {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalFormatter.maximumBytes) { buffer in
            let start = buffer.baseAddress!
            let end = DecimalFormatter.write(time, decimals: 6, to: start)
            return DecimalParser.parse(UnsafePointer(start), UnsafePointer(end), point: UInt8(ascii: "."))?.value ?? time
        }
    }

    /// Appends one sample (buffered; written out every 64 KiB and by `flush()`).
    ///
    /// - Parameters:
    ///   - sample: time in seconds, accelerations in m/s².
    ///   - isShake: the label, required exactly when the writer is `labelled`.
    /// - Throws: `RecordingError` for a value that would not read back (non-finite, |time| >
    ///   10¹³ s, time going backwards, |a| > 2000 m/s², label missing or unexpected) or a failed
    ///   write.
    public func write(_ sample: Sample, isShake: Bool? = nil) throws(RecordingError) {
        guard case .open(let fd) = state else { throw notOpen() }
        guard sample.time.isFinite, sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else {
            throw invalid("sample \(samplesWritten + 1) is not finite: \(sample)")
        }
        guard sample.time.magnitude <= CSVImportOptions.maximumTimeSeconds else {
            throw invalid("time \(sample.time) s in sample \(samplesWritten + 1) is beyond ±\(CSVImportOptions.maximumTimeText), which the reader refuses")
        }
        guard sample.time >= previousTime else {
            throw invalid("time goes backwards: \(sample.time) s after \(previousTime) s (sample \(samplesWritten + 1))")
        }
        let limit = Self.maximumAcceleration
        guard sample.x.magnitude <= limit, sample.y.magnitude <= limit, sample.z.magnitude <= limit else {
            throw invalid("acceleration beyond ±\(limit) m/s² in sample \(samplesWritten + 1): \(sample)")
        }
        if isLabelled != (isShake != nil) {
            throw invalid(isLabelled
                ? "the recording is labelled: sample \(samplesWritten + 1) needs isShake"
                : "the recording is not labelled: pass isShake only to a writer created with labelled: true")
        }
        // Format the row on the stack, then append it to the buffer in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * DecimalFormatter.maximumBytes + 8) { row in
            let start = row.baseAddress!
            var p = DecimalFormatter.write(sample.time, decimals: 6, to: start)
            p.pointee = UInt8(ascii: ",")
            p = DecimalFormatter.write(sample.x, decimals: 5, to: p + 1)
            p.pointee = UInt8(ascii: ",")
            p = DecimalFormatter.write(sample.y, decimals: 5, to: p + 1)
            p.pointee = UInt8(ascii: ",")
            p = DecimalFormatter.write(sample.z, decimals: 5, to: p + 1)
            if let isShake {
                p[0] = UInt8(ascii: ",")
                p[1] = isShake ? UInt8(ascii: "1") : UInt8(ascii: "0")
                p += 2
            }
            p.pointee = UInt8(ascii: "\n")
            p += 1
            buffer.append(contentsOf: UnsafeBufferPointer(start: start, count: p - start))
        }
        previousTime = sample.time
        samplesWritten += 1
        if buffer.count >= Self.bufferBytes { try writeOut(fd) }
    }

    /// Appends one labelled (or unlabelled) row; see `write(_:isShake:)`.
    public func write(_ row: LabeledSample) throws(RecordingError) {
        try write(row.sample, isShake: row.isShake)
    }

    /// Hands every buffered row to the kernel. The partial file is then a valid recording.
    ///
    /// - Throws: `RecordingError` naming the partial file when the write fails (e.g. disk full).
    public func flush() throws(RecordingError) {
        guard case .open(let fd) = state else { throw notOpen() }
        try writeOut(fd)
    }

    /// Flushes, syncs to disk and moves the recording to `path`. The writer is then closed.
    ///
    /// - Throws: `RecordingError` naming the file when a write, `fsync` or the move fails; the
    ///   partial file is then kept (with every flushed row) and its path is in the message.
    public func finish() throws(RecordingError) {
        guard case .open(let fd) = state else { throw notOpen() }
        try writeOut(fd)
        let partial = partialPath
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            state = .failed
            throw RecordingError(path: partial, kind: .io, message: "fsync failed: \(errnoText(code)); the recording is kept in this file")
        }
        close(fd)
        state = .failed
        switch WholeFileWriter.place(partial, at: path, overwrite: overwrite) {
        case .placed:
            break
        case .exists:
            throw RecordingError(
                path: path, kind: .fileExists,
                message: "appeared while recording and is left alone; the recording is kept in '\(partial)'")
        case .failed(let code):
            throw RecordingError(path: path, kind: .io, message: "cannot move '\(partial)' here: \(errnoText(code)); the recording is kept in '\(partial)'")
        }
        state = .finished
        WholeFileWriter.syncFolder(WholeFileWriter.folder(of: path))
    }

    /// The error a writer for `path` meets when `<path>.partial` is already there (another
    /// recording in progress, or one that stopped), or nil when it is not: for a tool that checks
    /// before it starts work that would end in that error.
    public static func leftoverPartialError(for path: String) -> RecordingError? {
        access(path + partialSuffix, F_OK) == 0 ? leftoverPartial(of: path) : nil
    }

    private static func leftoverPartial(of path: String) -> RecordingError {
        RecordingError(
            path: path + ".partial", kind: .fileExists,
            message: "already exists: another recording to '\(path)' is in progress, or an earlier one stopped; move it away or delete it")
    }

    /// Abandons the recording: closes and deletes `<path>.partial`. `path` is not touched.
    public func discard() {
        if case .open(let fd) = state {
            close(fd)
            unlink(partialPath)
        } else if case .failed = state {
            unlink(partialPath)
        }
        state = .discarded
        buffer.removeAll()
    }

    /// Writes `samples` to a new recording at `path` in one go (see the type for the guarantees).
    public static func write(
        samples: [LabeledSample], to path: String, metadata: [(key: String, value: String)] = [],
        overwrite: Bool = false
    ) throws(RecordingError) {
        let labelled = samples.first?.isShake != nil
        let writer = try RecordingWriter(path: path, metadata: metadata, labelled: labelled, overwrite: overwrite)
        do {
            for row in samples { try writer.write(row) }
        } catch {
            writer.discard()
            throw error
        }
        try writer.finish()
    }

    /// Writes unlabelled `samples` to a new recording at `path` in one go.
    public static func write(
        samples: [Sample], to path: String, metadata: [(key: String, value: String)] = [],
        overwrite: Bool = false
    ) throws(RecordingError) {
        try write(samples: samples.map { LabeledSample(sample: $0) }, to: path, metadata: metadata, overwrite: overwrite)
    }

    // MARK: Internals

    /// Why `# key: value` would not read back as this key and value (see `init`), naming the key
    /// in Swift string syntax so that spaces, tabs and line breaks show; nil when it would.
    static func metadataProblem(key: String, value: String) -> String? {
        // Scalars, not characters: the reader trims bytes, and a space followed by a combining
        // mark is one character that does not equal " " but still starts with a space byte.
        func isSpaceOrTab(_ c: Unicode.Scalar?) -> Bool { c == " " || c == "\t" }
        /// In Swift string syntax, cut after 40 characters when longer than 60.
        func shown(_ text: String) -> String {
            text.count <= 60 ? text.debugDescription : String(text.prefix(40)).debugDescription + "…"
        }
        let named = "key \(shown(key))"
        if key.unicodeScalars.allSatisfy({ isSpaceOrTab($0) }) { return "\(named): a key must not be empty or only spaces and tabs" }
        if isSpaceOrTab(key.unicodeScalars.first) || isSpaceOrTab(key.unicodeScalars.last) { return "\(named): a key must not start or end with a space or tab" }
        if key.contains(":") { return "\(named): a key must not contain ':'" }
        if key.contains(where: \.isNewline) { return "\(named): a key must not contain a line break" }
        if key.contains("\0") { return "\(named): a key must not contain a NUL character" }
        let ofKey = "value \(shown(value)) of \(named)"
        if isSpaceOrTab(value.unicodeScalars.first) || isSpaceOrTab(value.unicodeScalars.last) { return "\(ofKey): a value must not start or end with a space or tab" }
        if value.contains(where: \.isNewline) { return "\(ofKey): a value must not contain a line break" }
        if value.contains("\0") { return "\(ofKey): a value must not contain a NUL character" }
        let lineBytes = 4 + key.utf8.count + value.utf8.count  // "# key: value"
        let limit = CSVImportOptions.canonical.maximumLineBytes
        if lineBytes > limit {
            return "\(named): the line would be \(lineBytes) bytes, beyond the reader's limit of \(CSVLineSource.sizeText(limit))"
        }
        // The reader takes `# units:` as the unit of the axis columns; the rows are in m/s².
        if key.lowercased() == "units", let unit = CSVImportOptions.AccelerationUnit(argument: value),
           unit != .metersPerSecondSquared {
            return "\(ofKey): the rows are written in m/s², and the reader would take them to be in \(unit.rawValue) "
                + "(write \"m/s^2\", or leave the line out)"
        }
        return nil
    }

    private func writeOut(_ fd: CInt) throws(RecordingError) {
        do {
            try writeBuffer(fd)
        } catch {
            close(fd)
            state = .failed
            throw error
        }
    }

    /// Writes the buffer with `write(2)`; on failure truncates the file back to its last whole line.
    private func writeBuffer(_ fd: CInt) throws(RecordingError) {
        if buffer.isEmpty { return }
        let failure: CInt? = buffer.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
        if let code = failure {
            // Drop any part of the buffer that made it to the file, so it ends with a whole line.
            let end = lseek(fd, 0, SEEK_CUR)
            let committed = committedBytes
            if end > committed { _ = ftruncate(fd, committed) }
            buffer.removeAll()
            let what = code == ENOSPC ? "disk full" : "write failed"
            throw RecordingError(
                path: partialPath, kind: .io,
                message: "\(what) (\(errnoText(code))); the rows flushed before are kept in this file")
        }
        committedBytes += off_t(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private var committedBytes: off_t = 0

    private func notOpen() -> RecordingError {
        let why = switch state {
        case .finished: "finished"
        case .discarded: "discarded"
        default: "failed after an earlier error"
        }
        return RecordingError(path: path, kind: .invalidArgument, message: "the writer is \(why); start a new one")
    }

    private func invalid(_ message: String) -> RecordingError {
        RecordingError(path: path, kind: .invalidArgument, message: message)
    }
}

extension RecordingWriter {
    /// The partial file's descriptor while the writer is open, for fault-injection tests only.
    package var fileDescriptorForTesting: CInt? {
        if case .open(let fd) = state { fd } else { nil }
    }
}
