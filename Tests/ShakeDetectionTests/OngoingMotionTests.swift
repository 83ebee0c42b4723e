import Testing
import ShakeDetection

/// The ongoing-motion rule (`ShakeConfiguration.ongoingMotionSeconds`): after four seconds of
/// motion without a half-second pause, a shake must reach `ongoingMotionPeakAcceleration`
/// (25 m/s² in `medium`) to begin. Walking here is a 2 Hz bounce of 4 m/s² along gravity: below
/// the release threshold by itself, but |a| varies by about 2.8 m/s² (standard deviation) in
/// every half-second, so it never pauses.
@Suite struct OngoingMotionTests {
    static let rates: [Double] = [25, 50, 100, 400, 1600]

    /// Without the rule, for the controls that show a test's motion would fire.
    static let ruleOff: ShakeConfiguration = {
        var configuration = ShakeConfiguration.medium
        configuration.ongoingMotionSeconds = 0
        return configuration
    }()

    static func walking(until end: Double = .infinity) -> Motion {
        var m = Motion(noise: 0.3)
        m.walking = (frequency: 2, amplitude: 4)
        m.walkingEnd = end
        return m
    }

    /// The back-pocket heel ring of `KnownFalseShakeTests`, 2 steps/s for 20 s: on every step
    /// four alternating spikes 0.05 s wide and 0.07 s apart (`ring`, m/s²) and a rebound of
    /// −7.5 m/s² 0.3 s after the strike. For the first 6 s the walk is softer (+8.75/−8/+7.5/−7,
    /// rebound −3.75: below the onset threshold), so ongoing motion is established first.
    static func heelRingWalk(ring: [Double]) -> Motion {
        var m = Motion(noise: 0.3)
        let axis = unit(0, 0.3, 1)
        var step = 0.5
        while step < 20 {
            let soft = step < 6
            for (k, amplitude) in (soft ? [8.75, -8, 7.5, -7] : ring).enumerated() {
                m.pulses.append((step + 0.07 * Double(k), 0.05, amplitude, axis))
            }
            m.pulses.append((step + 0.3, 0.12, soft ? -3.75 : -7.5, axis))
            step += 0.5
        }
        return m
    }

    /// The back-pocket heel ring (+17.5/−16/+15/−14 m/s² on every step) after 6 s of the softer
    /// walk. From rest it fires (the known issue); once the walk has gone on for 4 s it does not.
    @Test(arguments: rates)
    func heelRingDuringAWalkDoesNotFire(_ rate: Double) {
        let samples = Self.heelRingWalk(ring: [17.5, -16, 15, -14]).samples(duration: 20, rate: rate, jitter: 0.05)
        let result = events(samples)
        #expect(result.isEmpty, "at \(rate) Hz: \(result.map { ($0.phase, $0.time) })")
        let control = events(samples, configuration: Self.ruleOff)
        #expect(control.contains { $0.phase == .began }, "at \(rate) Hz the ring should pass every other rule")
    }

    /// A gentle shake (1.5 g, 4 Hz, 1 s) during a walk does not count; the same shake after the
    /// walker stands still for 1.5 s does, and so does a vigorous one (3 g) without a pause.
    @Test(arguments: rates)
    func shakeDuringAWalkMustBeVigorous(_ rate: Double) {
        let direction = unit(1, 0.2, 0)
        func shake(_ g: Double, at start: Double) -> Motion.Shake {
            Motion.Shake(start: start, duration: 1, frequency: 4, amplitude: g * standardGravity, direction: direction)
        }
        var gentleWhileWalking = Self.walking()
        gentleWhileWalking.shakes = [shake(1.5, at: 8)]
        var gentleAfterPause = Self.walking(until: 6.5)
        gentleAfterPause.shakes = [shake(1.5, at: 8)]
        var vigorousWhileWalking = Self.walking()
        vigorousWhileWalking.shakes = [shake(3, at: 8)]

        func began(_ m: Motion, _ configuration: ShakeConfiguration = .medium) -> [Double] {
            events(m.samples(duration: 11, rate: rate, jitter: 0.05), configuration: configuration)
                .filter { $0.phase == .began }.map(\.time)
        }
        #expect(began(gentleWhileWalking).isEmpty, "at \(rate) Hz")
        #expect(began(gentleWhileWalking, Self.ruleOff).count == 1, "at \(rate) Hz: the rule, not another, stops it")
        let afterPause = began(gentleAfterPause)
        #expect(afterPause.count == 1 && afterPause.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(afterPause)")
        let vigorous = began(vigorousWhileWalking)
        #expect(vigorous.count == 1 && vigorous.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(vigorous)")
    }

    /// A walk with the device held steady in a hand: a 2 Hz bounce of 1 m/s², so |a| varies by
    /// about 0.73 m/s² in every half-second. That is more than a hand holding a device still
    /// before it shakes it (under 0.2 m/s² in dev), and less than the 1 m/s² that counted as a
    /// pause until stop 32, when such a walk let a phone's ring fire. It is ongoing motion: a
    /// gentle shake (1.5 g) during it does not count, though it did with the old pause, and does
    /// once the walker has stood still for 1.5 s.
    @Test(arguments: rates)
    func aSteadyWalkIsOngoingMotion(_ rate: Double) {
        let shake = Motion.Shake(start: 8, duration: 1, frequency: 4, amplitude: 1.5 * standardGravity,
                                 direction: unit(1, 0.2, 0))
        var whileWalking = Motion(noise: 0.3)
        whileWalking.walking = (frequency: 2, amplitude: 1)
        whileWalking.shakes = [shake]
        var afterStanding = whileWalking
        afterStanding.walkingEnd = 6.5

        func began(_ m: Motion, _ configuration: ShakeConfiguration = .medium) -> [Double] {
            events(m.samples(duration: 11, rate: rate, jitter: 0.05), configuration: configuration)
                .filter { $0.phase == .began }.map(\.time)
        }
        #expect(ShakeConfiguration.medium.pauseDeviationAcceleration == 0.5)
        #expect(began(whileWalking).isEmpty, "at \(rate) Hz")
        var oldPause = ShakeConfiguration.medium
        oldPause.pauseDeviationAcceleration = 1
        let old = began(whileWalking, oldPause)
        #expect(old.count == 1 && old.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(old)")
        let after = began(afterStanding)
        #expect(after.count == 1 && after.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(after)")
    }

    /// A jolt during a walk: from 6 s on, every step's heel strike opens with one hard spike
    /// (45 m/s² before the 40 ms smoothing, over 25 m/s² after it) and rings on at 16, 15 and
    /// 14 m/s². One strong half-wave in four is a jolt, not a vigorous shake: it does not fire,
    /// though it does when one strong half-wave is enough (`ongoingMotionStrongHalfWaves` 1).
    @Test(arguments: rates)
    func oneHardJoltPerStepDoesNotFire(_ rate: Double) {
        let samples = Self.heelRingWalk(ring: [45, -16, 15, -14]).samples(duration: 20, rate: rate, jitter: 0.05)
        let result = events(samples)
        #expect(result.isEmpty, "at \(rate) Hz: \(result.map { ($0.phase, $0.time) })")
        var oneIsEnough = ShakeConfiguration.medium
        oneIsEnough.ongoingMotionStrongHalfWaves = 1
        #expect(events(samples, configuration: oneIsEnough).contains { $0.phase == .began },
                "at \(rate) Hz the jolts should pass every other rule")
    }

    /// A vigorous shake during a walk whose strokes are uneven (4 Hz, alternately 35 and
    /// 18 m/s²: a strong push, a weaker pull) has two strong half-waves in every four: it begins
    /// within its first second, once, at every rate. With three required it does not.
    @Test(arguments: rates)
    func vigorousShakeWithUnevenStrokesDuringAWalkFires(_ rate: Double) {
        var m = Self.walking()
        let direction = unit(1, 0.2, 0)
        for k in 0..<8 {
            m.pulses.append((8 + 0.125 * Double(k), 0.125, k % 2 == 0 ? 35 : -18, direction))
        }
        let samples = m.samples(duration: 11, rate: rate, jitter: 0.05)
        let began = events(samples).filter { $0.phase == .began }.map(\.time)
        #expect(began.count == 1 && began.allSatisfy { $0 > 8 && $0 < 9 }, "at \(rate) Hz: \(began)")
        var threeNeeded = ShakeConfiguration.medium
        threeNeeded.ongoingMotionStrongHalfWaves = 3
        #expect(events(samples, configuration: threeNeeded).isEmpty, "at \(rate) Hz")
    }

    /// A stream that starts mid-walk (an app opened on a walk, a reader started with the device
    /// in a pocket, a recording cut from a longer one) is in ongoing motion from its first
    /// half-second block: blocks not yet seen are not pauses. A gentle shake 1 s in does not
    /// count (it did until stop 45, when nothing was known of a stream's first 4 s); after a
    /// still second at the start it does. A gap (a lost connection) forgets the walk before it,
    /// and the first block after it is ongoing motion again.
    @Test func aStreamThatStartsMidWalkIsInOngoingMotionFromItsFirstBlock() {
        let gentle = Motion.Shake(start: 1, duration: 1, frequency: 4, amplitude: 1.5 * standardGravity,
                                  direction: unit(1, 0.2, 0))
        var m = Self.walking()
        m.shakes = [gentle]
        let midWalk = m.samples(duration: 3, rate: 100)
        #expect(events(midWalk).isEmpty, "\(events(midWalk).map { ($0.phase, $0.time) })")
        #expect(events(midWalk, configuration: Self.ruleOff).filter { $0.phase == .began }.count == 1,
                "the shake should pass every other rule")

        var stillFirst = Self.walking()
        stillFirst.walkingStart = 1
        stillFirst.shakes = [gentle]
        stillFirst.shakes[0].start = 2
        let afterStill = events(stillFirst.samples(duration: 4, rate: 100)).filter { $0.phase == .began }
        #expect(afterStill.count == 1 && afterStill.allSatisfy { $0.time > 2 && $0.time < 3 },
                "\(afterStill.map(\.time))")

        m.shakes[0].start = 8
        var samples = m.samples(duration: 11, rate: 100)
        // A 1 s hole in the stream at 6-7 s.
        samples.removeAll { $0.time >= 6 && $0.time < 7 }
        #expect(events(samples).isEmpty, "after a gap the walk's first block should count as ongoing motion")
        #expect(events(samples, configuration: Self.ruleOff).filter { $0.phase == .began }.count == 1)
    }

    /// A stream whose first 0.2 s (`ShakeConfiguration.startPauseSeconds`) are still starts with
    /// a pause: a gentle shake begun 0.3 s in counts, though the stream's first half-second block
    /// holds its start (until stop 48 it did not: that block was motion, and no pause had been
    /// seen). Begun 0.1 s in, it leaves no still 0.2 s and is held to the ongoing-motion rule.
    @Test(arguments: rates)
    func aStreamThatStartsStillStartsWithAPause(_ rate: Double) {
        func began(shakeAt start: Double, _ configuration: ShakeConfiguration = .medium) -> [Double] {
            var m = Motion(noise: 0.3)
            m.shakes = [Motion.Shake(start: start, duration: 1, frequency: 4, amplitude: 1.5 * standardGravity,
                                     direction: unit(1, 0.2, 0))]
            return events(m.samples(duration: 3, rate: rate, jitter: 0.05), configuration: configuration)
                .filter { $0.phase == .began }.map(\.time)
        }
        let afterStill = began(shakeAt: 0.3)
        #expect(afterStill.count == 1 && afterStill.allSatisfy { $0 > 0.3 && $0 < 1.3 },
                "at \(rate) Hz: \(afterStill)")
        let early = began(shakeAt: 0.1)
        #expect(early.isEmpty, "at \(rate) Hz: \(early)")
        #expect(began(shakeAt: 0.1, Self.ruleOff).count == 1, "at \(rate) Hz the shake should pass every other rule")
    }

    /// The history is kept in half-second blocks (`ongoingMotionSeconds` is a whole number of
    /// them): a longer setting needs a longer walk after a pause (here a still first second).
    @Test func longerSettingNeedsALongerWalk() {
        var m = Self.walking()
        m.walkingStart = 1
        m.shakes = [Motion.Shake(start: 5, duration: 1, frequency: 4, amplitude: 1.5 * standardGravity,
                                 direction: unit(1, 0.2, 0))]
        let samples = m.samples(duration: 8, rate: 100)
        func began(_ seconds: Double) -> Int {
            var configuration = ShakeConfiguration.medium
            configuration.ongoingMotionSeconds = seconds
            return events(samples, configuration: configuration).filter { $0.phase == .began }.count
        }
        #expect(began(3.5) == 0)
        #expect(began(4) == 0)
        #expect(began(8) == 1)
        #expect(began(0) == 1)
    }

    /// `isInOngoingMotion` turns on 4 s into a walk that follows a pause (at the first block
    /// boundary after it), or at the end of the first half-second block of a stream that starts
    /// mid-walk, and off with the first still half-second after the walk; never with the rule
    /// off, and not before the first block of a stream has ended.
    @Test func isInOngoingMotionFollowsTheWalk() {
        var afterPause = Self.walking(until: 10)
        afterPause.walkingStart = 2
        func onTimes(_ motion: Motion, _ configuration: ShakeConfiguration = .medium) -> [Double] {
            var detector = ShakeDetector(configuration: configuration)
            return motion.samples(duration: 14, rate: 100)
                .filter { _ = detector.process($0); return detector.isInOngoingMotion }.map(\.time)
        }
        let on = onTimes(afterPause)
        #expect((on.first ?? 0) >= 6 && (on.first ?? 0) <= 6.6, "first \(String(describing: on.first))")
        #expect((on.last ?? 0) >= 10 && (on.last ?? 0) <= 11, "last \(String(describing: on.last))")
        let midWalk = onTimes(Self.walking(until: 10))
        #expect((midWalk.first ?? 0) >= 0.5 && (midWalk.first ?? 0) <= 0.52, "first \(String(describing: midWalk.first))")
        #expect((midWalk.last ?? 0) >= 10 && (midWalk.last ?? 0) <= 11, "last \(String(describing: midWalk.last))")
        #expect(onTimes(afterPause, Self.ruleOff).isEmpty)
    }
}
