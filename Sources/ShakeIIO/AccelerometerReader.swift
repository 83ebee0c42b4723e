import CLibIIO
import ShakeDetection
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads samples from one IIO accelerometer, in m/s² with gravity included, in the device's
/// axes (mount matrix applied), with times in seconds since the first sample.
///
/// Buffered mode enables the `accel_x/y/z` scan elements (and `timestamp`, whose nanoseconds
/// give the sample times, the samples of a FIFO batch stamped with one time spread over it:
/// ``AccelerometerReadOptions/spreadsBatchedTimes``; without it the refills' arrival on the
/// monotonic clock does, at the rate measured from them: ``ArrivalRateClock``), refills a buffer of
/// ``AccelerometerReadOptions/bufferDuration`` seconds of samples, converts each scan with
/// libiio's `iio_channel_convert` (endianness, sign, shift) and computes
/// `a = (raw + offset) · scale` (each axis with its own scale and offset when the driver gives
/// them: `in_accel_y_scale`). Polled mode reads `in_accel_*_raw` at the sampling rate, on a
/// thread of its own: a read that does not return within the read timeout (a stuck sensor or
/// bus) ends reading with `.timedOut` and is left to finish there.
///
/// Use ``run(_:)`` (blocking, callback per sample), ``start(onSample:onFinish:)`` (a
/// background thread) or ``samples()`` (an async sequence). Reading ends normally after
/// ``stop()``, and with an ``IIOError`` when the device vanishes (`.deviceGone`), stalls for
/// ``AccelerometerReadOptions/readTimeout`` seconds (`.timedOut`) or denies access.
///
/// Thread safety: libiio is only called from the thread that created the reader and then from
/// the one thread running ``run(_:)`` (in polled mode, from the polling thread it starts, one
/// read at a time, and never again after a read was given up), and last from the thread that
/// lets go of the reader (`deinit` closes the context, and, for a reader that never read, puts
/// the rate back), each after the one before has finished; ``stop()`` and ``statistics``
/// may be used from any thread (a pipe, `iio_buffer_cancel` and a mutex), hence
/// `@unchecked Sendable`.
public final class AccelerometerReader: @unchecked Sendable {
    /// The device as discovered (its sampling frequency is the one configured for reading).
    public let device: AccelerometerDescription
    /// The context URI, e.g. `"local:"`.
    public let uri: String
    /// ``AccelerometerReadOptions/Mode/buffered`` or ``AccelerometerReadOptions/Mode/polled``.
    public let mode: AccelerometerReadOptions.Mode
    /// Sampling rate in hertz in effect: the device's after setting the nearest available value.
    public let rateHertz: Double
    /// The rotation applied to every sample (identity when the device publishes none).
    public let mountMatrix: MountMatrix
    /// Samples per buffer refill (1 in polled mode).
    public let samplesPerRead: Int
    /// The options given.
    public let options: AccelerometerReadOptions

    private let context: IIOContext
    private let devicePointer: OpaquePointer
    private let axes: AccelerometerChannels
    private let attributes: DeviceAttributes
    /// Each axis's scale (m/s² per LSB) and offset (LSB): x, y, z.
    private let scales: (Double, Double, Double)
    private let offsets: (Double, Double, Double)
    private let wakeRead: CInt
    private let wakeWrite: CInt
    private let state = Mutex(State())

    private struct State {
        var statistics = AccelerometerReadStatistics()
        var stopped = false
        /// `run` was called (it may be called once).
        var running = false
        /// `run` returned or threw.
        var finished = false
        var buffer: BufferHandle?
    }

    /// A buffer pointer that `stop()` may pass to `iio_buffer_cancel` from another thread.
    private struct BufferHandle: @unchecked Sendable { let pointer: OpaquePointer }

    /// Opens `uri`, finds the accelerometer `deviceName` (name, label or id; the first one when
    /// nil) and configures it: sampling frequency set to the value nearest
    /// ``AccelerometerReadOptions/rateHertz`` (put back when reading ends, or when a reader that
    /// never read goes away), trigger attached when one is named.
    ///
    /// A reader that never read puts the rate back on the thread that lets go of it last, before
    /// that release returns: a write to sysfs (about 15 µs against the emulator), over `ip:` a
    /// round trip to `iiod` (under 0.2 ms), but up to ``AccelerometerReadOptions/readTimeout``
    /// for an `iiod` that does not answer (2 s with the emulator's `iiod` stopped, the rate then
    /// left as it was). Let go of such a reader where that wait does no harm.
    ///
    /// Blocks while libiio opens the context: over `ip:` up to libiio 0.24's fixed 5 s for an
    /// `iiod` that accepts the connection and does not answer, which neither
    /// ``AccelerometerReadOptions/readTimeout`` nor ``stop()`` can shorten.
    /// ``ReconnectingAccelerometerReader`` opens on a helper thread that a stop or the read
    /// timeout gives up (with `reconnects: false` it makes one attempt).
    /// - Throws: ``IIOError`` naming the C function, device and attribute that failed; of kind
    ///   `.badValue`, naming the option, for options that cannot work
    ///   (``AccelerometerReadOptions/problem``), before anything is opened.
    public init(uri: String = IIOContext.defaultURI, device deviceName: String? = nil,
                options: AccelerometerReadOptions = AccelerometerReadOptions()) throws(IIOError) {
        if let problem = options.problem {
            throw IIOError(code: .invalidArgument, function: "AccelerometerReadOptions", uri: uri, device: deviceName,
                           detail: problem, kind: .badValue)
        }
        let context = try IIOContext(uri: uri, timeout: options.readTimeout)
        let (device, axes) = try context.accelerometer(named: deviceName)
        let attributes = DeviceAttributes(device: device, axes: axes)
        // With a mount matrix given, the device's own is not needed: a malformed one must not stop reading.
        var description = try AccelerometerDescription(device: device, axes: axes,
                                                       deviceMatrixRequired: options.mountMatrix == nil)

        let mode: AccelerometerReadOptions.Mode
        switch options.mode {
        case .automatic: mode = description.isBufferCapable ? .buffered : .polled
        case .buffered:
            guard description.isBufferCapable else {
                throw IIOError(code: .notImplemented, function: "iio_device_create_buffer", uri: uri,
                               device: attributes.label,
                               detail: "the device has no buffer (its accel channels are not scan elements); use polled mode")
            }
            mode = .buffered
        case .polled: mode = .polled
        }

        var rateBefore: Double?
        // A rate set here is put back should `init` fail after setting it (a trigger not found, a
        // rate of 0 read back): the reader that would have put it back never exists.
        var initialised = false
        defer {
            if !initialised, rateBefore != nil, let rate = options.rateToRestore ?? rateBefore {
                try? attributes.setSamplingFrequency(rate)
            }
        }
        if let requested = options.rateHertz {
            if description.samplingFrequencyHertz != nil {
                let chosen = SamplingFrequencies.nearest(to: requested, in: description.availableSamplingFrequenciesHertz)
                if chosen != description.samplingFrequencyHertz {
                    try attributes.setSamplingFrequency(chosen)
                    rateBefore = description.samplingFrequencyHertz
                }
                description.samplingFrequencyHertz = try attributes.samplingFrequency() ?? chosen
            }
        }
        // The rate the device accepted (read back), in both modes: polling faster than the
        // device samples repeats values, and the recording would claim a rate it does not have.
        // The requested rate only when the device has no sampling_frequency to set.
        let rate = description.samplingFrequencyHertz ?? options.rateHertz ?? 100
        // A driver reporting 0 (or a negative rate) would have every sample time divided by it
        // and every poll wait for ever.
        guard rate.isFinite && rate > 0 else {
            throw IIOError(code: .invalidArgument, function: "iio_device_attr_read", uri: uri, device: attributes.label,
                           attribute: "sampling_frequency",
                           detail: "the device reports \(rate) Hz, which is no sampling rate"
                               + (options.rateHertz == nil ? ": give one with --rate" : ""),
                           kind: .badValue)
        }

        if let triggerName = options.trigger {
            guard let trigger = LibIIO.devices(context.pointer).first(where: {
                LibIIO.isTrigger($0) && (LibIIO.name(ofDevice: $0) == triggerName || LibIIO.id(ofDevice: $0) == triggerName)
            }) else {
                throw IIOError(code: .noSuchDevice, function: "iio_device_set_trigger", uri: uri,
                               device: attributes.label, attribute: "trigger/current_trigger",
                               detail: "no trigger named '\(triggerName)'", kind: .notFound)
            }
            try LibIIO.setTrigger(device, trigger, deviceLabel: attributes.label)
            description.currentTrigger = triggerName
        }

        var fds: [CInt] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw IIOError(code: IIOErrno(rawValue: errno), function: "pipe", device: attributes.label)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        self.context = context
        self.device = description
        self.uri = uri
        self.mode = mode
        self.rateHertz = rate
        self.mountMatrix = options.mountMatrix ?? description.mountMatrix ?? .identity
        self.samplesPerRead = mode == .polled ? 1 : max(1, Int((rate * options.bufferDuration).rounded()))
        self.options = options
        self.devicePointer = device
        self.axes = axes
        self.attributes = attributes
        let (axisScales, axisOffsets) = (description.axisScales, description.axisOffsets)
        self.scales = (axisScales[0], axisScales[1], axisScales[2])
        self.offsets = (axisOffsets[0], axisOffsets[1], axisOffsets[2])
        self.wakeRead = fds[0]
        self.wakeWrite = fds[1]
        self.rateBefore = options.rateToRestore ?? rateBefore
        initialised = true
    }

    deinit {
        // A reader that never read still set the rate in `init`: put it back as `run` would, on
        // this thread (nothing else holds the reader, so libiio is not used from two threads
        // at once; over `ip:` this may wait for `iiod` up to the read timeout, as the docs say).
        if !state.withLock({ $0.running }) { restoreRate() }
        close(wakeRead)
        close(wakeWrite)
    }

    /// Counters so far (samples delivered, dropped, gaps, overruns).
    public var statistics: AccelerometerReadStatistics { state.withLock { $0.statistics } }

    /// Ends reading: ``run(_:)`` returns normally (after the sample it is delivering), the async
    /// sequence finishes. Safe from any thread, and more than once.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            // Cancelled under the lock: the reading thread clears `buffer` under it before it
            // destroys the buffer, so the buffer cancelled is never one already freed (it was,
            // now and then, over ip:, when the reader saw the stop between the two).
            if let buffer = state.buffer, mode == .buffered, !usesPollDescriptor.withLock({ $0 }) {
                LibIIO.cancel(buffer.pointer)
            }
        }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private let usesPollDescriptor = Mutex(false)

    func countConsumerOverrun() { state.withLock { $0.statistics.consumerOverruns += 1 } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Reads until ``stop()`` or a failure, calling `onSample` for each sample in order on the
    /// calling thread. Call it once per reader. A sampling frequency this reader set
    /// (``AccelerometerReadOptions/rateHertz``) is put back as it was when reading ends, unless it
    /// ends because the device is gone (`.deviceGone`: it may come back after a reset with its
    /// own rate); also after a stall, a permission error or an error `onSample` throws.
    /// - Throws: ``IIOError`` when the device vanishes, stalls or fails; whatever `onSample` throws.
    public func run(_ onSample: (Sample) throws -> Void) throws {
        try run(onStart: {}, onSample)
    }

    /// Like ``run(_:)``, calling `onStart` once reading has really started: in buffered mode
    /// after the buffer was created and enabled, in polled mode after the first poll read the
    /// three axes (so a permission error comes before it, never after).
    public func run(onStart: () throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        try claimRun()
        try runClaimed(onStart: onStart, onSample)
    }

    /// Takes this reader's one run: throws when it is reading or has read already.
    func claimRun() throws(IIOError) {
        let (alreadyRunning, finished) = state.withLock { state -> (Bool, Bool) in
            defer { state.running = true }
            return (state.running, state.finished)
        }
        guard !alreadyRunning else {
            throw IIOError(code: .busy, function: "AccelerometerReader.run", device: attributes.label,
                           detail: finished
                               ? "this reader has finished reading (a reader reads once); create a new one to read again"
                               : "this reader is already reading; create one reader per stream")
        }
    }

    /// ``run(onStart:_:)`` after ``claimRun()``.
    func runClaimed(onStart: () throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        defer { state.withLock { $0.finished = true } }
        do {
            switch mode {
            case .polled: try runPolled(onStart: onStart, onSample)
            default: try runBuffered(onStart: onStart, onSample)
            }
        } catch let error as IIOError where error.kind == .deviceGone {
            // The device is gone: it may come back after a reset with its own rate.
            throw error
        } catch {
            restoreRate()
            throw error
        }
        restoreRate()
    }

    /// The device's sampling frequency before this reader (or, reconnecting, the first reader)
    /// set it, Hz; nil when it did not.
    let rateBefore: Double?

    /// Puts the device's rate back as it was before this reader set it (best effort: a device
    /// that refuses keeps the rate it was read at).
    private func restoreRate() {
        guard let rateBefore else { return }
        try? attributes.setSamplingFrequency(rateBefore)
    }

    // MARK: Delivery

    /// The time given to the last sample delivered, and the time it was given (in buffered mode
    /// with the timestamp channel, its kernel timestamp; it differs when the sample was spread).
    private var previousTime: Double?
    private var previousGiven: Double?
    /// Buffered mode with the timestamp channel and ``AccelerometerReadOptions/spreadsBatchedTimes``:
    /// gives the samples of a FIFO batch stamped with one time (or microseconds apart) their own
    /// times. Nil otherwise.
    private var spreader: BatchTimeSpreader?
    /// Buffered mode: drops are counted between the samples that begin a batch (every sample, in
    /// a stream without batches): the given time of the last one, and the samples delivered since
    /// it, itself included (a whole batch between the first samples of two batches).
    private var batchStart: Double?
    private var samplesSinceBatchStart = 0
    /// Buffered mode: the given times of the first `rateCheckIntervals` + 1 samples delivered, and
    /// whether each was moved by spreading; drops among them are counted once they are in (when the
    /// rate and the batching are known), or when reading ends before. Emptied then.
    private var firstSamples: [(given: Double, moved: Bool)] = []
    private var rateChecked = false
    /// The rate drops are counted against, Hz: `rateHertz`, or the measured rate when the
    /// device delivers at another (see ``AccelerometerReadStatistics/measuredRateHertz``).
    private lazy var countingRateHertz = rateHertz
    /// Intervals whose median checks the rate the device delivers at.
    static let rateCheckIntervals = 32
    private var firstTimestampNanoseconds: Int64?
    private var firstMonotonic: Double?
    /// Buffered mode without a timestamp channel: times the samples by their count, at the rate
    /// measured from the refills' arrivals. Nil otherwise.
    private var arrivalClock: ArrivalRateClock?
    /// The times ``arrivalClock`` gave the samples of the refill being decoded (monotonic s).
    private var arrivalTimes: [Double] = []

    /// Seconds from the first sample, for samples timed by the monotonic clock (polled mode, or
    /// a buffer without timestamp channel): the first sample is at exactly 0, as with timestamps.
    private func secondsSinceFirstSample(monotonic: Double) -> Double {
        let origin = firstMonotonic ?? monotonic
        firstMonotonic = origin
        return monotonic - origin
    }

    /// Spreads the time (stamped buffers), applies offset, scale and mount matrix; checks time
    /// order and counts gaps; delivers.
    private func deliver(time given: Double, raw: (Int64, Int64, Int64), _ onSample: (Sample) throws -> Void) rethrows {
        let time = spreader == nil ? given : spreadTime(given)
        if let previousTime, !(time > previousTime) {
            state.withLock { $0.statistics.outOfOrderSamples += 1 }
            return
        }
        // Polled mode counts missed ticks instead (a late poll is not a lost sample twice).
        if mode == .buffered { countDrops(given: given, moved: time != given) }
        if spreader != nil { noteStamp(given) }
        previousTime = time
        previousGiven = given
        let sensor = (x: (Double(raw.0) + offsets.0) * scales.0,
                      y: (Double(raw.1) + offsets.1) * scales.1,
                      z: (Double(raw.2) + offsets.2) * scales.2)
        let rotated = mountMatrix.isIdentity ? sensor : mountMatrix.apply(x: sensor.x, y: sensor.y, z: sensor.z)
        // Once stopped (by `onSample` itself, say), the rest of a buffer's samples are not delivered.
        let stopped = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            state.statistics.samplesDelivered += 1
            if time != given { state.statistics.spreadSamples += 1 }
            state.statistics.lastSampleTime = time
            return false
        }
        if stopped { return }
        try onSample(Sample(time: time, x: rotated.x, y: rotated.y, z: rotated.z))
    }

    /// A stamped sample's time spread over its FIFO batch: by the `BatchTimeSpreader` once it has
    /// found batches (after 32 intervals). Before that, and beyond the longest batch it spreads, a
    /// sample stamped the same as the one before (a batch stamped with one time: no two samples
    /// are measured at the same nanosecond) gets the previous time plus 0.98 of a sample period
    /// (of the rate counted against, or the mean period of the batches so far when shorter),
    /// about as the spreader would give it, instead of being discarded. A sample that would not come after the previous
    /// one only because that one was moved forward gets the previous time plus 0.02 of a period.
    /// Stamps that go backwards are left as given (and discarded as out of order).
    private func spreadTime(_ given: Double) -> Double {
        let spread = spreader!.spread(Sample(time: given, x: 0, y: 0, z: 0)).time
        guard let previousTime, let previousGiven, spread <= previousTime, given >= previousGiven else { return spread }
        let sameStamp = given == previousGiven
        guard sameStamp || previousTime > previousGiven else { return spread }
        var period = 1 / countingRateHertz
        if let firstStamp, let newestStamp, newestStamp.samplesBefore > 0 {
            let mean = (newestStamp.time - firstStamp) / Double(newestStamp.samplesBefore)
            if mean > 0 { period = min(period, mean) }
        }
        return previousTime + (sameStamp ? 0.98 : 0.02) * period
    }

    /// Stamped buffers being spread: the given time of the first sample delivered, and of the
    /// newest one stamped otherwise than the one before it, with the samples delivered before
    /// it: their mean period (whole batches, unlike a mean over the last intervals) spaces
    /// samples stamped alike.
    private var firstStamp: Double?
    private var newestStamp: (time: Double, samplesBefore: Int)?
    private var stampedSamples = 0

    private func noteStamp(_ given: Double) {
        if firstStamp == nil {
            firstStamp = given
        } else if given != previousGiven {
            newestStamp = (given, stampedSamples)
        }
        stampedSamples += 1
    }

    /// The first intervals came in batches (see ``checkRate(final:)``): the spreader may take
    /// longer to say so (batches of 32 stamped microseconds apart: a few batches more).
    private var foundBatches = false

    /// Whether a sample given `interval` s after the one before belongs to a batch begun by an
    /// earlier sample: stamped the same, or less than half the mean interval after it (as the
    /// spreader judges) when it was moved by spreading or the stream is batched (once the
    /// spreader or the rate check finds batches). A batch's first sample, moved only to come
    /// after the spread samples before it (a device faster than it reports), begins a batch.
    private func isInBatch(interval: Double, moved: Bool, firstMean: Double = 0) -> Bool {
        if interval == 0 { return true }
        guard moved || foundBatches || spreader?.isSpreading == true else { return false }
        // The spreader's mean leaves out intervals over its gap limit (1.5 s): batches longer
        // than that are judged by the period the rate check found (or the mean it finds it from).
        let mean = max(spreader?.meanInterval ?? 0, firstBatchesPeriod ?? firstMean)
        return interval < 0.5 * mean
    }

    /// The sample period the rate check found over the first batches, s (batched streams).
    private var firstBatchesPeriod: Double?

    /// Buffered mode: counts the samples missing before a sample that begins a batch (every
    /// sample, in a stream without batches), against the samples delivered since the last one
    /// that did. The first `rateCheckIntervals` intervals wait for ``checkRate(final:)``.
    private func countDrops(given: Double, moved: Bool) {
        if !rateChecked {
            firstSamples.append((given, moved))
            if firstSamples.count > Self.rateCheckIntervals { checkRate() }
            return
        }
        if let previousGiven, isInBatch(interval: given - previousGiven, moved: moved) {
            samplesSinceBatchStart += 1
            return
        }
        if let batchStart {
            let missing = Self.missingSamples(interval: given - batchStart, samples: samplesSinceBatchStart,
                                              rateHertz: countingRateHertz)
            if missing > 0 {
                state.withLock {
                    $0.statistics.droppedSamples += missing
                    $0.statistics.gaps += 1
                }
            }
        }
        batchStart = given
        samplesSinceBatchStart = 1
    }

    /// Buffered mode, over the first `rateCheckIntervals` intervals: a driver that ignores or
    /// rounds a `sampling_frequency` write, or reports a stale one, delivers at another rate than
    /// `rateHertz`, and every interval would count as a gap. When the median interval's rate is
    /// more than 25 % off, it is taken as the rate the device delivers at
    /// (``AccelerometerReadStatistics/measuredRateHertz``). In a batched stream the raw intervals
    /// are 0 (or microseconds) and a batch long: the period is then each batch's interval over
    /// its samples (the lower median: a dropped batch lengthens one), the batches as the spreader
    /// finds them (or would: a batch of 32 stamped microseconds apart fills the 32 intervals).
    /// Then counts the drops among these samples, a batch's samples not counted as missing.
    /// `final`: reading ended before 32 intervals; drops are counted, the rate not checked.
    private func checkRate(final: Bool = false) {
        rateChecked = true
        let samples = firstSamples
        firstSamples = []
        guard !samples.isEmpty else { return }
        // Batched when at least half of the intervals are under a tenth of their mean (the
        // spreader's rule, which it applies to the mean as each interval came, so that it may
        // find batches of 32 only a few batches later; and to intervals under 0.5 s only).
        var firstMean = 0.0
        if spreader != nil, samples.count > 1 {
            let intervals = zip(samples.dropFirst(), samples).map { $0.given - $1.given }
            firstMean = (samples.last!.given - samples[0].given) / Double(intervals.count)
            foundBatches = 2 * intervals.count { $0 < 0.1 * firstMean } >= intervals.count
        }
        // Whether each sample belongs to a batch begun by an earlier one, as the spreader sees
        // the batches now that it has seen these intervals.
        var inBatch = [false]
        for index in samples.indices.dropFirst() {
            inBatch.append(isInBatch(interval: samples[index].given - samples[index - 1].given,
                                     moved: samples[index].moved, firstMean: firstMean))
        }
        let starts = samples.indices.filter { !inBatch[$0] }
        let periods: [Double]
        if starts.count == samples.count {
            periods = zip(samples.dropFirst(), samples).map { $0.given - $1.given }
        } else {
            periods = zip(starts.dropFirst(), starts).map {
                (samples[$0].given - samples[$1].given) / Double($0 - $1)
            }
        }
        var measured: Double?
        if !final, !periods.isEmpty {
            let sorted = periods.sorted()
            let median = starts.count == samples.count ? sorted[sorted.count / 2] : sorted[(sorted.count - 1) / 2]
            if foundBatches { firstBatchesPeriod = median }
            let rate = 1 / median
            if median > 0, rate.isFinite, abs(rate - rateHertz) > 0.25 * rateHertz {
                measured = rate
                countingRateHertz = rate
            }
        }
        let missing = zip(starts.dropFirst(), starts).map {
            Self.missingSamples(interval: samples[$0].given - samples[$1].given, samples: $0 - $1,
                                rateHertz: countingRateHertz)
        }
        let (dropped, gaps) = (missing.reduce(0, +), missing.count { $0 > 0 })
        state.withLock {
            if let measured { $0.statistics.measuredRateHertz = measured }
            $0.statistics.droppedSamples += dropped
            $0.statistics.gaps += gaps
        }
        batchStart = samples[starts.last!].given
        samplesSinceBatchStart = samples.count - starts.last!
    }

    /// Samples lost in an interval of `interval` s at `rateHertz` that should hold `samples`
    /// sample periods (1 between two samples; a batch's length between the first samples of two
    /// batches): none up to `samples` + 0.5 periods, else `round(interval · rate) − samples` (at
    /// least 1).
    static func missingSamples(interval: Double, samples: Int = 1, rateHertz: Double) -> Int {
        interval > (Double(samples) + 0.5) / rateHertz ? max(1, Int((interval * rateHertz).rounded()) - samples) : 0
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: Polled

    private func runPolled(onStart: () throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        switch StuckReads.wait(for: stuckReadKey, timeout: options.readTimeout, wake: wakeRead) {
        case .clear: break
        case .woken: return
        case .stillStuck: throw stuckRead(channel: nil)
        }
        // The reads run on a thread of their own: a driver whose sensor or bus is stuck can
        // block a read of `in_accel_*_raw` for ever, and this thread must still see the read
        // timeout and `stop()`.
        let key = stuckReadKey
        let channelIDs = axes.axes.map { LibIIO.id(ofChannel: $0) }
        guard let reads = BlockingReadThread(name: "shake.iio-poll", read: { [self] in
            Result { () throws(IIOError) in
                pollingAxis.store(0, ordering: .relaxed)
                let x = try readRaw(axes.x)
                pollingAxis.store(1, ordering: .relaxed)
                let y = try readRaw(axes.y)
                pollingAxis.store(2, ordering: .relaxed)
                return (x, y, try readRaw(axes.z))
            }
        }, givenUp: { StuckReads.gaveUp(key) }, lateReturn: { StuckReads.returned(key) }) else {
            throw IIOError(code: IIOErrno(rawValue: errno), function: "pipe", device: attributes.label)
        }
        defer { reads.finish() }  // a thread given up ends by itself; the request is then ignored
        let period = 1 / rateHertz
        var due = Self.monotonicSeconds()
        var started = false
        while true {
            if try waitForWake(until: due) { return }
            let raw: (Int64, Int64, Int64)
            switch reads.next(timeout: options.readTimeout, wake: wakeRead) {
            case .value(let result): raw = try result.get()
            case .woken: return
            case .timedOut: throw stuckRead(channel: channelIDs[pollingAxis.load(ordering: .relaxed)])
            }
            if !started {
                started = true
                try onStart()
            }
            let now = Self.monotonicSeconds()
            state.withLock { $0.statistics.reads += 1 }
            try deliver(time: secondsSinceFirstSample(monotonic: now), raw: raw, onSample)
            if isStopped { return }
            due += period
            if now - due > period {
                let missed = Int((now - due) / period)
                due += Double(missed) * period
                state.withLock {
                    $0.statistics.droppedSamples += missed
                    $0.statistics.gaps += 1
                }
            }
        }
    }

    /// The key of this device in ``StuckReads``.
    private var stuckReadKey: String { "\(uri) \(device.id)" }
    /// The axis (0, 1, 2) whose raw attribute the polling thread reads or read last.
    private let pollingAxis = Atomic<Int>(0)

    /// A read of `channel`'s raw attribute (nil: one an earlier reader gave up) that has not
    /// returned within the read timeout.
    private func stuckRead(channel: String?) -> IIOError {
        IIOError(code: .timedOut, function: "iio_channel_attr_read", uri: uri, device: attributes.label,
                 channel: channel, attribute: channel == nil ? "in_accel_*_raw" : "raw",
                 detail: channel == nil
                    ? "a read given up earlier has still not returned, \(options.readTimeout) s later"
                    : "the read has not returned within \(options.readTimeout) s (the read timeout)",
                 kind: .timedOut)
    }

    private func readRaw(_ channel: OpaquePointer) throws(IIOError) -> Int64 {
        let text: String
        do {
            text = try LibIIO.readChannelAttribute(channel, "raw", deviceLabel: attributes.label)
        } catch {
            throw vanishedIfGone(error)
        }
        // A whole number written as a Double ("12.0", "1e3") is one; a fraction (which would be
        // cut) or one beyond Int64 (which would trap) is no raw reading.
        let whole = Double(text).flatMap { $0 == $0.rounded() && abs($0) < 0x1p62 ? Int64($0) : nil }
        guard let value = Int64(text) ?? whole else {
            throw IIOError(code: .invalidArgument, function: "iio_channel_attr_read", device: attributes.label,
                           channel: LibIIO.id(ofChannel: channel), attribute: "raw",
                           detail: "'\(text)' is not an integer", kind: .badValue)
        }
        return value
    }

    /// Sleeps until `deadline` (monotonic seconds) or a stop; true when stopped.
    private func waitForWake(until deadline: Double) throws(IIOError) -> Bool {
        while true {
            if isStopped { return true }
            let remaining = deadline - Self.monotonicSeconds()
            if remaining <= 0 { return false }
            var descriptor = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, CInt(min(1000, (remaining * 1000).rounded(.up))))
        }
    }

    // MARK: Buffered

    private func runBuffered(onStart: () throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        for channel in LibIIO.channels(devicePointer) { LibIIO.setEnabled(channel, false) }
        for channel in axes.axes { LibIIO.setEnabled(channel, true) }
        if let timestamp = axes.timestamp { LibIIO.setEnabled(timestamp, true) }
        let buffer = try LibIIO.createBuffer(devicePointer, samples: samplesPerRead, deviceLabel: attributes.label)
        defer {
            state.withLock { $0.buffer = nil }
            LibIIO.destroyBuffer(buffer)
        }
        let pollDescriptor: CInt? = LibIIO.setBlocking(buffer, false) ? LibIIO.pollDescriptor(buffer) : nil
        if pollDescriptor == nil { _ = LibIIO.setBlocking(buffer, true) }
        usesPollDescriptor.withLock { $0 = pollDescriptor != nil }
        state.withLock { $0.buffer = BufferHandle(pointer: buffer) }
        if isStopped { return }
        try onStart()

        let formats = axes.axes.map { LibIIO.dataFormat($0)! }
        let timestampFormat = axes.timestamp.flatMap(LibIIO.dataFormat)
        if options.spreadsBatchedTimes && timestampFormat != nil { spreader = BatchTimeSpreader() }
        if timestampFormat == nil {
            // libiio 0.24 sizes the kernel buffer at 4 refills; a device may say otherwise.
            let length = (try? LibIIO.readBufferAttribute(devicePointer, "length", deviceLabel: attributes.label))
                .flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 4 * samplesPerRead
            arrivalClock = ArrivalRateClock(statedPeriodSeconds: 1 / rateHertz, bufferLength: length)
        }
        // Drops among the first samples are counted once 32 intervals are in: reading may end before.
        defer { if !rateChecked { checkRate(final: true) } }
        var lastData = Self.monotonicSeconds()
        // Allocated once: an array built in the loop cost an allocation per refill.
        let descriptors = UnsafeMutablePointer<pollfd>.allocate(capacity: 2)
        defer { descriptors.deallocate() }

        while true {
            if let pollDescriptor {
                descriptors[0] = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
                descriptors[1] = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
                let remaining = lastData + options.readTimeout - Self.monotonicSeconds()
                if remaining <= 0 { try stalled() }
                let ready = poll(descriptors, 2, CInt(min(1000, (remaining * 1000).rounded(.up))))
                if isStopped { return }
                if ready == 0 { continue }
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw IIOError(code: IIOErrno(rawValue: errno), function: "poll", device: attributes.label)
                }
            }
            switch LibIIO.refill(buffer) {
            case .failed(let code):
                if isStopped { return }
                if code == .tryAgain { continue }
                if code == .timedOut { try stalled() }
                throw vanishedIfGone(IIOError(code: code, function: "iio_buffer_refill", uri: uri, device: attributes.label))
            case .bytes(let count):
                if count <= 0 { continue }
                lastData = Self.monotonicSeconds()
                state.withLock { $0.statistics.reads += 1 }
                try decode(buffer, formats: formats, timestampFormat: timestampFormat, received: lastData, onSample)
                if isStopped { return }
            }
        }
    }

    private func decode(
        _ buffer: OpaquePointer, formats: [iio_data_format], timestampFormat: iio_data_format?,
        received: Double, _ onSample: (Sample) throws -> Void
    ) throws {
        let x = LibIIO.layout(buffer, first: axes.x)
        guard let xFirst = x.first, let end = x.end, x.step > 0 else { return }
        let yFirst = LibIIO.layout(buffer, first: axes.y).first!
        let zFirst = LibIIO.layout(buffer, first: axes.z).first!
        let timestampFirst = axes.timestamp.flatMap { LibIIO.layout(buffer, first: $0).first }
        let count = (end - xFirst + x.step - 1) / x.step
        // Without a timestamp channel: by their count, at the rate the arrivals measure.
        let counted = timestampFirst == nil && count > 0 && arrivalClock != nil
        if counted { _ = arrivalClock!.refill(of: count, arrivedAt: received, into: &arrivalTimes) }
        for index in 0..<count {
            let offset = index * x.step
            let raw = (LibIIO.convert(axes.x, from: xFirst + offset, format: formats[0]),
                       LibIIO.convert(axes.y, from: yFirst + offset, format: formats[1]),
                       LibIIO.convert(axes.z, from: zFirst + offset, format: formats[2]))
            let time: Double
            if let timestampFirst, let timestampFormat, let channel = axes.timestamp {
                let nanoseconds = LibIIO.convert(channel, from: timestampFirst + offset, format: timestampFormat)
                let origin = firstTimestampNanoseconds ?? nanoseconds
                firstTimestampNanoseconds = origin
                time = followingOn(Double(nanoseconds &- origin) / 1e9 + clockShift)
            } else if counted {
                time = secondsSinceFirstSample(monotonic: arrivalTimes[index])
            } else {
                time = secondsSinceFirstSample(monotonic: received - Double(count - 1 - index) / rateHertz)
            }
            try deliver(time: time, raw: raw, onSample)
        }
    }

    /// A timestamp further back than this, s, than the one before is the device's clock stepping
    /// back (a driver reset, a counter that wrapped), not a sample out of order: 1 s.
    public static let clockStepBackSeconds = 1.0

    /// Seconds added to the kernel's timestamps since the clock last stepped back.
    private var clockShift = 0.0
    /// The sample before was more than ``clockStepBackSeconds`` back (and discarded).
    private var steppedBack = false

    /// `time`, or, when it and the sample before it are both more than ``clockStepBackSeconds``
    /// before the last delivered sample's given time, a sample period after that (and every later
    /// time shifted as much): otherwise every sample would be discarded, without a word, until the
    /// clock came back to where it was. A lone sample that far back is a bad stamp, not a new
    /// clock: returned as it is, and discarded as out of order (the first of a new clock is too).
    private func followingOn(_ time: Double) -> Double {
        guard let previousGiven, time < previousGiven - Self.clockStepBackSeconds else {
            steppedBack = false
            return time
        }
        guard steppedBack else {
            steppedBack = true
            return time
        }
        steppedBack = false
        let continued = previousGiven + 1 / countingRateHertz
        clockShift += continued - time
        state.withLock { $0.statistics.clockStepsBack += 1 }
        return continued
    }

    /// No data for `readTimeout` seconds: a vanished device, or a stall.
    private func stalled() throws(IIOError) -> Never {
        do {
            _ = try LibIIO.readChannelAttribute(axes.x, "raw", deviceLabel: attributes.label)
        } catch where error.kind == .deviceGone {
            let delivered = statistics.samplesDelivered
            throw IIOError(
                code: error.code, function: "iio_buffer_refill", uri: uri, device: attributes.label,
                detail: "device vanished after \(delivered) sample\(delivered == 1 ? "" : "s") (no samples for "
                    + "\(options.readTimeout) s, and its attribute in_accel_x_raw is gone)", kind: .deviceGone)
        } catch {
            // Busy or unreadable while buffering: the device is still there.
        }
        throw IIOError(code: .timedOut, function: "iio_buffer_refill", uri: uri, device: attributes.label,
                       detail: "no samples for \(options.readTimeout) s", kind: .timedOut)
    }

    /// Rewrites errors that mean the device is gone into one clear `.deviceGone` error.
    private func vanishedIfGone(_ error: IIOError) -> IIOError {
        guard error.kind == .deviceGone || error.code == .ioError else { return error }
        var gone = error
        gone.kind = .deviceGone
        let delivered = statistics.samplesDelivered
        gone.detail = "device vanished after \(delivered) sample\(delivered == 1 ? "" : "s")"
        return gone
    }
}
