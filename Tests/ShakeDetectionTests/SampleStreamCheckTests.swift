import ShakeDetection
import Testing

/// `SampleStreamCheck` says why a detector fed the wrong units stays silent, and says nothing
/// about streams that are right.
@Suite struct SampleStreamCheckTests {
    /// The index of the 64th sample: the README has the check say a problem with the units
    /// "within the first 64 samples" (not `samplesChecked`, which a change would move with it).
    static let sixtyFourth = 63
    /// The index of the sample that ends the 16th interval: the README has the check say a
    /// problem with the times or the rate "after 16 intervals".
    static let afterSixteenIntervals = 16

    /// A device lying still with a little noise, at `rate` Hz, times `timeScale` per second,
    /// acceleration `unit` per m/s².
    static func still(seconds: Double, rate: Double, timeScale: Double = 1, unit: Double = 1) -> [Sample] {
        var random = SplitMix(seed: 7)
        return (0..<Int(seconds * rate)).map { index in
            Sample(time: Double(index) / rate * timeScale, x: 0.05 * random.uniform() * unit,
                   y: 0.05 * random.uniform() * unit, z: (standardGravity + 0.05 * random.uniform()) * unit)
        }
    }

    /// Every problem the check reports over `samples`, with the index of the sample that found it.
    static func problems(_ samples: [Sample]) -> [(index: Int, problem: SampleStreamCheck.Problem)] {
        var check = SampleStreamCheck()
        return samples.enumerated().compactMap { index, sample in check.add(sample).map { (index, $0) } }
    }

    @Test func metresPerSecondSquaredInSecondsAtUsualRatesPass() {
        for rate in [25.0, 50, 100, 400, 1600] {
            // 3 s: a still stream's level is judged on 64 samples, 2.56 s at 25 Hz.
            let samples = Self.still(seconds: 3, rate: rate)
            #expect(Self.problems(samples).isEmpty, "\(rate) Hz")
            var check = SampleStreamCheck()
            for sample in samples { _ = check.add(sample) }
            #expect(check.isSettled && check.problem == nil, "\(rate) Hz")
        }
    }

    @Test func accelerationInGIsFoundAfterTheFirst64Samples() throws {
        let found = Self.problems(Self.still(seconds: 2, rate: 100, unit: 1 / standardGravity))
        #expect(found.count == 1)
        let first = try #require(found.first)
        #expect(first.index == Self.sixtyFourth)
        guard case .accelerationLooksLikeG(let magnitude) = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(abs(magnitude - 1) < 0.01)
        #expect(first.problem.description.hasPrefix("|a| stays near 1 where it would be 9.8 m/s² at rest: the "
            + "acceleration looks like it is in g; multiply it by standardGravity"), "\(first.problem)")
    }

    @Test func accelerationInMilliGIsFound() throws {
        let found = Self.problems(Self.still(seconds: 2, rate: 100, unit: 1000 / standardGravity))
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.problem.description.contains("in mg"), "\(first.problem)")
    }

    /// A device's wrong scale factor (twice or half the true one) or a sensor that reads
    /// nothing: |a| holds still far from 9.8 m/s². Devices whose calibration is a few per cent
    /// off (real ones at rest read 9.1 to 10.5 m/s²) pass.
    @Test(arguments: [(2.0, "19.6", "the acceleration reads about 2 times too large"),
                      (0.5, "4.91", "the acceleration reads about 2 times too small"),
                      (0.01, "0.0981", "the acceleration reads about 100 times too small"),
                      (0.0, "0", "the input holds no gravity")])
    func aStillStreamOffScaleIsFound(unit: Double, level: String, says: String) throws {
        let found = Self.problems(Self.still(seconds: 2, rate: 100, unit: unit))
        #expect(found.count == 1, "\(unit)")
        let first = try #require(found.first)
        #expect(first.index == Self.sixtyFourth)
        guard case .accelerationOffScale(let magnitude) = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(abs(magnitude - standardGravity * unit) < 0.05 * unit + 1e-9)
        #expect(first.problem.restingMagnitude == magnitude)
        #expect(first.problem.description.hasPrefix("|a| stays near \(level) where it would be 9.8 m/s² at rest: "
            + says), "\(first.problem)")
    }

    @Test(arguments: [0.85, 0.93, 1.07, 1.2])
    func aStillStreamAFewPerCentOffPasses(unit: Double) {
        #expect(Self.problems(Self.still(seconds: 2, rate: 100, unit: unit)).isEmpty, "\(unit)")
    }

    /// Linear acceleration (gravity taken out) at rest with a sensor's noise: |a| jitters about
    /// a few hundredths, too unsteady to count as holding still, yet far under gravity. Found
    /// on the 64th sample, moving or not; the still stream of a sensor that reads nothing stays
    /// `accelerationOffScale`.
    @Test(arguments: [0.1, 0.3, 1])
    func gravityFreeInputIsFound(noise: Double) throws {
        var random = SplitMix(seed: 11)
        let atRest = (0..<200).map { index in
            Sample(time: Double(index) / 100, x: noise * random.uniform(), y: noise * random.uniform(),
                   z: noise * random.uniform())
        }
        // Moving: a hand's 1.5 Hz sway of 3 m/s² along y, gravity-free.
        let swaying = (0..<200).map { index in
            let t = Double(index) / 100
            return Sample(time: t, x: noise * random.uniform(), y: 3 * sin2pi(1.5 * t), z: noise * random.uniform())
        }
        for (name, samples) in [("at rest", atRest), ("swaying", swaying)] {
            let found = Self.problems(samples)
            #expect(found.count == 1, "\(name) \(noise)")
            let first = try #require(found.first)
            #expect(first.index == Self.sixtyFourth)
            guard case .accelerationHoldsNoGravity(let mean) = first.problem else {
                Issue.record("\(name) \(noise): \(first.problem)")
                continue
            }
            #expect(mean < SampleStreamCheck.gravityFreeMeanMagnitude)
            #expect(first.problem.restingMagnitude == nil)
            #expect(first.problem.description.contains("has gravity taken out (linear acceleration), or is in g"), "\(first.problem)")
        }
    }

    /// With gravity in it, a hand's sway or a shake from the first sample keeps the mean |a| near
    /// 9.8 m/s² or above: not taken for gravity-free.
    @Test func motionWithGravityIsNotTakenForGravityFree() {
        let samples = (0..<200).map { index in
            let t = Double(index) / 100
            return Sample(time: t, x: 2 * standardGravity * sin2pi(4 * t), y: 3 * sin2pi(1.5 * t), z: standardGravity)
        }
        #expect(Self.problems(samples).isEmpty)
    }

    /// Off scale but moving from the first sample: nothing can be said of its scale.
    @Test func aMovingStreamOffScaleIsNotFlagged() {
        let samples = (0..<200).map { index in
            let t = Double(index) / 100
            return Sample(time: t, x: 3 * standardGravity * sin2pi(t * 4), y: 0, z: 2 * standardGravity)
        }
        #expect(Self.problems(samples).isEmpty)
    }

    /// A device shaken from the first sample, in g: |a| leaves 0.8...1.25, so its unit cannot be
    /// told, but its mean |a| (1.66) is far under gravity's: it is flagged as too weak, with both
    /// readings named (gravity taken out, or g).
    @Test func aStreamInGThatStartsMovingIsFlaggedAsHoldingNoGravity() throws {
        let samples = (0..<200).map { index in
            let t = Double(index) / 100
            return Sample(time: t, x: 2 * sin2pi(t * 4), y: 0, z: 1)
        }
        let found = Self.problems(samples)
        #expect(found.count == 1)
        let first = try #require(found.first)
        guard case .accelerationHoldsNoGravity = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(first.problem.description.contains("or is in g (multiply it by standardGravity"), "\(first.problem)")
    }

    /// The message names the unit and the divisor: a driver's nanosecond timestamps told to
    /// divide by 1000 would be told again, at 1000 times the rate, that they look like
    /// milliseconds.
    @Test(arguments: [(1000.0, "ms", "milliseconds; divide them by 1000"),
                      (1e6, "us", "microseconds; divide them by 1000000 (1e6)"),
                      (1e9, "ns", "nanoseconds; divide them by 1000000000 (1e9)")])
    func timesInASmallerUnitAreFound(scale: Double, unit: String, advice: String) throws {
        let found = Self.problems(Self.still(seconds: 1, rate: 100, timeScale: scale))
        let first = try #require(found.first, "\(unit)")
        #expect(found.count == 1)
        #expect(first.index == Self.afterSixteenIntervals)
        #expect(first.problem == .timeLooksLikeMilliseconds(firstInterval: scale / 100), "\(unit)")
        #expect(first.problem.description.hasSuffix("so the times are probably in \(advice)"), "\(unit)")
        // At 25 Hz and at 1.6 kHz too (40 and 0.625 ms, 4 × 10⁴ and 625 µs, …).
        for rate in [25.0, 1600] {
            let other = Self.problems(Self.still(seconds: 1, rate: rate, timeScale: scale))
            #expect(other.first?.problem.description.hasSuffix("so the times are probably in \(advice)") == true,
                    "\(unit) at \(rate) Hz")
        }
        #expect(first.problem.restingMagnitude == nil)
    }

    /// Intervals of exactly 0.25 are "0.25 or more": 4 Hz times are taken for milliseconds (as
    /// any slower rate's are), not for a slow rate.
    @Test func intervalsOfExactlyAQuarterAreTakenForMilliseconds() throws {
        let found = Self.problems(Self.still(seconds: 5, rate: 4))
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.index == Self.afterSixteenIntervals)
        #expect(first.problem == .timeLooksLikeMilliseconds(firstInterval: 0.25))
    }

    @Test func aSlowStreamIsFound() throws {
        let found = Self.problems(Self.still(seconds: 5, rate: 10))
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.index == Self.afterSixteenIntervals)
        guard case .sampleRateTooLow(let hertz) = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(abs(hertz - 10) < 0.01)
        #expect(first.problem.description == "10 Hz, under the 25 Hz the detector is made for: shakes may be missed")
    }

    /// A 100 Hz driver that stamps each FIFO batch with one time: the detector sees one sample a
    /// batch (none of the shake at 32 a batch), and the check says so instead of calling the
    /// batches' 0.1 s a slow rate or their 0.32 s milliseconds (as it did). With the times
    /// spread over each batch, as `timesRepeat` advises, the shake is found and nothing is said.
    /// Batches of 2 repeat as many times as they start new ones: that is enough.
    @Test(arguments: [2, 4, 10, 32])
    func aBatchStampedWithOneTimeIsFound(batch: Int) throws {
        let rate = 100.0
        let shake = (0..<600).map { index -> Sample in
            let t = Double(index) / rate
            let x = t >= 2 && t < 3.5 ? 2 * standardGravity * sin2pi(4 * (t - 2)) : 0
            return Sample(time: t, x: x, y: 0.1, z: standardGravity)
        }
        let stamped = shake.enumerated().map { index, sample in
            Sample(time: Double(index / batch * batch + batch - 1) / rate, x: sample.x, y: sample.y, z: sample.z)
        }
        let found = Self.problems(stamped)
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.problem == .timesRepeat(samplesPerTime: Double(batch)))
        #expect(first.problem.description == "\(batch) samples share each time (a FIFO batch stamped once?): the "
                    + "detector ignores a sample with the same time as the one before, so it sees 1 in \(batch); give "
                    + "each sample its own time")
        #expect(first.problem.restingMagnitude == nil)
        if batch == 32 { #expect(events(stamped).isEmpty) }
        // The advice: sample i of n stamped at `time` is at time − (n − 1 − i) / rate.
        let spread = stamped.enumerated().map { index, sample in
            Sample(time: sample.time - Double(batch - 1 - index % batch) / rate, x: sample.x, y: sample.y, z: sample.z)
        }
        #expect(Self.problems(spread).isEmpty)
        #expect(events(spread).map(\.phase) == [.began, .ended])
    }

    /// Times that never move on (every sample at 0: a driver without a timestamp): said at the
    /// 64th sample (the check waited for intervals that never came, and said nothing).
    @Test func timesThatNeverMoveAreFound() throws {
        let zero = Self.still(seconds: 3, rate: 100).map { Sample(time: 0, x: $0.x, y: $0.y, z: $0.z) }
        let found = Self.problems(zero)
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.index == Self.sixtyFourth)
        #expect(first.problem == .timesRepeat(samplesPerTime: Double(Self.sixtyFourth + 1)))
        var check = SampleStreamCheck()
        for sample in zero { _ = check.add(sample) }
        #expect(check.isSettled)
    }

    /// A stream in g whose times never move has both problems found at its 64th sample: the
    /// acceleration's is the one said (one problem at most), and once the acceleration is in
    /// m/s² the same times are said.
    @Test func aSampleThatFindsTwoProblemsSaysTheAccelerations() throws {
        let stuck = Self.still(seconds: 1, rate: 100).map { Sample(time: 0, x: $0.x, y: $0.y, z: $0.z) }
        let inG = stuck.map { Sample(time: $0.time, x: $0.x / standardGravity, y: $0.y / standardGravity,
                                     z: $0.z / standardGravity) }
        let found = Self.problems(inG)
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.index == Self.sixtyFourth)
        guard case .accelerationLooksLikeG = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(Self.problems(stuck).map(\.problem) == [.timesRepeat(samplesPerTime: Double(Self.sixtyFourth + 1))])
    }

    /// A 100 Hz driver that stamps each sample of a FIFO batch as it reads it out (10 µs apart,
    /// then the batch's period): said, with the burst's size; the same stream with its times
    /// spread over each batch, or with 20 % jitter, is not.
    @Test(arguments: [2, 4, 8])
    func aBatchStampedAsItIsReadOutIsFound(batch: Int) throws {
        let rate = 100.0
        let still = Self.still(seconds: 3, rate: rate)
        let burst = still.enumerated().map { index, sample in
            Sample(time: Double(index / batch + 1) * Double(batch) / rate + Double(index % batch) * 1e-5,
                   x: sample.x, y: sample.y, z: sample.z)
        }
        let found = Self.problems(burst)
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.problem == .timesBunched(samplesPerBurst: Double(batch)))
        #expect(first.problem.description == "the samples come in bursts of \(batch) or more close together, then a "
                    + "pause (a FIFO batch stamped as it is read out?): the detector sees each burst as one moment, so "
                    + "shakes are missed or begin late; spread each batch's times over its period")
        #expect(first.problem.restingMagnitude == nil)
        #expect(Self.problems(still).isEmpty)
        var generator = SplitMix(seed: 7)
        let jittered = still.map { sample in
            Sample(time: sample.time + generator.uniform() * 0.1 / rate,
                   x: sample.x, y: sample.y, z: sample.z)
        }
        #expect(Self.problems(jittered).isEmpty)
    }

    /// A 2 s pause among 50 Hz samples is a gap, not a slow rate; repeated and bad samples are
    /// not counted.
    @Test func gapsRepeatsAndBadSamplesDoNotMisleadIt() {
        var samples = Self.still(seconds: 2, rate: 50)
        for index in 5..<samples.count { samples[index].time += 2 }
        samples.insert(samples[3], at: 4)
        samples.insert(Sample(time: .nan, x: 0, y: 0, z: 0), at: 7)
        samples.insert(Sample(time: samples[9].time + 0.001, x: .infinity, y: 0, z: 0), at: 10)
        #expect(Self.problems(samples).isEmpty)
    }

    /// A still stream at `level` (|a| along z alone, no noise, so that |a| is `level` exactly), 100 Hz.
    static func still(level: Double) -> [Sample] {
        (0..<100).map { Sample(time: Double($0) / 100, x: 0, y: 0, z: level) }
    }

    /// "Between 0.8 and 1.25" (and 800 and 1250) includes its ends: a still |a| of exactly
    /// 0.8 or 1.25 is g, of 800 or 1250 mg; just outside, neither (off scale).
    @Test(arguments: [(0.8, "g"), (1.25, "g"), (800.0, "mg"), (1250.0, "mg"),
                      (0.79, "off"), (1.26, "off"), (790.0, "off"), (1260.0, "off")])
    func theEndsOfGAndMilliGCount(level: Double, unit: String) throws {
        let found = Self.problems(Self.still(level: level))
        let first = try #require(found.first, "\(level)")
        #expect(found.count == 1)
        switch (unit, first.problem) {
        case ("g", .accelerationLooksLikeG(let magnitude)), ("mg", .accelerationLooksLikeMilliG(let magnitude)),
             ("off", .accelerationOffScale(let magnitude)):
            #expect(abs(magnitude - level) < 1e-9 * level)
        default:
            Issue.record("\(level): \(first.problem), expected \(unit)")
        }
    }

    /// A sample with a NaN or infinite value counts in neither check: a stream in g with three
    /// such samples among its first is still found in g, three samples later; a 10 Hz stream
    /// with one sample at time +infinity is still found slow, a sample later (a time of
    /// infinity had become the last time, every later interval negative, and nothing was said).
    @Test func samplesThatAreNotFiniteAreLeftOut() throws {
        var inG = Self.still(seconds: 2, rate: 100, unit: 1 / standardGravity)
        for (index, bad) in [(10, Sample(time: 0.095, x: .nan, y: 0, z: 1)),
                             (20, Sample(time: 0.185, x: 0, y: .infinity, z: 1)),
                             (30, Sample(time: 0.275, x: 0, y: 0, z: -.infinity))] {
            inG.insert(bad, at: index)
        }
        let foundInG = Self.problems(inG)
        let first = try #require(foundInG.first)
        #expect(foundInG.count == 1)
        #expect(first.index == Self.sixtyFourth + 3)
        guard case .accelerationLooksLikeG(let magnitude) = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(abs(magnitude - 1) < 0.01)

        var slow = Self.still(seconds: 5, rate: 10)
        slow.insert(Sample(time: .infinity, x: 0, y: 0, z: standardGravity), at: 5)
        let foundSlow = Self.problems(slow)
        let slowFirst = try #require(foundSlow.first)
        #expect(foundSlow.count == 1)
        #expect(slowFirst.index == Self.afterSixteenIntervals + 1)
        guard case .sampleRateTooLow(let hertz) = slowFirst.problem else {
            Issue.record("\(slowFirst.problem)")
            return
        }
        #expect(abs(hertz - 10) < 0.01)
    }

    /// A sample out of order (0.45 s back, within the detector's gap) is not counted, and the
    /// next interval is measured from the latest time, not from it: a 32 Hz stream stays
    /// unflagged (measured from it, the next interval read 0.48 s and the rate 16.8 Hz).
    @Test func aSampleOutOfOrderIsNotCounted() {
        var samples = Self.still(seconds: 2, rate: 32)
        samples.insert(Sample(time: samples[7].time - 0.45, x: 0, y: 0, z: standardGravity), at: 8)
        #expect(Self.problems(samples).isEmpty)
    }

    /// Gaps "over 0.5 s" are left out of the rate: an interval of exactly 0.5 s is not a gap and
    /// counts (32 Hz with one such interval reads 16.5 Hz: too slow), one a sample longer is
    /// left out (32 Hz, nothing said). Times in 32nds of a second, exact.
    @Test func anIntervalOfExactlyTheGapLimitCountsInTheRate() throws {
        func stream(jump: Double) -> [Sample] {
            (0..<40).map { index in
                Sample(time: Double(index) / 32 + (index > 8 ? jump - 1.0 / 32 : 0), x: 0, y: 0, z: standardGravity)
            }
        }
        let found = Self.problems(stream(jump: ShakeConfiguration.medium.maximumGapSeconds))
        let first = try #require(found.first)
        #expect(found.count == 1)
        #expect(first.index == Self.afterSixteenIntervals)
        #expect(first.problem == .sampleRateTooLow(hertz: 16 / (15.0 / 32 + 0.5)))
        #expect(Self.problems(stream(jump: 0.5 + 1.0 / 32)).isEmpty)
    }

    /// "Over 10 % under" 25 Hz: 22.4 Hz is flagged, 22.6 Hz is not.
    @Test func theRateIsFlaggedOverTenPerCentUnderTwentyFiveHertz() throws {
        let found = Self.problems(Self.still(seconds: 5, rate: 22.4))
        let first = try #require(found.first)
        guard case .sampleRateTooLow(let hertz) = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(abs(hertz - 22.4) < 0.01)
        #expect(Self.problems(Self.still(seconds: 5, rate: 22.6)).isEmpty)
    }

    /// `firstInterval` is the first interval, not the last one checked: milliseconds whose
    /// first interval is 12 ms and the rest 10 ms.
    @Test func timesInMillisecondsNameTheFirstInterval() throws {
        let samples = (0..<40).map { index in
            Sample(time: index == 0 ? -2 : Double(index) * 10, x: 0, y: 0, z: standardGravity)
        }
        let found = Self.problems(samples)
        let first = try #require(found.first)
        #expect(first.problem == .timeLooksLikeMilliseconds(firstInterval: 12))
        #expect(first.problem.description.contains("(the first is 12)"), "\(first.problem)")
    }

    /// Bursts are judged on 4 intervals or more (`samplesPerBurst`'s nil for fewer).
    @Test func burstsNeedFourIntervals() {
        #expect(SampleStreamCheck.samplesPerBurst([1e-5, 0.02, 1e-5, 0.02]) == 2)
        #expect(SampleStreamCheck.samplesPerBurst([1e-5, 0.02, 1e-5]) == nil)
    }

    /// "Holds still" is a range of |a| within 10 % of its mean: twice gravity wavering by ±4 %
    /// (a range of 8 %) is off scale, by ±7.5 % (15 %) it moves and nothing is said of its scale.
    @Test func holdingStillIsARangeWithinTenPerCentOfTheMean() throws {
        func wavering(by fraction: Double) -> [Sample] {
            (0..<100).map { index in
                let t = Double(index) / 100
                return Sample(time: t, x: 0, y: 0, z: 2 * standardGravity * (1 + fraction * sin2pi(2 * t)))
            }
        }
        let found = Self.problems(wavering(by: 0.04))
        let first = try #require(found.first)
        guard case .accelerationOffScale = first.problem else {
            Issue.record("\(first.problem)")
            return
        }
        #expect(Self.problems(wavering(by: 0.075)).isEmpty)
    }
}
