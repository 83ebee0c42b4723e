import Foundation
import Testing

/// What every emulator suite needs per test: a folder of its own holding the fixture (removed
/// when the test ends) and a way to run a shell script inside the emulator. The suites are final
/// subclasses; Swift Testing makes one instance per test through the inherited `init()`.
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
}
