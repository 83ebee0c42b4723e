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
        let written = runShake("config", "--preset", "hard", "-o", path)
        #expect(written.status == 0)
        #expect(written.err == "config: wrote \(path)\n", "says where the file went, as plot does")
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

    /// `--diff` prints only the values that differ, in key order, with both values and units;
    /// against itself, that they are the same.
    @Test func diffShowsWhatDiffersWithUnits() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let tuned = try folder.write("tuned.json", "{\"onsetAcceleration\": 12, \"minimumHalfWaves\": 3, "
            + "\"linearityTimeConstantSeconds\": 0.35}")
        let run = runShake("config", "--config", tuned, "--diff", "medium")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == """
            The configuration in \(tuned) against the medium preset: 3 of 23 values differ.
              linearityTimeConstantSeconds  0.35 s     (medium: 0.5 s)
              minimumHalfWaves                 3       (medium: 4)
              onsetAcceleration               12 m/s²  (medium: 10 m/s²)

            """, "\(run.out)")
        let other = runShake("config", "--preset", "medium", "--diff", tuned)
        #expect(other.out.contains("  onsetAcceleration              10 m/s²  (\(tuned): 12 m/s²)\n"), "\(other.out)")
        let same = runShake("config", "--config", tuned, "--diff", tuned)
        #expect(same.out == "The configuration in \(tuned) and the configuration in \(tuned) are the same (all 23 values).\n")
    }

    @Test func diffRefusesWhatItCannotDo() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let bad = try folder.write("bad.json", "{\n  \"onsetAcceleration\": ,\n}")
        let malformed = runShake("config", "--diff", bad)
        #expect(malformed.status == 65)
        #expect(malformed.err.hasPrefix("Error: \(bad):2:24: "), "\(malformed.err)")
        let missing = runShake("config", "--diff", folder.file("none.json"))
        #expect(missing.status == 66)
        #expect(missing.err == "Error: \(folder.file("none.json")): no such file\n")
        // A bare name that is neither a file nor a preset: a preset's name mistyped, most likely.
        let typo = runShake("config", "--preset", "light", "--diff", "medum")
        #expect(typo.status == 66)
        #expect(typo.err == "Error: medum: no such file, nor a preset (light, medium, hard): did you mean 'medium'?\n", "\(typo.err)")
        // Two edits away (two letters swapped) is still a typo.
        let swapped = runShake("config", "--diff", "meduim")
        #expect(swapped.err == "Error: meduim: no such file, nor a preset (light, medium, hard): did you mean 'medium'?\n",
                "\(swapped.err)")
        // A name with an extension is a file's, never a preset's.
        let file = runShake("config", "--diff", "none-such.json")
        #expect(file.status == 66)
        #expect(file.err == "Error: none-such.json: no such file\n", "\(file.err)")
        let neither = runShake("config", "--diff", "factory")
        #expect(neither.status == 66)
        #expect(neither.err == "Error: factory: no such file, nor a preset (light, medium, hard)\n", "\(neither.err)")
        let writing = runShake("config", "--diff", "hard", "-o", folder.file("out.json"))
        #expect(writing.status == 64)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.json")))
    }
}
