import Testing
@testable import ShakeIIO

/// ``ArrivalRateClock`` fed made-up refills: a device that measures a sample every `truePeriod`
/// seconds (its stated rate may be another), through a kernel buffer of 16 samples that loses the
/// newer ones when full, read in refills of `perRefill` samples by a reader woken 0.1 to 1.1 ms
/// after a refill's last sample was measured, but for a pause now and then (it then reads what
/// waited at once, 10 µs a refill). The times the clock gives, against those of measurement.
@Suite struct ArrivalRateClockTests {
    struct Run {
        var given: [Double] = []
        var measured: [Double] = []
        var arrivals: [Double] = []
        /// The samples the clock counted as lost before each sample (0 for most).
        var lostBefore: [Int] = []
        /// Samples the full buffer lost.
        var bufferLost = 0
        var clock: ArrivalRateClock

        var intervals: [Double] { zip(given.dropFirst(), given).map { $0 - $1 } }
        /// Given minus measured, s, of the samples after the first `seconds`.
        func offsets(after seconds: Double) -> [Double] {
            zip(given, measured).filter { $0.1 >= seconds }.map { $0.0 - $0.1 }
        }
    }

    /// `seconds` of samples; the reader pauses `pause` s at the end of every `every` s; samples
    /// whose index is in `neverSent` are not sent by the device.
    /// `freshJoinsBacklog`: the sample measured as the reader resumes is read with the backlog,
    /// after those the buffer kept (as the emulator delivers it). `pausedDuring`: the reader also
    /// pauses over these seconds. `wakeUp`: the reader is woken 0.1 ms and up to this many
    /// seconds more after a refill's last sample was measured. `periodAfter`: the device
    /// measures a sample every `period` s from `seconds` on (its rate changed while streaming).
    /// `work`: the reader reads again no sooner than this many seconds after a refill arrived
    /// (its consumer's work on each refill). `seed`: of the wake-ups' random lateness.
    static func run(truePeriod: Double, statedPeriod: Double, perRefill: Int = 4, seconds: Double = 20,
                    pause: Double = 0, every: Double = 0.5, neverSent: Range<Int> = 0..<0,
                    freshJoinsBacklog: Bool = false, pausedDuring: Range<Double> = 0..<0,
                    wakeUp: Double = 0.001, periodAfter: (seconds: Double, period: Double)? = nil,
                    work: Double = 0, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Run {
        var run = Run(clock: ArrivalRateClock(statedPeriodSeconds: statedPeriod, bufferLength: 16))
        var times: [Double] = []
        var queue: [Double] = []
        var random = seed
        let count = Int(seconds / truePeriod)
        var changedAt: (index: Int, seconds: Double)?
        var free = 0.0
        for index in 0... {
            var now = Double(index) * truePeriod
            if let periodAfter {
                if changedAt == nil && now >= periodAfter.seconds { changedAt = (index, now) }
                if let changedAt { now = changedAt.seconds + Double(index - changedAt.index) * periodAfter.period }
                guard now < seconds else { break }
            } else if index >= count {
                break
            }
            let paused = now.truncatingRemainder(dividingBy: every) >= every - pause || pausedDuring.contains(now)
                || now < free
            if !neverSent.contains(index) {
                if queue.count < 16 || freshJoinsBacklog && !paused { queue.append(now) } else { run.bufferLost += 1 }
            }
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var arrival = now + 0.0001 + Double(random >> 40) / Double(1 << 24) * wakeUp
            while !paused && queue.count >= perRefill {
                let (lost, gapBefore) = run.clock.refill(of: perRefill, arrivedAt: arrival, into: &times)
                for (offset, time) in queue.prefix(perRefill).enumerated() {
                    run.given.append(times[offset])
                    run.measured.append(time)
                    run.arrivals.append(arrival)
                    run.lostBefore.append(offset == gapBefore ? lost : 0)
                }
                queue.removeFirst(perRefill)
                free = arrival + work
                arrival += max(1e-5, work)
            }
        }
        return run
    }

    /// Times strictly increasing, never after their refill arrived.
    static func expectOrderly(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.intervals.allSatisfy { $0 > 0 }, "\(run.intervals.min() ?? 0) s apart", sourceLocation: sourceLocation)
        let after = zip(run.given, run.arrivals).map { $0 - $1 }.max() ?? 0
        #expect(after <= 1e-9, "a sample \(after) s after its refill arrived", sourceLocation: sourceLocation)
    }

    /// Pauses of 0.12 s every 0.5 s (12 samples waiting, which the buffer holds): every sample
    /// a period after the one before, within 1.2 ms of when it was measured; none lost.
    @Test func aBacklogTheBufferHoldsKeepsTheDevicesSpacing() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, pause: 0.12)
        Self.expectOrderly(run)
        #expect(run.clock.lostSamples == 0)
        let intervals = run.intervals
        #expect(intervals.allSatisfy { $0 > 0.008 && $0 < 0.012 }, "\(intervals.min() ?? 0) to \(intervals.max() ?? 0) s apart")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// A device 4 times faster than it states (25 Hz, refills of 1), twice slower (50 Hz for
    /// 100), 3 % faster or slower, with pauses of 0.12 s: its rate is measured, no sample is
    /// counted lost, none more than 1.5 of its periods from the one before (no drop counted),
    /// and after the first second each is within 1.2 ms of when it was measured (the first
    /// refill is timed at the stated rate).
    @Test(arguments: [(0.01, 0.04, 1), (0.02, 0.01, 4), (0.0097, 0.01, 4), (0.0103, 0.01, 4)])
    func aDeviceOffItsStatedRateIsTimedAtItsOwn(truePeriod: Double, statedPeriod: Double, perRefill: Int) {
        let run = Self.run(truePeriod: truePeriod, statedPeriod: statedPeriod, perRefill: perRefill, pause: 0.1)
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0 && run.clock.lostSamples == 0)
        #expect(abs(run.clock.periodSeconds - truePeriod) < 1e-5 * truePeriod * 100, "\(run.clock.periodSeconds) s")
        let intervals = run.intervals
        #expect(intervals.allSatisfy { $0 < 1.5 * truePeriod }, "\(intervals.max() ?? 0) s apart")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// A device 4 times faster than it states (100 Hz for 25, refills of one sample, pauses of
    /// 0.03 s every 0.5 s, as `UntimestampedBufferTests` plays it) read by a reader woken 0.1 to
    /// 10.1 ms late (up to a period), 300 readers each with its own lateness. The first samples
    /// are timed at the stated rate, then at a period measured from the few refills come so far,
    /// whose arrivals carry that lateness: their spacing follows it (153 of the 300 readers had
    /// an interval out of 0.5 to 1.5 periods, the latest at 0.21 s). After half a second, every
    /// interval is within; and no sample is counted lost. (Before losses waited for the jitter to
    /// be measured, 79 of the readers counted 1 to 3 samples lost in their first refills, where
    /// the tolerance was still 2 ms, and the latest uneven interval was at 0.43 s. In the
    /// emulator, in CI, a reader woken about 6 ms late spaced the 12th sample 4.4 ms after the
    /// 11th.)
    @Test func aJitteryStartSettlesWithinHalfASecond() {
        for reader in 0..<300 {
            let run = Self.run(truePeriod: 0.01, statedPeriod: 0.04, perRefill: 1, seconds: 2, pause: 0.03,
                               wakeUp: 0.01, seed: UInt64(reader) &* 0x2545_F491_4F6C_DD1D &+ 1)
            Self.expectOrderly(run)
            #expect(run.clock.lostSamples == 0, "reader \(reader): \(run.clock.lostSamples) counted lost")
            let uneven = zip(run.intervals, run.measured.dropFirst()).filter {
                $0.1 >= 0.5 && !($0.0 >= 0.005 && $0.0 <= 0.015)
            }
            #expect(uneven.isEmpty, "reader \(reader): intervals out of 0.5 to 1.5 periods after 0.5 s: \(uneven.prefix(4))")
        }
    }

    /// An hour at a rate 0.3 % under the stated one, pauses of 0.12 s: the time neither runs
    /// ahead of the arrivals nor falls behind the device's clock.
    @Test func anHourStaysWithRealTime() {
        let run = Self.run(truePeriod: 0.01003, statedPeriod: 0.01, seconds: 3600, pause: 0.12)
        Self.expectOrderly(run)
        #expect(run.clock.lostSamples == 0)
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// Pauses of 0.5 s every second, beyond the buffer: of each pause's 50 samples the buffer
    /// keeps the first 16; the rest are lost. The kept ones are timed as measured, and the gap
    /// comes after them, where the samples were lost, with as many counted lost as were; also
    /// when the sample measured as the reader resumed is read with the backlog (beyond the
    /// buffer's 16: found in the burst itself).
    @Test(arguments: [false, true])
    func aPauseBeyondTheBufferIsAGapAfterTheSamplesKept(freshJoinsBacklog: Bool) {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, pause: 0.5, every: 1, freshJoinsBacklog: freshJoinsBacklog)
        Self.expectOrderly(run)
        let measuredGaps = zip(run.measured.dropFirst(), run.measured).enumerated()
            .filter { $0.element.0 - $0.element.1 > 0.015 }.map { $0.offset }
        let givenGaps = run.intervals.enumerated().filter { $0.element > 0.015 }.map { $0.offset }
        #expect(measuredGaps.count == 19 && givenGaps == measuredGaps, "\(givenGaps) for \(measuredGaps)")
        let lost = zip(run.measured.dropFirst(), run.measured).map { Int((($0 - $1) / 0.01).rounded()) - 1 }
        #expect(run.lostBefore.dropFirst().elementsEqual(lost), "\(run.clock.lostSamples) counted, \(lost.reduce(0, +)) lost")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// Pauses just beyond the buffer (0.18 and 0.2 s every second: 18 and 20 samples measured
    /// while paused, of which the buffer keeps up to 16): 4 to 8 samples lost each time. As after
    /// longer pauses (above), the kept ones are timed as measured and as many samples counted lost
    /// as were, before the first sample after the gap. The loss is found by the first refill
    /// waited for after the backlog: its first sample has the line before the backlog was read.
    /// With its last sample tested so (1.5 periods and 2 ms before), losses of up to 5 samples
    /// were missed there and found later by late refills, one short: 59 of 80 counted at 0.18 s,
    /// the samples after each pause timed up to 9.1 ms after they were measured.
    @Test(arguments: [0.18, 0.2])
    func aPauseJustBeyondTheBufferCountsEverySampleLost(pause: Double) {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, pause: pause, every: 1)
        Self.expectOrderly(run)
        let lost = zip(run.measured.dropFirst(), run.measured).map { Int((($0 - $1) / 0.01).rounded()) - 1 }
        #expect(lost.filter { $0 > 0 }.count == 19 && lost.allSatisfy { $0 >= 0 && $0 <= 8 }, "\(lost.filter { $0 != 0 })")
        #expect(run.lostBefore.dropFirst().elementsEqual(lost), "\(run.clock.lostSamples) counted, \(lost.reduce(0, +)) lost")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// A device 3 % faster than it states, pauses of 0.12 s: now and then the buffer is full for
    /// a sample's time and loses it. A lone sample lost is found once three refills in a row came
    /// a period late (the time a period behind until then), and counted.
    @Test func aLoneSampleLostInABacklogIsCounted() {
        let run = Self.run(truePeriod: 0.0097, statedPeriod: 0.01, pause: 0.12)
        Self.expectOrderly(run)
        #expect(run.bufferLost >= 4 && run.clock.lostSamples == run.bufferLost, "\(run.clock.lostSamples) of \(run.bufferLost)")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0097 + 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// Samples the device never sent (an overrun of 10), read as they come: the gap is found by
    /// the refill after the one that waited for them, and placed before it (one refill late),
    /// with the 10 counted lost.
    @Test func samplesNeverSentAreAGapOneRefillLate() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 5, neverSent: 200..<210)
        Self.expectOrderly(run)
        #expect(run.clock.lostSamples == 10)
        let gaps = run.intervals.enumerated().filter { $0.element > 0.015 }
        #expect(gaps.count == 1 && gaps[0].offset == 199 + 4 && abs(gaps[0].element - 0.11) < 0.002, "\(gaps)")
    }

    /// The reader's first refills are a backlog (it opened the device 0.1 or 0.15 s before it
    /// first read, its `onStart` slow or the machine busy: 10 or 15 samples waiting, which the
    /// buffer holds), read at once, 10 µs apart. The period is not measured from them: it was
    /// (2.5 µs a sample, from the first two refills), and the samples then counted lost into the
    /// index kept it so for good (a million counted lost in a minute, a gap every other refill).
    @Test(arguments: [0.1, 0.15])
    func aFirstRefillThatIsABacklogDoesNotSetThePeriod(opened: Double) {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 30, pausedDuring: 0..<opened)
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0 && run.clock.lostSamples == 0, "\(run.clock.lostSamples) counted lost")
        #expect(abs(run.clock.periodSeconds - 0.01) < 1e-5, "\(run.clock.periodSeconds) s")
        let gaps = run.intervals.filter { $0 > 0.015 }
        #expect(gaps.count == 0, "intervals over 1.5 periods, up to \(gaps.max() ?? 0) s")
        let offsets = run.offsets(after: 1)
        #expect(offsets.allSatisfy { abs($0) < 0.0012 }, "\(offsets.min() ?? 0) to \(offsets.max() ?? 0) s off")
    }

    /// The same first backlog read by a reader that works 5 ms on each refill: the backlog's
    /// refills arrive 5 ms apart, and the period measured from them is short (1.25 ms, within the
    /// stated one's factor of 8). The refills read as they came after are then late on the line,
    /// by more each time: taken for samples lost, which, counted into the index, kept the period
    /// wrong for good (20,929 counted lost in 30 s, none really, a gap every other refill); now
    /// a lateness growing from one refill to the next is not a loss, and the period is measured.
    @Test(arguments: [0.1, 0.13])
    func aFirstBacklogReadSlowlyDoesNotSetThePeriod(opened: Double) {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 30, pausedDuring: 0..<opened, work: 0.005)
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0)
        #expect(run.clock.lostSamples == 0, "\(run.clock.lostSamples) counted lost")
        #expect(abs(run.clock.periodSeconds - 0.01) < 1e-5, "\(run.clock.periodSeconds) s")
        let gaps = run.intervals.filter { $0 > 0.015 }
        #expect(gaps.count == 0, "intervals over 1.5 periods, up to \(gaps.max() ?? 0) s")
    }

    /// A reader paused right after its first refill (0.04 to 0.16 s: 12 samples waiting, which
    /// the buffer holds): the backlog's refills, read at once, do not measure the period. They
    /// did, from the first two refills, the second a backlog's (32.5 ms for 10): that refill's 4
    /// samples were timed 22.5 ms apart, the next refill's microseconds apart.
    @Test func aPauseRightAfterTheFirstRefillKeepsTheDevicesSpacing() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, pausedDuring: 0.04..<0.16)
        Self.expectOrderly(run)
        let intervals = run.intervals.dropFirst(3)
        let uneven = intervals.filter { !($0 > 0.005 && $0 < 0.015) }
        #expect(uneven.count == 0, "intervals \(uneven.map { ($0 * 1e4).rounded() / 10 }) ms")
        #expect(run.clock.lostSamples == 0)
    }

    /// A reader on a loaded machine, woken late at random after a refill's last sample was
    /// measured (0.1 to 8.1 ms at 100 Hz, refills of 40 ms; 0.1 to 30.1 ms at 25 Hz, refills of
    /// one sample), for a minute: no sample counted lost, no gap, the period measured. Three
    /// refills in a row late by half a period and 2 ms were taken for a lone sample lost: 30
    /// counted lost at 100 Hz (each a gap of 17 to 20 ms the reader counts as a drop, the
    /// period measured 1.9 % short); at 25 Hz, 201 gaps and the period 26 % short. The tolerance
    /// is now the wake-up jitter.
    @Test(arguments: [(0.01, 4, 0.008), (0.04, 1, 0.03)])
    func aReaderWokenLateAtRandomCountsNoLoss(period: Double, perRefill: Int, wakeUp: Double) {
        let run = Self.run(truePeriod: period, statedPeriod: period, perRefill: perRefill, seconds: 60, wakeUp: wakeUp)
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0 && run.clock.lostSamples == 0, "\(run.clock.lostSamples) counted lost")
        let gaps = run.intervals.filter { $0 > 1.5 * period }
        #expect(gaps.count == 0, "intervals over 1.5 periods, up to \(gaps.max() ?? 0) s")
        #expect(abs(run.clock.periodSeconds - period) < 0.01 * period, "\(run.clock.periodSeconds) s")
    }

    /// A reader woken 0.1 to 20.1 ms late at random at 100 Hz (the jitter twice the period):
    /// no sample counted lost.
    @Test func aWakeUpJitterBeyondAPeriodCountsNoLoss() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 60, wakeUp: 0.02)
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0)
        withKnownIssue("""
            ArrivalRateClock measures the wake-up jitter from refills not late by half a period and \
            the jitter so far, which leaves out the later half of a jitter beyond a period: \
            refills late by it are still taken for samples lost now and then (1 counted lost in a \
            minute, at 1.72 s, none really, a gap; 5 before losses waited for the jitter to be \
            measured, at 0.24, 0.56, 1.24 and 1.72 s; 3,808 and 507 when the samples counted lost \
            measured the period)
            """) {
            #expect(run.clock.lostSamples == 0, "\(run.clock.lostSamples) counted lost")
            let gaps = run.intervals.filter { $0 > 0.015 }
            #expect(gaps.count == 0, "intervals over 1.5 periods")
        }
    }

    /// A device whose rate is lowered while streaming (`sampling_frequency` written by another
    /// program: 100 Hz to 50 at 10 s): timed at its new rate once the window has seen it, no
    /// sample counted lost. Its refills, late on the old line by more each time, were taken for
    /// samples lost, and those counted into the index kept the period at the old one for good
    /// (1,499 counted lost in 30 s, a gap of 130 ms every 3 refills, the period still 10 ms).
    @Test func aRateLoweredWhileStreamingIsFollowed() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 40, periodAfter: (10, 0.02))
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0)
        #expect(run.clock.lostSamples == 0, "\(run.clock.lostSamples) counted lost")
        #expect(abs(run.clock.periodSeconds - 0.02) < 2e-4, "\(run.clock.periodSeconds) s")
        let gaps = zip(run.intervals, run.measured.dropFirst()).filter { $0.1 > 21 && $0.0 > 0.03 }
        #expect(gaps.count == 0, "intervals over 1.5 periods after 21 s: \(gaps.count)")
    }

    /// A device slowed a little while streaming (100 Hz to 98, 95.2 or 90.9 at 10 s): the
    /// refills come late on the old line by little more each time, taken for samples lost while
    /// the window learns the new rate; those samples are not counted into the samples the period
    /// is measured from, which, counted in, kept the old period for good (after 21 s a sample
    /// counted lost every 0.5 to 0.1 s, a gap every 2.7 to 0.4 s, the period 2 to 10 % short
    /// at 40 s). After 21 s the period is the new one, no sample counted lost, no gap.
    @Test(arguments: [0.0102, 0.0105, 0.011])
    func aRateLoweredALittleWhileStreamingIsFollowed(period: Double) {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 40, periodAfter: (10, period))
        Self.expectOrderly(run)
        #expect(run.bufferLost == 0)
        #expect(abs(run.clock.periodSeconds - period) < 1e-3 * period, "\(run.clock.periodSeconds) s")
        let lostLate = zip(run.lostBefore, run.measured).filter { $0.1 > 21 }.map { $0.0 }.reduce(0, +)
        #expect(lostLate == 0, "\(lostLate) counted lost after 21 s")
        let gaps = zip(run.intervals, run.measured.dropFirst()).filter { $0.1 > 21 && $0.0 > 1.5 * period }
        #expect(gaps.count == 0, "intervals over 1.5 periods after 21 s: \(gaps.count)")
    }

    /// A consumer slower than the device (45 ms of work on each refill of 40 ms; it reads again
    /// as the next sample comes): the kernel buffer stays full and loses the newer samples (462
    /// of 3,000 in 30 s). The samples are timed at the device's rate, and those lost are counted.
    @Test func aSteadilySlowConsumerLosesSamplesAtTheDevicesRate() {
        let run = Self.run(truePeriod: 0.01, statedPeriod: 0.01, seconds: 30, work: 0.045)
        Self.expectOrderly(run)
        #expect(run.bufferLost > 300)
        withKnownIssue("""
            ArrivalRateClock cannot tell a full buffer read by a slow consumer from a slower \
            device: refills of 4 every 45 to 50 ms measure a period of 11.9 ms, every sample is \
            timed 19 % too far apart and none of the 462 samples the buffer lost is counted
            """) {
            #expect(abs(run.clock.periodSeconds - 0.01) < 1e-4, "\(run.clock.periodSeconds) s")
            #expect(Double(run.clock.lostSamples) > 0.8 * Double(run.bufferLost),
                    "\(run.clock.lostSamples) counted lost of \(run.bufferLost)")
        }
    }

    /// The first refill, before any arrival measured the rate: timed back from its arrival at
    /// the stated rate.
    @Test func theFirstRefillIsTimedBackFromItsArrivalAtTheStatedRate() {
        var clock = ArrivalRateClock(statedPeriodSeconds: 0.01)
        var times: [Double] = []
        let lost = clock.refill(of: 4, arrivedAt: 10, into: &times)
        #expect(times.count == 4 && zip(times, [9.97, 9.98, 9.99, 10]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(lost.lost == 0)
    }
}


