/// Times the samples of a buffered device without a timestamp channel, which carry no time of
/// their own, from their count and the arrival of the refills that bring them, at the rate the
/// device really delivers at, measured from those arrivals.
///
/// Each sample is taken to be measured on a line, `offset + index · period`, where `index`
/// counts the samples delivered (and those found lost), and:
/// - `period` is measured, not the rate the device states: the slope of the lower envelope of
///   the refills' arrivals (the index of each refill's last sample, without the samples found
///   lost by late refills, against its arrival) over
///   the last ``windowSeconds``, found as the line through the earliest-arriving refill (for
///   that slope) of the older half of the window and that of the newer half. A paused reader's
///   backlog arrives late, above the envelope, and does not move it; refills read as they come
///   make it, to within their wake-up jitter over half the window (1 ms over 5 s: 0.02 %).
///   A backlog's refills (read without waiting after a pause) are left out while two others are
///   in the window (or while it holds at most 8). With fewer than two refills, the period is the
///   stated one; a period measured more than
///   ``periodFactor`` times off the stated one is not taken.
/// - `offset` puts the line as late as the arrivals allow: no sample after its refill arrived,
///   so the line passes through the earliest-arriving refill of the window, the current one
///   included (the time is then never ahead of the arrival clock, and a device faster than
///   the line is followed at once).
///
/// A refill's samples go evenly from the sample before to the line's time for its last one,
/// their step kept between 0.5 and 1.25 periods (or less, to stay before the arrival), so that a
/// line that moved (a new earliest refill, a measured period) is followed without a gap or a
/// jump back. A backlog read at once after a pause thus keeps the spacing the device gave it.
///
/// Samples lost show as a line behind the arrivals. A refill *waited for* (more than half a
/// period after the one before: its last sample was measured after that one arrived) counts the
/// samples missing into the index (its lateness over the period, rounded), its samples then timed
/// back a period apart from its arrival, the time jumping over the loss just before them, when:
/// - the line has its first sample more than 1.5 periods and ``lossToleranceSeconds`` before the
///   refill before arrived, and that refill ended a burst of at least ``bufferLength`` samples
///   (the first refill waited for after a pause beyond the kernel buffer: the samples the buffer
///   kept, measured as the pause began, came before it on the line, and the gap follows them,
///   where the kernel lost the newer samples. A sample the burst did not bring was measured after
///   the burst was read; tested with its last sample, a loss of up to a refill and 1.5 periods
///   was missed there, then found by late refills one short. Without a full buffer read, the
///   line is behind because its period is too short, as when the device was slowed while
///   streaming);
/// - it came as refills come (0.5 to 1.5 refill durations after the one before) later than the
///   line by that much (the tolerance then the reader's wake-up jitter, when more), and so did
///   the refill before, by as much to within half a period and the tolerance (an overrun,
///   samples the device never sent: placed before the second late refill, one refill after the
///   samples were lost; a refill late alone is a reader woken late, not a loss);
/// - three refills in a row came as refills come later than the line by half a period and
///   that tolerance, by as much each to within the same (a lone sample lost: placed before the
///   third).
/// The last two wait until ``jitterRefillsMeasuring`` refills read as they came have measured
/// the reader's wake-up jitter: before, a reader woken late was taken for samples lost (a device
/// 4 times faster than it states read by a reader woken up to a period late: 79 of 300 such
/// readers counted 1 to 3 samples lost in their first refills). Samples lost that early are
/// left to the spacing, uncounted.
/// Samples lost make the refills after them late by as much each; refills late by more each
/// time are a period measured too short, not a loss. And the samples found lost by late refills
/// (the last two cases) are not counted into the samples the period is measured from: a period
/// a little short makes refills late by as much each too, and those losses, counted in, measured
/// the same period again, for good; left out, the period is measured from the samples delivered
/// (and those a full buffer lost), and a wrong one does not last beyond the window.
/// And in a *burst* (refills read without waiting after one that waited), the samples beyond the
/// kernel buffer's length (``bufferLength``, counted from the burst's first sample) were measured
/// after the burst began: when the line has them more than 1.5 periods and the tolerance earlier,
/// samples were lost just before them (the buffer was full), counted so. A gap the line cannot
/// place so is left to the samples' spacing (at most 1.25 periods): the time catches up, and no
/// loss is counted.
///
/// Times are monotonic seconds, as the arrivals given. Within ``windowSeconds`` of a refill read
/// as it came, each sample's time is at most its refill's arrival, and behind the time it was
/// measured by no more than that refill's latency and the period's error over the window.
struct ArrivalRateClock {
    /// The period the device states, s (1 / `sampling_frequency`): used until two refills came.
    let statedPeriodSeconds: Double
    /// The arrivals over the last this many seconds measure the period: 10.
    static let windowSeconds = 10.0
    /// The most refills kept in the window (at 25 refills a second, 10 s: 250).
    static let maximumRefills = 1024
    /// A period measured more than this many times shorter or longer than the stated one is not
    /// taken: 8. A backlog read at once (the first refills, when the reader began reading after
    /// the device began measuring) arrives microseconds a refill apart: measured from it, the
    /// period was microseconds, and the samples then counted lost into the index kept it so.
    static let periodFactor = 8.0
    /// A refill read as it came may arrive this much later than the earliest one, s, its
    /// reader woken late, without samples being taken as lost: 2 ms, beyond 1.5 periods, or
    /// the reader's wake-up jitter when more (for refills read as they came: `lateTolerance()`).
    static let lossToleranceSeconds = 0.002
    /// The refills read as they came whose lateness measures the wake-up jitter: 64.
    static let jitterRefills = 64
    /// The refills read as they came needed to measure the wake-up jitter: 16.
    static let jitterRefillsMeasuring = 16

    /// The measured period, s.
    private(set) var periodSeconds: Double
    /// Samples lost so far (counted into the index).
    private(set) var lostSamples = 0
    /// Of ``lostSamples``, those found by refills late on the line (an overrun, a lone sample
    /// lost), not by a full buffer read. They are left out of the samples the period is measured
    /// from: a period measured too short makes refills late, and the samples then counted lost,
    /// counted in, measured the same period again, for good (a device slowed 2 % while streaming:
    /// 61 counted lost in 30 s, the period kept 2 % short).
    private(set) var lateLostSamples = 0

    /// The index (the samples delivered and lost before it) of each refill's last sample, and
    /// the refill's arrival, oldest first, from `head` on.
    /// `measured` is that index without the samples found lost by refills late on the line (the
    /// period is measured from it: see ``lateLostSamples``).
    /// `backlog`: the refill began or was part of a burst (refills read without waiting).
    private var refills: [(index: Double, measured: Double, arrival: Double, backlog: Bool)] = []
    /// The refills of the window that measure the period (those read as they came), reused.
    private var measuring: [Int] = []
    private var head = 0
    /// Samples delivered so far.
    private var delivered = 0
    /// The time of the last sample timed, and the arrival of its refill.
    private var last: Double?
    private var lastArrival = 0.0
    /// How long after the refill before the last refill arrived, s, and its samples.
    private var lastWait = 0.0
    private var lastSamples = 1
    /// How much later than the line the refill before arrived, s, and the one before it.
    private var previousLateness = 0.0
    private var earlierLateness = 0.0
    /// The arrival of the first refill of the burst the last refill belongs to (refills read
    /// without waiting), and the samples the burst brought so far.
    private var burst = (start: 0.0, samples: 0)
    /// How much later than the line each of the last ``jitterRefills`` refills read as they came
    /// (and not late) arrived, s, oldest overwritten first at `jittersNext`; and a copy to sort.
    private var jitters: [Double] = []
    private var jittersNext = 0
    private var sortedJitters: [Double] = []
    /// Refills in a row that came as refills come, later than the line by more than half a period.
    private var lateRefills = 0

    /// The kernel buffer's length, samples (`buffer/length`); nil when not known.
    let bufferLength: Int?

    init(statedPeriodSeconds: Double, bufferLength: Int? = nil) {
        self.statedPeriodSeconds = statedPeriodSeconds
        self.periodSeconds = statedPeriodSeconds
        self.bufferLength = bufferLength
    }

    /// The times of a refill of `count` samples (at least 1) that arrived at `arrival`, into
    /// `times` (emptied first, its capacity kept); returns the samples found lost just before
    /// the refill's sample at `gapBefore` (0 for most).
    /// - Complexity: O(refills in the window).
    mutating func refill(of count: Int, arrivedAt arrival: Double,
                         into times: inout [Double]) -> (lost: Int, gapBefore: Int) {
        times.removeAll(keepingCapacity: true)
        let samples = max(1, count)
        defer {
            delivered += samples
            lastWait = arrival - lastArrival
            lastSamples = samples
            lastArrival = arrival
        }
        guard let last else {
            let period = periodSeconds
            for position in 0..<samples { times.append(arrival - Double(samples - 1 - position) * period) }
            self.last = arrival
            burst = (arrival, samples)
            append(index: Double(samples - 1), measured: Double(samples - 1), arrival: arrival, backlog: false)
            return (0, 0)
        }
        // A refill read without waiting after one that came after a pause (more than 1.5 refill
        // durations after the one before) or was a backlog's is a backlog's, and so is that one.
        let inBacklog = arrival - lastArrival <= 0.5 * periodSeconds && refills.count > head
            && (refills[refills.count - 1].backlog || lastWait > 1.5 * Double(lastSamples) * periodSeconds)
        if inBacklog { refills[refills.count - 1].backlog = true }
        measurePeriod()
        let period = periodSeconds
        let threshold = 1.5 * period + Self.lossToleranceSeconds
        let offset = earliestOffset(period: period)
        let lastIndex = Double(delivered + lostSamples + samples - 1)
        let lateness = arrival - (offset + lastIndex * period)
        let wait = arrival - lastArrival
        // Waited: the samples were not all there when the refill before was read, so its last
        // one was measured after that refill arrived. Otherwise it is part of a burst.
        let waited = wait > 0.5 * period
        let previousBurst = burst.samples
        burst = waited ? (arrival, samples) : (burst.start, burst.samples + samples)
        let cameAsRefillsCome = wait >= 0.5 * Double(samples) * period && wait <= 1.5 * Double(samples) * period
        // A refill read as it came is late by the reader's wake-up jitter, or by samples lost.
        let tolerance = cameAsRefillsCome ? lateTolerance() : Self.lossToleranceSeconds
        if cameAsRefillsCome && lateness <= 0.5 * period + tolerance {
            if jitters.count < Self.jitterRefills { jitters.append(max(0, lateness)) } else { jitters[jittersNext] = max(0, lateness) }
            jittersNext = (jittersNext + 1) % Self.jitterRefills
        }
        let lateThreshold = 1.5 * period + tolerance
        let late = cameAsRefillsCome && jitters.count >= Self.jitterRefillsMeasuring && lateness > 0.5 * period + tolerance
        // Samples lost put the refills after them late by as much each: late by more each time,
        // they are a period measured too short (a device slowed while streaming, a first backlog
        // read slowly), whose false losses, counted into the index, kept it so for good.
        func steady(_ refills: Int) -> Bool {
            let latenesses = refills >= 3 ? [lateness, previousLateness, earlierLateness] : [lateness, previousLateness]
            return latenesses.max()! - latenesses.min()! <= 0.5 * period + tolerance
        }
        lateRefills = late ? lateRefills + 1 : 0

        // Samples lost before the sample at `gapBefore`, measured at `measuredBy` at the latest.
        var lost = 0
        var gapBefore = 0
        // Samples lost to a full buffer follow a burst that emptied it: without one, a line behind
        // the refill before is a period measured too short (a device slowed while streaming, a
        // first backlog read slowly), not samples lost; counted, they kept that period for good.
        let bufferEmptied = bufferLength.map { previousBurst >= $0 } ?? true
        let behindBufferRead = bufferEmptied && offset + (lastIndex - Double(samples - 1)) * period < lastArrival - threshold
        var foundLate = false
        if waited && (behindBufferRead
                      || late && (lateness > lateThreshold && previousLateness > lateThreshold && steady(2)
                                  || lateRefills >= 3 && steady(3))) {
            lost = max(1, Int((lateness / period).rounded()))
            foundLate = !behindBufferRead
        } else if !waited, let bufferLength, burst.samples > bufferLength {
            // The samples of a burst beyond the kernel buffer's length were measured after the
            // burst's first refill was read: when the line has them earlier, samples were lost
            // before them (the buffer was full).
            let fresh = min(samples, burst.samples - bufferLength)
            let freshFirst = min(burst.start, arrival - Double(fresh - 1) * period)
            let lineFreshFirst = offset + (lastIndex - Double(fresh - 1)) * period
            if freshFirst - lineFreshFirst > threshold {
                lost = Int(((freshFirst - lineFreshFirst) / period).rounded())
                gapBefore = samples - fresh
            }
        }
        let index = lastIndex + Double(lost)
        // The line through the earliest refill, this one included: never after its arrival.
        let lineLast = min(arrival, min(offset, arrival - index * period) + index * period)
        let afterGap = lineLast - Double(samples - 1 - gapBefore) * period
        if lost > 0 && afterGap - Double(lost + gapBefore) * period > last {
            // Before the gap: on the line; after it: a period apart up to the line's last.
            let beforeLast = afterGap - Double(lost + 1) * period
            let step = gapBefore > 0 ? (beforeLast - last) / Double(gapBefore) : 0
            for position in 0..<gapBefore { times.append(last + Double(position + 1) * step) }
            for position in gapBefore..<samples { times.append(afterGap + Double(position - gapBefore) * period) }
            lostSamples += lost
            if foundLate { lateLostSamples += lost }
            previousLateness = 0
            earlierLateness = 0
            lateRefills = 0
        } else {
            lost = 0
            gapBefore = 0
            var step = min((lineLast - last) / Double(samples), 1.25 * period)
            if !(step >= 0.5 * period) { step = min(0.5 * period, (arrival - last) / Double(samples)) }
            if !(step > 0) { step = Double.ulpOfOne * max(1, abs(last)) }
            for position in 0..<samples { times.append(last + Double(position + 1) * step) }
            earlierLateness = previousLateness
            previousLateness = lateness
        }
        append(index: lastIndex + Double(lost), measured: lastIndex + Double(lost - lateLostSamples), arrival: arrival,
               backlog: inBacklog)
        self.last = times[samples - 1]
        return (lost, gapBefore)
    }

    /// How much later than the line a refill read as it came may arrive without samples taken as
    /// lost, s: ``lossToleranceSeconds``, or the 90th percentile of the lateness of the last
    /// ``jitterRefills`` such refills that were not late (a loaded machine's reader woken up to
    /// 8 ms late at random had three refills in a row late by 7 ms now and then: a sample lost).
    private mutating func lateTolerance() -> Double {
        guard jitters.count >= Self.jitterRefillsMeasuring else { return Self.lossToleranceSeconds }
        sortedJitters.removeAll(keepingCapacity: true)
        sortedJitters.append(contentsOf: jitters)
        sortedJitters.sort()
        return max(Self.lossToleranceSeconds, sortedJitters[sortedJitters.count * 9 / 10])
    }

    /// The latest offset no refill of the window arrived before: `min(arrival − index · period)`.
    private func earliestOffset(period: Double) -> Double {
        var offset = Double.infinity
        for position in head..<refills.count {
            offset = min(offset, refills[position].arrival - refills[position].index * period)
        }
        return offset
    }

    private mutating func append(index: Double, measured: Double, arrival: Double, backlog: Bool) {
        refills.append((index, measured, arrival, backlog))
        while refills.count - head > 2
                && (refills[head].arrival < arrival - Self.windowSeconds || refills.count - head > Self.maximumRefills) {
            head += 1
        }
        if head > 256 && head * 2 > refills.count {
            refills.removeFirst(head)
            head = 0
        }
    }

    /// The slope of the arrivals' lower envelope: the line through the earliest-arriving refill
    /// (for the slope so far) of the window's older half and that of its newer half, three times;
    /// of the refills read as they came when two are (a backlog's, which came all at once after
    /// a pause, measured the period from the pause: a pause right after the first refill had the
    /// backlog's samples timed 22.5 ms apart at 100 Hz, then microseconds).
    private mutating func measurePeriod() {
        measuring.removeAll(keepingCapacity: true)
        for position in head..<refills.count where !refills[position].backlog { measuring.append(position) }
        if measuring.count < 2 && refills.count - head > 8 {
            measuring.removeAll(keepingCapacity: true)
            measuring.append(contentsOf: head..<refills.count)
        }
        let count = measuring.count
        guard count >= 2 else { return }
        let middle = count / 2
        var period = periodSeconds
        for _ in 0..<3 {
            let older = earliest(in: 0..<middle, period: period)
            let newer = earliest(in: middle..<count, period: period)
            let samples = refills[newer].measured - refills[older].measured
            guard samples > 0 else { return }
            let measured = (refills[newer].arrival - refills[older].arrival) / samples
            guard measured >= statedPeriodSeconds / Self.periodFactor,
                  measured <= statedPeriodSeconds * Self.periodFactor else { return }
            period = measured
        }
        periodSeconds = period
    }

    /// The refill (its position in `refills`) of `measuring[range]` with the earliest offset.
    private func earliest(in range: Range<Int>, period: Double) -> Int {
        var best = measuring[range.lowerBound]
        var bestOffset = Double.infinity
        for position in range.map({ measuring[$0] }) {
            let offset = refills[position].arrival - refills[position].measured * period
            if offset < bestOffset {
                bestOffset = offset
                best = position
            }
        }
        return best
    }
}
