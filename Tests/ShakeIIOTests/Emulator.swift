import Foundation
import Testing

/// Runs commands inside `Scripts/iio-emulator` (root, a private mount + network namespace) and
/// finds the built `shake` binary. Tests needing it fail loudly when it cannot run, unless
/// `SHAKEKIT_SKIP_IIO=1` is set explicitly.
enum Emulator {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let script = repositoryRoot.appendingPathComponent("Scripts/iio-emulator").path

    /// True when `SHAKEKIT_SKIP_IIO=1`: the emulator tests are skipped (reported as skipped).
    static let skipRequested = ProcessInfo.processInfo.environment["SHAKEKIT_SKIP_IIO"] == "1"

    /// The `shake` executable built next to this test bundle.
    static var shake: String {
        get throws {
            var candidates: [URL] = []
            if let bundle = Bundle.main.executableURL?.deletingLastPathComponent() {
                candidates.append(bundle.appendingPathComponent("shake"))
            }
            candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("shake"))
            candidates.append(repositoryRoot.appendingPathComponent(".build/debug/shake"))
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
                throw EmulatorUnavailable(reason: "the 'shake' executable was not built (looked at "
                    + candidates.map(\.path).joined(separator: ", ") + "); run 'swift build' first")
            }
            return found.path
        }
    }

    struct EmulatorUnavailable: Error, CustomStringConvertible {
        var reason: String
        var description: String {
            "IIO emulator tests cannot run: \(reason). They need root, unshare (util-linux), ip "
                + "(iproute2), iiod and libiio-utils (Scripts/bootstrap). Set SHAKEKIT_SKIP_IIO=1 to skip them."
        }
    }

    /// Throws ``EmulatorUnavailable`` when not root or a tool is missing.
    static func checkAvailable() throws {
        guard geteuid() == 0 else { throw EmulatorUnavailable(reason: "not running as root") }
        for tool in ["unshare", "ip", "iiod", "python3"] {
            let found = ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
            guard found else { throw EmulatorUnavailable(reason: "'\(tool)' is not installed") }
        }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `Scripts/iio-emulator OPTIONS FIXTURE -- COMMAND`, killing it after `timeout` seconds.
    /// `niceness` below 0 runs it and everything inside (the feeder, `iiod`, the command) at that
    /// raised priority (`nice -n`; root may), as device software that times samples by their
    /// arrival runs its reader.
    static func run(fixture: String, options: [String], command: [String], timeout: Double = 90,
                    niceness: Int = 0) throws -> Result {
        try checkAvailable()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shakekit-emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outPath = directory.appendingPathComponent("stdout").path
        let errPath = directory.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        let arguments = (niceness == 0 ? [] : ["/usr/bin/nice", "-n", "\(niceness)"]) + [script] + options + [fixture, "--"] + command
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()  // the emulator forwards SIGTERM to everything in its namespace
            let grace = Date().addingTimeInterval(10)
            while process.isRunning && Date() < grace { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            Issue.record("emulator run timed out after \(timeout) s: \(command.joined(separator: " "))")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// A fresh temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shakekit-iio-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
