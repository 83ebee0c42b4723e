import Foundation
import Testing
import ShakeDetection
import ShakeRecording
import ShakeCLI

@Suite struct ConfigCommandTests {
    @Test(arguments: ShakeConfiguration.presetNames)
    func presetJSONLoadsBackAsThatPreset(name: String) throws {
        let run = runShake("config", "--preset", name)
        #expect(run.status == 0, "\(run.err)")
        let loaded = try ConfigurationFile.decode(Data(run.out.utf8), path: "stdout")
        #expect(loaded == ShakeConfiguration.preset(named: name))
    }

    @Test func writesNewFileButKeepsAnExistingOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("hard.json")
        #expect(runShake("config", "--preset", "hard", "-o", path).status == 0)
        #expect(try ConfigurationFile.load(path: path) == .hard)

        let again = runShake("config", "--preset", "light", "-o", path)
        #expect(again.status == 73)
        #expect(again.err.contains("\(path): already exists"))
        #expect(try ConfigurationFile.load(path: path) == .hard, "the existing file is untouched")

        #expect(runShake("config", "--preset", "light", "-o", path, "--force").status == 0)
        #expect(try ConfigurationFile.load(path: path) == .light)
    }

    @Test(arguments: [
        ("{ \"oops\": ", ":1:11: not valid JSON"),
        ("[1, 2]", ": wrong type at the top level"),
    ])
    func badConfigurationFileIsNamed(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("bad.json", text)
        let run = runShake("config", "--config", path)
        #expect(run.status == 65)
        #expect(run.err.hasPrefix("Error: \(path)\(message)"), "\(run.err)")
    }

    /// The help says each key's unit truly: every key printed ends in Seconds or Acceleration
    /// (their units, as the help says), or is named by the help among the counts, cosines and
    /// ratios; no key is in hertz.
    @Test func helpSaysEveryKeysUnit() throws {
        let help = runShake("config", "--help").out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("keys ending in Seconds are in seconds, keys ending in Acceleration in m/s²"), "\(help)")
        #expect(!help.contains("hertz"))
        let printed = runShake("config").out
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]).keys
        #expect(keys.count > 10)
        for key in keys where !key.hasSuffix("Seconds") && !key.hasSuffix("Acceleration") {
            #expect(help.contains(key), "\(key) has no unit in the help")
        }
    }

    @Test func missingConfigurationFileIsNamed() {
        let run = runShake("replay", "--config", "/nonexistent/c.json", "x.csv")
        #expect(run.status == 66)
        #expect(run.err == "Error: /nonexistent/c.json: no such file\n")
    }
}
