/// Gives each sample of a FIFO batch its own time, for a driver that stamps a whole batch with
/// one time, or its samples microseconds apart as it reads them out of the FIFO.
///
/// `ShakeDetector` ignores a sample with the same time as the one before, and sees samples a
/// few microseconds apart as one moment: fed such a stream it misses shakes and begins others
/// late (`SampleStreamCheck` reports it as `.timesRepeat` or `.timesBunched`). Put the spreader
/// in front of the detector (or use `BatchSpreadingDetector`):
///
/// ```swift
/// var spreader = BatchTimeSpreader()
/// for sample in samples {
///     if let event = detector.process(spreader.spread(sample)) { handle(event) }
/// }
/// ```
///
/// How it decides, from the last `window` intervals between samples (intervals over `gapLimit`
/// left out):
/// - The stream comes in batches when at least half of those intervals (less one) were under a
///   tenth of their mean when they came (`SampleStreamCheck`'s rule for bursts); before 32
///   intervals it never does. Until then, and whenever it does not, every time is returned as
///   given, so an ordinary stream (jitter, gaps and changes of rate included) passes through
///   unchanged.
/// - A sample with the same time as the one before, or less than half the mean interval after
///   it, is part of a batch; any other sample begins one and keeps its own time. The period is
///   measured over the last 8 whole batches (from the oldest batch start kept to the newest,
///   over the samples between them; counted afresh after a gap).
/// - In a batched stream, each sample of a batch after its first gets the previous sample's
///   (new) time plus 0.98 of the period; the 2 % left keeps a batch from running into the next.
///   The batch is spread forwards from its stamp: its samples come out up to a batch's length
///   later than they were measured (for a batch stamped at its last sample), and events with
///   them (at most 30 ms for a batch of 4 at 100 Hz), the same for every batch. Nothing is held
///   back: each sample is returned the moment it is given. Spreading begins once 32 intervals
///   are in, from the next batch on (about a batch and a sample later: sample 37 for batches of
///   4).
/// - Batches of up to `largestBatch` (32) samples, and at most `gapLimit` long, are spread; a
///   longer run of samples close together is a change to a faster rate (a switch from 50 Hz to
///   1.6 kHz looks like batches for a while), and from its 33rd sample on its times are left as
///   given. From a stream that was being spread, though, such a switch is placed badly: its
///   first 32 samples were spread at the old batches' period, up to 32 of those periods ahead
///   of their stamps (0.57 s from 50 Hz in batches of 4), and since times only go forward the
///   samples after them are squeezed together until the stamps catch up (a shake in them began
///   0.37 s late in a review's probe). A driver that changes its rate mid-stream should be read
///   by a new spreader (`restart()`), as after a reconnection.
/// - Should a batch run into the next all the same (its last batch cut short, say), a sample
///   whose time would not be after the previous one's new time gets that time plus 0.05 of the
///   mean interval, so times always go forward once spreading has begun.
///
/// Times that are not finite, and times that go backwards, are returned as given (the detector
/// ignores them) and leave the spreader as it was; but a time more than `clockResetSeconds` before
/// the one before is a clock reset (a driver restarted, a counter wrapped), where the detector
/// restarts too: the spreader starts again from that sample, as from a stream's first. Constant memory
/// (a few arrays of at most `window`), a few operations per sample.
public struct BatchTimeSpreader: Sendable {
    /// The intervals over which the mean interval and the batching are judged: 128.
    public static let window = 128
    /// Fewer intervals than this (gaps left out) never count as batched: 32.
    public static let intervalsNeeded = 32
    /// The longest batch spread, in samples: 32. A longer run of samples close together is a
    /// change to a faster rate, not a batch: its times are left as given.
    public static let largestBatch = 32

    /// Intervals longer than this, s, are gaps: they are not counted in the mean.
    public let gapLimit: Double
    /// The default `gapLimit`: 1.5 s, so that the longest batch spread (32 samples) is spread at
    /// 25 Hz, the slowest rate the detector is made for (1.28 s).
    public static let defaultGapLimit = 1.5
    /// A time further back than this, s, than the one before is a clock reset: 0.5 s, the
    /// presets' `maximumGapSeconds`, beyond which `ShakeDetector` restarts on one.
    public static let clockResetSeconds = 0.5
    /// Samples whose time was changed so far.
    public private(set) var spreadSamples = 0

    // The last `window` intervals (a ring), and whether each was under a tenth of the mean when it
    // came in.
    private var intervals: [Double]
    private var short: [Bool]
    private var next = 0
    private var count = 0
    private var sum = 0.0
    private var shortCount = 0
    private var lastGiven: Double?
    private var lastReturned = 0.0
    // The samples of the current batch so far (1 for an ordinary sample).
    private var samplesInBatch = 1
    // The given time and sample number of the last `startsKept` batch starts (a ring), since the
    // last gap; and the samples given so far.
    private static let startsKept = 9
    private var startTimes = [Double](repeating: 0, count: startsKept)
    private var startIndices = [Int](repeating: 0, count: startsKept)
    private var startNext = 0
    private var startCount = 0
    private var samplesGiven = 0
    /// A batch's samples after its first are spread this fraction of the period apart: 0.98.
    static let step = 0.98

    /// - Parameter gapLimit: intervals longer than this, s, are left out of the mean, and no
    ///   longer batch is spread (default 1.5 s: `defaultGapLimit`). It is the spreader's own, not
    ///   the detector's `maximumGapSeconds` (0.5 s in the presets): spread, a batch longer than
    ///   that is no gap to the detector.
    public init(gapLimit: Double = BatchTimeSpreader.defaultGapLimit) {
        self.gapLimit = gapLimit
        intervals = Array(repeating: 0, count: Self.window)
        short = Array(repeating: false, count: Self.window)
    }

    /// The mean of the last intervals, s (gaps left out); nil before the first.
    public var meanInterval: Double? { count > 0 ? sum / Double(count) : nil }

    /// Whether the last intervals come in batches, so that times are being spread.
    public var isSpreading: Bool { count >= Self.intervalsNeeded && 2 * shortCount + 2 >= count }

    /// The sample period, s, over the last batches: from the oldest batch start kept to the
    /// newest, over the samples between them (exact for whole batches, where the mean interval
    /// over a window that cuts a batch is off by up to a batch); nil before two batch starts
    /// since the last gap.
    var batchPeriod: Double? {
        guard startCount >= 2 else { return nil }
        let newest = (startNext + Self.startsKept - 1) % Self.startsKept
        let oldest = (startNext + Self.startsKept - startCount) % Self.startsKept
        let samples = startIndices[newest] &- startIndices[oldest]
        return samples > 0 ? (startTimes[newest] - startTimes[oldest]) / Double(samples) : nil
    }

    private mutating func recordBatchStart(at time: Double, gap: Bool) {
        if gap { startCount = 0 }
        startTimes[startNext] = time
        startIndices[startNext] = samplesGiven
        startNext = (startNext + 1) % Self.startsKept
        startCount = min(startCount + 1, Self.startsKept)
    }

    /// The sample with its time spread over its batch's period when the stream comes in batches;
    /// otherwise as given.
    public mutating func spread(_ sample: Sample) -> Sample {
        let given = sample.time
        guard given.isFinite else { return sample }
        guard let previous = lastGiven else {
            lastGiven = given
            lastReturned = given
            samplesGiven = 1
            return sample
        }
        let interval = given - previous
        guard interval >= 0 else {
            if -interval > Self.clockResetSeconds {
                restart()
                lastGiven = given
                lastReturned = given
                samplesGiven = 1
            }
            return sample
        }
        let mean = meanInterval
        let batched = isSpreading
        let inBatch = interval == 0 || mean.map { interval < 0.5 * $0 } ?? false
        samplesInBatch = inBatch ? samplesInBatch + 1 : 1
        // A first interval of 0 is a batch's, whatever the mean will be.
        if interval <= gapLimit { record(interval, short: mean.map { interval < 0.1 * $0 } ?? (interval == 0)) }
        lastGiven = given

        // Batch starts are told apart once the mean is known over enough intervals.
        if !inBatch && count >= Self.intervalsNeeded { recordBatchStart(at: given, gap: interval > gapLimit) }
        samplesGiven &+= 1

        var time = given
        if batched, inBatch, samplesInBatch <= Self.largestBatch, let period = batchPeriod, period > 0 {
            time = lastReturned + Self.step * period
        }
        // Only once a time was moved can the previous returned time be later than this one.
        if lastReturned > previous, time <= lastReturned, let mean = meanInterval {
            time = lastReturned + 0.05 * mean
        }
        // Times near the largest Double: an overflow gives the later of this time and the last.
        if !time.isFinite { time = max(given, lastReturned) }
        lastReturned = time
        guard time != given else { return sample }
        spreadSamples &+= 1
        var moved = sample
        moved.time = time
        return moved
    }

    /// For a recording spread offline, where nothing need be returned the moment it is given:
    /// the samples given before the first time was changed (returned as given while the stream
    /// was still being measured: its first 32 intervals or so, about 0.35 s at 100 Hz), spread
    /// as the batches after them are, at the period measured now (a sample less than half the
    /// mean interval after the one before, or at its time, is part of that one's batch and gets
    /// its new time plus 0.98 of the period). `times`: those samples' times as given, oldest
    /// first, from the stream's first sample to the one before `firstSpread`, the first time
    /// changed (as returned). Nil, to keep them as given, before a time was changed, and when
    /// those times hold a gap (over `gapLimit`), a time going back, a batch longer than
    /// `largestBatch` or batches that would run into the next (or into `firstSpread`).
    public func spreadingBack(_ times: [Double], before firstSpread: Double) -> [Double]? {
        guard spreadSamples > 0, let period = batchPeriod, period > 0, let mean = meanInterval else { return nil }
        var spread: [Double] = []
        spread.reserveCapacity(times.count)
        var previous: Double?
        var samplesInBatch = 1
        for given in times {
            guard given.isFinite else { return nil }
            var time = given
            if let previous, let last = spread.last {
                let interval = given - previous
                guard interval >= 0, interval <= gapLimit else { return nil }
                if interval == 0 || interval < 0.5 * mean {
                    samplesInBatch += 1
                    guard samplesInBatch <= Self.largestBatch else { return nil }
                    time = last + Self.step * period
                } else {
                    samplesInBatch = 1
                }
                guard time > last else { return nil }
            }
            spread.append(time)
            previous = given
        }
        if let last = spread.last, !(last < firstSpread) { return nil }
        return spread
    }

    /// Forgets the stream, as before its first sample (a new stream follows, from any time);
    /// `spreadSamples` keeps counting.
    public mutating func restart() {
        next = 0
        count = 0
        sum = 0
        shortCount = 0
        lastGiven = nil
        lastReturned = 0
        samplesInBatch = 1
        startNext = 0
        startCount = 0
        samplesGiven = 0
    }

    private mutating func record(_ interval: Double, short isShort: Bool) {
        if count == Self.window {
            sum -= intervals[next]
            if short[next] { shortCount -= 1 }
        } else {
            count += 1
        }
        intervals[next] = interval
        short[next] = isShort
        sum += interval
        if isShort { shortCount += 1 }
        next += 1
        if next == Self.window {
            next = 0
            // Added and taken away a window's worth of times: start the sum afresh, so that
            // rounding cannot build up over hours.
            sum = intervals.reduce(0, +)
        }
    }
}

/// A detector fed through a `BatchTimeSpreader`: for a stream whose FIFO batches are stamped
/// with one time, or read out microseconds apart. Events carry the spread times.
public struct BatchSpreadingDetector<Detector: ShakeDetecting>: ShakeDetecting {
    /// The detector the samples go to.
    public var detector: Detector
    /// The spreader in front of it.
    public var spreader: BatchTimeSpreader
    // The latest time given to `detector`.
    private var latest = -Double.infinity
    /// The time the last sample was given to `detector` at (after spreading); nil before the first.
    public private(set) var lastProcessedTime: Double?
    /// `detector`'s.
    public var gapLimitSeconds: Double? { detector.gapLimitSeconds }

    public init(_ detector: Detector, gapLimit: Double = BatchTimeSpreader.defaultGapLimit) {
        self.detector = detector
        spreader = BatchTimeSpreader(gapLimit: gapLimit)
    }

    public mutating func process(_ sample: Sample) -> ShakeEvent? {
        detector.process(spread(sample))
    }

    /// `sample` as `process` gives it to `detector`: for a caller that feeds `detector` itself, to
    /// ask it more than `process` does (`ShakeDetector.process(_:explanation:)`). `interrupt`
    /// counts the times returned here as given.
    public mutating func spread(_ sample: Sample) -> Sample {
        let spread = spreader.spread(sample)
        lastProcessedTime = spread.time
        // The latest time on the samples' clock; after a clock reset, on the new one.
        if spread.time > latest || spread.time < latest - BatchTimeSpreader.clockResetSeconds { latest = spread.time }
        return spread
    }

    /// Interrupts at `time`, or at the latest spread time when that is later; the spreader starts
    /// again too, so a new stream may follow from any time, as with `ShakeDetector`.
    public mutating func interrupt(at time: Double) -> ShakeEvent? {
        let event = detector.interrupt(at: max(time, latest))
        spreader.restart()
        latest = -.infinity
        return event
    }
}

/// Sendable when its detector is (`ShakeDetector` is): one spreading detector per stream, owned
/// by an actor or a thread, as a `ShakeDetector` is.
extension BatchSpreadingDetector: Sendable where Detector: Sendable {}
