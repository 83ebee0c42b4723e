/// Counters kept while reading, so that lost samples are reported, never hidden.
public struct AccelerometerReadStatistics: Hashable, Sendable, Codable {
    /// Samples handed on: to `onSample`, or into an async stream's queue, from which
    /// `consumerOverruns` were dropped unseen when the consumer fell behind.
    public var samplesDelivered = 0
    /// Buffer refills (buffered mode) or attribute polls (polled mode) that returned data.
    public var reads = 0
    /// Samples missing, estimated from gaps: in buffered mode from timestamps further apart than
    /// 1.5 sample periods (`round(Δt · rate) − 1` each; in a batched stream, from the first
    /// samples of two batches further apart than the batch's length plus half a period), in polled mode from poll ticks missed
    /// because the reader ran late.
    public var droppedSamples = 0
    /// Number of gaps (each may drop several samples).
    public var gaps = 0
    /// Buffered mode: the rate the device delivers at, Hz (the median of its first 32 intervals),
    /// when it is more than 25 % off the sampling frequency it reports (a driver that ignored or
    /// rounded the rate asked for); drops are then counted against it. Nil when the reported
    /// rate holds, or before 32 intervals.
    public var measuredRateHertz: Double?
    /// Samples whose timestamp did not increase; they are discarded.
    public var outOfOrderSamples = 0
    /// Times the device's timestamps went back by more than
    /// ``AccelerometerReader/clockStepBackSeconds`` (a driver reset, a counter that wrapped) for
    /// two samples running: the times from the second on are shifted to follow on a sample period
    /// after the last, instead of every later sample being discarded until the clock caught up
    /// (the first is discarded, as a lone sample that far back is).
    public var clockStepsBack = 0
    /// Samples delivered with another time than the kernel's timestamp: spread over their FIFO
    /// batch (``AccelerometerReadOptions/spreadsBatchedTimes``), because the driver stamped the
    /// batch with one time or its samples microseconds apart. 0 for a stream without batches.
    public var spreadSamples = 0
    /// Samples the async stream's consumer did not take in time (queue full); discarded.
    public var consumerOverruns = 0
    /// Time of the last delivered sample, seconds since the first one.
    public var lastSampleTime: Double?
    /// Times the device (or `iiod`) was lost and waited for (``ReconnectingAccelerometerReader``);
    /// an outage still going on when reading stopped counts too.
    public var outages = 0
    /// Seconds without the device over all outages: from the last sample before each one to the
    /// first after it (or to the end of reading), s.
    public var outageSeconds = 0.0

    public init() {}
}

extension AccelerometerReadStatistics {
    /// Reads what `encode(to:)` writes, also when it was written by an earlier ShakeKit, before a
    /// counter was added (`spreadSamples`, `outages`, say): a counter not in the data is 0 (nil
    /// for the optional ones), as at the start of reading. A key with the wrong type is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        samplesDelivered = try count(.samplesDelivered)
        reads = try count(.reads)
        droppedSamples = try count(.droppedSamples)
        gaps = try count(.gaps)
        measuredRateHertz = try container.decodeIfPresent(Double.self, forKey: .measuredRateHertz)
        outOfOrderSamples = try count(.outOfOrderSamples)
        clockStepsBack = try count(.clockStepsBack)
        spreadSamples = try count(.spreadSamples)
        consumerOverruns = try count(.consumerOverruns)
        lastSampleTime = try container.decodeIfPresent(Double.self, forKey: .lastSampleTime)
        outages = try count(.outages)
        outageSeconds = try container.decodeIfPresent(Double.self, forKey: .outageSeconds) ?? 0
    }
}
