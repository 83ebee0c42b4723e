import Foundation
import ShakeCLI
import ShakeDetection
import ShakeRecording
import Testing

/// `shake tune --range KEY=LOW..HIGH` searches only the values of KEY in the range;
/// `--range KEY=VALUE` holds KEY at VALUE. A range that cannot be searched is a usage error
/// that says why, before any recording is read, and nothing is written.
@Suite struct TuneRangeTests {
    @Test func rangesLimitWhatIsSearchedAndSayHow() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let output = folder.path + "/tuned.json"
        let ranges = ["--range", "onsetAcceleration=7..9.5", "--range", "minimumHalfWaves=5",
                      "--range", "releaseAcceleration/onsetAcceleration=0.5"]
        let json = CapturedRun(["tune", folder.path, "--format", "json", "-o", output] + ranges)
        #expect(json.status == 0, "\(json.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let searched = try #require(report["searched_values"] as? [String: [Double]])
        #expect(searched["onsetAcceleration"] == [7, 8, 9])
        #expect(searched["minimumHalfWaves"] == [5])
        #expect(searched["releaseAcceleration / onsetAcceleration"] == [0.5])
        #expect(searched["maximumLinearity"] == [0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8], "the others are untouched")
        let tuned = try ConfigurationFile.load(path: output)
        #expect([7, 8, 9].contains(tuned.onsetAcceleration))
        #expect(tuned.minimumHalfWaves == 5)
        #expect(tuned.releaseAcceleration == tuned.onsetAcceleration * 0.5)

        let text = CapturedRun(["tune", folder.path] + ranges)
        #expect(text.out.contains("\nSearched only (--range): onsetAcceleration 7, 8, 9 m/s²; "
            + "releaseAcceleration / onsetAcceleration 0.5; minimumHalfWaves 5.\n"), "\(text.out)")
        #expect(!CapturedRun(["tune", folder.path, "--range", "minimumHalfWaves=3..6"]).out.contains("Searched only"),
                "a range holding every value restricts nothing")
    }

    @Test(arguments: [
        ("onsetAcceleration=16..12", "'--range onsetAcceleration=16..12' is empty: 16 is above 12"),
        ("onsetAcceleration=20..30", "'--range onsetAcceleration=20..30' holds none of the values tune tries for "
            + "onsetAcceleration (7, 8, 9, 10, 11, 12, 13, 14, 16): widen it, or give one value (onsetAcceleration=20) "
            + "to hold it there"),
        ("saturationAcceleration=19", "'--range': tune does not search saturationAcceleration; it keeps the base's "
            + "value (set it with --config). It searches: onsetAcceleration, "),
        ("onset=10", "'--range': no parameter 'onset' (did you mean 'onsetAcceleration'?); tune searches: onsetAcceleration, "),
        ("onsetAcceleraton=12..16", "'--range': no parameter 'onsetAcceleraton' (did you mean 'onsetAcceleration'?); tune "
            + "searches: onsetAcceleration, "),
        ("halfWaves=4", "'--range': no parameter 'halfWaves'; tune searches: onsetAcceleration, "),
        // Two letters off a name of ten or so is a misspelling; three are not.
        ("quietSecnd=0.4", "'--range': no parameter 'quietSecnd' (did you mean 'quietSeconds'?); tune searches: "),
        ("quietSecs=0.4", "'--range': no parameter 'quietSecs'; tune searches: "),
        // Three letters are too few to guess from, though one name starts so (quietSeconds).
        ("qui=0.4", "'--range': no parameter 'qui'; tune searches: "),
        // A key of spaces only is no key.
        (" =5", "'--range' takes KEY=LOW..HIGH or KEY=VALUE (onsetAcceleration=12..16), not ' =5'"),
        ("onsetAcceleration", "'--range' takes KEY=LOW..HIGH or KEY=VALUE (onsetAcceleration=12..16), not "
            + "'onsetAcceleration'"),
        ("onsetAcceleration=ten", "'--range onsetAcceleration=ten': 'ten' is not a number"),
        ("minimumHalfWaves=3.5", "'--range minimumHalfWaves=3.5': minimumHalfWaves is a count: give whole numbers"),
        ("minimumReversalIntervalSeconds=0.9", "'--range': no configuration in the search is valid: "),
    ])
    func unusableRangeIsAUsageError(range: String, message: String) throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let output = folder.path + "/tuned.json"
        let run = CapturedRun(["tune", folder.path, "--range", range, "-o", output])
        #expect(run.status == 64, "\(run.err)")
        #expect(run.err.hasPrefix("Error: " + message), "\(run.err)")
        #expect(!run.err.contains("tune: reading"), "refused before reading the recordings")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A range from a value to itself (onsetAcceleration=9..9) is not empty: it searches that
    /// one value, as KEY=VALUE would.
    @Test func aRangeOfOneValueSearchesThatValue() throws {
        let folder = try PlantedFolder(files: [("alpha_1.csv", 1, 1)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "--format", "json", "--jobs", "1", "--range", "onsetAcceleration=9..9"]
            + TuneCommandTests.heldAllBut("onsetAcceleration"))
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let searched = try #require(report["searched_values"] as? [String: [Double]])
        #expect(searched["onsetAcceleration"] == [9], "\(searched)")
    }

    @Test func aParameterRangedTwiceIsAUsageError() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "--range", "onsetAcceleration=8..12", "--range", "onsetacceleration=9"])
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("Error: '--range' names onsetAcceleration twice"), "\(run.err)")
    }
}
