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
        if pending.utf8.count >= 64 * 1024 { try flush() }
    }

    func flush() throws {
        guard !pending.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(pending.utf8))
        } catch {
            throw CommandFailure("\(path): cannot write \(temporaryPath): \(error.localizedDescription)",
                                 exitStatus: ExitStatus.cannotCreate)
        }
        pending = ""
    }

    /// Flushes, syncs and renames the temporary file to `path`.
    func finish() throws {
        guard !finished else { return }
        finished = true
        try flush()
        try? handle.synchronize()
        try? handle.close()
        guard rename(temporaryPath, path) == 0 else {
            throw CommandFailure("\(path): cannot rename \(temporaryPath) to it: \(String(cString: strerror(errno)))",
                                 exitStatus: ExitStatus.cannotCreate)
        }
    }
}
