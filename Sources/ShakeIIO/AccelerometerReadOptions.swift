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
    /// sample): smaller means lower latency, larger means fewer wake-ups.
    public var bufferDuration: Double
    /// Seconds without a sample after which reading ends with a `.timedOut` error (or
    /// `.deviceGone` if the device turns out to have vanished); in polled mode also the longest
    /// a read of `in_accel_*_raw` may take (a stuck driver can block it for ever). Default 2 s.
    public var readTimeout: Double
    /// Mount matrix to apply instead of the device's own; nil uses the device's, or none.
    public var mountMatrix: MountMatrix?
    /// Name of a trigger to attach before reading; nil keeps the device's current trigger.
    public var trigger: String?
    /// Capacity of the async stream's queue, in seconds of samples (default 10 s). When the
    /// consumer falls further behind, the oldest samples are dropped and counted.
    public var streamBufferDuration: Double
    /// The device's rate before the first connection set it, Hz, for a reader of a later
    /// connection (`ReconnectingAccelerometerReader`) to put back at the end: the device it meets
    /// may still have the rate the first one set.
    var rateToRestore: Double?

    public init(
        mode: Mode = .automatic, rateHertz: Double? = nil, bufferDuration: Double = 0.04,
        readTimeout: Double = 2, mountMatrix: MountMatrix? = nil, trigger: String? = nil,
        streamBufferDuration: Double = 10
    ) {
        self.mode = mode
        self.rateHertz = rateHertz
        self.bufferDuration = bufferDuration
        self.readTimeout = readTimeout
        self.mountMatrix = mountMatrix
        self.trigger = trigger
        self.streamBufferDuration = streamBufferDuration
    }
}
