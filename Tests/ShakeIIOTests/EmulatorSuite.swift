import Foundation
import Testing

/// What every emulator suite needs per test: a folder of its own holding the fixture (removed
/// when the test ends) and ways to run a shell script, or a test of this binary, inside the
/// emulator. The suites are final subclasses; Swift Testing makes one instance per test through
/// the inherited `init()`.
class EmulatorSuite {
    let directory: URL
    let fixture: Fixture

    init() throws {
        directory = try Emulator.temporaryDirectory()
        // Inside the emulator, `shake` may run as `nobody`: let it into the folder.
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        fixture = try Fixture(in: directory)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A file in the test's folder.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `script` with `sh -c` inside the emulator started with `options`; `$SHAKE` (the built
    /// tool) and `$DIR` (the test's folder) are set.
    func run(_ options: [String], _ script: String) throws -> Emulator.Result {
        let shake = try Emulator.shake
        return try Emulator.run(fixture: fixture.path, options: options,
                                command: ["env", "SHAKE=\(shake)", "DIR=\(directory.path)", "sh", "-c", script])
    }

    /// Runs the test `<suite>/<test>()` of this test binary inside the emulator playing
    /// `recording` with `options`, and expects it to be found, run and passed. `user`: a command
    /// that runs the rest as another user (`setpriv …`); `environment`: more `NAME=value`
    /// settings for the test's process; `niceness`: see ``Emulator/run(fixture:options:command:timeout:niceness:)``.
    func runTestInside(_ suite: String, _ test: String, recording: String, options: [String], user: [String] = [],
                       environment: [String] = [], niceness: Int = 0, sourceLocation: SourceLocation) throws {
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let result = try Emulator.run(
            fixture: recording, options: options,
            command: user + ["env", "\(InsideEmulator.variable)=1", "HOME=\(directory.path)", "TMPDIR=\(directory.path)"]
                + environment + [binary, "--testing-library", "swift-testing", "--filter", "\(suite)/\(test)\\("],
            niceness: niceness)
        let output = result.stdout + result.stderr
        #expect(result.status == 0, "\(output)", sourceLocation: sourceLocation)
        #expect(output.contains("Test run with 1 test "), "the test was not found or not run: \(output)",
                sourceLocation: sourceLocation)
        // A test skipped inside (its suite's `.enabled(if:)` false there) is counted in that
        // line and passes too: it must have started.
        let started = output.split(separator: "\n").contains { $0.contains("Test \(test)(") && $0.hasSuffix(" started.") }
        #expect(started, "the test did not start inside the emulator (skipped?): \(output)", sourceLocation: sourceLocation)
    }
}
