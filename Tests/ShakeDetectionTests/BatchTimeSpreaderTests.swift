import ShakeDetection
import Testing

/// `BatchTimeSpreader` gives the samples of a FIFO batch stamped with one time (or microseconds
/// apart) even times, so that the detector finds the shakes it finds in evenly stamped samples,
/// and leaves every other stream exactly as it is.
@Suite struct BatchTimeSpreaderTests {
    /// Times at `rate` Hz, each moved by up to ±`jitter`/2 of an interval (seeded).
    static func times(count: Int, rate: Double, from start: Double = 0, jitter: Double = 0, seed: UInt64 = 3) -> [Double] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { start + (Double($0) + jitter * 0.5 * random.uniform()) / rate }
    }

    /// `times` as a FIFO of `size` delivers them: each batch at its last sample's time, its
    /// samples the same time (`readOut` false) or 10 µs apart (`readOut` true).
    static func batched(_ times: [Double], size: Int, readOut: Bool) -> [Double] {
        times.indices.map { index in
            let last = min(index / size * size + size - 1, times.count - 1)
            return times[last] + (readOut ? 0.00001 * Double(index % size) : 0)
        }
    }

    static func spread(_ times: [Double]) -> (times: [Double], moved: Int) {
        var spreader = BatchTimeSpreader()
        let out = times.map { spreader.spread(Sample(time: $0, x: 0, y: 0, z: 9.8)).time }
        return (out, spreader.spreadSamples)
    }

    /// Jitter, gaps under and over the gap limit (1.5 s) and the detector's (0.5 s), and changes of
    /// rate up and down by up to 64 times: no time is changed.
    @Test func ordinaryStreamsComeOutAsTheyWentIn() {
        var streams: [(String, [Double])] = [
            ("100 Hz, jitter ±40 %", Self.times(count: 3000, rate: 100, jitter: 0.8)),
            ("25 Hz", Self.times(count: 500, rate: 25)),
            ("1600 Hz, jitter ±20 %", Self.times(count: 8000, rate: 1600, jitter: 0.4)),
        ]
        let before = Self.times(count: 400, rate: 100)
        streams.append(("100 Hz, a gap of 0.3 s, another of 2 s",
                        before + Self.times(count: 400, rate: 100, from: before.last! + 0.3)
                            + Self.times(count: 400, rate: 100, from: before.last! + 6.3)))
        // Gaps under the spreader's 1.5 s gap limit count in its mean: a gap of 1 s, then 1.4 s,
        // and 25 Hz with 1.2 s lost after every second of samples.
        streams.append(("100 Hz, a gap of 1 s, another of 1.4 s",
                        before + Self.times(count: 400, rate: 100, from: before.last! + 1)
                            + Self.times(count: 400, rate: 100, from: before.last! + 6)))
        streams.append(("25 Hz, 1.2 s lost after every 25 samples", (0..<40).flatMap { second in
            Self.times(count: 25, rate: 25, from: 2.2 * Double(second), seed: UInt64(second))
        }))
        // A repeated time now and then (a driver's duplicate, not a batch): left at its time.
        streams.append(("100 Hz, every 50th time repeated", Self.times(count: 3000, rate: 100).enumerated().map {
            $0.offset % 50 == 49 ? Double($0.offset - 1) / 100 : $0.element
        }))
        for (from, to, after) in [(400.0, 50.0, 300), (50, 1600, 300), (25, 1600, 300), (1600, 25, 300), (50, 1600, 40)] {
            let first = Self.times(count: after, rate: from)
            streams.append(("\(from) Hz then \(to) Hz after \(after) samples",
                            first + Self.times(count: 4000, rate: to, from: first.last! + 1 / to)))
        }
        for (name, times) in streams {
            let (out, moved) = Self.spread(times)
            #expect(out == times, "\(name): \(zip(out, times).filter { $0 != $1 }.prefix(3))")
            #expect(moved == 0, "\(name)")
        }
    }

    /// Batches of 2 to 32 at 25 Hz to 1.6 kHz (those up to the gap limit long), stamped once or as
    /// read out: once spreading has begun, times go forward with even steps, and each stays
    /// within a batch of where it was measured, for a whole minute (no drift).
    @Test(arguments: [2, 4, 8, 16, 32])
    func batchesComeOutEvenlySpaced(size: Int) {
        for rate in [25.0, 100, 400, 1600] where Double(size) / rate <= BatchTimeSpreader().gapLimit {
            for readOut in [false, true] {
                // Whole batches (a last batch cut short would be stamped early).
                let truth = Self.times(count: Int(60 * rate) / size * size, rate: rate)
                let (out, moved) = Self.spread(Self.batched(truth, size: size, readOut: readOut))
                let name = "\(size) per batch at \(rate) Hz, \(readOut ? "read out" : "one stamp")"
                // Spreading begins once the mean is known over 32 intervals and two batches have
                // begun since: from the third batch after those intervals at the latest.
                let begun = 32 + 3 * size
                #expect(moved >= (truth.count - begun) * (size - 1) / size, "\(name): \(moved) moved")
                let period = 1 / rate
                let steps = zip(out[begun...].dropFirst(), out[begun...]).map { ($0 - $1) / period }
                #expect(steps.allSatisfy { $0 > 0 }, "\(name): a time did not go forward")
                // Within a batch 0.98 of the period; between batches what is left of the batch's.
                let sorted = steps.sorted()
                let median = sorted[sorted.count / 2]
                #expect(abs(median - 0.98) < 0.05, "\(name): median step \(median) periods")
                #expect(sorted.first! > 0.97, "\(name): smallest step \(sorted.first!) periods")
                #expect(sorted.last! < 1.01 + 0.02 * Double(size), "\(name): largest step \(sorted.last!) periods")
                let lag = zip(out[begun...], truth[begun...]).map { ($0 - $1) / period }
                #expect(lag.allSatisfy { $0 > -1 && $0 < Double(size) + 1 },
                        "\(name): lag from \(lag.min()!) to \(lag.max()!) periods")
            }
        }
    }

    /// Offline, the samples before the first one changed are spread back as the later batches
    /// are (`spreadingBack`): batches of 2 to 32 at 100 Hz, stamped once or read out, come out
    /// evenly spaced from the stream's first sample, going forward into the first time changed.
    /// Nil before any time was changed, and for held times with a gap or a time going back.
    @Test(arguments: [2, 4, 8, 16, 32])
    func theFirstSamplesAreSpreadBackOffline(size: Int) throws {
        for readOut in [false, true] {
            let given = Self.batched(Self.times(count: 1200, rate: 100), size: size, readOut: readOut)
            var spreader = BatchTimeSpreader()
            #expect(spreader.spreadingBack([], before: 0) == nil)
            var out: [Double] = []
            for time in given {
                out.append(spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time)
                if out.last != time { break }
                #expect(spreader.spreadingBack(Array(out), before: time + 1) == nil, "before any time was changed")
            }
            let held = Array(given[..<(out.count - 1)])
            let first = try #require(out.last)
            let back = try #require(spreader.spreadingBack(held, before: first), "\(size), read out \(readOut)")
            let steps = zip((back + [first]).dropFirst(), back + [first]).map { ($0 - $1) / 0.01 }
            #expect(steps.allSatisfy { $0 > 0.97 && $0 < 1.01 + 0.02 * Double(size) },
                    "\(size), read out \(readOut): steps \(steps.min()!) to \(steps.max()!) periods")
            // A time going back, or a gap over the spreader's limit, among them: kept as given.
            #expect(spreader.spreadingBack(held.reversed(), before: first) == nil)
            #expect(spreader.spreadingBack([held[0] - 2] + held, before: first) == nil)
            // Batches that would run into the first time changed: kept as given.
            #expect(spreader.spreadingBack(held, before: try #require(back.last)) == nil)
        }
    }

    /// Shakes of 2 to 8 Hz at 100 Hz, their samples delivered in batches of 16 stamped once: the
    /// detector alone finds fewer (it ignores a repeated time); through `BatchSpreadingDetector`
    /// it finds each one, beginning at most a batch later than in the evenly stamped samples.
    @Test func theDetectorFindsTheShakesOfABatchedStream() {
        var motion = Motion()
        for (index, frequency) in [2.0, 3, 4, 5, 6, 8].enumerated() {
            motion.shakes.append(.init(start: 2 + 4 * Double(index), duration: 1.5, frequency: frequency,
                                       amplitude: 20, direction: (1, 0, 0)))
        }
        let even = motion.samples(duration: 26, rate: 100, jitter: 0.1)
        let expected = events(even).filter { $0.phase == .began }
        try? #require(expected.count == 6)
        let batched = zip(even, Self.batched(even.map(\.time), size: 16, readOut: false)).map { sample, time in
            Sample(time: time, x: sample.x, y: sample.y, z: sample.z)
        }
        let alone = events(batched).filter { $0.phase == .began }
        #expect(alone.count < expected.count, "the detector alone found \(alone.count) of \(expected.count)")

        var spreading = BatchSpreadingDetector(ShakeDetector())
        let found = batched.compactMap { spreading.process($0) }.filter { $0.phase == .began }
        #expect(found.count == expected.count, "\(found.map(\.time)) against \(expected.map(\.time))")
        for (shake, reference) in zip(found, expected) {
            // A batch is stamped at its last sample and spread forwards from there: up to 15
            // sample periods later than measured, and the detector's own 40 ms either way.
            #expect(shake.time - reference.time > -0.04 && shake.time - reference.time < 0.15 + 0.04,
                    "began at \(shake.time), \(reference.time) when evenly stamped")
        }
    }

    /// Times that go backwards or are not finite come back as given and change nothing.
    @Test func backwardsAndNonFiniteTimesAreLeftAlone() {
        let truth = Self.times(count: 400, rate: 100)
        let batched = Self.batched(truth, size: 4, readOut: false)
        var spreader = BatchTimeSpreader()
        var reference = BatchTimeSpreader()
        for (index, time) in batched.enumerated() {
            if index == 200 {
                // Back by less than `clockResetSeconds` (0.5 s): a sample out of order, not a
                // new clock (`aClockResetStartsAgain`).
                for odd in [Double.nan, .infinity, time - 0.4] {
                    let out = spreader.spread(Sample(time: odd, x: 0, y: 0, z: 9.8)).time
                    #expect(out.bitPattern == odd.bitPattern)
                }
            }
            let out = spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time
            #expect(out == reference.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time)
        }
        #expect(spreader.isSpreading)
    }

    /// A clock reset (times back by more than the gap limit: a driver restarted) is a new stream:
    /// spread as the first was, not left bunched until the new times pass the old ones.
    @Test(arguments: [80.0, 0.8])
    func aClockResetStartsAgain(back: Double) {
        // The second stream starts `back` s before the first one's last time: 0.8 s is more than
        // the detector's 0.5 s (where it restarts) and less than the gap limit (1.5 s).
        let first = Self.batched(Self.times(count: 2000, rate: 100, from: back - 20), size: 4, readOut: false)
        let second = Self.batched(Self.times(count: 2000, rate: 100), size: 4, readOut: false)
        var spreader = BatchTimeSpreader()
        _ = first.map { spreader.spread(Sample(time: $0, x: 0, y: 0, z: 9.8)) }
        let movedBefore = spreader.spreadSamples
        let out = second.map { spreader.spread(Sample(time: $0, x: 0, y: 0, z: 9.8)).time }
        let (fresh, freshMoved) = Self.spread(second)
        #expect(out == fresh)
        #expect(spreader.spreadSamples == movedBefore + freshMoved)
        #expect(freshMoved > 1400)
    }

    /// A shake in a stream that followed another after a clock reset, or after `interrupt`:
    /// found as in a fresh detector, and cancelled by `interrupt(at:)` at the new clock's time.
    @Test func aSpreadingDetectorFollowsANewStreamFromAnyTime() {
        let motion = Motion(shakes: [.init(start: 5, duration: 4, frequency: 4, amplitude: 20, direction: (1, 0, 0))])
        let samples = motion.samples(duration: 8, rate: 100)
        func batched(_ samples: [Sample], from start: Double) -> [Sample] {
            zip(samples, Self.batched(samples.map { $0.time + start }, size: 4, readOut: false)).map {
                Sample(time: $1, x: $0.x, y: $0.y, z: $0.z)
            }
        }
        let calm = Motion().samples(duration: 100, rate: 100)
        var fresh = BatchSpreadingDetector(ShakeDetector())
        let expected = batched(samples, from: 0).compactMap { fresh.process($0) }
        #expect(expected.map(\.phase) == [.began])
        for interruptFirst in [false, true] {
            var detector = BatchSpreadingDetector(ShakeDetector())
            _ = batched(calm, from: 0).compactMap { detector.process($0) }
            if interruptFirst { #expect(detector.interrupt(at: 100) == nil) }
            let got = batched(samples, from: 0).compactMap { detector.process($0) }
            #expect(got == expected, "interrupt first: \(interruptFirst)")
            let cancelled = detector.interrupt(at: 8)
            #expect(cancelled?.cancellationReason == .interrupted)
            #expect(cancelled.map { $0.time < 8.1 } == true, "cancelled at \(cancelled?.time ?? .nan)")
        }
    }

    /// A gap (2 s, over the 1.5 s gap limit) in a batched stream: the period is measured afresh
    /// after it, so the batches after it are spread at their own period as those before were,
    /// each time within a batch of where it was measured (measured across the gap, the period
    /// read 7 times too long, and times ran ahead of their samples).
    @Test func aGapInABatchedStreamIsLeftOutOfThePeriod() {
        let before = Self.times(count: 1000, rate: 100)
        let truth = before + Self.times(count: 1000, rate: 100, from: before.last! + 2)
        for readOut in [false, true] {
            let (out, moved) = Self.spread(Self.batched(truth, size: 4, readOut: readOut))
            #expect(moved > 1400, "read out \(readOut)")
            let lag = zip(out, truth).map { ($0 - $1) * 100 }
            #expect(lag.allSatisfy { $0 > -1 && $0 < 5 },
                    "read out \(readOut): lag from \(lag.min()!) to \(lag.max()!) periods")
            #expect(zip(out.dropFirst(), out).allSatisfy { $0 >= $1 }, "read out \(readOut)")
        }
    }

    /// A time exactly `clockResetSeconds` (0.5 s) back is a sample out of order, not a clock
    /// reset ("more than" 0.5 s): returned as given, the spreading after it as without it.
    /// Times in 128ths of a second, so that the step back is 0.5 s exactly.
    @Test func aTimeExactlyHalfASecondBackIsNotAClockReset() {
        let batched = Self.batched(Self.times(count: 400, rate: 128), size: 4, readOut: false)
        var spreader = BatchTimeSpreader()
        var reference = BatchTimeSpreader()
        for (index, time) in batched.enumerated() {
            if index == 201 {
                let back = time - BatchTimeSpreader.clockResetSeconds
                #expect(spreader.spread(Sample(time: back, x: 0, y: 0, z: 9.8)).time == back)
            }
            let out = spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time
            #expect(out == reference.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time, "\(index)")
        }
        #expect(spreader.spreadSamples == reference.spreadSamples)
        #expect(spreader.spreadSamples > 250)
    }

    /// Batching is judged from `intervalsNeeded` (32) intervals: batches of 4 stamped once are
    /// taken for batches on the 33rd sample, not before; the first time changed is sample 37
    /// (counting from 0), as the type's documentation says.
    @Test func batchingIsJudgedFromThirtyTwoIntervals() {
        let batched = Self.batched(Self.times(count: 100, rate: 100), size: 4, readOut: false)
        var spreader = BatchTimeSpreader()
        var spreading: [Bool] = []
        var firstChanged: Int?
        for (index, time) in batched.enumerated() {
            if spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time != time, firstChanged == nil {
                firstChanged = index
            }
            spreading.append(spreader.isSpreading)
        }
        #expect(spreading.firstIndex(of: true) == BatchTimeSpreader.intervalsNeeded)
        #expect(firstChanged == 37)
    }

    /// `restart()` forgets the batches: an ordinary stream after a batched one (a driver
    /// reconfigured) is not taken for batches, and comes out as it went in.
    @Test func afterARestartAnOrdinaryStreamIsNotTakenForBatches() {
        var spreader = BatchTimeSpreader()
        for time in Self.batched(Self.times(count: 400, rate: 100), size: 4, readOut: false) {
            _ = spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8))
        }
        #expect(spreader.isSpreading)
        spreader.restart()
        let ordinary = Self.times(count: 1000, rate: 100, from: 10, jitter: 0.8)
        let out = ordinary.map { spreader.spread(Sample(time: $0, x: 0, y: 0, z: 9.8)).time }
        #expect(!spreader.isSpreading)
        #expect(out == ordinary)
    }

    /// Offline, held samples close together in a run longer than `largestBatch` (32) are a
    /// change of rate, not a batch: kept as given; a run of 32 is spread. So are held batches
    /// that, spread, would run into the next batch (4 at 0 s spread to 0.029 s, the next at 0.02 s).
    @Test func aHeldRunTooLongForABatchIsKeptAsGiven() throws {
        var spreader = BatchTimeSpreader()
        var first: Double?
        for time in Self.batched(Self.times(count: 400, rate: 100), size: 4, readOut: false) where first == nil {
            let out = spreader.spread(Sample(time: time, x: 0, y: 0, z: 9.8)).time
            if out != time { first = out }
        }
        let firstSpread = try #require(first)
        #expect(spreader.spreadingBack(Array(repeating: 0, count: BatchTimeSpreader.largestBatch), before: firstSpread) != nil)
        #expect(spreader.spreadingBack(Array(repeating: 0, count: BatchTimeSpreader.largestBatch + 1), before: firstSpread) == nil)
        #expect(spreader.spreadingBack([0, 0, 0, 0.02], before: firstSpread) != nil)
        #expect(spreader.spreadingBack([0, 0, 0, 0, 0.02], before: firstSpread) == nil)
    }
}
