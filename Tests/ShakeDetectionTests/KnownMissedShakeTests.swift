import Testing
import ShakeDetection

/// Shakes that the detector currently misses, of a kind that `Scripts/dev-check`'s `turned` row
/// measures on real recordings. Wrapped in `withKnownIssue`: when the detector finally finds
/// them, the test fails ("known issue was not recorded") so the wrapper can be removed. The
/// controls outside the wrappers show that the shake itself is one the detector finds.
@Suite struct KnownMissedShakeTests {
    static let rates: [Double] = [25, 50, 100, 400, 1600]

    /// At rest face up for 2 s, then turned 90° onto its side within `turnSeconds`, and at once
    /// shaken at 3 Hz, 2 g for `shakeSeconds` along the line the turn moved gravity along.
    static func turnThenShake(rate: Double, turnSeconds: Double?, shakeSeconds: Double) -> [Sample] {
        let direction = unit(-1, 0, 1)
        let amplitude = 2 * standardGravity
        let shakeStart = 2 + (turnSeconds ?? 0)
        return (0..<Int(5 * rate)).map { i in
            let t = Double(i) / rate
            // Turned by a quarter turn; with no turn, on its side from the start.
            let done = turnSeconds.map { min(max((t - 2) / $0, 0), 1) } ?? 1
            var x = standardGravity * sin2pi(done / 4)
            var z = standardGravity * sin2pi(done / 4 + 0.25)
            if t >= shakeStart && t < shakeStart + shakeSeconds {
                let a = amplitude * sin2pi(3 * (t - shakeStart))
                x += a * direction.0
                z += a * direction.2
            }
            return Sample(time: t, x: x, y: 0, z: z)
        }
    }

    /// A short shake (0.7 s: about four half-waves) right after the device is turned, along the
    /// line of the turn: the gravity estimate (0.4 s) still lags the turn, its error points against
    /// the shake's first half-wave and keeps it under the onset, and three half-waves remain (the
    /// turn itself reads as one more, the same way as the second). On the dev corpus's Wiimote and
    /// micro:bit sessions with each shake turned at random, 9 of 360 shakes are lost, all of them
    /// short, slow or gentle (a turn across the shake's line no longer loses one:
    /// `ShakeDetectorTests.shortShakeRightAfterASuddenTurnIsFound`). The same shake without the
    /// turn, and a 1 s shake after the same turn, are found at every rate.
    @Test(arguments: rates)
    func shortShakeRightAfterATurnIsFound(_ rate: Double) {
        let unturned = events(Self.turnThenShake(rate: rate, turnSeconds: nil, shakeSeconds: 0.7))
        #expect(unturned.map(\.phase) == [.began, .ended], "at \(rate) Hz without the turn")
        let longer = events(Self.turnThenShake(rate: rate, turnSeconds: 0.1, shakeSeconds: 1))
        #expect(longer.map(\.phase) == [.began, .ended], "at \(rate) Hz, 1 s shake after the turn")

        for turnSeconds in [0.1, 0.3] {
            let result = events(Self.turnThenShake(rate: rate, turnSeconds: turnSeconds, shakeSeconds: 0.7))
            // The known issue is a miss, nothing else: no event at all, or the shake found once.
            #expect(result.isEmpty || result.map(\.phase) == [.began, .ended],
                    "at \(rate) Hz after a \(turnSeconds) s turn, neither missed nor found once: \(result.map(\.phase))")
            withKnownIssue("the gravity estimate lags a quick turn; a four-half-wave shake just after it loses one") {
                #expect(result.map(\.phase) == [.began, .ended],
                        "at \(rate) Hz after a \(turnSeconds) s turn: \(result.map(\.phase))")
            }
        }
    }

    /// A vigorous shake (3 g, 4 Hz, 1 s, across gravity) during a walk on a ±2 g sensor: every
    /// stroke clips at 19.6 m/s², so none can show the 25 m/s² (`ongoingMotionPeakAcceleration`)
    /// that a shake during ongoing motion needs, and the shake is never found. Counting a
    /// half-wave that reached the sensor's range as strong finds it, but a ±2 g phone clips on a
    /// run's heel strikes too: other people's everyday motion (`Scripts/dev-check`'s `everyday`
    /// row) then fired 60 false shakes instead of 13. The remedy is a wider range (±4 g or more).
    /// Controls: the same shake unclipped, and clipped after the walker stands still, are found.
    @Test(arguments: rates)
    func vigorousShakeDuringAWalkOnATwoGSensorIsFound(_ rate: Double) {
        func began(clip: Double, walkingUntil: Double = .infinity) -> [Double] {
            var m = OngoingMotionTests.walking(until: walkingUntil)
            m.clip = clip
            m.shakes = [Motion.Shake(start: 8, duration: 1, frequency: 4, amplitude: 3 * standardGravity,
                                     direction: unit(1, 0.2, 0))]
            return events(m.samples(duration: 11, rate: rate, jitter: 0.05)).filter { $0.phase == .began }.map(\.time)
        }
        let twoG = 2 * standardGravity
        let unclipped = began(clip: .infinity)
        #expect(unclipped.count == 1 && unclipped.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz unclipped: \(unclipped)")
        let afterPause = began(clip: twoG, walkingUntil: 6.5)
        #expect(afterPause.count == 1 && afterPause.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz after a pause: \(afterPause)")
        let clipped = began(clip: twoG)
        // The known issue is a miss, nothing else.
        #expect(clipped.count <= 1, "at \(rate) Hz: \(clipped)")
        withKnownIssue("a ±2 g sensor cannot show the peaks a shake needs during a walk") {
            #expect(clipped.count == 1 && clipped.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz clipped at 2 g: \(clipped)")
        }
    }

    /// Not every shake during a walk is lost on a ±2 g sensor: `|l|` combines the axes, so a
    /// stroke clipped at 19.6 m/s² on two axes at once (a shake diagonal across gravity) still
    /// reaches 27.7 m/s², and the same 3 g shake is found. What `shake live` and `record` say of
    /// a ±2 g device ("often missed, always when its strokes lie along one axis") rests on this
    /// and on the test above.
    @Test(arguments: rates)
    func aDiagonalShakeDuringAWalkOnATwoGSensorIsFound(_ rate: Double) {
        var m = OngoingMotionTests.walking()
        m.clip = 2 * standardGravity
        m.shakes = [Motion.Shake(start: 8, duration: 1, frequency: 4, amplitude: 3 * standardGravity,
                                 direction: unit(1, 1, 0))]
        let began = events(m.samples(duration: 11, rate: rate, jitter: 0.05)).filter { $0.phase == .began }.map(\.time)
        #expect(began.count == 1 && began.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(began)")
    }
}
