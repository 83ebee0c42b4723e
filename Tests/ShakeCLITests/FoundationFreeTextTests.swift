import Foundation
import ShakeDetection
import ShakeRecording
import Testing
@testable import ShakeCLI

/// The tool no longer links Foundation (whose ICU data made a static `shake` 79 MB): what it
/// took from Foundation is now its own or the stdlib's, and gives what Foundation gave. Each test
/// compares with the Foundation call it replaces (the tests may import Foundation: they are not
/// shipped).
@Suite struct FoundationFreeTextTests {
    /// `config --diff` and `tune --range` read a preset's values as JSONSerialization did.
    @Test(arguments: ["light", "medium", "hard"])
    func presetValuesMatchJSONSerialization(preset: String) throws {
        let configuration = try #require(ShakeConfiguration.preset(named: preset))
        let object = try #require(
            JSONSerialization.jsonObject(with: ConfigurationFile.encode(configuration)) as? [String: Any])
        let expected = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        #expect(expected.count == object.count)
        #expect(ConfigCommand.values(configuration) == expected)
    }

    /// `config --diff` prints a value of 16 or 17 digits (as `tune` writes 7 × 0.35) as the file
    /// and `shake config` give it: JSONSerialization read 2.4499999999999997 back as
    /// 2.4499999999999993, and the diff printed that.
    @Test func diffPrintsLongValuesAsConfigDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write("tuned.json", """
            {"onsetAcceleration": 7, "releaseAcceleration": 2.4499999999999997, "quietSeconds": 0.30000000000000004}
            """)
        let printed = runShake("config", "--config", file)
        #expect(printed.out.contains("\"releaseAcceleration\" : 2.4499999999999997,"))
        #expect(printed.out.contains("\"quietSeconds\" : 0.30000000000000004,"))
        let diff = runShake("config", "--config", file, "--diff", "medium")
        #expect(diff.status == 0)
        let lines = diff.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("releaseAcceleration 2.4499999999999997 m/s² (medium: 5 m/s²)"), "\(diff.out)")
        #expect(lines.contains("quietSeconds 0.30000000000000004 s (medium: 0.4 s)"), "\(diff.out)")
    }
}
