import ShakeDetection
import ShakeRecording
import Testing

/// A run of consecutive samples labelled `shake=1`: first and last sample times, s.
struct SynthLabelRun: Equatable {
    var first: Double
    var last: Double
}

extension Array where Element == LabeledSample {
    /// The runs of `isShake == true`, in order.
    var synthShakeRuns: [SynthLabelRun] {
        var runs: [SynthLabelRun] = []
        var inRun = false
        for labeled in self {
            if labeled.isShake == true {
                if inRun {
                    runs[runs.count - 1].last = labeled.sample.time
                } else {
                    runs.append(SynthLabelRun(first: labeled.sample.time, last: labeled.sample.time))
                }
                inRun = true
            } else {
                inRun = false
            }
        }
        return runs
    }

    /// Differences between consecutive sample times, s.
    var synthIntervals: [Double] {
        zip(dropFirst(), self).map { $0.sample.time - $1.sample.time }
    }
}

/// The [start, end) times of each shake segment of `script`, s.
func synthShakeSpans(_ script: [MotionSegment]) -> [Range<Double>] {
    var start = 0.0
    var spans: [Range<Double>] = []
    for segment in script {
        if segment.isShake { spans.append(start..<(start + segment.seconds)) }
        start += segment.seconds
    }
    return spans
}

func synthMedian(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A sensor without noise or averaging: the motion itself, sampled.
func synthIdealSensor(rateHertz: Double) -> SensorModel {
    SensorModel(rateHertz: rateHertz, noiseRMS: 0, averagesOverInterval: false)
}

@Suite struct SynthesizerTests {
    static let sensor = SensorModel(rateHertz: 100, jitterFraction: 0.3, noiseRMS: 0.05, quantizationStep: 0.001)

    @Test func sameSeedGivesBitIdenticalSamples() throws {
        let script = SynthScenario.mixed.script()
        let first = try Synthesizer(seed: 42).render(script: script, sensor: Self.sensor)
        let second = try Synthesizer(seed: 42).render(script: script, sensor: Self.sensor)
        #expect(first.count > 4000)
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentSamples() throws {
        let script = SynthScenario.mixed.script()
        let first = try Synthesizer(seed: 42).render(script: script, sensor: Self.sensor)
        let second = try Synthesizer(seed: 43).render(script: script, sensor: Self.sensor)
        let differing = zip(first, second).filter { $0.sample != $1.sample }.count
        #expect(differing > first.count * 9 / 10)
        // The labels follow the script, not the seed.
        #expect(first.synthShakeRuns.count == second.synthShakeRuns.count)
    }

    /// A recording can be streamed more than once (`shake synth` reads its first sample to see
    /// that there is one, then writes them all): every pass starts from the first sample and gives
    /// the same samples, whether made while another pass over the same recording is part-way or
    /// after it, and whether the recording is kept or made anew from the seed.
    @Test func everyPassOverARecordingGivesTheSameSamples() throws {
        let script = SynthScenario.shakes.script()
        let recording = try Synthesizer(seed: 5).samples(script: script, sensor: Self.sensor)
        var partway = recording.makeIterator()
        var first: [LabeledSample] = []
        for _ in 0..<100 {
            guard let labeled = partway.next() else { break }
            first.append(labeled)
        }
        #expect(first.count == 100)
        var whole: [LabeledSample] = []
        for labeled in recording { whole.append(labeled) }
        while let labeled = partway.next() { first.append(labeled) }
        var again: [LabeledSample] = []
        for labeled in recording { again.append(labeled) }
        var anew: [LabeledSample] = []
        for labeled in try Synthesizer(seed: 5).samples(script: script, sensor: Self.sensor) { anew.append(labeled) }
        #expect(whole.count > 2000)
        // The index of the first sample that differs from `whole`'s (or where one pass ends first).
        func firstDifference(_ pass: [LabeledSample]) -> Int? {
            let common = min(pass.count, whole.count)
            return pass == whole ? nil : (0..<common).first { pass[$0] != whole[$0] } ?? common
        }
        #expect(firstDifference(first) == nil, "a pass made while another was part-way")
        #expect(firstDifference(again) == nil, "a pass made after the others")
        #expect(firstDifference(anew) == nil, "the recording made anew from the seed")
        #expect(recording.underestimatedCount <= whole.count)
        #expect(abs(recording.duration - script.reduce(0) { $0 + $1.seconds }) < 1e-9)
    }

    /// `underestimatedCount` is the number of samples produced without jitter, and with jitter
    /// never more than it nor more than one less (at most one sample's jittered time can fall
    /// on either side of the end).
    @Test(arguments: [0.001, 0.01, 0.5, 1, 1.005, 2.37, 3.3])
    func underestimatedCountIsExactWithoutJitter(seconds: Double) throws {
        let scripts: [[MotionSegment]] = seconds < 0.003
            ? [[.rest(seconds: seconds)]]
            : [[.rest(seconds: seconds)], [.rest(seconds: seconds / 3), .rest(seconds: seconds * 2 / 3)]]
        for rate in [1.0, 3, 50, 100, 333, 1000, 20_000] {
            for script in scripts {
                let exact = try Synthesizer(seed: 1).samples(script: script, sensor: synthIdealSensor(rateHertz: rate))
                #expect(exact.underestimatedCount == Array(exact).count, "\(seconds) s at \(rate) Hz, \(script.count) segments")
                for jitter in [0.05, 0.9] {
                    var sensor = synthIdealSensor(rateHertz: rate)
                    sensor.jitterFraction = jitter
                    let jittered = try Synthesizer(seed: 1).samples(script: script, sensor: sensor)
                    let count = Array(jittered).count
                    #expect(jittered.underestimatedCount <= count, "\(seconds) s at \(rate) Hz, jitter \(jitter)")
                    #expect(jittered.underestimatedCount >= count - 1, "\(seconds) s at \(rate) Hz, jitter \(jitter)")
                }
            }
        }
        // The audit's cases: 1 s and 1.005 s at 100 Hz give 100 and 101 samples.
        let rest = { (seconds: Double) in try Synthesizer(seed: 1).samples(script: [.rest(seconds: seconds)], sensor: SensorModel(rateHertz: 100)) }
        #expect(try rest(1).underestimatedCount == 100)
        #expect(try rest(1.005).underestimatedCount == 101)
    }

    @Test(arguments: [SynthScenario.shakes, .clippedShake, .sameMotion, .longShake, .demoSession, .mixed])
    func labelsCoverExactlyTheShakeSegments(scenario: SynthScenario) throws {
        let script = scenario.script()
        let samples = try Synthesizer(seed: 3).render(script: script, sensor: Self.sensor)
        let spans = synthShakeSpans(script)
        #expect(!spans.isEmpty)
        #expect(samples.synthShakeRuns.count == spans.count)
        for labeled in samples {
            let inside = spans.contains { $0.contains(labeled.sample.time) }
            #expect(labeled.isShake == inside, "sample at \(labeled.sample.time) s")
        }
    }

    @Test(arguments: [GaitPlacement.hand, .pocket, .bag])
    func walkingIsNeverLabeledShake(placement: GaitPlacement) throws {
        let samples = try Synthesizer(seed: 9).render(
            script: SynthScenario.walking(placement).script(), sensor: Self.sensor)
        #expect(samples.count > 2900)
        #expect(samples.allSatisfy { $0.isShake == false })
    }

    @Test(arguments: [25.0, 50, 100, 400, 1600], [0.0, 0.5, 0.9])
    func timesFollowTheRateAndJitter(rateHertz: Double, jitterFraction: Double) throws {
        let sensor = SensorModel(rateHertz: rateHertz, jitterFraction: jitterFraction, startTime: 100)
        let script: [MotionSegment] = [.rest(seconds: 4, held: true)]
        let samples = try Synthesizer(seed: 11).render(script: script, sensor: sensor)
        let intervals = samples.synthIntervals
        let nominal = 1 / rateHertz
        #expect(intervals.allSatisfy { $0 > 0 }, "times strictly increasing")
        #expect(abs(synthMedian(intervals) - nominal) <= 0.02 * nominal + 1e-6)
        #expect(abs(Double(samples.count) - 4 * rateHertz) <= 1)
        #expect(samples[0].sample.time >= 100 && samples.last!.sample.time < 104)
        // Uniform jitter of width j: successive differences spread with σ = j / √6 intervals.
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let spread = (intervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(intervals.count)).squareRoot()
        let expected = jitterFraction / 6.0.squareRoot() * nominal
        #expect(abs(spread - expected) <= 0.15 * expected + 1e-6, "interval spread \(spread) s")
    }

    @Test(arguments: [0.01, 0.05, 0.3])
    func noiseHasTheRequestedRMS(noiseRMS: Double) throws {
        let sensor = SensorModel(rateHertz: 200, noiseRMS: noiseRMS, averagesOverInterval: false)
        let samples = try Synthesizer(seed: 2).render(script: [.rest(seconds: 10, orientation: .flat)], sensor: sensor)
        for axis in [\Sample.x, \.y, \.z] {
            let values = samples.map { $0.sample[keyPath: axis] }
            let mean = values.reduce(0, +) / Double(values.count)
            let rms = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
            #expect(abs(rms - noiseRMS) < 0.05 * noiseRMS)
        }
    }

    @Test func clippingHoldsEveryAxisWithinTheRange() throws {
        let script = SynthScenario.clippedShake.script()
        let limit = 2 * standardGravity
        let clipped = try Synthesizer(seed: 4).render(script: script, sensor: SensorModel(rateHertz: 50, clipG: 2))
        let values = clipped.flatMap { [$0.sample.x, $0.sample.y, $0.sample.z] }
        #expect(values.allSatisfy { abs($0) <= limit })
        #expect(values.filter { abs($0) == limit }.count >= 10, "the shakes saturate the sensor")
        let unclipped = try Synthesizer(seed: 4).render(script: script, sensor: SensorModel(rateHertz: 50))
        #expect(unclipped.contains { max(abs($0.sample.x), abs($0.sample.y), abs($0.sample.z)) > 1.3 * limit })
    }

    /// Quantisation rounds every value to the nearest multiple of the step: within half a step
    /// of what the same sensor reads without it.
    @Test func quantisationRoundsToTheStep() throws {
        let step = 9.80665 / 1024  // ±16 g over 15 bits
        let sensor = SensorModel(rateHertz: 100, quantizationStep: step)
        let samples = try Synthesizer(seed: 6).render(script: SynthScenario.longShake.script(), sensor: sensor)
        var unquantised = sensor
        unquantised.quantizationStep = nil
        let exact = try Synthesizer(seed: 6).render(script: SynthScenario.longShake.script(), sensor: unquantised)
        #expect(samples.count == exact.count)
        for (labeled, want) in zip(samples, exact) {
            for axis in [\Sample.x, \.y, \.z] {
                let value = labeled.sample[keyPath: axis]
                let steps = value / step
                #expect(abs(steps - steps.rounded()) < 1e-6)
                #expect(abs(value - want.sample[keyPath: axis]) <= step / 2 * (1 + 1e-9), "at \(labeled.sample.time) s")
            }
        }
    }

    @Test func theSameScriptIsTheSameMotionAtEveryRate() throws {
        let script = SynthScenario.sameMotion.script()
        let fine = try Synthesizer(seed: 8).render(script: script, sensor: synthIdealSensor(rateHertz: 1600))
        for rate in [25.0, 50, 100, 400] {
            let coarse = try Synthesizer(seed: 8).render(script: script, sensor: synthIdealSensor(rateHertz: rate))
            let step = Int(1600 / rate)
            for (index, labeled) in coarse.enumerated() {
                let match = fine[index * step]
                #expect(abs(match.sample.time - labeled.sample.time) < 1e-6)
                // Every axis: the second shake lies mostly along y, and the device is held upright.
                #expect(abs(match.sample.x - labeled.sample.x) < 1e-9 && abs(match.sample.y - labeled.sample.y) < 1e-9
                        && abs(match.sample.z - labeled.sample.z) < 1e-9, "at \(rate) Hz, \(labeled.sample.time) s")
                #expect(match.isShake == labeled.isShake)
            }
            #expect(coarse.synthShakeRuns.count == 3)
        }
    }

    @Test func sensorAveragingIsTheMotionSmoothedOverOneInterval() throws {
        // A 6 Hz shake seen at 25 Hz: averaging over 40 ms keeps sinc(π · 6 · 0.04) ≈ 93 % of it.
        let script: [MotionSegment] = [
            .rest(seconds: 1, orientation: .portrait), .shake(frequencyHertz: 6, amplitudeG: 3, axis: .x, cycles: 18),
        ]
        let averaged = try Synthesizer(seed: 1).render(script: script, sensor: SensorModel(rateHertz: 25, noiseRMS: 0))
        let ideal = try Synthesizer(seed: 1).render(script: script, sensor: synthIdealSensor(rateHertz: 25))
        let peakAveraged = averaged.map { abs($0.sample.x) }.max()!
        let peakIdeal = ideal.map { abs($0.sample.x) }.max()!
        #expect(peakAveraged < peakIdeal)
        #expect(peakAveraged > 0.8 * peakIdeal)
    }
}
