import ShakeDetection
import Testing

/// The detector under hostile sample streams (issue 7): whatever it is fed, its events keep their
/// contract (began, then exactly one ended or cancelled; finite times), and a burst of garbage
/// does not stop it from recognising the next real shake.
@Suite struct RobustnessTests {
    /// Checks the event contract on every call and counts shakes.
    struct Checker {
        var detector: ShakeDetector
        var shaking = false
        var began = 0
        var problems: [String] = []

        init(_ configuration: ShakeConfiguration) { detector = ShakeDetector(configuration: configuration) }

        mutating func feed(_ sample: Sample) { check(detector.process(sample), at: sample.time) }

        mutating func interrupt(at time: Double) { check(detector.interrupt(at: time), at: time) }

        mutating func check(_ event: ShakeEvent?, at time: Double) {
            if let event {
                if event.cancellationReason == .timeWentBackwards {
                    // Timed at the last sample before the jump, on the clock its shake began on.
                    if !(event.time > time && event.time >= event.endTime) {
                        problems.append("clock-reset cancellation at \(event.time) for input at \(time)")
                    }
                } else if event.time != time {
                    problems.append("event at \(event.time) for input at \(time)")
                }
                if !(event.startTime.isFinite && event.endTime.isFinite && event.peakAcceleration.isFinite) {
                    problems.append("non-finite event \(event)")
                }
                if (event.phase == .cancelled) != (event.cancellationReason != nil) {
                    problems.append("reason on the wrong phase \(event)")
                }
                switch event.phase {
                case .began:
                    if shaking { problems.append("began twice at \(time)") }
                    shaking = true
                    began += 1
                case .ended, .cancelled:
                    if !shaking { problems.append("\(event.phase) without began at \(time)") }
                    shaking = false
                }
            }
            if detector.isShaking != shaking { problems.append("isShaking disagrees at \(time)") }
        }
    }

    /// Clean motion with shakes, spoilt every few samples by one kind of bad input.
    static let spoilers: [(name: String, every: Int)] = [
        ("NaN and infinity, in values and times", 7), ("time backwards", 450), ("duplicate time", 5), ("gap of an hour", 900),
        ("interrupt", 333), ("everything", 3),
    ]

    @Test(arguments: 0..<spoilers.count, ShakeConfiguration.presetNames)
    func spoiltStreamsKeepTheEventContract(spoiler: Int, preset: String) throws {
        let configuration = try #require(ShakeConfiguration.preset(named: preset))
        let motion = Motion(shakes: (0..<8).map { i in
            Motion.Shake(start: 2 + 6 * Double(i), duration: 2, frequency: 3 + Double(i % 3),
                         amplitude: 30, direction: unit(1, Double(i % 2), 0))
        }, noise: 0.1)
        let clean = motion.samples(duration: 52, rate: 100, jitter: 0.3)
        var random = SplitMix(seed: UInt64(spoiler + 1))
        var checker = Checker(configuration)
        var offset = 0.0
        let (name, every) = Self.spoilers[spoiler]
        // Shakes found before the first bad input: the stream's first shake may come before it.
        var beganBeforeSpoiling: Int?
        for (i, sample) in clean.enumerated() {
            var s = sample
            s.time += offset
            checker.feed(s)
            guard i % every == every - 1 else { continue }
            if beganBeforeSpoiling == nil { beganBeforeSpoiling = checker.began }
            let kind = name == "everything" ? Int(random.next() % 5) : spoiler
            switch kind {
            case 0:
                checker.feed(Sample(time: s.time + 0.001, x: .nan, y: .infinity, z: -.infinity))
                // A NaN or infinite time with sane acceleration (found by the detector fuzzer:
                // a NaN time once slipped past the interval test into the half-wave state).
                for time in [Double.nan, .infinity, -.infinity] {
                    checker.feed(Sample(time: time, x: s.x, y: s.y, z: s.z))
                }
            case 1: offset -= 3  // the rest of the stream is 3 s earlier
            case 2: checker.feed(Sample(time: s.time, x: 1e3, y: -1e3, z: 0))
            case 3: offset += 3600
            default: checker.interrupt(at: s.time)
            }
        }
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
        if name != "everything" {  // a restart every 15 samples on average leaves no shake whole
            let before = beganBeforeSpoiling ?? 0
            #expect(checker.began > before, "the shakes still get through: \(checker.began) began, \(before) before the first \(name)")
        }
    }

    /// The implausible-acceleration rule is per axis: a sample is ignored when one axis lies
    /// beyond ±`implausibleAcceleration` (10⁴ m/s²), by however little, and used when every axis
    /// is within it, however large the vector. (The detector first compares |a|² with the
    /// limit's square and tests the axes only past it.) A used sample moves the linear
    /// acceleration; an ignored one leaves it as it was.
    @Test(arguments: [
        // (x, y, z, used)
        (1e4, 0.0, 0.0, true), (0.0, -1e4, 0.0, true), (1e4, 1e4, 1e4, true), (9e3, -9e3, 9e3, true),
        (1e4.nextUp, 0.0, 0.0, false), (0.0, 0.0, (-1e4).nextDown, false), (1.0, 1e4.nextUp, 1.0, false),
        (9e3, 9e3, 1e4.nextUp, false), (Double.nan, 0.0, 0.0, false), (0.0, Double.infinity, 0.0, false),
    ])
    func implausibleAccelerationIsJudgedPerAxis(x: Double, y: Double, z: Double, used: Bool) {
        var detector = ShakeDetector()
        for i in 0..<50 { _ = detector.process(Sample(time: Double(i) / 100, x: 0, y: 0, z: standardGravity)) }
        let before = detector.linearAcceleration
        _ = detector.process(Sample(time: 0.5, x: x, y: y, z: z))
        let after = detector.linearAcceleration
        let moved = after.x != before.x || after.y != before.y || after.z != before.z
        #expect(moved == used, "(\(x), \(y), \(z)): linear acceleration \(before) -> \(after)")
    }

    /// One sample of absurd but finite magnitude (a corrupt reading, a wrong scale) must not
    /// silence the detector: 29 s after it, once the stream is sane again, a clear shake is
    /// recognised. (Found by fuzzing: the gravity estimate used to absorb the spike and take
    /// τ·ln(M / onset) to recover, about 2 min for 1e150 m/s², and never past about 1.3e154 m/s²
    /// where squares overflow. Such samples are now ignored, like NaN ones.)
    @Test(arguments: [1e6, 1e20, 1e30, 1e150, 1e200, Double.greatestFiniteMagnitude])
    func absurdSampleDoesNotSilenceTheDetector(magnitude: Double) {
        let motion = Motion(shakes: [.init(start: 30, duration: 2.5, frequency: 4, amplitude: 30, direction: (1, 0, 0))],
                            noise: 0.05)
        var samples = motion.samples(duration: 36, rate: 100)
        let bad = samples.firstIndex { $0.time >= 1 }!
        samples[bad].x = magnitude
        samples[bad].y = -magnitude
        let result = events(samples)
        #expect(result.allSatisfy { $0.peakAcceleration.isFinite && $0.time.isFinite })
        #expect(result.contains { $0.phase == .began && $0.time > 30 && $0.time < 32.5 },
                "\(result.map { "\($0.phase)@\($0.time)" })")
    }

    /// An absurd finite sample in the middle of a shake: the events keep finite values (a peak of
    /// +infinity would, for one, not encode as JSON). Found by the detector fuzzer
    /// (Fuzz/Corpus/detector/absurd-value-during-shake: x = -5.5e303 m/s² during a shake gave a
    /// `cancelled` event with `peakAcceleration: inf`.)
    @Test(arguments: [1e30, 1e160, -5.5e303])
    func absurdSampleDuringAShakeKeepsEventValuesFinite(magnitude: Double) {
        let motion = Motion(shakes: [.init(start: 1, duration: 3, frequency: 4, amplitude: 30, direction: (1, 0, 0))],
                            noise: 0.05)
        var samples = motion.samples(duration: 6, rate: 100)
        let bad = samples.firstIndex { $0.time >= 2.5 }!
        samples[bad].x = magnitude
        var detector = ShakeDetector()
        var result = samples.compactMap { detector.process($0) }
        // The stream stops (the app goes to the background): whatever is in progress is cancelled.
        if let last = detector.interrupt(at: 6) { result.append(last) }
        #expect(result.first?.phase == .began, "the shake began before the absurd sample")
        #expect(result.count == 2, "began, then ended or cancelled: \(result.map(\.phase))")
        #expect(result.allSatisfy { $0.peakAcceleration.isFinite && $0.startTime.isFinite && $0.endTime.isFinite },
                "\(result)")
    }

    /// Timestamps so large that 40 ms is lost in their rounding (a clock in nanoseconds fed as
    /// seconds: 10¹⁵ s, where neighbouring doubles are 0.125 s apart). The detector must keep
    /// going: each sample is answered at once and a shake is still recognised, unsmoothed.
    /// (Found by the detector fuzzer in CI: the moving average looped forever on such times,
    /// Fuzz/Corpus/detector/time-beyond-window-precision.)
    @Test func timesTooLargeForTheSmoothingWindowDoNotHang() {
        let start = 1e15
        var checker = Checker(.medium)
        // 8 samples a second, the finest these times can tell apart; a 2 Hz shake of 3 g.
        for i in 0..<200 {
            let t = Double(i) / 8
            let shake = t >= 10 && t < 16 ? 30 * sin2pi(2 * t) : 0
            checker.feed(Sample(time: start + t, x: shake, y: 0, z: standardGravity))
        }
        #expect(checker.problems.isEmpty, "\(checker.problems)")
        #expect(checker.began == 1)
    }

    /// At 10¹⁷ s neighbouring times are 16 s apart, so `t + 0.5` (the end of an ongoing-motion
    /// block) rounds to `t`: with gaps of up to 100 s allowed, every sample closes a block (of
    /// one sample interval) and the stream goes on.
    @Test func timesTooLargeForTheMotionBlocksDoNotHang() {
        var configuration = ShakeConfiguration.medium
        configuration.maximumGapSeconds = 100
        var checker = Checker(configuration)
        for i in 0..<100 {
            let t = 1e17 + 16 * Double(i)
            checker.feed(Sample(time: t, x: 5 * sin2pi(Double(i) / 3), y: 0, z: standardGravity))
        }
        #expect(checker.problems.isEmpty, "\(checker.problems)")
        #expect(checker.began == 0)
    }

    /// `ShakeDetector(configuration:)` does not validate (a detector is often made where nothing
    /// may throw): with a configuration `validate()` rejects the events mean nothing, but a
    /// device must not crash. These trapped: a NaN or negative time constant in `expNegative`
    /// (`Int(k)` of NaN or −∞), and `minimumHalfWaves` of `Int.min` (`− 1` overflowed) or below 0
    /// (`UInt64(n)`).
    static let invalidConfigurations: [(String, @Sendable (inout ShakeConfiguration) -> Void)] = [
        ("linearityTimeConstantSeconds NaN", { $0.linearityTimeConstantSeconds = .nan }),
        ("linearityTimeConstantSeconds −1e-300", { $0.linearityTimeConstantSeconds = -1e-300 }),
        ("minimumHalfWaves Int.min", { $0.minimumHalfWaves = .min }),
        ("minimumHalfWaves −1", { $0.minimumHalfWaves = -1 }),
    ]

    @Test(arguments: 0..<invalidConfigurations.count)
    func anInvalidConfigurationDoesNotTrap(index: Int) {
        let (name, change) = Self.invalidConfigurations[index]
        var configuration = ShakeConfiguration.medium
        change(&configuration)
        #expect(throws: ShakeConfigurationError.self, "\(name)") { try configuration.validate() }
        let motion = Motion(gravity: gravityReading(up: (0, 0, 1)),
                            shakes: [.init(start: 1, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity,
                                           direction: unit(1, 0, 0))],
                            noise: 0.05)
        var detector = ShakeDetector(configuration: configuration)
        var explanation = ShakeExplanation()
        for sample in motion.samples(duration: 4, rate: 100) {
            _ = detector.process(sample, explanation: &explanation)
        }
        _ = detector.interrupt(at: 4)
    }
}
