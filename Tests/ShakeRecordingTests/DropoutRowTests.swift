import ShakeDetection
import ShakeRecording
import Testing

/// Of a dropout (samples lost for under the gap limit) only 0.2 s counts as seen quiet, and of a
/// row of dropouts (one to three samples kept between them) only 0.2 s in all: two dropouts
/// with a sample between had counted 0.4 s, the quiet that ends a shake, and the shake began
/// again. A FIFO batch is not such a row: a driver that stamps each batch once gives one sample
/// per batch period (its usual interval), and one that stamps them as it reads them out keeps
/// four or more samples between its pauses; their shakes end as before. And a dropout counts
/// no quiet once a sample after it passes the release threshold before the shake has ended.
@Suite struct DropoutRowTests {
    /// `scenario` rendered at `rate` Hz without jitter.
    static func samples(_ scenario: SynthScenario, rate: Double, seed: UInt64 = 1) throws -> [Sample] {
        try Synthesizer(seed: seed).render(
            script: scenario.script(), sensor: SensorModel(rateHertz: rate, jitterFraction: 0)
        ).map(\.sample)
    }

    static func phases(_ samples: [Sample]) -> [ShakeEvent.Phase] {
        var detector = ShakeDetector(configuration: .medium)
        var events = samples.compactMap { detector.process($0) }
        if let last = samples.last, let event = detector.interrupt(at: last.time) { events.append(event) }
        return events.map(\.phase)
    }

    /// The long shake (6 s, from 2 s) at 50, 100 and 400 Hz, with two dropouts of 0.17 or 0.19 s
    /// anywhere in its middle, one to three samples kept between them: one shake, begun once and
    /// ended once. (With each dropout counting 0.2 s of seen quiet, 31, 48 and 57 of the 1,146
    /// cuts at each rate fired twice.)
    @Test(arguments: [50.0, 100, 400])
    func twoDropoutsWithASampleOrThreeBetweenDoNotEndAShake(rate: Double) throws {
        let samples = try Self.samples(.longShake, rate: rate)
        try #require(Self.phases(samples) == [.began, .ended])
        var wrong: [String] = []
        var tried = 0
        for dropout in [0.17, 0.19] {
            for from in stride(from: 3.0, to: 7.0, by: 0.021) {
                for kept in 1...3 {
                    guard let resume = samples.firstIndex(where: { $0.time >= from + dropout }) else { continue }
                    let secondFrom = samples[resume + kept - 1].time
                    let survivors = samples.filter {
                        $0.time <= from || ($0.time >= from + dropout && $0.time <= secondFrom)
                            || $0.time >= secondFrom + dropout
                    }
                    tried += 1
                    let phases = Self.phases(survivors)
                    if phases != [.began, .ended] { wrong.append("from \(from) s, \(dropout) s, \(kept) kept: \(phases)") }
                }
            }
        }
        #expect(tried > 1000)
        #expect(wrong.isEmpty, "\(wrong.count) of \(tried) at \(rate) Hz: \(wrong.prefix(5))")
    }

    /// `shake synth shakes` at 100 Hz (5 shakes), its times stamped in FIFO batches of `batch`
    /// (0.12 to 0.24 s): each batch at its last sample's time, its samples 10 µs apart
    /// (`readOut`) or all at that time (the detector then keeps one per batch). Every shake that
    /// begins ends and none is cancelled as too long (with every pause a dropout in a row, none
    /// ended). Unspread, such a stream loses most shakes (1 to 3 of 5 begin here): that is what
    /// `BatchTimeSpreader` is for.
    @Test(arguments: [true, false], [12, 16, 24])
    func batchedStreamsStillEndTheirShakes(readOut: Bool, batch: Int) throws {
        let even = try Self.samples(.shakes, rate: 100)
        try #require(Self.phases(even).filter { $0 == .began }.count == 5)
        let batched = even.indices.map { index in
            let last = min(index / batch * batch + batch - 1, even.count - 1)
            var sample = even[index]
            sample.time = even[last].time + (readOut ? 0.00001 * Double(index % batch) : 0)
            return sample
        }
        let phases = Self.phases(batched)
        #expect(!phases.contains(.cancelled), "\(phases)")
        #expect(phases == Array(repeating: [ShakeEvent.Phase.began, .ended], count: phases.count / 2).flatMap { $0 },
                "\(phases)")
        let began = phases.filter { $0 == .began }.count
        #expect(began >= 1, "\(began) shakes")
    }

    /// `shake synth long-shake --shake-g 1.2 --shake-hz 2 --seed 5` (100 Hz): a gentle, slow
    /// shake from 2 to 8 s, its strokes a little over the onset.
    static func gentleSlowShake() throws -> [Sample] {
        let script = SynthScenario.longShake.script().map { segment in
            guard case .shake(var motion) = segment else { return segment }
            motion.frequencyHertz = 2
            motion.amplitudeG = 1.2
            return .shake(motion)
        }
        return try Synthesizer(seed: 5).render(script: script, sensor: SynthScenario.longShake.defaultSensor).map(\.sample)
    }

    /// A single dropout of 0.27 s that swallows a stroke, the strokes after it weak (under the
    /// onset for a while): the dropout counted 0.2 s of seen quiet, 0.2 s of weak samples after
    /// it made the 0.4 s that ends a shake, and the next strong stroke began it again. Motion
    /// seen after a dropout (a sample over the release threshold before the shake has ended)
    /// now takes the dropout's credit back. The case found (`Scripts/resample --drop 0.01
    /// --drop-run 45 --seed 64`; this one dropout alone does it), then the same dropout
    /// anywhere in the shake's middle (29 of 400 places fired twice before, none now).
    @Test func aDropoutThatSwallowsAStrokeDoesNotEndAGentleShake() throws {
        let samples = try Self.gentleSlowShake()
        try #require(Self.phases(samples) == [.began, .ended])
        let found = samples.filter { !(3.97 < $0.time && $0.time < 4.24) }
        #expect(Self.phases(found) == [.began, .ended])
        var wrong: [String] = []
        var tried = 0
        for from in stride(from: 3.0, to: 7.0, by: 0.01) {
            let survivors = samples.filter { !(from < $0.time && $0.time < from + 0.27) }
            tried += 1
            let phases = Self.phases(survivors)
            if phases != [.began, .ended] { wrong.append("from \(from) s: \(phases)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(tried): \(wrong.prefix(5))")
    }
}
