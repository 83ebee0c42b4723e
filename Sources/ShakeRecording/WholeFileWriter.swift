#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a small file whole or not at all, for `ConfigurationFile.save` and `PlotFile.write`.
///
/// The bytes go to a new temporary file beside `path` (`<path>.tmp-<pid>-<n>`), are `fsync`ed,
/// and the file is then moved into place: with `rename` when replacing is allowed, with a hard
/// link when it is not, so a file that appears at `path` meanwhile is never replaced either (on
/// file systems without hard links: a check, then `rename`). On any failure the temporary file
/// is removed and `path` is as it was. Failures are described with the system's own words
/// (`strerror`) and, for a missing folder, the folder's name.
enum WholeFileWriter {
    /// Why a file was not written.
    enum Failure: Error, Equatable {
        /// `path` exists and replacing it was not allowed.
        case exists
        /// `path` is a directory.
        case isDirectory
        /// Anything else, as a phrase: "cannot be written: No space left on device (errno 28)".
        case failed(String)

        /// The phrase that follows the path in an error message.
        var message: String {
            switch self {
            case .exists: "already exists (pass overwrite: true to replace it)"
            case .isDirectory: "is a directory; give a file name"
            case .failed(let text): text
            }
        }
    }

    /// Writes `bytes` to `path`; see the type for the guarantees.
    static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(Failure) {
        if let problem = RecordingWriter.destinationProblem(path) { throw .failed(problem) }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .isDirectory }
            if !overwrite { throw .exists }
        }
        let folder = Self.folder(of: path)
        var folderInfo = stat()
        if stat(folder, &folderInfo) != 0 {
            let code = errno
            throw .failed(code == ENOENT
                ? "cannot be written: the folder '\(folder)' does not exist"
                : "cannot be written: the folder '\(folder)': \(errnoText(code))")
        }
        if folderInfo.st_mode & S_IFMT != S_IFDIR {
            throw .failed("cannot be written: '\(folder)' is not a folder")
        }

        let (fd, temporary) = try createTemporary(beside: path)
        var written = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = "cannot be written: \(errnoText(errno))"
                    return
                }
                written += n
            }
        }
        if failure == nil, fsync(fd) != 0 {
            failure = "cannot be written: \(errnoText(errno))"
        }
        if close(fd) != 0, failure == nil {
            failure = "cannot be written: \(errnoText(errno))"
        }
        if let failure {
            unlink(temporary)
            throw .failed(failure)
        }
        try moveIntoPlace(temporary, path, overwrite: overwrite)
        syncFolder(folder)
    }

    /// The folder `path` is in ("." for a bare file name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// A new, empty file beside `path`, opened for writing, with the mode a new file gets
    /// (0666 less the umask).
    private static func createTemporary(beside path: String) throws(Failure) -> (CInt, String) {
        for attempt in 0..<100 {
            let temporary = "\(path).tmp-\(getpid())-\(attempt)"
            var fd: CInt
            repeat {
                fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            } while fd < 0 && errno == EINTR
            if fd >= 0 { return (fd, temporary) }
            let code = errno
            if code != EEXIST { throw .failed("cannot be written: \(errnoText(code))") }
        }
        throw .failed("cannot be written: no free temporary name beside it ('\(path).tmp-\(getpid())-N' all exist)")
    }

    /// How `place(_:at:overwrite:)` ended.
    enum Placement: Equatable {
        case placed
        /// `path` exists (or appeared) and replacing was not allowed.
        case exists
        /// `rename` failed with this errno.
        case failed(CInt)
    }

    /// Moves the finished file `from` to `path`: with `rename` when replacing is allowed, else
    /// with a hard link (so a file at `path`, even one that appeared meanwhile, is never
    /// replaced) and, on file systems without hard links, a check then `rename` (not atomic
    /// against a racing creator). `from` is gone only when the result is `.placed`. Used by
    /// this type and by `RecordingWriter.finish()`.
    static func place(_ from: String, at path: String, overwrite: Bool) -> Placement {
        if !overwrite {
            if link(from, path) == 0 {
                unlink(from)
                return .placed
            }
            if errno == EEXIST { return .exists }
            var info = stat()
            if stat(path, &info) == 0 { return .exists }
        }
        return rename(from, path) == 0 ? .placed : .failed(errno)
    }

    private static func moveIntoPlace(_ temporary: String, _ path: String, overwrite: Bool) throws(Failure) {
        switch place(temporary, at: path, overwrite: overwrite) {
        case .placed:
            return
        case .exists:
            unlink(temporary)
            throw .exists
        case .failed(let code):
            unlink(temporary)
            throw code == EISDIR ? .isDirectory : .failed("cannot be written: \(errnoText(code))")
        }
    }

    /// Makes a new name in `folder` durable (best effort: some file systems refuse `fsync` on a
    /// folder).
    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }
}

/// `write(2)`, under a name the enum's own `write` does not hide.
private func systemWrite(_ fd: CInt, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
