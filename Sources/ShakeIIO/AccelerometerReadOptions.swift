/// How an ``AccelerometerReader`` reads a device.
public struct AccelerometerReadOptions: Hashable, Sendable {
    /// How samples are obtained.
    public enum Mode: String, Hashable, Sendable, Codable {
        /// Buffered when the device's axes are scan elements, else polled.
        case automatic
        /// Through the device's buffer (`/dev/iio:deviceN`), scan by scan.
        case buffered
        /// By reading `in_accel_{x,y,z}_raw` at the sampling rate.
        case polled
    }

    /// Default: ``Mode/automatic``.
    public var mode: Mode
    /// Requested sampling rate in hertz; the device is set to the nearest available value, and
    /// set back to its own rate when reading ends (not after a device failure). nil keeps the
    /// device's current rate (polling then uses it, or 100 Hz if it has none).
    public var rateHertz: Double?
    /// Samples per buffer refill, as a duration in seconds (default 0.04 s, at least one
    /// sample; 0 means one): smaller means lower latency, larger means fewer wake-ups. Finite,
    /// not negative.
    public var bufferDuration: Double
    /// Seconds without a sample after which reading ends with a `.timedOut` error (or
    /// `.deviceGone` if the device turns out to have vanished; polled mode reads the attributes
    /// on its own clock, so there a sensor whose values stop changing is not caught, only a read
    /// that blocks); in polled mode also the longest
    /// a read of `in_accel_*_raw` may take (a stuck driver can block it for ever), and libiio's
    /// I/O timeout for the context. More than 0; `.infinity` never times out (a device that
    /// stalls, or an `iiod` that stops answering, then blocks reading until ``AccelerometerReader/stop()``).
    /// Default 2 s.
    public var readTimeout: Double
    /// Mount matrix to apply instead of the device's own; nil uses the device's, or none. A
    /// rotation (a mirrored axis allowed), as the device's must be: another is refused (`problem`).
    public var mountMatrix: MountMatrix?
    /// Name of a trigger to attach before reading; nil keeps the device's current trigger.
    public var trigger: String?
    /// Capacity of the async stream's queue, in seconds of samples (default 10 s, at least 16
    /// samples; `.infinity`: no limit). When the consumer falls further behind, the oldest
    /// samples are dropped and counted. Not negative.
    public var streamBufferDuration: Double
    /// Buffered mode with the device's timestamp channel: give each sample of a hardware-FIFO
    /// batch its own time (default true). Some drivers stamp a whole batch with one time, or its
    /// samples microseconds apart as they read them out; unspread, samples whose time does not
    /// increase are discarded (``AccelerometerReadStatistics/outOfOrderSamples``: three in four
    /// with batches of 4), and a batch stamped microseconds apart is one moment to the detector.
    /// Spread, a batch's samples get times about a sample period apart from its first stamp on
    /// (ShakeDetection's `BatchTimeSpreader`, once 32 intervals show batches; before that, a
    /// sample stamped the same as the one before gets 0.98 of a sample period after it), so they
    /// come at most one batch period later than measured; drops are counted between batches. A
    /// stream without batches passes unchanged. Spread samples are counted in
    /// ``AccelerometerReadStatistics/spreadSamples``. false: the kernel's times as given.
    public var spreadsBatchedTimes: Bool
    /// The device's rate before the first connection set it, Hz, for a reader of a later
    /// connection (`ReconnectingAccelerometerReader`) to put back at the end: the device it meets
    /// may still have the rate the first one set.
    var rateToRestore: Double?

    /// The async stream's queue for items coming at `hertz`: `streamBufferDuration` of them, at
    /// least 16; `.unbounded` for an infinite duration. Options with a problem (a negative or NaN
    /// duration, reported when reading starts) get 16.
    func streamBufferingPolicy<Item>(hertz: Double) -> AsyncThrowingStream<Item, any Error>.Continuation.BufferingPolicy {
        let queued = hertz * streamBufferDuration
        if queued.isNaN || queued < 0 { return .bufferingNewest(16) }
        return queued >= Double(Int.max / 2) ? .unbounded : .bufferingNewest(max(16, Int(queued)))
    }

    /// Why these options cannot be used to read, naming the property and its value; nil when
    /// they can. ``AccelerometerReader/init(uri:device:options:)`` throws it (kind `.badValue`)
    /// before it opens the context.
    public var problem: String? {
        if let rateHertz, !(rateHertz > 0 && rateHertz.isFinite) {
            return "rateHertz is \(rateHertz) Hz; it must be a finite number of hertz over 0 (nil keeps the device's rate)"
        }
        if !(readTimeout > 0) {
            return "readTimeout is \(readTimeout) s; it must be more than 0 s (.infinity: never time out)"
        }
        if !(bufferDuration >= 0 && bufferDuration.isFinite) {
            return "bufferDuration is \(bufferDuration) s; it must be a finite number of seconds, 0 or more"
        }
        if !(streamBufferDuration >= 0) {
            return "streamBufferDuration is \(streamBufferDuration) s; it must be 0 s or more (.infinity: no limit)"
        }
        // As the device's own matrix is checked: a zero or scaling matrix would silence or
        // distort every sample.
        if let mountMatrix, let problem = mountMatrix.rotationProblem {
            return "mountMatrix \(mountMatrix): \(problem)"
        }
        return nil
    }

    public init(
        mode: Mode = .automatic, rateHertz: Double? = nil, bufferDuration: Double = 0.04,
        readTimeout: Double = 2, mountMatrix: MountMatrix? = nil, trigger: String? = nil,
        streamBufferDuration: Double = 10, spreadsBatchedTimes: Bool = true
    ) {
        self.mode = mode
        self.rateHertz = rateHertz
        self.bufferDuration = bufferDuration
        self.readTimeout = readTimeout
        self.mountMatrix = mountMatrix
        self.trigger = trigger
        self.streamBufferDuration = streamBufferDuration
        self.spreadsBatchedTimes = spreadsBatchedTimes
    }
}
