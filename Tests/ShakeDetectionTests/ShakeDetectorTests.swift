import Testing
import ShakeDetection

/// A shake along `direction` while the device is held in `up` orientation.
struct ShakeCase: CustomTestStringConvertible, Sendable {
    var frequency: Double      // Hz
    var amplitudeG: Double     // g
    var up: (Double, Double, Double)
    var direction: (Double, Double, Double)
    var testDescription: String { "\(frequency) Hz \(amplitudeG) g up \(up) along \(direction)" }
}

@Suite struct ShakeDetectorTests {
    static let shakeStart = 1.0
    static let shakeDuration = 2.0

    static let shakeCases: [ShakeCase] = [
        ShakeCase(frequency: 2, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0)),
        ShakeCase(frequency: 3, amplitudeG: 1.5, up: (0, 1, 0), direction: (0, 1, 0)),
        ShakeCase(frequency: 4, amplitudeG: 3, up: (1, 1, 0), direction: (0, 0, 1)),
        ShakeCase(frequency: 5, amplitudeG: 4, up: (0, 0, -1), direction: (1, 1, 0)),
        ShakeCase(frequency: 6, amplitudeG: 2, up: (1, 0, 1), direction: (1, -1, 1)),
        ShakeCase(frequency: 8, amplitudeG: 3, up: (0, -1, 0), direction: (0, 1, 1)),
    ]

    static func motion(_ c: ShakeCase, duration: Double = shakeDuration) -> Motion {
        Motion(gravity: gravityReading(up: c.up),
               shakes: [.init(start: shakeStart, duration: duration, frequency: c.frequency,
                              amplitude: c.amplitudeG * standardGravity,
                              direction: unit(c.direction.0, c.direction.1, c.direction.2))],
               noise: 0.05)
    }

    /// `began` comes when the fourth half-wave crosses the onset threshold:
    /// start + 1.5 periods + asin(onset/amplitude)/(2πf), within 40 ms.
    /// `ended` comes `quietSeconds` after the last half-wave falls below the release threshold,
    /// which is at most half a period before the shake stops: within [stop − T/2, stop] + 0.4 s (+40 ms).
    @Test(arguments: shakeCases)
    func sinusoidalShakeBeginsAndEndsOnTime(_ c: ShakeCase) {
        let result = events(Self.motion(c).samples(duration: 5, rate: 100))
        #expect(result.map(\.phase) == [.began, .ended])
        guard result.count == 2 else { return }
        let period = 1 / c.frequency
        let amplitude = c.amplitudeG * standardGravity
        let expectedBegan = Self.shakeStart + 1.5 * period + asin(10 / amplitude) / (2 * Double.pi * c.frequency)
        #expect(abs(result[0].time - expectedBegan) <= 0.04, "began at \(result[0].time), expected \(expectedBegan)")
        #expect(abs(result[0].startTime - Self.shakeStart) <= 0.5 * period)
        let stop = Self.shakeStart + Self.shakeDuration
        #expect(result[1].time >= stop - period / 2 + 0.4 - 0.04 && result[1].time <= stop + 0.4 + 0.04,
                "ended at \(result[1].time)")
        #expect(result[1].endTime <= stop + 0.04 && result[1].endTime >= stop - period / 2 - 0.04)
        #expect(result[1].reversals >= Int(2 * c.frequency * Self.shakeDuration) - 3)
        #expect(result[0].peakAcceleration >= 0.8 * amplitude && result[0].peakAcceleration <= 1.2 * amplitude)
    }

    @Test func dominantAxisIsTheShakeAxis() {
        for (direction, axis) in [((1.0, 0.0, 0.0), ShakeAxis.x), ((0, 1, 0), .y), ((0, 0.3, 1), .z)] {
            let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (1, 1, 1), direction: direction)
            let result = events(Self.motion(c).samples(duration: 5, rate: 100))
            #expect(result.first?.dominantAxis == axis)
        }
    }

    static let rates: [Double] = [25, 50, 100, 400, 1600]

    /// The same motion at 25 Hz … 1.6 kHz, with and without jitter: the same events as at 1.6 kHz
    /// without jitter (the closest to continuous time), times within 40 ms. With jitter a timestamp
    /// may move by up to ±jitter/2 intervals, so the tolerance grows by that much (±10 ms at 25 Hz).
    @Test(arguments: [shakeCases[0], shakeCases[1], shakeCases[2], shakeCases[3]], [0.0, 0.5])
    func sameShakesAtEverySampleRate(_ c: ShakeCase, jitter: Double) {
        var m = Self.motion(c)
        m.shakes.append(.init(start: 5, duration: 1.5, frequency: c.frequency + 0.5, amplitude: 2.5 * standardGravity,
                              direction: unit(1, 0, 1)))
        let reference = events(m.samples(duration: 8, rate: 1600))
        #expect(reference.map(\.phase) == [.began, .ended, .began, .ended])
        for rate in Self.rates {
            let result = events(m.samples(duration: 8, rate: rate, jitter: jitter, seed: UInt64(rate)))
            #expect(result.map(\.phase) == reference.map(\.phase), "at \(rate) Hz")
            for (a, b) in zip(result, reference) {
                #expect(abs(a.time - b.time) <= 0.04 + jitter * 0.5 / rate, "at \(rate) Hz: \(a.phase) at \(a.time), at 1.6 kHz \(b.time)")
            }
        }
    }

    @Test func oneLongShakeIsOneEventPair() {
        var m = Self.motion(ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0)), duration: 8)
        m.noise = 0.2
        let result = events(m.samples(duration: 11, rate: 200))
        #expect(result.map(\.phase) == [.began, .ended])
        #expect(result.last.map { $0.duration > 7.5 } == true)
    }

    /// Walking bounces (2 Hz, 0.3–0.5 g, several orientations) never fire.
    @Test(arguments: [0.3, 0.4, 0.5], [(0.0, 0.0, 1.0), (0, 1, 0), (1, 0, 1)])
    func walkingDoesNotFire(_ amplitudeG: Double, up: (Double, Double, Double)) {
        let m = Motion(gravity: gravityReading(up: up), walking: (2, amplitudeG * standardGravity), noise: 0.3)
        #expect(events(m.samples(duration: 30, rate: 100)).isEmpty)
    }

    /// A single quick move (accelerate then brake, up to 3 g) and sensor noise never fire.
    @Test(arguments: [0.15, 0.25, 0.4], [1.5, 3.0])
    func singleMoveDoesNotFire(_ duration: Double, amplitudeG: Double) {
        let m = Motion(moves: [(1, duration, amplitudeG * standardGravity, unit(1, 0.2, 0))], noise: 0.1)
        #expect(events(m.samples(duration: 4, rate: 100)).isEmpty)
    }

    /// Walking with the phone in a back pocket: each step (every 0.55 s) is a heel strike that rings
    /// along one line (spikes of +20, −19, +18, −17 m/s², 0.05 s wide: after the 40 ms smoothing
    /// well over the onset) and then a slower rebound 0.3 s later.
    /// Linear and strong, but without a steady rhythm: never fires. The same pulses evenly spaced
    /// (a real shake rhythm) do fire, so the test can tell the difference.
    @Test(arguments: [(0.0, 0.0, 1.0), (1, 0, 0), (0, 1, 1)])
    func heelStrikeGaitDoesNotFire(_ up: (Double, Double, Double)) {
        let axis = unit(up.0, up.1, up.2)
        func gait(spacing: [Double]) -> Motion {
            var m = Motion(gravity: gravityReading(up: up), noise: 0.3)
            var t = 1.0
            let amplitudes = [20.0, -19, 18, -17]
            while t < 20 {
                var s = t
                for (k, a) in amplitudes.enumerated() {
                    m.pulses.append((s, 0.05, a, axis))
                    s += spacing[k % spacing.count]
                }
                t += 0.55 + spacing.reduce(0, +)
            }
            return m
        }
        let irregular = gait(spacing: [0.07, 0.3, 0.07]).samples(duration: 20, rate: 100)
        #expect(events(irregular).isEmpty)
        // It is the rhythm rule that rejects it: without it the gait would count as shakes.
        var noRhythmRule = ShakeConfiguration.default
        noRhythmRule.maximumIntervalRatio = 100
        #expect(!events(irregular, configuration: noRhythmRule).isEmpty)
        #expect(events(gait(spacing: [0.09, 0.09, 0.09]).samples(duration: 20, rate: 100)).first?.phase == .began)
    }

    /// A chain that ended does not lend its half-waves to later motion: a figure-eight stirring
    /// (4 Hz along x with 2 Hz along y: reversals that link, but a path far from a line) and,
    /// after a second of stillness, one quick straight move (accelerate, brake). Neither is a
    /// shake. The move's first half-wave is too late to link to the stirring's chain, so a shake
    /// must not begin on it, however straight the recent motion has become.
    @Test(arguments: [50.0, 100, 400])
    func anEndedChainDoesNotFireOnALaterMove(rate: Double) {
        let stir: [Motion.Shake] = [
            .init(start: 1, duration: 1, frequency: 4, amplitude: 2 * standardGravity, direction: (1, 0, 0)),
            .init(start: 1, duration: 1, frequency: 2, amplitude: 1.6 * standardGravity,
                  direction: (0, 1, 0)),
        ]
        let move = (start: 3.0, duration: 0.3, amplitude: 2.5 * standardGravity, direction: unit(0, 0.3, 1))
        #expect(events(Motion(shakes: stir).samples(duration: 5, rate: rate)).isEmpty)
        #expect(events(Motion(moves: [move]).samples(duration: 5, rate: rate)).isEmpty)
        let both = events(Motion(shakes: stir, moves: [move]).samples(duration: 5, rate: rate))
        #expect(both.isEmpty, "\(both)")
    }

    /// The rhythm rule compares the intervals between the half-waves' peaks, not between the
    /// moments they were recognised (a half-wave links as soon as it is clearly opposite, well
    /// before its peak). A steady 3 Hz shake of uneven strength (pairs of 5 g half-waves, then
    /// pairs of 1.3 g) has its peaks exactly 1/6 s apart, but its strong half-waves cross the
    /// onset threshold soon after they start and its weak ones late, so they are recognised about
    /// 0.09 and 0.13 s after the previous peak. Under a strict rhythm limit (1.25) it must still
    /// fire, at every rate; a 3 g shake whose peaks are unevenly spaced (half-waves 0.1, 0.1,
    /// 0.25 and 0.25 s wide: peaks 0.1 to 0.25 s apart) must not, and fires under the default
    /// limit (4).
    @Test(arguments: [25.0, 100, 400])
    func rhythmIsMeasuredBetweenPeaks(rate: Double) {
        var strict = ShakeConfiguration.default
        strict.maximumIntervalRatio = 1.25
        func shake(widths: [Double], amplitudes: [Double]) -> [Sample] {
            var m = Motion(noise: 0.05)
            var t = 1.0
            for k in 0..<12 {
                let width = widths[k % widths.count]
                let sign = k % 2 == 0 ? 1.0 : -1.0
                m.pulses.append((t, width, sign * amplitudes[k / 2 % amplitudes.count], (1, 0, 0)))
                t += width
            }
            return m.samples(duration: 5, rate: rate)
        }
        let unevenStrength = events(shake(widths: [1.0 / 6], amplitudes: [50, 13]), configuration: strict)
        #expect(unevenStrength.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(unevenStrength)")
        let unevenRhythm = shake(widths: [0.1, 0.1, 0.25, 0.25], amplitudes: [30])
        #expect(events(unevenRhythm, configuration: strict).isEmpty, "at \(rate) Hz")
        #expect(!events(unevenRhythm).isEmpty, "the default rhythm limit (4) accepts it at \(rate) Hz")
    }

    /// A slow shake (1.2–1.5 Hz, 1.5 g) of four or more half-waves fires once.
    @Test(arguments: [(1.2, 2.0), (1.5, 1.4), (1.5, 3.0)])
    func slowShakeIsDetected(_ frequency: Double, duration: Double) {
        let m = Motion(shakes: [.init(start: 1, duration: duration, frequency: frequency,
                                      amplitude: 1.5 * standardGravity, direction: (1, 0, 0))])
        #expect(events(m.samples(duration: duration + 2.5, rate: 100)).map(\.phase) == [.began, .ended])
    }

    /// Lying face up, then at once on its side (two recordings spliced, or a turn within one
    /// sample) and shaken at once across the turn: 5 Hz, 2 g along y for 0.45 s, four or five
    /// half-waves. The gravity estimate lags the turn, so `l` carries a fading constant along
    /// (1, 0, −1), off the shake's line; about their mean the half-waves are still straight.
    /// The same shake on its side without the turn is the control.
    @Test(arguments: [25.0, 50, 100, 400, 1600])
    func shortShakeRightAfterASuddenTurnIsFound(_ rate: Double) {
        func samples(turned: Bool) -> [Sample] {
            (0..<Int(4 * rate)).map { i in
                let t = Double(i) / rate
                let onSide = !turned || t >= 2
                let shake = t >= 2 && t < 2.45 ? 2 * standardGravity * sin2pi(5 * (t - 2)) : 0
                return Sample(time: t, x: onSide ? standardGravity : 0, y: shake,
                              z: onSide ? 0 : standardGravity)
            }
        }
        let unturned = events(samples(turned: false))
        #expect(unturned.map(\.phase) == [.began, .ended], "at \(rate) Hz without the turn")
        let turned = events(samples(turned: true))
        #expect(turned.map(\.phase) == [.began, .ended], "at \(rate) Hz after the turn: \(turned)")
        if let began = turned.first {
            #expect(abs(began.startTime - 2) < 0.1, "at \(rate) Hz: starts at \(began.startTime) s")
        }
    }

    /// Strokes along x, each a 0.2 s half-sine of 30 m/s², except the second: a slow one that
    /// builds up for 0.45 s and drops in 0.05 s, so that it links early (its rise is soon clearly
    /// opposite) but peaks 0.55 s after the stroke before it. Four such half-waves are not a
    /// shake (with the test off, `maximumPeakIntervalSeconds` 1e6, they are); two more quick
    /// strokes after them are (a shake after a slow wind-up), and so are four quick strokes.
    @Test(arguments: [25.0, 50, 100, 400, 1600])
    func aSlowStrokeKeepsAChainFromFiring(_ rate: Double) {
        func strokes(count: Int, slowRise: Double) -> [Sample] {
            var segments: [(start: Double, end: Double, sign: Double, slow: Bool)] = []
            var t = 1.0
            for k in 0..<count {
                let length = k == 1 ? slowRise + 0.05 : 0.2
                segments.append((t, t + length, k % 2 == 0 ? 1 : -1, k == 1))
                t += length
            }
            return (0..<Int(4 * rate)).map { i in
                let t = Double(i) / rate
                var x = 0.0
                if let s = segments.first(where: { t >= $0.start && t < $0.end }) {
                    let u = t - s.start
                    x = s.sign * 30 * (!s.slow ? sin2pi(u / 0.4) : u < slowRise ? u / slowRise : 1 - (u - slowRise) / 0.05)
                }
                return Sample(time: t, x: x, y: 0, z: standardGravity)
            }
        }
        var off = ShakeConfiguration.default
        off.maximumPeakIntervalSeconds = 1e6
        let slow = strokes(count: 4, slowRise: 0.45)
        #expect(events(slow).isEmpty, "at \(rate) Hz: \(events(slow))")
        #expect(events(slow, configuration: off).first?.phase == .began, "at \(rate) Hz with the test off")
        #expect(events(strokes(count: 6, slowRise: 0.45)).first?.phase == .began, "at \(rate) Hz, two more strokes")
        #expect(events(strokes(count: 4, slowRise: 0.15)).first?.phase == .began, "at \(rate) Hz, all quick")
    }

    /// A shake whose path is an ellipse (minor axis up to half the major) still fires; a circle
    /// (a stirring motion, not a shake) does not.
    @Test(arguments: [(0.3, true), (0.5, true), (1.0, false)])
    func ellipticalShakesFireButCirclesDoNot(_ aspect: Double, fires: Bool) {
        let a = 2 * standardGravity
        let m = Motion(shakes: [
            .init(start: 1, duration: 2, frequency: 4, amplitude: a, direction: (1, 0, 0)),
            // cos = sin shifted by a quarter turn: start a quarter period earlier, cut to the same span.
            .init(start: 1 - 1.0 / 16, duration: 2 + 1.0 / 16, frequency: 4, amplitude: aspect * a, direction: (0, 1, 0)),
        ])
        let result = events(m.samples(duration: 4, rate: 100))
        #expect((result.first?.phase == .began) == fires)
    }

    @Test func noiseDoesNotFire() {
        let m = Motion(gravity: gravityReading(up: (0, 1, 1)), noise: 3)
        #expect(events(m.samples(duration: 60, rate: 100)).isEmpty)
    }

    /// A ±2 g sensor clips a 3 g shake along gravity to a lopsided signal: still one shake.
    @Test(arguments: [2.0, 3.0, 5.0])
    func clippedShakeIsDetected(_ frequency: Double) {
        var m = Motion(gravity: (0, 0, -standardGravity),
                       shakes: [.init(start: 1, duration: 1.8, frequency: frequency, amplitude: 3 * standardGravity,
                                      direction: (0, 0, 1))])
        m.clip = 2.04 * standardGravity
        let result = events(m.samples(duration: 4, rate: 51))
        #expect(result.map(\.phase) == [.began, .ended])
        #expect(result.first.map { $0.time < 2.8 } == true)
    }

    @Test func gapCancelsAShakeInProgress() {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let samples = Self.motion(c).samples(duration: 5, rate: 100).filter { $0.time < 2 || $0.time > 2.7 }
        let result = events(samples)
        #expect(result.map(\.phase).prefix(2) == [.began, .cancelled])
        #expect(result.count >= 2 && result[1].cancellationReason == .gap)
        #expect(result.count >= 2 && abs(result[1].time - 2.7) < 0.02)
    }

    /// A dropout under the gap limit but longer than the quiet that ends a shake (samples lost
    /// for 0.25 to 0.48 s) is not a pause of the hand: the quiet must be seen. One long shake with
    /// a dropout anywhere in it is one `began` and one `ended` (before, the first sample after a
    /// dropout that fell between two half-waves ended the shake, and the next strokes began it
    /// again: one shake fired twice), at 25, 100 and 400 Hz.
    @Test(arguments: [25.0, 100, 400])
    func aDropoutInsideAShakeDoesNotSplitIt(rate: Double) throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let samples = Self.motion(c, duration: 5).samples(duration: 8, rate: rate)
        for dropout in [0.25, 0.35, 0.42, 0.45, 0.48] where dropout + 2 / rate < 0.5 {
            for k in 0..<16 {
                let from = 2.0 + Double(k) * 0.19
                let kept = samples.filter { $0.time <= from || $0.time >= from + dropout }
                let longest = zip(kept, kept.dropFirst()).map { $1.time - $0.time }.max() ?? 0
                try #require(longest < ShakeConfiguration.default.maximumGapSeconds)
                let result = events(kept)
                #expect(result.map(\.phase) == [.began, .ended],
                        "at \(rate) Hz, samples lost from \(from) s for \(longest) s")
            }
        }
    }

    /// A shake that stops just before a dropout still ends, and its `endTime` is still its last
    /// half-wave's end; only the dropout's first `quietSeconds / 2` (0.2 s) counts as quiet, so
    /// `ended` comes that much later than the dropout's length would have made it: 0.4 s after
    /// `endTime` plus the dropout's length beyond 0.2 s.
    @Test(arguments: [25.0, 100, 400])
    func aShakeThatStopsBeforeADropoutEndsAfterIt(rate: Double) throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let stop = Self.shakeStart + Self.shakeDuration
        let samples = Self.motion(c).samples(duration: 6, rate: rate)
            .filter { $0.time <= stop + 0.05 || $0.time >= stop + 0.45 }
        let dropout = zip(samples, samples.dropFirst()).map { $1.time - $0.time }.max() ?? 0
        let result = events(samples)
        #expect(result.map(\.phase) == [.began, .ended])
        let ended = try #require(result.last)
        #expect(ended.endTime > stop - 0.2 && ended.endTime <= stop + 0.05, "endTime \(ended.endTime)")
        let expected = ended.endTime + 0.4 + (dropout - 0.2)
        #expect(ended.time >= expected && ended.time <= expected + 1 / rate + 1e-9,
                "ended at \(ended.time), expected \(expected) (dropout \(dropout) s)")
    }

    /// A short `quietSeconds` does not make a slow sensor's ordinary intervals dropouts: every
    /// interval of up to 0.1 s counts whole as quiet, so at 25 Hz with `quietSeconds` 0.03 s
    /// `ended` comes with the first sample over 0.03 s after the last half-wave, as at 400 Hz.
    @Test(arguments: [25.0, 400])
    func aShortQuietTimeEndsAsSoonAtEveryRate(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.quietSeconds = 0.03
        try configuration.validate()
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let result = events(Self.motion(c).samples(duration: 5, rate: rate), configuration: configuration)
        let ended = try #require(result.first { $0.phase == .ended })
        #expect(ended.time > ended.endTime + 0.03 && ended.time <= ended.endTime + 0.03 + 1 / rate + 1e-9,
                "ended at \(ended.time), the last half-wave ended at \(ended.endTime)")
    }

    /// The time a dropout after the last stroke delays `ended` by does not make the shake too
    /// long: a 5.5 s shake with `maximumShakeSeconds` 6.1 (shaking over 6.1 − 0.4 s is
    /// cancelled) followed by a dropout of about 0.48 s still ends.
    @Test(arguments: [25.0, 100, 400])
    func aDropoutAfterTheLastStrokeDoesNotMakeTheShakeTooLong(rate: Double) throws {
        var configuration = ShakeConfiguration.default
        configuration.maximumShakeSeconds = 6.1
        let c = ShakeCase(frequency: 4, amplitudeG: 2.5, up: (0, 0, 1), direction: (1, 0, 0))
        let stop = Self.shakeStart + 5.5
        let samples = Self.motion(c, duration: 5.5).samples(duration: 9, rate: rate)
            .filter { $0.time <= stop + 0.01 || $0.time >= stop + 0.49 - 2 / rate }
        let result = events(samples, configuration: configuration)
        #expect(result.map(\.phase) == [.began, .ended], "\(result.map { ($0.phase, $0.time) })")
    }

    /// Lobes along x of ±40 m/s², alternating in sign, at 100 Hz: 0.07 s wide with peaks
    /// alternately 0.07 and 0.31 s apart for `irregularSeconds` from 0.5 s, then 30 lobes 0.1 s
    /// wide, then 2 s still. `steadyStart` is the first steady lobe's start.
    static func irregularThenSteadyStrokes(irregularSeconds: Double)
        -> (lobes: [(start: Double, length: Double)], samples: [Sample], steadyStart: Double) {
        var lobes: [(start: Double, length: Double)] = []
        var t = 0.5
        while t < 0.5 + irregularSeconds {
            lobes.append((t, 0.07))
            t += lobes.count % 2 == 1 ? 0.07 : 0.31
        }
        let steadyStart = t
        for _ in 0..<30 { lobes.append((t, 0.1)); t += 0.1 }
        let samples = (0..<Int((t + 2) * 100)).map { i -> Sample in
            let time = Double(i) / 100
            var x = 0.0
            if let j = lobes.firstIndex(where: { time >= $0.start && time < $0.start + $0.length }) {
                x = (j % 2 == 0 ? 40 : -40) * sin2pi(0.5 * (time - lobes[j].start) / lobes[j].length)
            }
            return Sample(time: time, x: x, y: 0, z: 9.81)
        }
        return (lobes, samples, steadyStart)
    }

    /// Irregular linked half-waves (peaks alternately 0.07 and 0.31 s apart: refused as an
    /// unsteady rhythm) for 3 to 12 s, then 3 s of steady strokes 0.1 s apart: the shake begins
    /// in the steady part and is dated from it, once the irregular intervals have left the rhythm
    /// rule's window of 8, and ends (the window's change alone had dated it from the irregular
    /// motion's start, so that after 8 s of it the shake was cancelled as too long 1.2 s in).
    @Test(arguments: [3.0, 8.0, 12.0])
    func aSteadyShakeAfterIrregularMotionIsDatedFromItsOwnStart(irregularSeconds: Double) throws {
        let (_, samples, steadyStart) = Self.irregularThenSteadyStrokes(irregularSeconds: irregularSeconds)
        let result = events(samples)
        #expect(result.map(\.phase) == [.began, .ended], "\(result.map { ($0.phase, $0.time, $0.startTime) })")
        let began = try #require(result.first)
        #expect(began.time > steadyStart && began.time < steadyStart + 1, "began at \(began.time)")
        #expect(began.startTime > steadyStart - 0.5, "dated from \(began.startTime), the steady strokes from \(steadyStart)")
        #expect(began.reversals <= 9)
    }

    @Test func tooLongShakeIsCancelledOnce() {
        var configuration = ShakeConfiguration.default
        configuration.maximumShakeSeconds = 2
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let result = events(Self.motion(c, duration: 6).samples(duration: 9, rate: 100), configuration: configuration)
        #expect(result.map(\.phase) == [.began, .cancelled])
        #expect(result.last?.cancellationReason == .tooLong)
        #expect(result.last.map { abs($0.time - ($0.startTime + 2)) < 0.02 } == true)
    }

    /// The example in `ShakeEvent`'s documentation: a 1.5 s, 2 g shake at 4 Hz along x from 2 s,
    /// after the device lay still, at 100 Hz.
    @Test func eventFieldsAreAsDocumented() throws {
        let samples = (0..<550).map { index -> Sample in
            let t = Double(index) / 100
            let x = t >= 2 && t < 3.5 ? 2 * standardGravity * sin2pi(4 * (t - 2)) : 0
            return Sample(time: t, x: x, y: 0.1, z: standardGravity)
        }
        let result = events(samples)
        try #require(result.map(\.phase) == [.began, .ended])
        let (began, ended) = (result[0], result[1])
        #expect(abs(began.time - 2.41) < 0.005 && began.endTime == began.time)
        #expect(abs(began.startTime - 2.04) < 0.005 && ended.startTime == began.startTime)
        #expect(abs(began.peakAcceleration - 20.0) < 0.05 && began.reversals == 3 && began.dominantAxis == .x)
        #expect(abs(ended.time - 3.91) < 0.005 && abs(ended.endTime - 3.50) < 0.005)
        #expect(ended.time - ended.endTime >= ShakeConfiguration.medium.quietSeconds)
        #expect(ended.reversals == 11 && ended.dominantAxis == .x && ended.cancellationReason == nil)
    }

    /// `maximumShakeSeconds` runs from the first half-wave until `ended`, which comes
    /// `quietSeconds` after the last one: 9.8 s of shaking under the default 10 s limit is
    /// cancelled as too long, 9.4 s ends (as `ShakeConfiguration.maximumShakeSeconds` says).
    @Test(arguments: [(9.8, ShakeEvent.Phase.cancelled), (9.4, .ended)])
    func tooLongCountsTheQuietTimeBeforeEnded(shaking: Double, last: ShakeEvent.Phase) {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let result = events(Self.motion(c, duration: shaking).samples(duration: shaking + 4, rate: 100))
        #expect(result.map(\.phase) == [.began, last])
        #expect(result.last.map { $0.endTime - $0.startTime < ShakeConfiguration.medium.maximumShakeSeconds } == true)
    }

    @Test func interruptCancelsAShakeInProgressAndResets() {
        var detector = ShakeDetector()
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        var began: ShakeEvent?
        for sample in Self.motion(c).samples(duration: 5, rate: 100) where sample.time < 2 {
            if let e = detector.process(sample) { began = e }
        }
        #expect(began?.phase == .began)
        #expect(detector.isShaking)
        let cancelled = detector.interrupt(at: 2)
        #expect(cancelled?.phase == .cancelled)
        #expect(cancelled?.cancellationReason == .interrupted)
        #expect(!detector.isShaking)
        #expect(detector.interrupt(at: 2.1) == nil)
    }

    @Test func nonFiniteSamplesAreIgnored() {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let clean = Self.motion(c).samples(duration: 5, rate: 100)
        var dirty: [Sample] = []
        for (i, s) in clean.enumerated() {
            dirty.append(s)
            if i % 7 == 0 { dirty.append(Sample(time: s.time + 0.001, x: .nan, y: 0, z: .infinity)) }
        }
        // The clean motion is one real shake; with the bad samples among it, the same shake.
        let shake = events(clean)
        #expect(shake.map(\.phase) == [.began, .ended])
        #expect(events(dirty) == shake)
    }

    /// A clock reset in the middle of a shake cancels it, timed on the clock its `began` was.
    @Test func timeGoingBackwardsCancelsAShakeOnItsOwnClock() throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        var samples = Self.motion(c).samples(duration: 5, rate: 100)
        let jump = samples.firstIndex { $0.time >= 2 }!
        let lastBefore = samples[jump - 1].time
        for i in jump..<samples.count { samples[i].time -= 1.5 }
        let result = events(samples)
        #expect(result.map(\.phase).prefix(2) == [.began, .cancelled])
        let cancelled = try #require(result.count >= 2 ? result[1] : nil)
        #expect(cancelled.cancellationReason == .timeWentBackwards)
        #expect(cancelled.time == lastBefore)
        #expect(cancelled.time >= result[0].time && cancelled.time >= cancelled.endTime)
    }

    /// After a shake at a large time, the clock resets to 0 (a device restarting its timestamps):
    /// the shakes on the new clock are found, as on a fresh detector.
    @Test func shakesAfterAClockResetAreFound() {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let oneShake = Self.motion(c).samples(duration: 5, rate: 100)
        let before = oneShake.map { Sample(time: $0.time + 1e6, x: $0.x, y: $0.y, z: $0.z) }
        var detector = ShakeDetector()
        let first = before.compactMap { detector.process($0) }
        #expect(first.map(\.phase) == [.began, .ended])
        let afterReset = oneShake.compactMap { detector.process($0) }
        #expect(afterReset == events(oneShake))
        #expect(afterReset.map(\.phase) == [.began, .ended])
    }

    /// Timestamps that step back a millisecond now and then (a jittery clock, or a sample
    /// delivered late) do not break a shake: the out-of-order samples are ignored.
    @Test func aSampleSlightlyBackInTimeIsIgnored() throws {
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let clean = Self.motion(c).samples(duration: 5, rate: 100)
        var jittered: [Sample] = []
        for (index, sample) in clean.enumerated() {
            jittered.append(sample)
            if index % 50 == 49 { jittered.append(Sample(time: sample.time - 0.001, x: 0, y: 30, z: -20)) }
        }
        let expected = events(clean)
        #expect(expected.map(\.phase) == [.began, .ended])
        #expect(events(jittered) == expected)
    }

    /// `interrupt(at:)` with a NaN or infinite time, or one before the last sample (a stale clock
    /// reading, or 0 passed for "now"), times the cancellation at the last sample, never earlier
    /// than the shake it cancels.
    @Test(arguments: [Double.nan, Double.infinity, 0, 1])
    func interruptAtANonFiniteOrEarlierTimeUsesTheLastSample(time: Double) throws {
        var detector = ShakeDetector()
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        var last = 0.0
        for sample in Self.motion(c).samples(duration: 5, rate: 100) where sample.time < 2 {
            _ = detector.process(sample)
            last = sample.time
        }
        #expect(detector.isShaking)
        let interrupted = detector.interrupt(at: time)
        let cancelled = try #require(interrupted)
        #expect(cancelled.time == last)
        #expect(cancelled.cancellationReason == .interrupted)
        #expect(cancelled.time >= cancelled.startTime && cancelled.time >= cancelled.endTime)
    }

    /// The shortest gap limit `validate()` accepts, just over one sample interval at 25 Hz,
    /// still lets a 25 Hz stream's shake through.
    @Test func theShortestValidGapLimitStillSeesA25HzShake() throws {
        var configuration = ShakeConfiguration.medium
        configuration.maximumGapSeconds = 0.041
        try configuration.validate()
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        let result = events(Self.motion(c).samples(duration: 5, rate: 25), configuration: configuration)
        #expect(result.map(\.phase) == [.began, .ended])
    }

    /// A gentle 0.85 g shake: light fires, medium and hard do not; a 1.3 g shake: medium fires, hard does not.
    @Test func presetsOrderSensitivity() {
        func fires(_ amplitudeG: Double, _ configuration: ShakeConfiguration) -> Bool {
            let c = ShakeCase(frequency: 3, amplitudeG: amplitudeG, up: (0, 0, 1), direction: (1, 0, 0))
            return events(Self.motion(c).samples(duration: 5, rate: 100), configuration: configuration).first?.phase == .began
        }
        #expect(fires(0.85, .light))
        #expect(!fires(0.85, .medium))
        #expect(fires(1.3, .medium))
        #expect(!fires(1.3, .hard))
        #expect(fires(2.5, .hard))
    }

    @Test func resetForgetsAShakeInProgress() {
        var detector = ShakeDetector()
        let c = ShakeCase(frequency: 4, amplitudeG: 2, up: (0, 0, 1), direction: (1, 0, 0))
        var phases: [ShakeEvent.Phase] = []
        for sample in Self.motion(c).samples(duration: 5, rate: 100) {
            if sample.time >= 2 && sample.time < 2.01 { detector.reset() }
            if let e = detector.process(sample) { phases.append(e.phase) }
        }
        // The reset drops the first shake silently; the rest of the motion is a new shake.
        #expect(phases == [.began, .began, .ended])
    }
}

/// asin without Foundation (Newton on sin), for expected times.
func asin(_ y: Double) -> Double {
    var x = y
    for _ in 0..<30 {
        let s = sin2pi(x / (2 * Double.pi)), c = sin2pi(x / (2 * Double.pi) + 0.25)
        x -= (s - y) / c
    }
    return x
}
