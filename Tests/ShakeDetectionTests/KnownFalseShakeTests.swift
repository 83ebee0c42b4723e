import Testing
import ShakeDetection

/// Motions that are not shakes but that the detector currently takes for one (false shakes of the
/// kinds seen on the acceptance corpus). Each is wrapped in `withKnownIssue`: when a rule finally
/// rejects it, the test fails ("known issue was not recorded") so the wrapper can be removed.
///
/// Investigated without success (see the algo2 report): duty cycle of the chain (fraction of time
/// with |l| above the release threshold), amplitude consistency of the half-waves, and a minimum
/// half-wave width all overlap between these motions and real or synthetic shakes. Later, on
/// `Scripts/dev-check`'s rows (stop 18's note has the figures): how sharp each peak is against
/// the chain's rhythm (its curvature times (interval/π)² over its height: about 1 for a sine, 2
/// for the gestures that fire) and asking a fifth half-wave when a peak of the four is under 12
/// to 16 m/s² each kept out 1 to 3 of the `vigorous` row's 5 false shakes and found fewer
/// shakes (on the cadence grid 7 to 75 fewer of 1080); velocity reversals (a leaky integral of
/// l along the chain's line, looked at offline) overlap too.
@Suite struct KnownFalseShakeTests {
    static let rates: [Double] = [50, 100, 400]

    /// Walking with the phone in a back pocket, 2 steps/s: each heel strike rings along one line
    /// as four alternating half-sine spikes (+17.5, −16, +15, −14 m/s², 0.05 s wide, 0.07 s
    /// apart), then a slower rebound (−7.5 m/s², 0.12 s wide) 0.3 s after the strike. The ring is
    /// regular and linear and the rebound links it to the next step, so the whole walk is one
    /// chain. (The 40 ms smoothing lowers such narrow spikes by about a quarter: a ring of +15,
    /// −14, +13, −12 m/s² no longer fires, but this slightly harder one still does.) The walk
    /// here starts from rest, so the first steps fire before the ongoing-motion rule knows of a
    /// walk; once a walk has gone on for 4 s the rule stops this ring
    /// (`OngoingMotionTests.heelRingDuringAWalkDoesNotFire`).
    @Test(arguments: rates)
    func backPocketHeelRingGaitDoesNotFire(_ rate: Double) {
        let axis = unit(0, 0.3, 1)
        var m = Motion(noise: 0.3)
        var step = 1.0
        while step < 20 {
            for (k, amplitude) in [17.5, -16, 15, -14].enumerated() {
                m.pulses.append((step + 0.07 * Double(k), 0.05, amplitude, axis))
            }
            m.pulses.append((step + 0.3, 0.12, -7.5, axis))
            step += 0.5
        }
        let result = events(m.samples(duration: 20, rate: rate, jitter: 0.05))
        // The known issue is firing, in whole shakes: each began followed by its ended, or by a
        // cancel once the ringing has gone on longer than a shake may (today began, cancelled).
        let phases = result.map(\.phase)
        let wholeShakes = phases.count % 2 == 0 && phases.enumerated().allSatisfy { index, phase in
            index % 2 == 0 ? phase == .began : phase == .ended || result[index].cancellationReason == .tooLong
        }
        #expect(wholeShakes, "at \(rate) Hz: \(phases)")
        withKnownIssue("a regular four-spike heel ring passes every began rule") {
            #expect(result.isEmpty, "at \(rate) Hz: \(result.map(\.phase))")
        }
    }

    /// A vigorous push/pull of the hand (Wiimote gesture): three alternating half-sines of
    /// `amplitudeG` (0.5 s in all) and a rebound of half that size; four half-waves in all.
    @Test(arguments: rates, [2.0, 3.0])
    func pushPullWithReboundDoesNotFire(_ rate: Double, amplitudeG: Double) {
        let direction = unit(1, 0.2, 0.1)
        let width = 0.5 / 3
        let a = amplitudeG * standardGravity
        var m = Motion(noise: 0.05)
        for (k, amplitude) in [a, -a, a, -0.5 * a].enumerated() {
            m.pulses.append((1 + width * Double(k), width, amplitude, direction))
        }
        let result = events(m.samples(duration: 3, rate: rate, jitter: 0.05))
        // The known issue is one false shake; one gesture never fires twice or cancels.
        #expect(result.isEmpty || result.map(\.phase) == [.began, .ended], "at \(rate) Hz, \(amplitudeG) g: \(result.map(\.phase))")
        withKnownIssue("four strong half-waves of a one-off gesture look like a short shake") {
            #expect(result.isEmpty, "at \(rate) Hz, \(amplitudeG) g: \(result.map(\.phase))")
        }
    }
}
