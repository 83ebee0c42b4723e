import Foundation
import Testing
import ShakeDetection

@Suite struct ShakeConfigurationTests {
    @Test(arguments: ShakeConfiguration.presetNames)
    func presetsAreValidAndRoundTripThroughJSON(_ name: String) throws {
        let preset = try #require(ShakeConfiguration.preset(named: name))
        try preset.validate()
        let data = try JSONEncoder().encode(preset)
        #expect(try JSONDecoder().decode(ShakeConfiguration.self, from: data) == preset)
    }

    /// The tests over every preset take `presetNames` as their arguments: the list itself is
    /// pinned here, so that a preset left out of it (or an empty list) fails instead of being
    /// skipped by them.
    @Test func presetNamesListEveryPresetByItsName() {
        #expect(ShakeConfiguration.presetNames == ["light", "medium", "hard"])
        #expect(ShakeConfiguration.preset(named: "light") == .light)
        #expect(ShakeConfiguration.preset(named: "medium") == .medium)
        #expect(ShakeConfiguration.preset(named: "hard") == .hard)
    }

    /// The README's preset table ("Configuration") is what `shake config --preset NAME` prints:
    /// every row's medium, light and hard values ("same" for medium's) are the presets' own, read
    /// through their JSON encoding by key, and every key a configuration file holds has a row, so
    /// a user tuning a file from the table starts from the values the detector really uses.
    @Test func readmePresetTableMatchesThePresets() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let header = "| parameter (JSON key) | medium (default) | light | hard | unit |"
        let start = try #require(lines.firstIndex(of: header), "README has no preset table")
        let rows = lines[(start + 2)...].prefix { $0.hasPrefix("|") }
        func encoded(_ preset: ShakeConfiguration) throws -> [String: Double] {
            let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(preset))
            let dictionary = try #require(object as? [String: NSNumber])
            return dictionary.mapValues(\.doubleValue)
        }
        let presets = [("medium", try encoded(.medium)), ("light", try encoded(.light)), ("hard", try encoded(.hard))]
        var keysInTable: [String] = []
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 5, "\(row)")
            // The keys: the backquoted names before any parenthesised remark.
            let names = cells[0].prefix { $0 != "(" }.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            keysInTable += names
            for (column, (presetName, values)) in presets.enumerated() {
                let cell = cells[1 + column] == "same" ? cells[1] : cells[1 + column]
                let numbers = cell.replacingOccurrences(of: "−", with: "-")
                    .components(separatedBy: " / ").map { Double($0) }
                #expect(numbers.count == names.count, "\(row)")
                for (name, number) in zip(names, numbers) {
                    let actual: Double? = values[name]
                    #expect(number != nil && number == actual,
                            "README says \(presetName).\(name) is \(cell), the preset encodes \(String(describing: actual))")
                }
            }
        }
        #expect(keysInTable.count == Set(keysInTable).count, "a key has two rows: \(keysInTable)")
        #expect(Set(keysInTable) == Set(presets[0].1.keys),
                "keys without a row: \(Set(presets[0].1.keys).subtracting(keysInTable).sorted()); rows for no key: \(Set(keysInTable).subtracting(presets[0].1.keys).sorted())")
    }

    @Test func defaultIsMediumAndPresetsAreOrdered() {
        #expect(ShakeConfiguration.default == .medium)
        #expect(ShakeConfiguration.light.onsetAcceleration < ShakeConfiguration.medium.onsetAcceleration)
        #expect(ShakeConfiguration.medium.onsetAcceleration < ShakeConfiguration.hard.onsetAcceleration)
        #expect(ShakeConfiguration.preset(named: "extreme") == nil)
    }

    @Test func missingKeysTakeMediumValues() throws {
        let json = #"{"onsetAcceleration": 12, "quietSeconds": 0.6}"#
        let decoded = try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
        var expected = ShakeConfiguration.medium
        expected.onsetAcceleration = 12
        expected.quietSeconds = 0.6
        #expect(decoded == expected)
        #expect(try JSONDecoder().decode(ShakeConfiguration.self, from: Data("{}".utf8)) == .medium)
    }

    @Test func unknownKeyIsRejectedByName() {
        let json = #"{"onsetAceleration": 12}"#
        do {
            _ = try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
            Issue.record("decoding a misspelt key succeeded")
        } catch {
            #expect("\(error)".contains("onsetAceleration"))
        }
    }

    @Test func wrongTypeIsRejected() {
        let json = #"{"minimumHalfWaves": "four"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
        }
    }

    /// `null` is not "left out": decoding fails naming the key and saying what to write.
    @Test(arguments: [("onsetAcceleration", "give a number, or leave the key out for the medium value (10.0)"),
                      ("minimumHalfWaves", "give a whole number, or leave the key out for the medium value (4)")])
    func nullIsRejectedByName(key: String, advice: String) {
        let json = "{\"\(key)\": null}"
        do {
            _ = try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
            Issue.record("decoding null for \(key) succeeded")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == [key])
            #expect(context.debugDescription == advice)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// A mistyped key is answered with the nearest known key when it is at most 3 edits away
    /// (letters' case ignored, a changed letter one edit), and with none beyond: `quyetSeconbz`
    /// (3 letters changed) and `quietSecs` (3 short) get `quietSeconds`, `quietSec` (4 short)
    /// nothing; `QUIETSECONDS` is `quietSeconds`; a name as near to two keys gets the one listed
    /// first, as the known keys are.
    @Test(arguments: [("quyetSeconbz", "quietSeconds"), ("quietSecs", "quietSeconds"), ("quietSec", nil),
                      ("QUIETSECONDS", "quietSeconds"),
                      ("mixumumReversalIntervalSeconds", "minimumReversalIntervalSeconds")] as [(String, String?)])
    func unknownKeySuggestsTheNearestKeyWithinThreeEdits(key: String, suggestion: String?) {
        let json = "{\"\(key)\": 1}"
        do {
            _ = try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
            Issue.record("decoding \(key) succeeded")
        } catch DecodingError.dataCorrupted(let context) {
            let expected = "unknown configuration key '\(key)'" + (suggestion.map { ": did you mean '\($0)'?" } ?? "") + " (known keys: "
            #expect(context.debugDescription.hasPrefix(expected), "\(context.debugDescription)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// The detector judges ongoing motion in half-second blocks, so `validate()` accepts only
    /// whole half-seconds and says which are nearest.
    @Test(arguments: [(1.3, "1.0 and 1.5"), (0.2, "0.0 and 0.5"), (29.9, "29.5 and 30.0"), (4.25, "4.0 and 4.5")])
    func ongoingMotionSecondsMustBeWholeHalfSeconds(seconds: Double, nearest: String) {
        var configuration = ShakeConfiguration.medium
        configuration.ongoingMotionSeconds = seconds
        #expect(throws: ShakeConfigurationError(
            field: "ongoingMotionSeconds",
            reason: "must be a whole number of half-seconds (motion is judged in 0.5 s blocks), got \(seconds) s; "
                + "the nearest allowed values are \(nearest)")) {
            try configuration.validate()
        }
    }

    /// A time constant over an hour is refused, naming it: far longer, `α` rounds to 0 and the
    /// detector sees no motion without an error (1e16 s at 100 Hz: no `began` for a clear 4 Hz,
    /// 2.5 g shake; for the linearity's, every chain reads as bent). At an hour it still begins.
    @Test(arguments: ["gravityTimeConstantSeconds", "linearityTimeConstantSeconds"])
    func timeConstantsOverAnHourAreRefused(field: String) throws {
        func configured(_ seconds: Double) -> ShakeConfiguration {
            var configuration = ShakeConfiguration.medium
            if field == "gravityTimeConstantSeconds" {
                configuration.gravityTimeConstantSeconds = seconds
            } else {
                configuration.linearityTimeConstantSeconds = seconds
            }
            return configuration
        }
        #expect(throws: ShakeConfigurationError(
            field: field,
            reason: "must be at most 3600.0 s (an hour: far longer, the filter's factor rounds to 0 and the detector "
                + "sees no motion), got 1e+16 s")) {
            try configured(1e16).validate()
        }
        try configured(ShakeConfiguration.longestTimeConstantSeconds).validate()
        func began(_ configuration: ShakeConfiguration) -> Int {
            var detector = ShakeDetector(configuration: configuration)
            var count = 0
            for index in 0..<400 {
                let time = Double(index) / 100
                let x = time >= 1 && time < 3 ? 25 * sin(2 * Double.pi * 4 * time) : 0
                if detector.process(Sample(time: time, x: x, y: 0, z: 9.81))?.phase == .began { count += 1 }
            }
            return count
        }
        #expect(began(configured(ShakeConfiguration.longestTimeConstantSeconds)) == 1)
        #expect(began(configured(1e16)) == 0)
    }

    /// The longest window validation accepts is averaged in full at every supported rate: an
    /// 8 m/s² step reads the same 0.5 s on at 100 Hz and at 1.6 kHz. (A 0.35 s window, accepted
    /// before, read 3.57 at 100 Hz and 2.81 at 1.6 kHz, cut to 0.16 s there.)
    @Test func theLongestSmoothingWindowIsTheSameAtEveryRate() throws {
        var configuration = ShakeConfiguration.medium
        configuration.smoothingWindowSeconds = ShakeConfiguration.maximumSmoothingWindowSeconds
        try configuration.validate()
        configuration.smoothingWindowSeconds = 0.17
        #expect(throws: ShakeConfigurationError.self) { try configuration.validate() }
        configuration.smoothingWindowSeconds = ShakeConfiguration.maximumSmoothingWindowSeconds
        func stepResponse(rate: Double) -> Double {
            var detector = ShakeDetector(configuration: configuration)
            var index = 0
            var x = 0.0
            while Double(index) / rate <= 2.5 {
                let t = Double(index) / rate
                _ = detector.process(Sample(time: t, x: t >= 2 ? 8 : 0, y: 0, z: standardGravity))
                x = detector.linearAcceleration.x
                index += 1
            }
            return x
        }
        let (slow, fast) = (stepResponse(rate: 100), stepResponse(rate: 1600))
        #expect(abs(slow - fast) < 0.05 * abs(slow), "\(slow) at 100 Hz, \(fast) at 1.6 kHz")
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        var field: String
        var change: @Sendable (inout ShakeConfiguration) -> Void
        var testDescription: String { field }
    }

    static let badCases: [BadCase] = [
        BadCase(field: "gravityTimeConstantSeconds") { $0.gravityTimeConstantSeconds = -1 },
        BadCase(field: "gravityTimeConstantSeconds") { $0.gravityTimeConstantSeconds = .nan },
        BadCase(field: "smoothingWindowSeconds") { $0.smoothingWindowSeconds = 1 },
        // Longer than the 256 intervals held at 1.6 kHz, though shorter than the gravity filter.
        BadCase(field: "smoothingWindowSeconds") { $0.smoothingWindowSeconds = 0.2 },
        BadCase(field: "onsetAcceleration") { $0.onsetAcceleration = .infinity },
        BadCase(field: "releaseAcceleration") { $0.releaseAcceleration = 12 },
        // Equal to the onset: it must be below it.
        BadCase(field: "releaseAcceleration") { $0.releaseAcceleration = $0.onsetAcceleration },
        BadCase(field: "saturationAcceleration") { $0.saturationAcceleration = 0 },
        // Below 1 g a device at rest reads "saturated" on every sample, and the onset falls to
        // the release threshold: dev's walks and gestures fired 3 false shakes at 5 m/s².
        BadCase(field: "saturationAcceleration") { $0.saturationAcceleration = 5 },
        BadCase(field: "saturationAcceleration") { $0.saturationAcceleration = standardGravity },
        BadCase(field: "reversalCosine") { $0.reversalCosine = 0.5 },
        // 0 would link half-waves at right angles: the range is [−1, 0).
        BadCase(field: "reversalCosine") { $0.reversalCosine = 0 },
        BadCase(field: "minimumReversalIntervalSeconds") { $0.minimumReversalIntervalSeconds = -0.1 },
        BadCase(field: "maximumReversalIntervalSeconds") { $0.maximumReversalIntervalSeconds = 0.01 },
        BadCase(field: "minimumHalfWaves") { $0.minimumHalfWaves = 1 },
        BadCase(field: "maximumLinearity") { $0.maximumLinearity = 1.5 },
        BadCase(field: "maximumIntervalRatio") { $0.maximumIntervalRatio = 0.5 },
        BadCase(field: "maximumPeakIntervalSeconds") { $0.maximumPeakIntervalSeconds = 0 },
        BadCase(field: "maximumPeakIntervalSeconds") { $0.maximumPeakIntervalSeconds = .infinity },
        // Linked peaks at least 0.3 s apart, and at most 0.25 s for a shake to begin: none would.
        BadCase(field: "maximumPeakIntervalSeconds") {
            $0.minimumReversalIntervalSeconds = 0.3
            $0.maximumPeakIntervalSeconds = 0.25
        },
        // The two equal: it must be above the other.
        BadCase(field: "maximumPeakIntervalSeconds") { $0.maximumPeakIntervalSeconds = $0.minimumReversalIntervalSeconds },
        BadCase(field: "linearityTimeConstantSeconds") { $0.linearityTimeConstantSeconds = 0 },
        BadCase(field: "shortChainPeakIntervalSeconds") { $0.shortChainPeakIntervalSeconds = 0 },
        BadCase(field: "shortChainPeakIntervalSeconds") { $0.shortChainPeakIntervalSeconds = .infinity },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = -0.1 },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = 1.5 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = -1 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 31 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = .nan },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 1.3 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 0.2 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 29.9 },
        BadCase(field: "pauseDeviationAcceleration") { $0.pauseDeviationAcceleration = 0 },
        BadCase(field: "ongoingMotionPeakAcceleration") { $0.ongoingMotionPeakAcceleration = 5 },
        BadCase(field: "ongoingMotionPeakAcceleration") { $0.ongoingMotionPeakAcceleration = .nan },
        BadCase(field: "ongoingMotionStrongHalfWaves") { $0.ongoingMotionStrongHalfWaves = 0 },
        BadCase(field: "ongoingMotionStrongHalfWaves") { $0.ongoingMotionStrongHalfWaves = 5 },
        BadCase(field: "quietSeconds") { $0.quietSeconds = 0 },
        BadCase(field: "refractorySeconds") { $0.refractorySeconds = -0.3 },
        BadCase(field: "maximumGapSeconds") { $0.maximumGapSeconds = -1 },
        // Every sample of a 25 Hz stream (0.04 s apart) would be a gap, and at 0.001 s every
        // sample of a 100 Hz one: no shake would ever be seen (validate() accepted these before).
        BadCase(field: "maximumGapSeconds") { $0.maximumGapSeconds = 0.001 },
        BadCase(field: "maximumGapSeconds") { $0.maximumGapSeconds = 0.04 },
        BadCase(field: "maximumShakeSeconds") { $0.maximumShakeSeconds = .nan },
        // Limits under which no shake could ever be detected.
        BadCase(field: "minimumHalfWaves") { $0.minimumHalfWaves = 1_000_000 },
        BadCase(field: "maximumShakeSeconds") { $0.maximumShakeSeconds = 0.1 },  // 3 × 0.04 s to begin
        // The limit runs until `ended`, quietSeconds after the last half-wave: every shake would
        // be cancelled as too long (validate() accepted these before).
        BadCase(field: "maximumShakeSeconds") { $0.maximumShakeSeconds = 0.5 },  // 0.4 + 3 × 0.04 s
        // Exactly the soonest a shake can end: it must be above it.
        BadCase(field: "maximumShakeSeconds") {
            $0.maximumShakeSeconds = $0.quietSeconds + Double($0.minimumHalfWaves - 1) * $0.minimumReversalIntervalSeconds
        },
        // The quiet time is what is out of line here, not the limit at its default: the error
        // named maximumShakeSeconds, a key the user had not touched.
        BadCase(field: "quietSeconds") { $0.quietSeconds = 10 },
        BadCase(field: "quietSeconds") { $0.quietSeconds = 1e300 },
        BadCase(field: "quietSeconds") {
            $0.quietSeconds = 30
            $0.maximumShakeSeconds = 20
        },
        // A limit no default quiet time fits either: the limit is named.
        BadCase(field: "maximumShakeSeconds") {
            $0.quietSeconds = 30
            $0.maximumShakeSeconds = 0.3
        },
        // Just past each limit that `validValuesAtTheirLimits` takes at the limit itself, named
        // for its own field (not for a later rule that a value so far out breaks too).
        BadCase(field: "gravityTimeConstantSeconds") { $0.gravityTimeConstantSeconds = 0 },
        BadCase(field: "gravityTimeConstantSeconds") { $0.gravityTimeConstantSeconds = 3600.001 },
        BadCase(field: "smoothingWindowSeconds") { $0.smoothingWindowSeconds = -0.001 },
        // As long as the gravity filter's time constant (both under the 0.16 s cap).
        BadCase(field: "smoothingWindowSeconds") {
            $0.gravityTimeConstantSeconds = 0.1
            $0.smoothingWindowSeconds = 0.1
        },
        BadCase(field: "onsetAcceleration") { $0.onsetAcceleration = 0 },
        BadCase(field: "releaseAcceleration") { $0.releaseAcceleration = 0 },
        BadCase(field: "reversalCosine") { $0.reversalCosine = -1.001 },
        BadCase(field: "minimumReversalIntervalSeconds") { $0.minimumReversalIntervalSeconds = -0.001 },
        BadCase(field: "maximumReversalIntervalSeconds") {
            $0.maximumReversalIntervalSeconds = $0.minimumReversalIntervalSeconds
        },
        BadCase(field: "minimumHalfWaves") { $0.minimumHalfWaves = 65 },
        BadCase(field: "maximumLinearity") { $0.maximumLinearity = 0 },
        BadCase(field: "maximumLinearity") { $0.maximumLinearity = 1.001 },
        BadCase(field: "maximumIntervalRatio") { $0.maximumIntervalRatio = 0.999 },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = -0.001 },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = 1.001 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 30.5 },
        BadCase(field: "ongoingMotionPeakAcceleration") { $0.ongoingMotionPeakAcceleration = 9.999 },
        BadCase(field: "ongoingMotionStrongHalfWaves") { $0.ongoingMotionStrongHalfWaves = 5 },
        BadCase(field: "refractorySeconds") { $0.refractorySeconds = -0.001 },
        BadCase(field: "maximumGapSeconds") { $0.maximumGapSeconds = 0.039 },
    ]

    /// Each limit at the value that the rules allow and the bad cases step just past: accepted
    /// (`validate()`'s "at most", "≥", "from … to" and "[−1, 0)" include their ends).
    static let validValuesAtTheirLimits: [BadCase] = [
        BadCase(field: "gravityTimeConstantSeconds") { $0.gravityTimeConstantSeconds = 3600 },
        BadCase(field: "smoothingWindowSeconds") { $0.smoothingWindowSeconds = 0 },
        BadCase(field: "smoothingWindowSeconds") { $0.smoothingWindowSeconds = 0.16 },
        BadCase(field: "smoothingWindowSeconds") {
            $0.gravityTimeConstantSeconds = 0.1
            $0.smoothingWindowSeconds = 0.099
        },
        BadCase(field: "releaseAcceleration") { $0.releaseAcceleration = 9.999 },
        BadCase(field: "saturationAcceleration") { $0.saturationAcceleration = standardGravity.nextUp },
        BadCase(field: "reversalCosine") { $0.reversalCosine = -1 },
        BadCase(field: "reversalCosine") { $0.reversalCosine = -0.001 },
        BadCase(field: "minimumReversalIntervalSeconds") { $0.minimumReversalIntervalSeconds = 0 },
        BadCase(field: "maximumReversalIntervalSeconds") { $0.maximumReversalIntervalSeconds = 0.041 },
        BadCase(field: "minimumHalfWaves") {
            $0.minimumHalfWaves = 2
            $0.ongoingMotionStrongHalfWaves = 2
        },
        BadCase(field: "minimumHalfWaves") {
            $0.minimumHalfWaves = 64
            $0.ongoingMotionStrongHalfWaves = 64
        },
        BadCase(field: "maximumLinearity") { $0.maximumLinearity = 1 },
        BadCase(field: "maximumLinearity") { $0.maximumLinearity = 0.001 },
        BadCase(field: "maximumIntervalRatio") { $0.maximumIntervalRatio = 1 },
        BadCase(field: "maximumPeakIntervalSeconds") { $0.maximumPeakIntervalSeconds = 0.041 },
        BadCase(field: "linearityTimeConstantSeconds") { $0.linearityTimeConstantSeconds = 3600 },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = 0 },
        BadCase(field: "shortChainLinearity") { $0.shortChainLinearity = 1 },
        BadCase(field: "ongoingMotionSeconds") { $0.ongoingMotionSeconds = 30 },
        BadCase(field: "ongoingMotionPeakAcceleration") { $0.ongoingMotionPeakAcceleration = 10 },
        BadCase(field: "ongoingMotionStrongHalfWaves") { $0.ongoingMotionStrongHalfWaves = 1 },
        BadCase(field: "ongoingMotionStrongHalfWaves") { $0.ongoingMotionStrongHalfWaves = 4 },
        BadCase(field: "refractorySeconds") { $0.refractorySeconds = 0 },
        BadCase(field: "maximumGapSeconds") { $0.maximumGapSeconds = 0.041 },
    ]

    @Test(arguments: validValuesAtTheirLimits)
    func validateTakesEachLimitsOwnEnd(_ limit: BadCase) throws {
        var configuration = ShakeConfiguration.medium
        limit.change(&configuration)
        #expect(throws: Never.self, "\(limit.field)") { try configuration.validate() }
    }

    @Test(arguments: badCases)
    func validateNamesTheBadField(_ bad: BadCase) {
        var configuration = ShakeConfiguration.medium
        bad.change(&configuration)
        do throws(ShakeConfigurationError) {
            try configuration.validate()
            Issue.record("validate() accepted a bad \(bad.field)")
        } catch {
            #expect(error.field == bad.field)
            #expect(error.description.contains(bad.field))
        }
    }

    /// `ShakeDetector(validating:)` refuses what `validate()` refuses, naming the field, and
    /// makes a working detector from a valid configuration.
    @Test(arguments: badCases)
    func validatingDetectorRefusesABadConfiguration(_ bad: BadCase) {
        var configuration = ShakeConfiguration.medium
        bad.change(&configuration)
        do throws(ShakeConfigurationError) {
            _ = try ShakeDetector(validating: configuration)
            Issue.record("ShakeDetector(validating:) accepted a bad \(bad.field)")
        } catch {
            #expect(error.field == bad.field)
        }
    }

    /// The error says what the limit is made of, with the numbers, so that the user sees which
    /// of the three values to change; it names the one out of line: the limit when it is too
    /// short for the default quiet time, the quiet time when it is too long for the default limit.
    @Test func aShakeLimitNoShakeCanEndWithinIsExplained() {
        var configuration = ShakeConfiguration.medium
        configuration.maximumShakeSeconds = 0.5
        #expect(throws: ShakeConfigurationError(
            field: "maximumShakeSeconds",
            reason: "must be > 0 s and above (minimumHalfWaves − 1) × minimumReversalIntervalSeconds "
                + "(3 × 0.04 s, the shortest time a shake can take to begin) plus quietSeconds (0.4 s, from its last "
                + "half-wave to ended): 0.52 s, the soonest a shake can end; a shorter limit cancels every shake as "
                + "too long, got 0.5 s")) {
            try configuration.validate()
        }
        configuration.maximumShakeSeconds = 0.53
        #expect(throws: Never.self) { try configuration.validate() }

        configuration.maximumShakeSeconds = 10
        for quiet in [9.9, 1e300] {
            configuration.quietSeconds = quiet
            #expect(throws: ShakeConfigurationError(
                field: "quietSeconds",
                reason: "must be below maximumShakeSeconds (10.0 s) minus (minimumHalfWaves − 1) × "
                    + "minimumReversalIntervalSeconds (3 × 0.04 s, the shortest time a shake can take to begin): 9.88 s; "
                    + "a shake ends quietSeconds after its last half-wave, and one that has not ended within "
                    + "maximumShakeSeconds of its first is cancelled as too long, so a longer quiet time cancels every "
                    + "shake, got \(quiet) s")) {
                try configuration.validate()
            }
        }
        configuration.quietSeconds = 9.87
        #expect(throws: Never.self) { try configuration.validate() }
    }

    /// A valid configuration with infinity (saturation off, no shake during ongoing motion)
    /// encodes with `JSONEncoder`, which cannot write infinity (it threw "Unable to encode
    /// Double.inf directly in JSON"), and decodes to one that gives the same events.
    @Test func infinityEncodesAsAValueThatBehavesTheSame() throws {
        var configuration = ShakeConfiguration.medium
        configuration.saturationAcceleration = .infinity
        configuration.ongoingMotionPeakAcceleration = .infinity
        try configuration.validate()
        let json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        #expect(json.contains(#""saturationAcceleration":1000000"#))
        #expect(json.contains(#""ongoingMotionPeakAcceleration":1000000"#))
        let decoded = try JSONDecoder().decode(ShakeConfiguration.self, from: Data(json.utf8))
        try decoded.validate()
        #expect(decoded.saturationAcceleration == ShakeConfiguration.encodedInfinity)
        // A clipping ±2 g sensor's shake along gravity (the case saturation is for): the same
        // events either way.
        let motion = Motion(gravity: gravityReading(up: (0, 0, 1)),
                            shakes: [.init(start: 1, duration: 1.5, frequency: 4, amplitude: 1.5 * standardGravity,
                                           direction: unit(0, 0, 1))],
                            noise: 0.05)
        let clipped = motion.samples(duration: 4, rate: 100).map {
            Sample(time: $0.time, x: $0.x, y: $0.y, z: min(max($0.z, -19.6), 19.6))
        }
        #expect(events(clipped, configuration: decoded) == events(clipped, configuration: configuration))
    }

    @Test(arguments: ShakeConfiguration.presetNames)
    func validatingDetectorTakesEveryPreset(name: String) throws {
        let preset = try #require(ShakeConfiguration.preset(named: name))
        var detector = try ShakeDetector(validating: preset)
        #expect(detector.configuration == preset)
        #expect(detector.process(Sample(time: 0, x: 0, y: 0, z: standardGravity)) == nil)
    }

    @Test func saturationMayBeDisabledWithInfinity() throws {
        var configuration = ShakeConfiguration.medium
        configuration.saturationAcceleration = .infinity
        try configuration.validate()
    }

    @Test func ongoingMotionMayForbidShakesWithInfinityOrBeTurnedOff() throws {
        var configuration = ShakeConfiguration.medium
        configuration.ongoingMotionPeakAcceleration = .infinity
        try configuration.validate()
        configuration.ongoingMotionSeconds = 0
        try configuration.validate()
    }

    /// A shake begun by 1.5 s, the configuration changed by `change`, the rest of the motion
    /// fed: the events, and the last sample's time before the change.
    static func shakeThenChange(_ change: (inout ShakeDetector) -> Void) -> (events: [ShakeEvent], lastTime: Double) {
        var detector = ShakeDetector()
        let m = Motion(shakes: [.init(start: 0.5, duration: 2, frequency: 4, amplitude: 25, direction: (1, 0, 0))])
        let samples = m.samples(duration: 6, rate: 100)
        var got: [ShakeEvent] = []
        for s in samples where s.time < 1.5 { if let e = detector.process(s) { got.append(e) } }
        #expect(got.map(\.phase) == [.began])
        #expect(detector.isShaking)
        change(&detector)
        #expect(!detector.isShaking)
        for s in samples where s.time >= 1.5 { if let e = detector.process(s) { got.append(e) } }
        return (got, samples.last { $0.time < 1.5 }!.time)
    }

    @Test func changingTheConfigurationDuringAShakeCancelsIt() {
        let (got, lastTime) = Self.shakeThenChange { detector in
            detector.configuration = .hard
            #expect(detector.configuration == .hard)
        }
        // The next sample brings the shake's end: cancelled, at the last sample before the change.
        // The shaking goes on, strong enough for `hard` too: a new shake begins and ends later.
        #expect(got.map(\.phase) == [.began, .cancelled, .began, .ended])
        #expect(got[1].cancellationReason == .interrupted)
        #expect(got[1].time == lastTime)
        #expect(got[1].startTime == got[0].startTime)
        #expect(got[2].startTime >= 1.5)
    }

    /// A settings screen that sets fields one at a time changes the configuration several times
    /// before the next sample: the shake in progress still gets its one `cancelled` (the second
    /// change had dropped it, and the next shake's `began` followed a `began`).
    @Test func severalChangesBeforeTheNextSampleKeepTheShakesCancellation() {
        let (got, lastTime) = Self.shakeThenChange { detector in
            detector.configuration.quietSeconds = 0.5
            detector.configuration.refractorySeconds = 0.5
            detector.configuration.onsetAcceleration = 11
        }
        #expect(got.map(\.phase) == [.began, .cancelled, .began, .ended])
        #expect(got[1].cancellationReason == .interrupted)
        #expect(got[1].time == lastTime)
    }

    /// One change or several (fields one by one), then no sample: `interrupt` gives the
    /// cancellation, once.
    @Test(arguments: [1, 3])
    func aChangeWithoutANewSampleIsCancelledByInterrupt(changes: Int) {
        var detector = ShakeDetector()
        let m = Motion(shakes: [.init(start: 0.5, duration: 2, frequency: 4, amplitude: 25, direction: (1, 0, 0))])
        for s in m.samples(duration: 1.5, rate: 100) { _ = detector.process(s) }
        detector.configuration = .light
        if changes > 1 {
            detector.configuration.quietSeconds = 0.5
            detector.configuration.refractorySeconds = 0.5
        }
        #expect(detector.interrupt(at: 1.6)?.cancellationReason == .interrupted)
        #expect(detector.interrupt(at: 1.7) == nil)  // once only
    }

    @Test func settingTheConfigurationInUseChangesNothing() {
        let m = Motion(shakes: [.init(start: 0.5, duration: 2, frequency: 4, amplitude: 25, direction: (1, 0, 0))])
        let samples = m.samples(duration: 4, rate: 100)
        var detector = ShakeDetector()
        var got: [ShakeEvent] = []
        for s in samples {
            detector.configuration = .medium  // as a settings screen might, on every sample
            if let e = detector.process(s) { got.append(e) }
        }
        #expect(got.map(\.phase) == [.began, .ended])
        #expect(got == events(samples))
    }
}

/// What a program linking ShakeDetection can do with the values it gets: events encode and
/// decode as they are (to log or send them), and a spreading detector can be held by an actor
/// as a `ShakeDetector` can.
@Suite struct DetectionValueConformanceTests {
    @Test func eventsRoundTripThroughJSON() throws {
        let events = [
            ShakeEvent(phase: .began, time: 2.41, startTime: 2.04, endTime: 2.41, peakAcceleration: 19.97,
                       reversals: 3, dominantAxis: .x),
            ShakeEvent(phase: .cancelled, time: 9, startTime: 1, endTime: 8.5, peakAcceleration: 30,
                       reversals: 40, dominantAxis: .z, cancellationReason: .tooLong),
        ]
        let decoded = try JSONDecoder().decode([ShakeEvent].self, from: JSONEncoder().encode(events))
        #expect(decoded == events)
    }

    @Test func aSpreadingDetectorIsSendable() async {
        actor Holder {
            var detector = BatchSpreadingDetector(ShakeDetector())
            func feed(_ sample: Sample) -> ShakeEvent? { detector.process(sample) }
        }
        let holder = Holder()
        let sendable: any Sendable = BatchSpreadingDetector(ShakeDetector())
        #expect(sendable is BatchSpreadingDetector<ShakeDetector>)
        #expect(await holder.feed(Sample(time: 0, x: 0, y: 0, z: 9.8)) == nil)
    }
}
