import Testing
@testable import ShakeIIO

/// ``SampleCountClock`` fed refills of 4 samples from a device without a timestamp channel whose
/// true rate may differ from the one it reports (100 Hz), through a kernel buffer of 16 samples
/// (newer samples lost when it is full, as the kernel's): read as they come (1 ms after the
/// refill's last sample was measured) but for a pause now and then. The times a reader gives.
@Suite struct SampleCountClockTests {
    /// The times given to 4000 samples measured every `truePeriod` s, the time each was
    /// measured and the arrival of its refill; the reader pauses the last `pause` s of every second.
    static func timed(truePeriod: Double, pause: Double = 0,
                      periodSeconds: Double? = 0.01) -> (given: [Double], measured: [Double], arrivals: [Double]) {
        var clock = SampleCountClock(periodSeconds: periodSeconds, backlogSeconds: 0.2, guessedPeriodSeconds: 0.01)
        var given: [Double] = [], measured: [Double] = [], arrivals: [Double] = []
        var queue: [Double] = []
        for index in 0..<4000 {
            let now = Double(index) * truePeriod
            if queue.count < 16 { queue.append(now) }
            let paused = now.truncatingRemainder(dividingBy: 1) >= 1 - pause
            var arrival = now + 0.001
            while !paused && queue.count >= 4 {
                let (first, step) = clock.refill(of: 4, receivedAt: arrival)
                for (offset, time) in queue.prefix(4).enumerated() {
                    given.append(first + Double(offset) * step)
                    measured.append(time)
                    arrivals.append(arrival)
                }
                queue.removeFirst(4)
                arrival += 1e-5
            }
        }
        return (given, measured, arrivals)
    }

    /// Times strictly increasing, at least half a period apart, never after the refill arrived.
    static func expectOrderly(_ timed: (given: [Double], measured: [Double], arrivals: [Double]),
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let intervals = zip(timed.given.dropFirst(), timed.given).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 >= 0.005 }, "\(intervals.min() ?? 0) s apart", sourceLocation: sourceLocation)
        #expect(zip(timed.given, timed.arrivals).allSatisfy { $0 <= $1 + 1e-9 }, sourceLocation: sourceLocation)
    }

    /// Pauses of 0.12 s (12 samples, within the backlog the buffer holds): every time as
    /// measured, the first sample's 1 ms latency aside; not bunched at the arrival.
    @Test func aBacklogTheBufferHoldsIsTimedByCount() {
        let timed = Self.timed(truePeriod: 0.01, pause: 0.12)
        Self.expectOrderly(timed)
        let off = zip(timed.given, timed.measured).map { abs($0 - $1) }.max() ?? 1
        #expect(off < 0.0011, "\(off) s off")
    }

    /// A device 3 % faster or slower than the 100 Hz it reports, with pauses of 0.12 s: the
    /// times follow its clock, never ahead of the arrival nor more than the backlog behind, and
    /// never so far apart that a sample would seem lost (which a jump of the backlog would).
    @Test(arguments: [0.0097, 0.0103])
    func aDeviceOffItsRateStaysWithTheArrivalClock(truePeriod: Double) {
        let timed = Self.timed(truePeriod: truePeriod, pause: 0.12)
        Self.expectOrderly(timed)
        let intervals = zip(timed.given.dropFirst(), timed.given).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 < 0.015 }, "\(intervals.max() ?? 0) s apart")
        let behind = zip(timed.given, timed.measured).map { $1 - $0 }
        #expect(behind.allSatisfy { $0 >= -0.01 && $0 <= 0.2 + 0.03 + 0.002 }, "\(behind.min() ?? 0) to \(behind.max() ?? 0) s")
    }

    /// Pauses of 0.5 s, beyond the buffer: of the 50 samples of each, the 16 it keeps arrive at
    /// most a full backlog (0.2 s, 3 periods more for a refill's first) behind the arrival; the
    /// time jumps over the 34 lost (by about 30 periods: the reader cannot tell how long the
    /// buffer was full), and the samples after it catch up with the arrival clock.
    @Test func aBacklogBeyondTheBufferMovesTheTimesForward() {
        let timed = Self.timed(truePeriod: 0.01, pause: 0.5)
        Self.expectOrderly(timed)
        let lags = zip(timed.arrivals, timed.given).map { $0 - $1 }
        #expect(lags.allSatisfy { $0 <= 0.2 + 0.03 + 1e-6 }, "\(lags.max() ?? 0) s behind the arrival")
        let intervals = zip(timed.given.dropFirst(), timed.given).map { $0 - $1 }
        let jumps = intervals.filter { $0 > 0.015 }
        #expect(jumps.count == 39 && jumps.allSatisfy { $0 > 0.25 && $0 < 0.35 }, "\(jumps)")
        // Caught up before the next pause: a refill's last sample within a refill of the
        // arrival (its first 3 periods more), as the 0.11 s left behind was made up at a tenth
        // of a period a sample.
        let beforePauses = timed.arrivals.indices.filter { timed.arrivals[$0].truncatingRemainder(dividingBy: 1) > 0.45 }
        #expect(beforePauses.allSatisfy { lags[$0] < 0.07 + 1e-6 }, "\(beforePauses.map { lags[$0] }.max() ?? 0) s")
    }

    /// The rate unknown: each refill's samples spread evenly from the one before to its arrival.
    @Test func anUnknownRateSpreadsEachRefillOverItsArrival() {
        var clock = SampleCountClock(periodSeconds: nil, backlogSeconds: 0.2, guessedPeriodSeconds: 0.01)
        let first = clock.refill(of: 4, receivedAt: 10)
        #expect(abs(first.first - 9.97) < 1e-9 && first.step == 0.01)
        let second = clock.refill(of: 4, receivedAt: 10.2)
        #expect(abs(second.step - 0.05) < 1e-9 && abs(second.first - 10.05) < 1e-9)
    }
}
