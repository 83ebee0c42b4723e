import Foundation

/// The `shake` executable built next to the test bundle (for tests that must run it in another
/// process: as another user, or in a private mount namespace).
func builtShakeExecutable() -> String? {
    var candidates: [String] = []
    if let folder = Bundle.main.executableURL?.deletingLastPathComponent() {
        candidates.append(folder.appendingPathComponent("shake").path)
        candidates.append(folder.deletingLastPathComponent().appendingPathComponent("shake").path)
    }
    candidates.append(repositoryRoot + "/.build/debug/shake")
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `executable` with `arguments`, its standard input read from the file `input` (or
/// inherited); returns its exit status, stdout and stderr.
func runProcess(_ executable: String, _ arguments: [String], input: String? = nil) throws -> CLIRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting so a full pipe cannot block the child.
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CLIRun(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                  err: String(decoding: errData, as: UTF8.self))
}

/// Whether this process runs as root (file permissions do not stop root from reading).
let runningAsRoot = getuid() == 0

/// True when `SHAKEKIT_SKIP_ROOT=1`: tests that need root are skipped (reported as skipped)
/// instead of failing when the tests do not run as root.
let skipRootTestsRequested = ProcessInfo.processInfo.environment["SHAKEKIT_SKIP_ROOT"] == "1"

/// The names in `folder`, sorted.
func listing(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}
