#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a file (read in chunks with `read(2)`) or a byte array into lines, in constant memory.
///
/// Owns one buffer of `maximumLineBytes + chunkBytes` bytes and, for files, the file descriptor;
/// both are released in `deinit`. A line handed out stays valid until the next call to `nextLine()`.
final class CSVLineSource {
    /// Where the bytes come from.
    private enum Input {
        case file(CInt)
        case bytes([UInt8], offset: Int)
        /// Part of a file opened by another source (`init(rangeOf:…)`), read with `pread(2)` from
        /// `offset` up to `end` (nil: to the end of the file); the descriptor is not closed here.
        case range(CInt, offset: Int, end: Int?)
        case closed
    }

    /// One line: `[start, end)` without the `\n` (a trailing `\r` is kept; the caller strips it).
    struct Line {
        var start: UnsafePointer<UInt8>
        var end: UnsafePointer<UInt8>
        /// 1-based physical line number.
        var number: Int
        /// False for a last line that ends the file without `\n`.
        var hasNewline: Bool
    }

    /// Bytes read per `read(2)` call: 256 KiB.
    static let chunkBytes = 256 << 10

    let path: String
    private var input: Input
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private let maximumLineBytes: Int
    /// Valid unconsumed bytes are `buffer[low ..< high]`.
    private var low = 0
    private var high = 0
    /// `buffer[low ..< scanned]` is known to hold no `\n`.
    private var scanned = 0
    private var atEnd = false
    private(set) var lineNumber = 0
    /// Set once a chunk read holds a NUL byte; until then lines need not be searched for one.
    private(set) var mayContainNul = false
    /// True once the first chunk has been read and a byte-order mark checked and skipped.
    private var started = false
    /// Bytes of the input before `buffer[0]` (moved out by `refill`).
    private var bytesBeforeBuffer = 0
    /// The source whose file descriptor a range source reads (kept open while this one lives).
    private let fileOwner: CSVLineSource?

    /// The path that stands for standard input, as command-line tools take it.
    static let standardInputPath = "-"

    /// Opens `path` for reading; `-` reads standard input (a duplicate of it, closed when done).
    ///
    /// - Throws: `RecordingError` naming the path when it cannot be opened, is a directory, or
    ///   starts with a UTF-16/UTF-32 byte-order mark.
    init(path: String, maximumLineBytes: Int) throws(RecordingError) {
        self.path = path
        guard maximumLineBytes <= CSVImportOptions.largestMaximumLineBytes else {
            throw RecordingError(path: path, kind: .invalidArgument,
                                 message: "maximumLineBytes \(maximumLineBytes) is beyond 1 GiB, the most a line buffer takes")
        }
        self.maximumLineBytes = max(64, maximumLineBytes)
        var fd: CInt
        repeat {
            fd = path == Self.standardInputPath ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : open(path, O_RDONLY | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        if fd < 0 {
            throw RecordingError(path: path, kind: .io, message: "cannot open for reading: \(errnoText(errno))")
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw RecordingError(path: path, kind: .isDirectory, message: "is a directory, not a recording file")
        }
        input = .file(fd)
        fileOwner = nil
        capacity = self.maximumLineBytes + Self.chunkBytes
        buffer = Self.allocateBuffer(capacity)
        readableEnd = UnsafePointer(buffer + capacity + Self.slackBytes)
    }

    /// Reads lines from bytes in memory; `name` stands for the path in errors.
    init(bytes: [UInt8], name: String, maximumLineBytes: Int) {
        self.path = name
        self.maximumLineBytes = max(64, maximumLineBytes)
        input = .bytes(bytes, offset: 0)
        fileOwner = nil
        // The bytes cannot grow, so a small input needs only a small buffer.
        capacity = min(self.maximumLineBytes + Self.chunkBytes, bytes.count + 1)
        buffer = Self.allocateBuffer(capacity)
        readableEnd = UnsafePointer(buffer + capacity + Self.slackBytes)
    }

    /// Reads the bytes `[start, end)` of the file `owner` has open (`end` nil: to the end of the
    /// file, however long it has grown), numbering lines from `lineNumber` + 1: a part of a
    /// recording that starts after a line end, parsed on its own (`RecordingReadAhead`). No
    /// byte-order mark is looked for. Owner must be reading a file (`fileDescriptor` not nil).
    init(rangeOf owner: CSVLineSource, from start: Int, to end: Int?, lineNumber: Int) {
        path = owner.path
        maximumLineBytes = owner.maximumLineBytes
        input = .range(owner.fileDescriptor ?? -1, offset: start, end: end)
        fileOwner = owner
        self.lineNumber = lineNumber
        started = true
        bytesBeforeBuffer = start
        capacity = maximumLineBytes + Self.chunkBytes
        buffer = Self.allocateBuffer(capacity)
        readableEnd = UnsafePointer(buffer + capacity + Self.slackBytes)
    }

    /// The open file's descriptor; nil for bytes in memory, a range, or once the end was read.
    var fileDescriptor: CInt? {
        if case .file(let fd) = input { return fd }
        return nil
    }

    /// Offset in the input of the first byte not yet handed out (the start of the next line).
    var consumedOffset: Int { bytesBeforeBuffer + low }

    /// Bytes after `capacity` that may be read (never written) by word loads: zeros. 128: a
    /// number starting anywhere up to the end of the bytes read can be tried by
    /// `DecimalParser.parsePlain` (`plainReadBytes`) without a bounds test, and so can a
    /// canonical row, whose fields are tested against the end of the bytes read only by the
    /// row's line end (`CSVRecordParser.field`: at most 75 bytes past that end are read).
    static let slackBytes = 128

    private static func allocateBuffer(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        // Only the slack is initialised: untouched pages of a large buffer are never faulted in,
        // and bytes beyond the data that 8-byte loads see are masked off.
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity + slackBytes)
        (buffer + capacity).initialize(repeating: 0, count: slackBytes)
        return buffer
    }

    /// End of the memory that may be read: any line's bytes and at least `slackBytes` more
    /// can be loaded at once (beyond the line they are unrelated bytes, which callers mask off).
    let readableEnd: UnsafePointer<UInt8>

    deinit {
        if case .file(let fd) = input { close(fd) }
        buffer.deallocate()
    }

    /// The next line, or nil at the end of the input.
    ///
    /// - Throws: `RecordingError` on a read error or a line longer than `maximumLineBytes`.
    @inline(always)
    func nextLine() throws(RecordingError) -> Line? {
        while true {
            let pending = high &- scanned
            if pending > 0, let found = memchr(buffer + scanned, 0x0A, pending) {
                let newline = found.assumingMemoryBound(to: UInt8.self)
                let start = buffer + low
                let length = newline - UnsafeMutablePointer(start)
                lineNumber &+= 1
                if length > maximumLineBytes { throw lineTooLong() }
                low = low &+ length &+ 1
                scanned = low
                return Line(start: UnsafePointer(start), end: UnsafePointer(newline), number: lineNumber, hasNewline: true)
            }
            scanned = high
            if atEnd {
                if low == high { return nil }
                lineNumber &+= 1
                if high - low > maximumLineBytes { throw lineTooLong() }
                let line = Line(
                    start: UnsafePointer(buffer + low), end: UnsafePointer(buffer + high),
                    number: lineNumber, hasNewline: false)
                low = high
                scanned = high
                return line
            }
            if high - low > maximumLineBytes {
                lineNumber &+= 1
                throw lineTooLong()
            }
            try refill()
        }
    }

    /// The bytes read but not yet handed out, `[start, end)`: the next line(s), possibly partial.
    var unconsumed: (start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        @inline(always) get { (UnsafePointer(buffer + low), UnsafePointer(buffer + high)) }
    }

    /// Hands out the line that ends with the `\n` at `newline`, found by the caller in
    /// `unconsumed`, and returns its line number.
    @inline(always)
    func takeLine(endingAt newline: UnsafePointer<UInt8>) -> Int {
        low = newline - UnsafePointer(buffer) + 1
        scanned = low
        lineNumber &+= 1
        return lineNumber
    }

    /// Hands out the `count` lines that end with the `\n` at `newline`, found by the caller in
    /// `unconsumed`.
    @inline(always)
    func takeLines(endingAt newline: UnsafePointer<UInt8>, count: Int) {
        low = newline - UnsafePointer(buffer) + 1
        scanned = low
        lineNumber &+= count
    }

    /// The error for the line starting at `buffer[low]`, which holds more than `maximumLineBytes`
    /// bytes; its column is the first character beyond the limit.
    private func lineTooLong() -> RecordingError {
        let start = UnsafePointer(buffer + low)
        return RecordingError(
            path: path, line: lineNumber, column: characterColumn(start, start + maximumLineBytes), kind: .lineTooLong,
            message: "line is longer than the limit of \(Self.sizeText(maximumLineBytes)): not a recording, or a line end is missing")
    }

    /// `1 MiB (1048576 bytes)`, `64 KiB (65536 bytes)`, `1000 bytes`.
    static func sizeText(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB (\(bytes) bytes)" }
        if bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB (\(bytes) bytes)" }
        return "\(bytes) bytes"
    }

    /// Moves the unconsumed bytes to the front and reads one more chunk.
    private func refill() throws(RecordingError) {
        if low > 0 {
            let count = high - low
            if count > 0 { memmove(buffer, buffer + low, count) }
            bytesBeforeBuffer += low
            scanned -= low
            high = count
            low = 0
        }
        let room = min(Self.chunkBytes, capacity - high)
        var got = 0
        switch input {
        case .file(let fd):
            var n: Int
            repeat {
                n = read(fd, buffer + high, room)
            } while n < 0 && errno == EINTR
            if n < 0 {
                let code = errno
                if code == EISDIR {
                    throw RecordingError(path: path, kind: .isDirectory, message: "is a directory, not a recording file")
                }
                throw RecordingError(path: path, line: lineNumber + 1, kind: .io, message: "read failed: \(errnoText(code))")
            }
            got = n
        case .bytes(let bytes, let offset):
            got = min(room, bytes.count - offset)
            if got > 0 {
                bytes.withUnsafeBufferPointer { source in
                    (buffer + high).update(from: source.baseAddress! + offset, count: got)
                }
            }
            input = .bytes(bytes, offset: offset + got)
        case .range(let fd, let offset, let end):
            let wanted = end.map { min(room, $0 - offset) } ?? room
            var n = 0
            if wanted > 0 {
                repeat {
                    n = pread(fd, buffer + high, wanted, off_t(offset))
                } while n < 0 && errno == EINTR
            }
            if n < 0 {
                throw RecordingError(path: path, line: lineNumber + 1, kind: .io, message: "read failed: \(errnoText(errno))")
            }
            got = n
            input = .range(fd, offset: offset + n, end: end)
        case .closed:
            got = 0
        }
        if got == 0 {
            atEnd = true
            if case .file(let fd) = input { close(fd) }
            input = .closed
        }
        if got > 0, memchr(buffer + high, 0, got) != nil { mayContainNul = true }
        high += got
        if !started {
            started = true
            try checkEncodingMark()
        }
    }

    /// Skips a UTF-8 byte-order mark; rejects UTF-16 and UTF-32 ones.
    ///
    /// UTF-32 is tested first: its little-endian mark (`FF FE 00 00`) starts with the UTF-16
    /// little-endian one (`FF FE`).
    private func checkEncodingMark() throws(RecordingError) {
        let count = high - low
        let b = buffer + low
        if count >= 4, (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) || (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) {
            throw RecordingError(
                path: path, line: 1, column: 1, kind: .encoding,
                message: "UTF-32 is not supported, convert the file to UTF-8 (e.g. iconv -f UTF-32 -t UTF-8)")
        }
        if count >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) {
            throw RecordingError(
                path: path, line: 1, column: 1, kind: .encoding,
                message: "UTF-16 is not supported, convert the file to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)")
        }
        if let compressed = Self.compressedFormat(b, count: count) {
            throw RecordingError(path: path, line: 1, column: 1, kind: .encoding, message: compressed)
        }
        if count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF {
            low += 3
            scanned = low
        }
    }
}

extension CSVLineSource {
    /// What to say when the input starts with the magic number of a compressed file or an
    /// archive (gzip, bzip2, xz, Zstandard, zip): such a file is not text, and without this it
    /// would be refused for whatever its bytes happen to hold first (a NUL, a carriage return).
    /// Each magic number holds a byte a UTF-8 text header cannot hold (a control character or an
    /// invalid UTF-8 byte), or (bzip2, whose "BZh9" is text) is checked with the first block's own
    /// magic number. Nil for anything else.
    static func compressedFormat(_ b: UnsafePointer<UInt8>, count: Int) -> String? {
        func holds(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            count >= offset + magic.count && magic.indices.allSatisfy { b[offset + $0] == magic[$0] }
        }
        let (what, how): (String, String)
        if holds([0x1F, 0x8B]) {
            (what, how) = ("gzip-compressed data", "decompress it first (e.g. gzip -dc FILE > OUT.csv)")
        } else if holds([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            (what, how) = ("xz-compressed data", "decompress it first (e.g. xz -dc FILE > OUT.csv)")
        } else if holds([0x28, 0xB5, 0x2F, 0xFD]) {
            (what, how) = ("Zstandard-compressed data", "decompress it first (e.g. zstd -dc FILE > OUT.csv)")
        } else if holds(Array("BZh".utf8)), holds([0x31, 0x41, 0x59, 0x26, 0x53, 0x59], at: 4),
                  (0x31...0x39).contains(b[3]) {  // "BZh1" to "BZh9", then the first block's magic
            (what, how) = ("bzip2-compressed data", "decompress it first (e.g. bzip2 -dc FILE > OUT.csv)")
        } else if holds(Array("PK".utf8) + [0x03, 0x04]) || holds(Array("PK".utf8) + [0x05, 0x06]) {  // an empty zip: 05 06
            // The first entry's name follows its 30-byte local header (length at offset 26):
            // phyphox's and Sensor Logger's CSV exports are zip archives of CSV files.
            var first: String?
            if holds(Array("PK".utf8) + [0x03, 0x04]), count >= 30 {
                let length = Int(b[26]) | Int(b[27]) << 8
                if length > 0, length <= 200, count >= 30 + length {
                    first = String(decoding: UnsafeBufferPointer(start: b + 30, count: length), as: UTF8.self)
                }
            }
            if let first, first.lowercased().hasSuffix(".csv"), !first.contains("'"), !first.contains("\\") {
                (what, how) = ("a zip archive (as phyphox and Sensor Logger export CSV files), its first file '\(first)'",
                               "extract the CSV from it (e.g. unzip -p FILE '\(first)' > OUT.csv)")
            } else {
                (what, how) = ("a zip archive (an .xlsx or .ods workbook is one)",
                               "extract the CSV from it, or export the sheet as CSV")
            }
        } else {
            return nil
        }
        return "\(what), not a text CSV file: \(how)"
    }
}

/// `strerror` text for an errno value, e.g. "No such file or directory (errno 2)".
func errnoText(_ code: CInt) -> String {
    if let text = strerror(code) { return "\(String(cString: text)) (errno \(code))" }
    return "errno \(code)"
}
