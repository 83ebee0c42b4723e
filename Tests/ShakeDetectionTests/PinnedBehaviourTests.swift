import Testing
import ShakeDetection

/// Behaviour that a mutation sweep of the detector found no test pinned: each test fails when
/// the decision it names is changed (a comparison flipped, a reset dropped, a term left out),
/// and says what a user would see.
@Suite struct PinnedBehaviourTests {
    /// A shake cancelled as too long waits for a pause of `quietSeconds`; after it, the next
    /// shake begins and ends as usual (the wait does not last for ever).
    @Test(arguments: [25.0, 100, 400])
    func aShakeAfterATooLongOneAndAPauseIsFound(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.maximumShakeSeconds = 2
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 4, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 6.5, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
        ]
        let result = events(m.samples(duration: 10, rate: rate), configuration: configuration)
        try #require(result.map(\.phase) == [.began, .cancelled, .began, .ended], "at \(rate) Hz: \(result)")
        #expect(result[1].cancellationReason == .tooLong)
        #expect(result[2].startTime > 6.4 && result[2].time < 7.2, "at \(rate) Hz: \(result[2])")
    }

    /// The pause that ends the wait after a shake cancelled as too long is seen as it comes,
    /// calm samples included, and the refractory period runs from its end, not from the next
    /// stroke: with `refractorySeconds` 1, a shake 1.5 s after a too-long one stopped begins as
    /// it would on a fresh detector (about 0.4 s in), not once a second has passed since it
    /// started.
    @Test(arguments: [25.0, 100, 400])
    func theWaitAfterATooLongShakeEndsWithThePause(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.maximumShakeSeconds = 2
        configuration.refractorySeconds = 1
        let second = Motion.Shake(start: 6.5, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))
        var m = Motion(noise: 0.05)
        m.shakes = [.init(start: 1, duration: 4, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)), second]
        let result = events(m.samples(duration: 10, rate: rate), configuration: configuration)
        try #require(result.map(\.phase) == [.began, .cancelled, .began, .ended], "at \(rate) Hz: \(result)")
        #expect(result[1].cancellationReason == .tooLong)
        var alone = Motion(noise: 0.05)
        alone.shakes = [second]
        let fresh = try #require(events(alone.samples(duration: 10, rate: rate), configuration: configuration).first)
        #expect(abs(result[2].time - fresh.time) <= 0.05, "at \(rate) Hz: began at \(result[2].time), on a fresh detector at \(fresh.time)")
    }

    /// Two samples exactly `maximumGapSeconds` apart are not a gap: only more than that is. At
    /// 128 Hz (times exact in binary), 63 samples lost in a shake leave an interval of exactly
    /// 0.5 s: one shake, `began` and `ended`; one sample more lost, and it is cancelled with `.gap`.
    @Test func samplesExactlyTheGapLimitApartAreNotAGap() throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let samples = ShakeDetectorTests.motion(c, duration: 4).samples(duration: 7, rate: 128)
        func losing(_ lost: Int) -> (events: [ShakeEvent], longest: Double) {
            let kept = samples.enumerated().filter { $0.offset <= 320 || $0.offset > 320 + lost }.map(\.element)
            return (events(kept), zip(kept, kept.dropFirst()).map { $1.time - $0.time }.max() ?? 0)
        }
        let atLimit = losing(63)
        try #require(atLimit.longest == ShakeConfiguration.default.maximumGapSeconds)
        #expect(atLimit.events.map(\.phase) == [.began, .ended], "\(atLimit.events)")
        let over = losing(64)
        #expect(over.longest > ShakeConfiguration.default.maximumGapSeconds)
        #expect(over.events.map(\.phase).prefix(2) == [.began, .cancelled])
        #expect(over.events.dropFirst().first?.cancellationReason == .gap)
    }

    /// Of a dropout after the last stroke, `quietSeconds / 2` counts as quiet, but never less
    /// than 0.1 s: with `quietSeconds` 0.1, a dropout of 0.3 s beginning 0.02 to 0.03 s after the
    /// shake's last half-wave ended brings 0.1 s of quiet, so `ended` comes with the first
    /// sample after it (with only 0.05 s counted, some 0.03 s later).
    @Test(arguments: [100.0, 400])
    func aDropoutCountsAsAtLeastATenthOfASecondOfQuiet(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.quietSeconds = 0.1
        try configuration.validate()
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let samples = ShakeDetectorTests.motion(c).samples(duration: 5, rate: rate)
        let end = try #require(events(samples, configuration: configuration).last { $0.phase == .ended }).endTime
        let kept = samples.filter { $0.time <= end + 0.03 || $0.time >= end + 0.33 }
        let resumed = try #require(kept.first { $0.time >= end + 0.33 })
        let result = events(kept, configuration: configuration)
        #expect(result.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(result)")
        #expect(result.last?.endTime == end)
        #expect(result.last?.time == resumed.time, "at \(rate) Hz: ended at \(result.last?.time ?? .nan), the dropout ended at \(resumed.time)")
    }

    /// A shake's half-waves do not carry over into the next shake: with `quietSeconds` (0.15 s)
    /// shorter than `maximumReversalIntervalSeconds` and no refractory period, a single stroke
    /// against the shake's last, starting just after `ended` and peaking about 0.3 s after the
    /// last peak, starts a chain of its own (nothing before it to link to) and is no shake.
    @Test(arguments: [100.0, 400])
    func aStrokeRightAfterAShakeEndsStartsAChainOfItsOwn(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.quietSeconds = 0.15
        configuration.refractorySeconds = 0
        try configuration.validate()
        var m = Motion(noise: 0.05)
        // Ends on a half-wave along −x, peaking at 1.94 s.
        m.shakes = [.init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))]
        let shakeAlone = events(m.samples(duration: 3, rate: rate), configuration: configuration)
        try #require(shakeAlone.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(shakeAlone)")
        try #require(shakeAlone[1].time < 2.2, "at \(rate) Hz: ended at \(shakeAlone[1].time)")
        m.pulses = [(2.2, 0.1, 20, (1, 0, 0))]
        var detector = ShakeDetector(configuration: configuration)
        var result: [ShakeEvent] = []
        var links: [ShakeExplanation.Link] = []
        for sample in m.samples(duration: 3, rate: rate) {
            var explanation = ShakeExplanation()
            if let event = detector.process(sample, explanation: &explanation) { result.append(event) }
            if let halfWave = explanation.halfWave, halfWave.startTime > 2.1 { links.append(halfWave.link) }
        }
        #expect(result == shakeAlone, "at \(rate) Hz: \(result)")
        #expect(links == [.nothingBefore], "at \(rate) Hz: \(links)")
    }

    /// A clock reset right after a shake ended keeps what was left of the refractory period, on
    /// the new clock: with `refractorySeconds` 1.3, a shake that starts 0.3 s after the clock went back
    /// (after a still start) begins only once that remainder has passed, not some 0.3 s sooner.
    @Test func theRefractoryPeriodLeftCarriesOverAClockReset() throws {
        var configuration = ShakeConfiguration.default
        configuration.refractorySeconds = 1.3
        var first = Motion(noise: 0.05)
        first.shakes = [.init(start: 1, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))]
        var second = Motion(noise: 0.05)
        second.shakes = [.init(start: 0.3, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))]
        let before = first.samples(duration: 3.2, rate: 100)
        let after = second.samples(duration: 3, rate: 100, seed: 2)  // from 0 again
        let result = events(before + after, configuration: configuration)
        try #require(result.map(\.phase) == [.began, .ended, .began, .ended], "\(result)")
        let left = result[1].time + 1.3 - before.last!.time
        #expect(left > 0.8 && left < 1.2)
        #expect(result[2].time >= after[0].time + left, "began at \(result[2].time) on the new clock, refractory until \(left)")
        #expect(result[2].time < after[0].time + left + 0.15)
    }

    /// A gap (samples more than `maximumGapSeconds` apart) restarts the filters but not the
    /// refractory period: with `refractorySeconds` 1.6, a shake that starts 0.25 s after the samples
    /// resume (0.6 s after the last) begins only once the refractory period from `ended` has passed.
    @Test func theRefractoryPeriodOutlastsAGap() throws {
        var configuration = ShakeConfiguration.default
        configuration.refractorySeconds = 1.6
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 3.85, duration: 1.5, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
        ]
        let samples = m.samples(duration: 6, rate: 100).filter { $0.time < 3.0 || $0.time >= 3.6 }
        let result = events(samples, configuration: configuration)
        try #require(result.map(\.phase) == [.began, .ended, .began, .ended], "\(result)")
        let refractoryEnd = result[1].time + 1.6
        #expect(refractoryEnd > 4.4, "ended at \(result[1].time)")
        #expect(result[2].time >= refractoryEnd, "began at \(result[2].time), refractory until \(refractoryEnd)")
        #expect(result[2].time < refractoryEnd + 0.15)
    }

    /// A chain held back by a rule other than the rhythm's (here a 2 s refractory period) is
    /// dated, when it at last begins a shake, from its own first half-wave, with all its
    /// reversals: only a chain the rhythm rule refused is cut to the rule's window.
    @Test(arguments: [25.0, 100, 400])
    func aShakeHeldBackByTheRefractoryPeriodIsDatedFromItsStart(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.refractorySeconds = 2
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 3, duration: 3, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
        ]
        let result = events(m.samples(duration: 8, rate: rate), configuration: configuration)
        try #require(result.map(\.phase) == [.began, .ended, .began, .ended], "at \(rate) Hz: \(result)")
        let began = result[2]
        #expect(began.time >= result[1].time + 2, "at \(rate) Hz: began at \(began.time)")
        // About 1.4 s of strokes, 8 a second, before the refractory period ends.
        #expect(abs(began.startTime - 3) < 0.1, "at \(rate) Hz: dated from \(began.startTime)")
        #expect(began.reversals >= 10, "at \(rate) Hz: \(began.reversals) reversals")
    }

    /// A shake that begins after irregular motion is dated from the rhythm rule's window, and
    /// its reversals are those of the half-waves from there on, the one under way included: one
    /// fewer than the strokes between its `startTime` and `began`. (The strokes of
    /// `ShakeDetectorTests.aSteadyShakeAfterIrregularMotionIsDatedFromItsOwnStart`.)
    @Test(arguments: [3.0, 8.0])
    func aShakeDatedFromTheRhythmWindowCountsItsReversalsFromThere(irregularSeconds: Double) throws {
        let (lobes, samples, _) = ShakeDetectorTests.irregularThenSteadyStrokes(irregularSeconds: irregularSeconds)
        let began = try #require(events(samples).first)
        try #require(began.phase == .began)
        // The lobe whose half-wave starts the shake (a half-wave starts a little after its lobe),
        // and those up to the one under way at `began`.
        let strokes = lobes.filter { $0.start > began.startTime - 0.05 && $0.start < began.time }.count
        #expect(began.reversals == strokes - 1,
                "dated from \(began.startTime), began at \(began.time): \(began.reversals) reversals, \(strokes) strokes")
    }

    /// `began`'s `peakAcceleration` includes the half-wave under way when the shake begins:
    /// strokes of 13 m/s² held back by a 1.5 s refractory period, which ends during the first of
    /// stronger strokes (40 m/s²), begin a shake whose peak is the strong stroke's so far
    /// (over 20 m/s²), not the weak strokes' (about 13).
    @Test(arguments: [100.0, 400])
    func theBeganPeakIncludesTheHalfWaveUnderWay(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.refractorySeconds = 1.5
        var m = Motion(noise: 0.05)
        m.shakes = [.init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))]
        let first = events(m.samples(duration: 4, rate: rate), configuration: configuration)
        try #require(first.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(first)")
        let refractoryEnd = first[1].time + 1.5
        // Lobes 0.125 s wide, alternating in sign, the strong ones from the one whose peak comes
        // as the refractory period ends.
        let strongStart = refractoryEnd - 0.0625
        var t = strongStart - 8 * 0.125
        var k = 0
        while t < strongStart + 1 {
            m.pulses.append((t, 0.125, (k % 2 == 0 ? 1 : -1) * (t < strongStart - 0.001 ? 13 : 40), (1, 0, 0)))
            t += 0.125
            k += 1
        }
        let result = events(m.samples(duration: 6, rate: rate), configuration: configuration)
        try #require(result.map(\.phase) == [.began, .ended, .began, .ended], "at \(rate) Hz: \(result)")
        let began = result[2]
        #expect(began.time >= refractoryEnd && began.time < refractoryEnd + 0.06, "at \(rate) Hz: began at \(began.time)")
        #expect(began.peakAcceleration > 20, "at \(rate) Hz: peak \(began.peakAcceleration)")
    }

    /// During ongoing motion the half-wave under way counts among the strong ones once it has
    /// linked and its peak so far has reached `ongoingMotionPeakAcceleration`: strokes during a
    /// walk of alternately 18 and 35 m/s², 0.125 s each from 8 s, begin a shake during the
    /// fourth (the second strong one, 8.375 to 8.5 s), not a stroke later.
    @Test(arguments: [50.0, 100, 400])
    func theStrokeUnderWayCountsAsStrongDuringOngoingMotion(_ rate: Double) throws {
        var m = OngoingMotionTests.walking()
        let direction = unit(1, 0.2, 0)
        for k in 0..<8 {
            m.pulses.append((8 + 0.125 * Double(k), 0.125, k % 2 == 0 ? 18 : -35, direction))
        }
        let result = events(m.samples(duration: 11, rate: rate, jitter: 0.05))
        let began = try #require(result.first, "at \(rate) Hz")
        #expect(began.phase == .began)
        #expect(began.time > 8.375 && began.time < 8.5, "at \(rate) Hz: began at \(began.time)")
        #expect(began.peakAcceleration > 25, "at \(rate) Hz: peak \(began.peakAcceleration)")
    }

    /// While a shake is under way a half-wave opens on the sample where `|l|` passes the
    /// continuation threshold (halfway between the release and onset thresholds, 7.5 m/s²), not
    /// only at a peak found later: a 2 g shake that goes on with strokes of about 9 m/s² (4 Hz)
    /// reports those half-waves as starting some 20 ms before their peaks (at the first sample
    /// over it: 10 ms or more before at 100 Hz), not at the sample nearest the peak.
    @Test(arguments: [100.0, 400])
    func aWeakStrokeDuringAShakeStartsAtTheContinuationThreshold(_ rate: Double) throws {
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 2, duration: 0.75, frequency: 4, amplitude: 0.92 * standardGravity, direction: (1, 0, 0)),
        ]
        let explained = ShakeExplanationTests.explain(m.samples(duration: 4, rate: rate))
        #expect(explained.events.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(explained.events)")
        let weak = explained.halfWaves.filter { $0.startTime > 2.05 }
        #expect(weak.count >= 4, "at \(rate) Hz: \(weak)")
        for halfWave in weak {
            #expect(halfWave.peakAcceleration > 7.5 && halfWave.peakAcceleration < 10, "at \(rate) Hz: \(halfWave)")
            #expect(halfWave.peakTime - halfWave.startTime > 0.007, "at \(rate) Hz: \(halfWave)")
        }
    }

    /// While a shake is under way, a stroke whose samples stay under the continuation threshold
    /// (7.5 m/s²) but whose interpolated peak passes it opens a half-wave one sample late, as
    /// one over the onset does outside a shake. At 25 Hz, 6.25 Hz strokes sampled 45° off their
    /// peaks read 0.71 of their size and interpolate to 0.88: strokes of 9.3 m/s² read 6 to 7.2
    /// (a 25 Hz sample is scaled only by the gravity filter, by about 0.95 ± 0.05) and peak at
    /// about 7.9, so a 2 g shake that goes on with them for a second ends after them, not 0.4 s
    /// after its strong strokes.
    @Test func aWeakStrokeBetweenSamplesCarriesAShakeOn() throws {
        var m = Motion()
        m.shakes = [
            .init(start: 1.02, duration: 0.96, frequency: 6.25, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 1.98, duration: 0.96, frequency: 6.25, amplitude: 9.3, direction: (1, 0, 0)),
        ]
        let samples = m.samples(duration: 4, rate: 25)
        let result = events(samples)
        try #require(result.map(\.phase) == [.began, .ended], "\(result)")
        #expect(result[1].endTime > 2.85, "the shake ended at \(result[1].endTime)")
        // The weak strokes' samples: all under the continuation threshold.
        var detector = ShakeDetector()
        for sample in samples {
            _ = detector.process(sample)
            let l = detector.linearAcceleration
            if sample.time > 2.1 && sample.time < 2.9 { #expect((l.x * l.x + l.y * l.y + l.z * l.z).squareRoot() < 7.5, "at \(sample.time)") }
        }
    }

    /// Two dropouts are a row (0.2 s of seen quiet in all) only with one to three samples kept
    /// between them; with four kept (as a FIFO batch read out between its pauses keeps) each
    /// counts its own 0.2 s. Right after a shake's last half-wave, two dropouts of 0.25 s with
    /// four samples between bring 0.43 s of quiet, and `ended` comes with the first sample after
    /// the second; with three between, the second dropout counts none, and `ended` comes later.
    @Test(arguments: [100.0, 400])
    func dropoutsWithFourSamplesBetweenAreNotARow(rate: Double) throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let samples = ShakeDetectorTests.motion(c).samples(duration: 6, rate: rate)
        let end = try #require(events(samples).last { $0.phase == .ended }).endTime
        func ended(keeping kept: Int) throws -> (ended: ShakeEvent, resumed: Double) {
            let first = try #require(samples.firstIndex { $0.time > end + 0.005 })
            let resume = try #require(samples.firstIndex { $0.time >= samples[first].time + 0.25 })
            let again = try #require(samples.firstIndex { $0.time >= samples[resume + kept - 1].time + 0.25 })
            let survivors = Array(samples[...first] + samples[resume..<(resume + kept)] + samples[again...])
            let result = events(survivors)
            try #require(result.map(\.phase) == [.began, .ended], "\(kept) kept at \(rate) Hz: \(result)")
            #expect(result[1].endTime == end)
            return (result[1], samples[again].time)
        }
        let four = try ended(keeping: 4)
        #expect(four.ended.time == four.resumed, "at \(rate) Hz: ended at \(four.ended.time), resumed at \(four.resumed)")
        let three = try ended(keeping: 3)
        #expect(three.ended.time > three.resumed + 0.1, "at \(rate) Hz: ended at \(three.ended.time), resumed at \(three.resumed)")
    }

    /// A stroke under way that has been building for longer than `maximumPeakIntervalSeconds`
    /// since the peak before it keeps a chain from beginning, whatever the strokes before it
    /// were: four quick strokes (0.2 s half-sines of 30 m/s² along x) held back by a refractory
    /// period, then a slow one that has built for 0.55 s past the last quick peak when the
    /// refractory period ends. No shake begins then (the chain's quick links count for nothing
    /// once the open stroke is slow), nor later (no quick strokes follow).
    @Test(arguments: [25.0, 100, 400])
    func aSlowStrokeUnderWayKeepsAQuickChainFromBeginning(_ rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.refractorySeconds = 2
        var m = Motion(noise: 0.05)
        m.shakes = [.init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0))]
        let first = events(m.samples(duration: 6, rate: rate), configuration: configuration)
        try #require(first.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(first)")
        let start = first[1].time + 2 - 1.25
        let slowRise = 0.6
        let samples = m.samples(duration: 6, rate: rate).map { sample -> Sample in
            var sample = sample
            let u = sample.time - start
            if u >= 0 && u < 0.8 {
                let k = Int(u / 0.2)
                sample.x += (k % 2 == 0 ? 30 : -30) * sin2pi((u - 0.2 * Double(k)) / 0.4)
            } else if u >= 0.8 && u < 0.8 + slowRise + 0.05 {
                let v = u - 0.8
                sample.x += 30 * (v < slowRise ? v / slowRise : 1 - (v - slowRise) / 0.05)
            }
            return sample
        }
        let result = events(samples, configuration: configuration)
        #expect(result == first, "at \(rate) Hz: \(result)")
        // Without the refractory period the quick strokes are a shake of their own.
        configuration.refractorySeconds = 0
        #expect(events(samples, configuration: configuration).filter { $0.phase == .began }.count == 2, "at \(rate) Hz")
    }

    /// The dominant axis is the one with the most energy, tested against both others: a shake
    /// along (0.3, 0, 1) is `.z`, though its x share exceeds its (nil) y share.
    @Test func dominantAxisBeatsBothOtherAxes() {
        for (direction, axis) in [(unit(0.3, 0, 1), ShakeAxis.z), (unit(0, 0.3, 1), .z), (unit(1, 0, 0.3), .x), (unit(0.3, 1, 0), .y)] {
            var m = Motion(gravity: gravityReading(up: (1, 1, 1)), noise: 0.05)
            m.shakes = [.init(start: 1, duration: 2, frequency: 4, amplitude: 2 * standardGravity, direction: direction)]
            let result = events(m.samples(duration: 5, rate: 100))
            #expect(result.map(\.phase) == [.began, .ended])
            #expect(result.allSatisfy { $0.dominantAxis == axis }, "along \(direction): \(result.map(\.dominantAxis))")
        }
    }

    /// `ended` describes the whole shake, the half-waves after `began` included: a shake of 1 s
    /// at 2 g along x that goes on for 1.5 s at 4 g along z ends with a peak of about 39 m/s²
    /// (its `began`, about 20) and `.z` as its dominant axis (its `began`, `.x`).
    @Test(arguments: [25.0, 100, 400])
    func endedCountsTheHalfWavesAfterBegan(rate: Double) throws {
        var m = Motion(noise: 0.05)
        m.shakes = [
            .init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 2, duration: 1.5, frequency: 4, amplitude: 4 * standardGravity, direction: (0, 0, 1)),
        ]
        let result = events(m.samples(duration: 5, rate: rate))
        try #require(result.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(result)")
        #expect(result[0].peakAcceleration < 25 && result[0].dominantAxis == .x, "at \(rate) Hz: \(result[0])")
        #expect(result[1].peakAcceleration > 30 && result[1].dominantAxis == .z, "at \(rate) Hz: \(result[1])")
    }

    /// `Reason.isSameRule(as:)` tells the rules apart by kind alone: two refusals by one rule
    /// with different measurements are the same rule, and no two rules are (the near-miss
    /// report and `HalfWaveChain` list each rule that refused a chain once).
    @Test func isSameRuleComparesTheRuleNotTheMeasurements() {
        let pairs: [(ShakeExplanation.Reason, ShakeExplanation.Reason)] = [
            (.pauseNeeded, .pauseNeeded),
            (.refractory(until: 1), .refractory(until: 2)),
            (.unsteadyRhythm(ratio: 5, limit: 4), .unsteadyRhythm(ratio: 6, limit: 3)),
            (.slowStroke(intervalSeconds: 0.5, limit: 0.45), .slowStroke(intervalSeconds: 0.6, limit: 0.4)),
            (.notStraight(linearity: 0.6, limit: 0.5), .notStraight(linearity: 0.7, limit: 0.4)),
            (.weakDuringOngoingMotion(strongHalfWaves: 1, needed: 2), .weakDuringOngoingMotion(strongHalfWaves: 0, needed: 3)),
            (.shortChainNeedsAnotherHalfWave(longestIntervalSeconds: 0.3, linearity: 0.4),
             .shortChainNeedsAnotherHalfWave(longestIntervalSeconds: 0.25, linearity: 0.35)),
        ]
        for (i, (a, b)) in pairs.enumerated() {
            for (j, (c, _)) in pairs.enumerated() {
                #expect(a.isSameRule(as: c) == (i == j), "\(a) and \(c)")
            }
            #expect(a.isSameRule(as: b) && b.isSameRule(as: a), "\(a) and \(b)")
        }
    }
}
