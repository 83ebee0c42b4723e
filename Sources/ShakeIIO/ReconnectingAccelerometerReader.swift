import Foundation
import ShakeDetection
import Synchronization

/// Reads an accelerometer and, when it vanishes or stalls, waits for it to come back and goes on:
/// for devices that are unplugged and replugged, drivers that are reloaded, or an `iiod` that
/// restarts.
///
/// Times stay continuous across reconnections: samples after a reconnection are shifted so that
/// the first one comes the outage's wall-clock length (at least one sample period) after the
/// last one before it. Each outage is reported through `onEvent`, so a detector can be
/// interrupted (`ShakeDetector.interrupt(at:)`) and a recording can note it.
///
/// Errors that reconnecting cannot fix end reading: the first connection failing, and a
/// permission error at any time.
public final class ReconnectingAccelerometerReader: Sendable {
    /// What happened to the connection.
    public enum Event: Sendable {
        /// Connected (first time or again) to the device.
        case connected(AccelerometerDescription, rateHertz: Double, mode: AccelerometerReadOptions.Mode)
        /// The device vanished or stalled at `time` (seconds, on the samples' clock); retrying.
        case lost(IIOError, time: Double?)
        /// A reconnection attempt failed; retrying after `retryInterval` (reported once per kind of failure).
        case retryFailed(IIOError)
    }

    public let uri: String
    public let deviceName: String?
    public let options: AccelerometerReadOptions
    /// Seconds between reconnection attempts. Default 0.5 s.
    public let retryInterval: Double
    /// Whether to reconnect at all; when false the first loss ends ``run(onEvent:_:)`` with its
    /// error (after reporting it as ``Event/lost(_:time:)``). Default true.
    public let reconnects: Bool

    private let state = Mutex(State())

    private struct State {
        var stopped = false
        var current: AccelerometerReader?
        var previous = AccelerometerReadStatistics()
        /// Seconds added to the current connection's sample times.
        var timeOffset = 0.0
    }

    public init(uri: String = IIOContext.defaultURI, device: String? = nil,
                options: AccelerometerReadOptions = AccelerometerReadOptions(), retryInterval: Double = 0.5,
                reconnects: Bool = true) {
        self.reconnects = reconnects
        self.uri = uri
        self.deviceName = device
        self.options = options
        self.retryInterval = retryInterval
    }

    /// Totals over every connection so far.
    public var statistics: AccelerometerReadStatistics {
        state.withLock { state in
            var total = state.previous
            if let current = state.current?.statistics {
                total.samplesDelivered += current.samplesDelivered
                total.reads += current.reads
                total.droppedSamples += current.droppedSamples
                total.gaps += current.gaps
                total.outOfOrderSamples += current.outOfOrderSamples
                total.consumerOverruns += current.consumerOverruns
                if let last = current.lastSampleTime { total.lastSampleTime = last + state.timeOffset }
            }
            return total
        }
    }

    /// Ends reading (also while waiting to reconnect); ``run(onEvent:_:)`` returns normally.
    public func stop() {
        let current = state.withLock { state -> AccelerometerReader? in
            state.stopped = true
            return state.current
        }
        current?.stop()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Reads until ``stop()``, reconnecting after the device vanishes or stalls.
    /// - Throws: ``IIOError`` when the first connection fails or access is denied; whatever the
    ///   callbacks throw.
    public func run(onEvent: (Event) throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        var reader: AccelerometerReader? = try AccelerometerReader(uri: uri, device: deviceName, options: options)
        var timeOffset = 0.0
        var lastTime: Double?
        var lostAt: Double?
        var lastArrival: Double?
        var lastRetryKind: String?
        while !isStopped {
            guard let current = reader else {
                // Waiting for the device to come back.
                Thread.sleep(forTimeInterval: retryInterval)
                if isStopped { return }
                do {
                    reader = try AccelerometerReader(uri: uri, device: deviceName, options: options)
                    lastRetryKind = nil
                } catch where error.kind == .permissionDenied {
                    throw error
                } catch {
                    let kind = "\(error.function) \(error.code.rawValue)"
                    if kind != lastRetryKind { try onEvent(.retryFailed(error)) }
                    lastRetryKind = kind
                }
                continue
            }
            let stopNow = state.withLock { state -> Bool in
                state.current = current
                return state.stopped
            }
            if stopNow { return }
            try onEvent(.connected(current.device, rateHertz: current.rateHertz, mode: current.mode))
            var firstOfConnection = true
            do {
                try current.run { sample in
                    var shifted = sample
                    if firstOfConnection, let lastTime, let lostAt {
                        // Continue the clock: the outage's length, at least one sample period.
                        let outage = max(1 / current.rateHertz, AccelerometerReader.monotonicSeconds() - lostAt)
                        timeOffset = lastTime + outage - sample.time
                        state.withLock { $0.timeOffset = timeOffset }
                    }
                    firstOfConnection = false
                    shifted.time += timeOffset
                    lastTime = shifted.time
                    lastArrival = AccelerometerReader.monotonicSeconds()
                    try onSample(shifted)
                }
                return
            } catch let error as IIOError where error.kind == .deviceGone || error.kind == .timedOut {
                lostAt = lastArrival ?? AccelerometerReader.monotonicSeconds()
                state.withLock { state in
                    let stats = current.statistics
                    state.previous.samplesDelivered += stats.samplesDelivered
                    state.previous.reads += stats.reads
                    state.previous.droppedSamples += stats.droppedSamples
                    state.previous.gaps += stats.gaps
                    state.previous.outOfOrderSamples += stats.outOfOrderSamples
                    state.previous.consumerOverruns += stats.consumerOverruns
                    state.previous.lastSampleTime = lastTime
                    state.current = nil
                }
                reader = nil
                try onEvent(.lost(error, time: lastTime))
                if !reconnects { throw error }
            }
        }
    }
}
