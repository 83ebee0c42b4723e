// TEMPORARY: a minimal canonical-CSV writer for `shake record` until ShakeRecording's
// RecordingWriter lands on main; then `shake record` switches to it and this file goes.
import Foundation
import ShakeDetection

/// Writes `# key: value` lines, the header `time_s,x,y,z` and one row per sample (time with 6
/// decimals, m/s² with 5) to a temporary file next to `path`, renamed to `path` by `finish()`;
/// the temporary file is a valid recording after every `flush()`.
final class CSVRecordingFile {
    let path: String
    let temporaryPath: String
    private let handle: FileHandle
    private var pending = ""
    private(set) var count = 0
    private var finished = false

    init(path: String, metadata: [(key: String, value: String)]) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure("\(path): is a directory", exitStatus: ExitStatus.cannotCreate)
        }
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())").path
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
            throw CommandFailure("\(path): cannot create \(temporaryPath): \(String(cString: strerror(errno)))",
                                 exitStatus: ExitStatus.cannotCreate)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        for (key, value) in metadata { pending += "# \(key): \(value)\n" }
        pending += "time_s,x,y,z\n"
        try flush()
    }

    func write(_ sample: Sample) throws {
        pending += String(format: "%.6f,%.5f,%.5f,%.5f\n", sample.time, sample.x, sample.y, sample.z)
        count += 1
        if pending.utf8.count >= 8 * 1024 { try flush() }
    }

    /// Bytes of the temporary file known to hold complete lines.
    private var committedBytes: UInt64 = 0
    private var failed = false

    func flush() throws {
        guard !pending.isEmpty, !failed else { return }
        let data = Data(pending.utf8)
        do {
            try handle.write(contentsOf: data)
        } catch {
            // Disk full or similar: keep as many complete lines as fit, so the file stays valid.
            failed = true
            try? handle.truncate(atOffset: committedBytes)
            var kept = 0
            for line in pending.split(separator: "\n") {
                let lineData = Data((line + "\n").utf8)
                do {
                    try handle.write(contentsOf: lineData)
                } catch {
                    try? handle.truncate(atOffset: committedBytes)
                    break
                }
                committedBytes += UInt64(lineData.count)
                kept += 1
            }
            let lost = pending.split(separator: "\n").count - kept
            pending = ""
            throw CommandFailure("\(path): cannot write: \(error.localizedDescription); the file keeps the "
                + "\(count - lost) samples written before", exitStatus: ExitStatus.cannotCreate)
        }
        committedBytes += UInt64(data.count)
        pending = ""
    }

    /// Flushes, syncs and renames the temporary file to `path` (also after a failed write, with
    /// the samples written until then).
    func finish() throws {
        guard !finished else { return }
        finished = true
        var flushError: (any Error)?
        do { try flush() } catch { flushError = error }
        try? handle.synchronize()
        try? handle.close()
        guard rename(temporaryPath, path) == 0 else {
            throw CommandFailure("\(path): cannot rename \(temporaryPath) to it: \(String(cString: strerror(errno)))",
                                 exitStatus: ExitStatus.cannotCreate)
        }
        if let flushError { throw flushError }
    }
}
