import ShakeDetection
import ShakeRecording
import Testing

/// A gentle shake (1.2 to 1.5 g) reads near the onset threshold: some of its strokes dip under
/// it for a moment. Such a shake must still fire once: until the continuation threshold (a shake
/// under way goes on from halfway between the release and onset thresholds), the quiet under the
/// onset ended it and the next strokes began it again, one shake fired twice (40 of 2,160 such
/// recordings of `shake synth` at 25 to 1600 Hz).
@Suite struct GentleShakeTests {
    /// `shake synth long-shake` (one 6 s shake) with every shake made `g` at `hertz`, read by a
    /// sensor at `rate` with the given timing jitter.
    static func events(hertz: Double, g: Double, rate: Double, seed: UInt64, jitter: Double) throws -> [ShakeEvent] {
        let script = SynthScenario.longShake.script().map { segment in
            guard case .shake(var motion) = segment else { return segment }
            motion.frequencyHertz = hertz
            motion.amplitudeG = g
            return .shake(motion)
        }
        let samples = try Synthesizer(seed: seed).render(
            script: script, sensor: SensorModel(rateHertz: rate, jitterFraction: jitter))
        var detector = ShakeDetector(configuration: .medium)
        var events = samples.compactMap { detector.process($0.sample) }
        if let last = samples.last, let event = detector.interrupt(at: last.sample.time) { events.append(event) }
        return events
    }

    /// The shake that fired twice at 25 Hz (6 Hz, 1.5 g, 90 % jitter): its strokes read 10 to
    /// 13 m/s², and from 4.1 to 4.6 s none reached the 10 m/s² onset. Now one shake, from its
    /// first strokes to its last.
    @Test func aGentleShakeThatDipsUnderTheOnsetFiresOnce() throws {
        let events = try Self.events(hertz: 6, g: 1.5, rate: 25, seed: 1, jitter: 0.9)
        #expect(events.map(\.phase) == [.began, .ended], "\(events.map { ($0.phase, $0.time) })")
        let ended = try #require(events.last)
        #expect(ended.startTime < 3 && ended.endTime > 7.5, "shaking from \(ended.startTime) to \(ended.endTime) s")
    }

    /// Gentle long shakes over rates, seeds and jitter: none begins twice, and every one that
    /// begins ends (the 6 s shake is well within the 10 s limit).
    @Test(arguments: [1.2, 1.5], [5.0, 6, 7, 8])
    func aGentleLongShakeNeverFiresTwice(g: Double, hertz: Double) throws {
        var found = 0
        var runs = 0
        for rate in [25.0, 50, 100, 400] {
            for seed in UInt64(1)...3 {
                for jitter in [0, 0.5, 0.9] {
                    let events = try Self.events(hertz: hertz, g: g, rate: rate, seed: seed, jitter: jitter)
                    let phases = events.map(\.phase)
                    #expect(phases.isEmpty || phases == [.began, .ended],
                            "\(g) g, \(hertz) Hz at \(rate) Hz, seed \(seed), jitter \(jitter): \(phases)")
                    runs += 1
                    if phases == [.began, .ended] { found += 1 }
                }
            }
        }
        // The shakes are there to be found: at 1.5 g nearly all are (a control; at 1.2 g, under
        // the onset after smoothing at some rates, many are not).
        if g == 1.5 { #expect(found >= runs * 9 / 10, "found \(found) of \(runs)") }
    }
}
