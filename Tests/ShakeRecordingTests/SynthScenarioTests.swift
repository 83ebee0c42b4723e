import ShakeDetection
import ShakeRecording
import Testing

@Suite struct SynthScenarioTests {
    @Test func everyScenarioIsFoundByItsName() {
        let names = SynthScenario.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        for scenario in SynthScenario.allCases {
            #expect(SynthScenario(name: scenario.name) == scenario)
            #expect(SynthScenario(name: scenario.name.uppercased()) == scenario)
            #expect(!scenario.summary.isEmpty)
        }
        #expect(SynthScenario(name: "juggling") == nil)
        // `allCases` is kept by hand (`walking` has a value), and `shake synth` finds a scenario's
        // name only there: the list is pinned, so that a scenario left out of it fails instead of
        // being skipped by the loop above, and every placement has its walk.
        #expect(names == ["shakes", "walking-hand", "walking-pocket", "walking-bag", "running", "pickup-putdown",
                          "table-tap", "long-shake", "clipped-shake", "same-motion", "demo-session", "mixed"])
        for placement in GaitPlacement.allCases {
            #expect(SynthScenario(name: "walking-\(placement.rawValue)") == .walking(placement), "\(placement)")
        }
    }

    @Test(arguments: SynthScenario.allCases)
    func everyScenarioRendersThroughItsOwnSensor(scenario: SynthScenario) throws {
        let script = scenario.script()
        let samples = try Synthesizer(seed: 1).render(script: script, sensor: scenario.defaultSensor)
        let duration = script.reduce(0) { $0 + $1.seconds }
        #expect(abs(Double(samples.count) - duration * scenario.defaultSensor.rateHertz) <= 1)
        #expect(samples.allSatisfy { $0.sample.x.isFinite && $0.sample.y.isFinite && $0.sample.z.isFinite })
        #expect(samples.synthShakeRuns.count == synthShakeSpans(script).count)
    }

    @Test(arguments: [
        (SynthScenario.shakes, 5), (.longShake, 1), (.clippedShake, 2), (.sameMotion, 3), (.demoSession, 2),
        (.mixed, 2), (.walking(.pocket), 0), (.running, 0), (.pickUpPutDown, 0), (.tableTap, 0),
    ])
    func scenariosHoldTheShakesTheirDocumentationPromises(scenario: SynthScenario, shakes: Int) {
        #expect(synthShakeSpans(scenario.script()).count == shakes)
    }

    @Test(arguments: [SynthScenario.shakes, .walking(.hand), .running, .tableTap, .mixed], [3.0, 12.5, 60])
    func durationIsHonoured(scenario: SynthScenario, seconds: Double) throws {
        let script = scenario.script(seconds: seconds)
        #expect(abs(script.reduce(0) { $0 + $1.seconds } - seconds) < 1e-9)
        let samples = try Synthesizer(seed: 1).render(script: script, sensor: SensorModel(rateHertz: 50))
        #expect(abs(Double(samples.count) - seconds * 50) <= 1)
    }

    @Test func aShakeCutToUnderTwoCyclesIsNotLabelled() throws {
        // `shakes` holds still for 1.5 s, then shakes at 4 Hz: 0.1 s of it is under one cycle,
        // 0.3 s under the two cycles (four half-waves) every preset needs.
        #expect(synthShakeSpans(SynthScenario.shakes.script(seconds: 1.8)).isEmpty)
        let sliver = SynthScenario.shakes.script(seconds: 1.6)
        #expect(synthShakeSpans(sliver).isEmpty)
        #expect(abs(sliver.reduce(0) { $0 + $1.seconds } - 1.6) < 1e-9)
        let samples = try Synthesizer(seed: 1).render(script: sliver, sensor: SensorModel(rateHertz: 100))
        #expect(samples.synthShakeRuns.isEmpty)
        let magnitudes = samples.map { ($0.sample.x * $0.sample.x + $0.sample.y * $0.sample.y + $0.sample.z * $0.sample.z).squareRoot() }
        #expect(magnitudes.allSatisfy { abs($0 - 9.80665) < 0.5 })
        // 0.5 s is exactly two cycles: not under them, so a short shake, labelled.
        let twoCycles = synthShakeSpans(SynthScenario.shakes.script(seconds: 2))
        #expect(twoCycles.count == 1 && abs(twoCycles[0].upperBound - twoCycles[0].lowerBound - 0.5) < 1e-9)
        // 0.6 s is more than two cycles: a short shake, labelled.
        let short = SynthScenario.shakes.script(seconds: 2.1)
        #expect(synthShakeSpans(short).count == 1)
        #expect(try Synthesizer(seed: 1).render(script: short, sensor: SensorModel(rateHertz: 100)).synthShakeRuns.count == 1)
    }

    /// A length that ends where one of the script's segments ends (21.1 s is all of
    /// `pickUpPutDown`) gives the script up to there: the sums' rounding leaves no sliver of rest
    /// shorter than a segment may be (1 ms), which would fail to render.
    @Test(arguments: [18.1, 19.1, 21.1])
    func aLengthOnASegmentEndAddsNoSliver(seconds: Double) throws {
        let script = SynthScenario.pickUpPutDown.script(seconds: seconds)
        #expect(script.allSatisfy { $0.seconds >= 0.001 }, "\(script.map(\.seconds))")
        #expect(abs(script.reduce(0) { $0 + $1.seconds } - seconds) < 1e-9)
        let samples = try Synthesizer(seed: 1).render(script: script, sensor: SensorModel(rateHertz: 10))
        #expect(abs(Double(samples.count) - seconds * 10) <= 1)
    }

    /// Walking and running stand 2 s at each end, or a quarter of the length asked for when that
    /// is shorter; the gait takes the rest.
    @Test(arguments: [SynthScenario.walking(.hand), .walking(.bag), .running], [4.0, 7, 8, 30])
    func gaitScenariosStandAQuarterWhenShort(scenario: SynthScenario, seconds: Double) {
        let stand = min(2, seconds / 4)
        #expect(scenario.script(seconds: seconds).map(\.seconds) == [stand, seconds - 2 * stand, stand])
    }

    /// A recording padded past its script keeps the script's last rest as it was: a device held
    /// at the end stays in the hand (its tremor goes on), one lying on the table stays still.
    @Test(arguments: [(SynthScenario.shakes, true), (.tableTap, false)])
    func paddingGoesOnWithTheLastRest(scenario: SynthScenario, held: Bool) throws {
        let scriptEnd = scenario.script().reduce(0) { $0 + $1.seconds }
        let samples = try Synthesizer(seed: 1).render(
            script: scenario.script(seconds: scriptEnd + 3), sensor: synthIdealSensor(rateHertz: 100))
        let padding = samples.filter { $0.sample.time >= scriptEnd + 0.5 }
        #expect(padding.count > 200)
        let first = padding[0].sample
        let largestChange = padding.map {
            max(abs($0.sample.x - first.x), abs($0.sample.y - first.y), abs($0.sample.z - first.z))
        }.max()!
        // A hand's tremor is about 0.005 g (0.05 m/s²); a device lying still reads the same every time.
        if held {
            #expect(largestChange > 0.01, "\(largestChange) m/s²")
        } else {
            #expect(largestChange < 1e-9, "\(largestChange) m/s²")
        }
    }

    /// A tap cut before its knock (0.2 s into its segment) leaves the device lying still to the end.
    @Test func aTapCutBeforeItsKnockLeavesTheTableStill() throws {
        // `tableTap`: 1 s lying, a 1.5 s tap, then the next tap, here cut to 0.1 s.
        let script = SynthScenario.tableTap.script(seconds: 2.6)
        #expect(abs(script.reduce(0) { $0 + $1.seconds } - 2.6) < 1e-9)
        let samples = try Synthesizer(seed: 1).render(script: script, sensor: synthIdealSensor(rateHertz: 400))
        let cut = samples.filter { $0.sample.time >= 2.5 }
        #expect(cut.count == 40)
        #expect(cut.allSatisfy {
            abs($0.sample.x) < 1e-9 && abs($0.sample.y) < 1e-9 && abs($0.sample.z - standardGravity) < 1e-9
        })
    }

    @Test func longShakeIsOneSixSecondShake() {
        let spans = synthShakeSpans(SynthScenario.longShake.script())
        #expect(spans.count == 1)
        #expect(abs(spans[0].upperBound - spans[0].lowerBound - 6) < 1e-9)
    }

    @Test func sameMotionStaysShortEnoughForSixteenHundredHertz() {
        #expect(SynthScenario.sameMotion.script().reduce(0) { $0 + $1.seconds } <= 20)
    }

    @Test func demoSessionTypesThenShakes() {
        let script = SynthScenario.demoSession.script()
        let typing = script.firstIndex { if case .typing(let seconds, _) = $0 { seconds >= 5.5 } else { false } }
        let shake = script.firstIndex(where: \.isShake)
        #expect(typing != nil && shake != nil && typing! < shake!)
    }
}

@Suite struct SynthErrorTests {
    struct BadScript: Sendable, CustomTestStringConvertible {
        var script: [MotionSegment]
        var location: String
        var parameter: String
        var testDescription: String { "\(location) \(parameter)" }
    }

    static let badScripts = [
        BadScript(script: [], location: "script", parameter: "segments"),
        BadScript(
            script: [.rest(seconds: 1), .shake(frequencyHertz: 30, amplitudeG: 2, axis: .x, cycles: 4)],
            location: "segment 2 (shake)", parameter: "frequencyHertz"),
        // A shake in cycles of a frequency of 0 or NaN: its length (cycles / frequency) was
        // blamed, as "seconds", which it was not given.
        BadScript(
            script: [.shake(frequencyHertz: .nan, amplitudeG: 2, axis: .x, cycles: 3)],
            location: "segment 1 (shake)", parameter: "frequencyHertz"),
        BadScript(
            script: [.shake(frequencyHertz: 0, amplitudeG: 2, axis: .x, cycles: 3)],
            location: "segment 1 (shake)", parameter: "frequencyHertz"),
        BadScript(
            script: [.shake(frequencyHertz: 4, amplitudeG: .nan, axis: .x, cycles: 4)],
            location: "segment 1 (shake)", parameter: "amplitudeG"),
        BadScript(
            script: [.shake(ShakeMotion(frequencyHertz: 4, amplitudeG: 2, direction: SIMD3(0, 0, 0), seconds: 1))],
            location: "segment 1 (shake)", parameter: "direction length"),
        BadScript(script: [.rest(seconds: -1)], location: "segment 1 (rest)", parameter: "seconds"),
        BadScript(
            script: [.gait(GaitMotion(kind: .walk, placement: .hand, seconds: 5, stepHertz: 5))],
            location: "segment 1 (walk)", parameter: "stepHertz"),
        BadScript(
            script: [.tap(TapMotion(peakG: 3, atSeconds: 2, seconds: 1))],
            location: "segment 1 (tap)", parameter: "atSeconds"),
        BadScript(
            script: [.gait(GaitMotion(kind: .run, placement: .pocket, seconds: 5, stepHertz: 5))],
            location: "segment 1 (run)", parameter: "stepHertz"),
        BadScript(
            script: [.rest(seconds: 1), .pickUp(seconds: 1, to: .portrait, liftMeters: 1.5)],
            location: "segment 2 (pickUp)", parameter: "liftMeters"),
        BadScript(
            script: [.rest(seconds: 1), .putDown(seconds: 1, to: .flat, lowerMeters: -0.1)],
            location: "segment 2 (putDown)", parameter: "lowerMeters"),
        BadScript(
            script: [.typing(seconds: 2, tapsPerSecond: -1)], location: "segment 1 (typing)", parameter: "tapsPerSecond"),
    ]

    /// A parameter with its allowed range in its documentation (`ShakeMotion`, `TapMotion`).
    struct DocumentedRange: Sendable, CustomTestStringConvertible {
        var parameter: String
        var allowed: ClosedRange<Double>
        var segment: @Sendable (Double) -> MotionSegment
        var testDescription: String { "\(parameter) \(allowed)" }
    }

    static let documentedRanges = [
        DocumentedRange(parameter: "frequencyHertz", allowed: 1...12) {
            .shake(ShakeMotion(frequencyHertz: $0, amplitudeG: 2, direction: SIMD3(1, 0, 0), seconds: 1))
        },
        DocumentedRange(parameter: "amplitudeG", allowed: 0.1...8) {
            .shake(ShakeMotion(frequencyHertz: 4, amplitudeG: $0, direction: SIMD3(1, 0, 0), seconds: 1))
        },
        DocumentedRange(parameter: "crossAxisLeakage", allowed: 0...1) {
            .shake(ShakeMotion(frequencyHertz: 4, amplitudeG: 2, direction: SIMD3(1, 0, 0), seconds: 1, crossAxisLeakage: $0))
        },
        DocumentedRange(parameter: "frequencyWobble", allowed: 0...0.3) {
            .shake(ShakeMotion(frequencyHertz: 4, amplitudeG: 2, direction: SIMD3(1, 0, 0), seconds: 1, frequencyWobble: $0))
        },
        DocumentedRange(parameter: "peakG", allowed: 0.1...16) { .tap(TapMotion(peakG: $0)) },
    ]

    /// Each end of a documented range renders; a hundredth of the range past either end is
    /// refused, naming the parameter and the documented range.
    @Test(arguments: documentedRanges)
    func documentedRangesAreTheOnesAllowed(range: DocumentedRange) throws {
        let sensor = SensorModel(rateHertz: 20)
        for value in [range.allowed.lowerBound, range.allowed.upperBound] {
            #expect(try Synthesizer(seed: 1).render(script: [range.segment(value)], sensor: sensor).count == 20)
        }
        let past = (range.allowed.upperBound - range.allowed.lowerBound) / 100
        for value in [range.allowed.lowerBound - past, range.allowed.upperBound + past] {
            let error = #expect(throws: SynthesisError.self, "\(value)") {
                try Synthesizer(seed: 1).render(script: [range.segment(value)], sensor: sensor)
            }
            #expect(error?.parameter == range.parameter)
            #expect(error?.allowed == "\(range.allowed.lowerBound)…\(range.allowed.upperBound)")
        }
    }

    @Test(arguments: badScripts)
    func badScriptNamesTheSegmentAndParameter(bad: BadScript) {
        let error = #expect(throws: SynthesisError.self) {
            try Synthesizer(seed: 1).render(script: bad.script)
        }
        #expect(error?.location == bad.location)
        #expect(error?.parameter == bad.parameter)
        #expect(error?.description.contains(bad.parameter) == true)
    }

    @Test(arguments: [
        (SensorModel(rateHertz: 0), "rateHertz"), (SensorModel(rateHertz: .infinity), "rateHertz"),
        (SensorModel(jitterFraction: 1), "jitterFraction"), (SensorModel(noiseRMS: -1), "noiseRMS"),
        (SensorModel(clipG: 0), "clipG"), (SensorModel(quantizationStep: 0), "quantizationStep"),
        (SensorModel(startTime: -2e9), "startTime"),
    ])
    func badSensorNamesTheSetting(sensor: SensorModel, parameter: String) {
        let error = #expect(throws: SynthesisError.self) {
            try Synthesizer(seed: 1).render(script: [.rest(seconds: 1)], sensor: sensor)
        }
        #expect(error?.location == "sensor")
        #expect(error?.parameter == parameter)
    }
}
