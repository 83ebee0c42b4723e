import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// `ConfigurationFile` as a library user calls it: `load(path:)` and `decode(_:path:)` reject, as
/// `.malformed`, every file the detector must not run with, naming the key and where it is
/// (`line` and `column`, and `file:line:column:` in the description).
@Suite struct ConfigurationFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        /// Where the problem is (0, 0: the whole file).
        var line = 0, column = 0
        /// The whole message after `PATH:LINE:COLUMN: ` (or `PATH: `).
        var says: String
        var testDescription: String { name }
        init(_ name: String, _ text: String, at place: (line: Int, column: Int) = (0, 0), says: String) {
            self.name = name
            self.text = text
            (line, column) = place
            self.says = says
        }
    }

    static let rejected: [Case] = [
        Case("override appended on a later line", "{\n  \"onsetAcceleration\": 9,\n  \"quietSeconds\": 0.4,\n  \"onsetAcceleration\": 11\n}",
             at: (4, 3), says: "duplicate key 'onsetAcceleration': already given at line 2, column 3; give each key once"),
        Case("duplicate on one line", "{\"onsetAcceleration\": 9, \"onsetAcceleration\": 11}",
             at: (1, 26), says: "duplicate key 'onsetAcceleration': already given at line 1, column 2; give each key once"),
        Case("duplicate spelt with an escape", "{\"quietSeconds\": 0.4, \"quiet\\u0053econds\": 0.6}",
             at: (1, 23), says: "duplicate key 'quietSeconds': already given at line 1, column 2; give each key once"),
        Case("duplicate whose first value has the wrong type", "{\"quietSeconds\": \"0.4\", \"quietSeconds\": 0.6}",
             at: (1, 25), says: "duplicate key 'quietSeconds': already given at line 1, column 2; give each key once"),
        Case("null for a number", "{\n  \"onsetAcceleration\": null\n}",
             at: (2, 3), says: "null at 'onsetAcceleration': give a number, or leave the key out for the medium value (10.0)"),
        Case("null for a count", "{\"minimumHalfWaves\": null}",
             at: (1, 2), says: "null at 'minimumHalfWaves': give a whole number, or leave the key out for the medium value (4)"),
        Case("null for the whole file", "null",
             says: "null at the top level: expected a JSON object { \"key\": value, … } at the top level"),
        Case("string for a number", "{\"onsetAcceleration\": \"12\"}",
             at: (1, 2), says: "wrong type at 'onsetAcceleration': expected a number, got the string \"12\": write the "
                + "number without quotes (12)"),
        Case("boolean for a number", "{\"quietSeconds\": true}",
             at: (1, 2), says: "wrong type at 'quietSeconds': expected a number, got true"),
        Case("array for a number", "{\n\"maximumShakeSeconds\": [10]}",
             at: (2, 1), says: "wrong type at 'maximumShakeSeconds': expected a number, got an array"),
        Case("string for a count", "{\"ongoingMotionStrongHalfWaves\": \"two\"}",
             at: (1, 2), says: "wrong type at 'ongoingMotionStrongHalfWaves': expected a whole number, got a string"),
        Case("object for a count", "{\"minimumHalfWaves\": {\"value\": 4}}",
             at: (1, 2), says: "wrong type at 'minimumHalfWaves': expected a whole number, got an object"),
        Case("object with a repeated key of its own for a count", "{\"minimumHalfWaves\": {\"v\": 4, \"v\": 5}}",
             at: (1, 2), says: "wrong type at 'minimumHalfWaves': expected a whole number, got an object"),
        Case("array at the top level", "[12, 6]",
             says: "wrong type at the top level: expected a JSON object { \"key\": value, … } at the top level, got an array"),
        Case("number at the top level", "12",
             says: "wrong type at the top level: expected a JSON object { \"key\": value, … } at the top level, got a number"),
        Case("ongoing motion not in half-seconds", "{\n  \"ongoingMotionSeconds\": 1.3\n}",
             at: (2, 3), says: "invalid configuration: ongoingMotionSeconds: must be a whole number of half-seconds (motion is judged in 0.5 s blocks), "
                + "got 1.3 s; the nearest allowed values are 1.0 and 1.5"),
        Case("ongoing motion just above a half-second", "{\"ongoingMotionSeconds\": 0.2}",
             at: (1, 2), says: "invalid configuration: ongoingMotionSeconds: must be a whole number of half-seconds (motion is judged in 0.5 s blocks), "
                + "got 0.2 s; the nearest allowed values are 0.0 and 0.5"),
    ]

    @Test(arguments: rejected)
    func decodeRejectsNamingTheKeyAndPlace(_ bad: Case) {
        #expect(throws: ConfigurationFileError(path: "c.json", kind: .malformed, message: bad.says,
                                               line: bad.line, column: bad.column)) {
            try ConfigurationFile.decode(Data(bad.text.utf8), path: "c.json")
        }
    }

    /// A library user's `load(path:)` validates as the command line does: no unchecked values
    /// reach a `ShakeDetector`.
    @Test(arguments: [
        ("{\"releaseAcceleration\": 40}", 1, 2,
         "invalid configuration: releaseAcceleration: must be below onsetAcceleration (10.0 m/s²), got 40.0 m/s²"),
        ("{\"ongoingMotionSeconds\": 4.2}", 1, 2,
         "invalid configuration: ongoingMotionSeconds: must be a whole number of half-seconds (motion is judged in 0.5 s blocks), "
            + "got 4.2 s; the nearest allowed values are 4.0 and 4.5"),
        // The key the rule names is not in the file: it took medium's value, which the file's
        // onset no longer suits. No place in the file is meant.
        ("{\"onsetAcceleration\": 4}", 0, 0,
         "invalid configuration: releaseAcceleration: must be below onsetAcceleration (4.0 m/s²), got 5.0 m/s² "
            + "(releaseAcceleration is not in the file: keys left out take the medium preset's values; add "
            + "\"releaseAcceleration\" with a value that fits)"),
        ("{\"onsetAcceleration\": 9, \"onsetAcceleration\": 11}", 1, 26,
         "duplicate key 'onsetAcceleration': already given at line 1, column 2; give each key once"),
    ])
    func loadValidates(text: String, line: Int, column: Int, says: String) {
        let folder = CSVTestDirectory()
        let path = folder.write("c.json", text)
        #expect(throws: ConfigurationFileError(path: path, kind: .malformed, message: says, line: line, column: column)) {
            try ConfigurationFile.load(path: path)
        }
    }

    /// Whole half-seconds read back as written, including 0 (the rule off) and one off by a
    /// rounding error (25 × 1.1 = 27.500000000000004).
    @Test(arguments: [0, 0.5, 1.5, 4, 29.5, 30, 25 * 1.1])
    func wholeHalfSecondsAreAccepted(seconds: Double) throws {
        let loaded = try ConfigurationFile.decode(Data("{\"ongoingMotionSeconds\": \(seconds)}".utf8), path: "c.json")
        #expect(loaded.ongoingMotionSeconds == seconds)
    }

    /// Distinct keys in any order are not duplicates.
    @Test func distinctKeysLoad() throws {
        let text = "{\"quietSeconds\": 0.6, \"onsetAcceleration\": 12, \"refractorySeconds\": 0.2}"
        let loaded = try ConfigurationFile.decode(Data(text.utf8), path: "c.json")
        #expect(loaded.quietSeconds == 0.6)
        #expect(loaded.onsetAcceleration == 12)
        #expect(loaded.refractorySeconds == 0.2)
    }

    /// A configuration file may be up to 1 MiB long (here a small object padded with spaces to
    /// exactly 1,048,576 bytes): it loads; one byte more and it is refused as no configuration
    /// file, naming the limit.
    @Test func aFileOfExactly1MiBLoadsAndOneByteMoreIsRefused() throws {
        let folder = NSTemporaryDirectory() + "/shakekit-size-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let object = "{\"onsetAcceleration\": 12}"
        let exact = folder + "/exact.json", over = folder + "/over.json"
        try Data((object + String(repeating: " ", count: (1 << 20) - object.utf8.count)).utf8)
            .write(to: URL(fileURLWithPath: exact))
        try Data((object + String(repeating: " ", count: (1 << 20) + 1 - object.utf8.count)).utf8)
            .write(to: URL(fileURLWithPath: over))
        #expect(try ConfigurationFile.load(path: exact).onsetAcceleration == 12)
        #expect {
            try ConfigurationFile.load(path: over)
        } throws: { error in
            let error = try #require(error as? ConfigurationFileError)
            return error.kind == .malformed && error.description == "\(over): larger than 1 MiB: not a configuration file"
        }
    }

    /// JSON has no infinity: the two keys that may hold it are written as 10⁶ m/s², which loads
    /// back and gives the same events as infinity (no raw axis and no peak gets that far).
    /// An invalid configuration is not saved: NaN has no JSON (the file held a newline alone,
    /// replacing the user's), and `load` would refuse any other invalid one.
    @Test func anInvalidConfigurationIsNotSavedAndTheFileIsKept() throws {
        let folder = NSTemporaryDirectory() + "/shakekit-save-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/mine.json"
        try ConfigurationFile.save(.hard, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var notANumber = ShakeConfiguration.medium
        notANumber.quietSeconds = .nan
        var belowGravity = ShakeConfiguration.medium
        belowGravity.saturationAcceleration = 5
        for (configuration, field) in [(notANumber, "quietSeconds"), (belowGravity, "saturationAcceleration")] {
            #expect {
                try ConfigurationFile.save(configuration, to: path, overwrite: true)
            } throws: { error in
                let error = try #require(error as? ConfigurationFileError)
                return error.kind == .malformed && error.description.hasPrefix("\(path): not written: invalid configuration: \(field): ")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["mine.json"])
        }
    }

    @Test func infinityIsWrittenAsAValueThatBehavesTheSame() throws {
        var configuration = ShakeConfiguration.medium
        configuration.saturationAcceleration = .infinity
        configuration.ongoingMotionPeakAcceleration = .infinity
        let data = ConfigurationFile.encode(configuration)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"saturationAcceleration\" : 1000000"), "\(text)")
        #expect(text.contains("\"ongoingMotionPeakAcceleration\" : 1000000"), "\(text)")
        let loaded = try ConfigurationFile.decode(data, path: "inf.json")
        #expect(loaded.saturationAcceleration == 1e6 && loaded.ongoingMotionPeakAcceleration == 1e6)
        // Each key on a motion where its value matters; the file's 1e6 must act as infinity,
        // and the medium value (the control) must not.
        func began(_ samples: [Sample], _ change: (inout ShakeConfiguration) -> Void) -> [Double] {
            var configuration = loaded
            change(&configuration)
            var detector = ShakeDetector(configuration: configuration)
            return samples.compactMap { detector.process($0) }.filter { $0.phase == .began }.map(\.time)
        }
        // A lopsided shake along gravity on a sensor that clips at 19.05 m/s²: raw x swings from
        // -2 to 22 m/s² and is cut at 19.05, so the strokes along gravity stay under the onset
        // (about 9.6 m/s² of linear acceleration, against 11 the other way); only a saturation
        // level the clipped axis reaches lets them open half-waves.
        let clipped = (0..<600).map { index -> Sample in
            let time = Double(index) / 100
            let stroke = time > 2 && time < 4 ? 12 * sin(2 * Double.pi * 4 * time) : 0
            return Sample(time: time, x: min(19.05, standardGravity + stroke), y: 0, z: 0)
        }
        #expect(began(clipped) { $0.saturationAcceleration = .infinity } == [])
        #expect(began(clipped) { _ in } == [])
        #expect(began(clipped) { $0.saturationAcceleration = ShakeConfiguration.medium.saturationAcceleration }.count == 1)
        // A walk with no pause (a 2 Hz bounce of 3 m/s²), then a 3 g shake 6 s into it: only a
        // finite ongoing-motion peak lets a shake begin during the walk.
        let walkThenShake = (0..<900).map { index -> Sample in
            let time = Double(index) / 100
            let shake = time > 6 && time < 7.5 ? 30 * sin(2 * Double.pi * 4 * time) : 0
            return Sample(time: time, x: shake, y: 0, z: standardGravity + 3 * sin(2 * Double.pi * 2 * time))
        }
        #expect(began(walkThenShake) { $0.ongoingMotionPeakAcceleration = .infinity } == [])
        #expect(began(walkThenShake) { _ in } == [])
        #expect(began(walkThenShake) { $0.ongoingMotionPeakAcceleration = ShakeConfiguration.medium.ongoingMotionPeakAcceleration }.count == 1)
    }
}
