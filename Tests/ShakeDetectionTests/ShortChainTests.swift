import Testing
import ShakeDetection

/// A chain of only `minimumHalfWaves` (4) half-waves makes a shake begin when it is quick (peaks at
/// most `shortChainPeakIntervalSeconds`, 0.2 s, apart) or straight (linearity at most
/// `shortChainLinearity`, 0.3); otherwise it needs a fifth. Circles, a move and its rebound, a push
/// and pull make three or four strong half-waves and stop; a hand that shakes goes on.
@Suite struct ShortChainTests {
    /// `halfWaves` half-waves of an ellipse at `hertz` from 1 s: 2 g along x and `aspect` times that
    /// along y, a quarter period ahead (the y part starts a quarter period early, under the onset).
    static func ellipse(halfWaves: Int, hertz: Double, aspect: Double) -> Motion {
        let seconds = Double(halfWaves) / (2 * hertz)
        let quarter = 1 / (4 * hertz)
        var m = Motion(noise: 0.05)
        m.shakes = [Motion.Shake(start: 1, duration: seconds, frequency: hertz, amplitude: 2 * standardGravity,
                                 direction: (1, 0, 0))]
        if aspect > 0 {
            m.shakes.append(Motion.Shake(start: 1 - quarter, duration: seconds + quarter, frequency: hertz,
                                         amplitude: aspect * 2 * standardGravity, direction: (0, 1, 0)))
        }
        return m
    }

    static let rates = [25.0, 50, 100, 400, 1600]

    /// Four half-waves of a 2 Hz ellipse (peaks 0.25 s apart, linearity about 0.4: inside
    /// `maximumLinearity`) are not a shake; with the rule off they are, and so are six of them
    /// (beginning on the fifth, a stroke later than the rule-off detector's began on the fourth).
    @Test(arguments: rates)
    func slowBentFourHalfWavesWaitForAFifth(_ rate: Double) {
        var off = ShakeConfiguration.medium
        off.shortChainPeakIntervalSeconds = 1e6
        let four = Self.ellipse(halfWaves: 4, hertz: 2, aspect: 0.4).samples(duration: 4, rate: rate, jitter: 0.05)
        #expect(events(four).isEmpty, "at \(rate) Hz: \(events(four))")
        let unruled = events(four, configuration: off)
        #expect(unruled.map(\.phase) == [.began, .ended], "at \(rate) Hz with the rule off")

        let six = Self.ellipse(halfWaves: 6, hertz: 2, aspect: 0.4).samples(duration: 5, rate: rate, jitter: 0.05)
        let found = events(six)
        #expect(found.map(\.phase) == [.began, .ended], "at \(rate) Hz: \(found)")
        if let began = found.first, let early = unruled.first {
            #expect(began.reversals == 4, "at \(rate) Hz: began on half-wave \(began.reversals + 1)")
            #expect(began.time - early.time > 0.15 && began.time - early.time < 0.35,
                    "at \(rate) Hz: began at \(began.time) s, with the rule off at \(early.time) s")
        }
    }

    /// The same four half-waves made quick (4 Hz: peaks 0.125 s apart) or straight (no y part)
    /// are a shake at once.
    @Test(arguments: rates)
    func quickOrStraightFourHalfWavesAreAShake(_ rate: Double) {
        for (name, motion) in [("quick", Self.ellipse(halfWaves: 4, hertz: 4, aspect: 0.4)),
                               ("straight", Self.ellipse(halfWaves: 4, hertz: 2, aspect: 0))] {
            let found = events(motion.samples(duration: 4, rate: rate, jitter: 0.05))
            #expect(found.map(\.phase) == [.began, .ended], "\(name) at \(rate) Hz: \(found)")
            #expect(found.first?.reversals == 3, "\(name) at \(rate) Hz: began on the fourth half-wave")
        }
    }

    /// The explanation names the rule, with the longest interval and the linearity it measured.
    @Test(arguments: [25.0, 100, 400])
    func theRefusalSaysWhatWasMeasured(_ rate: Double) {
        let samples = Self.ellipse(halfWaves: 4, hertz: 2, aspect: 0.4).samples(duration: 4, rate: rate, jitter: 0.05)
        let explained = ShakeExplanationTests.explain(samples)
        #expect(explained.events.isEmpty)
        let reasons = explained.refusals.map(\.reason)
        #expect(!reasons.isEmpty, "at \(rate) Hz")
        for reason in reasons {
            guard case .shortChainNeedsAnotherHalfWave(let longest, let linearity) = reason else {
                Issue.record("at \(rate) Hz: \(reason)")
                continue
            }
            #expect(longest > 0.2 && longest < 0.3, "at \(rate) Hz: longest interval \(longest) s")
            #expect(linearity > 0.3 && linearity < 0.5, "at \(rate) Hz: linearity \(linearity)")
        }
    }
}
