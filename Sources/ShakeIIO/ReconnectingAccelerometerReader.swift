import Dispatch
import ShakeDetection
import ShakeThreads
import Synchronization

/// Reads an accelerometer and, when it vanishes or stalls, waits for it to come back and goes on:
/// for devices that are unplugged and replugged, drivers that are reloaded, or an `iiod` that
/// restarts. With ``reconnects`` a device (or `iiod`) missing at the start is waited for the same
/// way (a service started before the driver or `iiod`).
///
/// Use ``run(onEvent:_:)`` (blocking), ``start(onEvent:onSample:onFinish:)`` (a background
/// thread) or ``updates()`` (an async sequence of samples and events).
///
/// Times stay continuous across reconnections: samples after a reconnection are shifted so that
/// the first one comes the outage's wall-clock length (at least one sample period) after the
/// last one before it. Each outage is reported through `onEvent`, so a detector can be
/// interrupted (`ShakeDetector.interrupt(at:)`) and a recording can note it, and counted in
/// ``statistics`` (``AccelerometerReadStatistics/outages``). A device that opens but delivers
/// nothing (a stalled sensor) is one outage until samples come again: after a loss (or a wait at
/// the start) the connection is reported (``Event/connected(_:rateHertz:mode:mountMatrix:)``)
/// with its first sample, and an attempt that opens the device but gets no sample within
/// ``AccelerometerReadOptions/readTimeout``, or cannot start reading it (its buffer not created:
/// a device back in sysfs before its /dev node), is a failed retry (``Event/retryFailed(_:)``,
/// told once per kind of failure).
///
/// Opening the device runs on a helper thread: ``stop()`` (a signal) ends the wait for it at
/// once, and it is given up after ``AccelerometerReadOptions/readTimeout`` seconds. libiio 0.24
/// cannot bound it itself: its `ip:` backend connects and reads the context with a fixed 5 s
/// timeout (`iio_context_set_timeout` applies only once the context exists). An attempt given
/// up finishes in the background and its context is closed.
///
/// What ends reading: a permission error at the first attempt, or one that lasts
/// ``permissionGraceSeconds`` while waiting for the device to (re)appear (a device that comes
/// back is there before udev has given its files to the group again); at the start, an error
/// waiting cannot fix (``IIOError/mayClearUpByWaiting``: a value that cannot be understood, an
/// unknown URI scheme), and, without ``reconnects``, any.
public final class ReconnectingAccelerometerReader: Sendable {
    /// What happened to the connection.
    public enum Event: Sendable {
        /// Reading started: the device is open and its buffer enabled (or its first poll
        /// answered); after a loss, or a wait at the start, only once its first sample has come
        /// (just before it is handed on). `mountMatrix`: the rotation applied to every sample.
        case connected(AccelerometerDescription, rateHertz: Double, mode: AccelerometerReadOptions.Mode,
                       mountMatrix: MountMatrix)
        /// With ``reconnects``: the device or `iiod` is not there at the start (or the device is,
        /// but reading it cannot start yet: its /dev node not made); waiting for it.
        case waiting(IIOError)
        /// The device vanished or stalled at `time` (seconds, on the samples' clock); retrying.
        case lost(IIOError, time: Double?)
        /// A reconnection attempt failed; retrying after `retryInterval` (reported once per kind of failure).
        case retryFailed(IIOError)
    }

    public let uri: String
    public let deviceName: String?
    public let options: AccelerometerReadOptions
    /// Seconds between reconnection attempts, 0 or more and finite (reading refuses any other
    /// with an ``IIOError`` of kind `.badValue`). Default 0.5 s.
    public let retryInterval: Double
    /// Whether to reconnect at all; when false the first loss ends ``run(onEvent:_:)`` with its
    /// error (after reporting it as ``Event/lost(_:time:)``). Default true.
    public let reconnects: Bool

    /// Seconds a permission error is retried for while waiting for a device to (re)appear: a
    /// device that comes back (or appears at boot) is there before udev has run the rule that
    /// gives its group access (`Scripts/device/60-shakekit-iio.rules`), so the first attempts may
    /// be denied. Past it, the permission error ends reading. One at the first attempt ends it
    /// at once: no rule lets this user in.
    public static let permissionGraceSeconds = 5.0

    private let state = Mutex(State())

    private struct State {
        var stopped = false
        /// `run` is going on (one at a time).
        var running = false
        /// A run has ended since the reader was made: after a stop, no other may begin.
        var ranBefore = false
        var current: AccelerometerReader?
        var previous = AccelerometerReadStatistics()
        /// Seconds added to the current connection's sample times.
        var timeOffset = 0.0
        /// Monotonic time of the last sample before the outage going on, if one is.
        var outageStart: Double?
        /// The device's rate before the first connection set it (see
        /// `AccelerometerReadOptions.rateToRestore`).
        var rateToRestore: Double?
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
                total.clockStepsBack += current.clockStepsBack
                total.spreadSamples += current.spreadSamples
                total.consumerOverruns += current.consumerOverruns
                total.measuredRateHertz = current.measuredRateHertz ?? total.measuredRateHertz
                if let last = current.lastSampleTime { total.lastSampleTime = last + state.timeOffset }
            }
            if let start = state.outageStart {
                total.outages += 1
                total.outageSeconds += AccelerometerReader.monotonicSeconds() - start
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

    /// An update ``updates()`` dropped because its consumer fell behind.
    func countConsumerOverrun() { state.withLock { $0.previous.consumerOverruns += 1 } }

    /// Reads until ``stop()``, reconnecting after the device vanishes or stalls.
    /// - Throws: ``IIOError`` when access is denied, when the first connection fails for good
    ///   (or at all, without ``reconnects``), see the type's discussion; whatever the callbacks throw.
    ///   A second run while one is going on throws (`EBUSY`) and disturbs nothing.
    public func run(onEvent: (Event) throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        try claimRun()
        try runClaimed(onEvent: onEvent, onSample)
    }

    /// Takes the run: throws when one is going on, or `retryInterval` is no time to wait.
    func claimRun() throws(IIOError) {
        guard retryInterval >= 0 && retryInterval.isFinite else {
            // NaN waited for ever after the first failure, saying nothing.
            throw IIOError(code: .invalidArgument, function: "ReconnectingAccelerometerReader.run", uri: uri,
                           device: deviceName,
                           detail: "retryInterval is \(retryInterval) s; it must be 0 s or more, and finite",
                           kind: .badValue)
        }
        let (alreadyRunning, stoppedBefore) = state.withLock { state -> (Bool, Bool) in
            let refused = (state.running, state.stopped && state.ranBefore)
            if !refused.0 && !refused.1 { state.running = true }
            return refused
        }
        guard !alreadyRunning else {
            throw IIOError(code: .busy, function: "ReconnectingAccelerometerReader.run", uri: uri, device: deviceName,
                           detail: "this reader is already reading; create one reader per stream")
        }
        // A stopped reader's stop would end a new run at once, and it would say nothing.
        guard !stoppedBefore else {
            throw IIOError(code: .busy, function: "ReconnectingAccelerometerReader.run", uri: uri, device: deviceName,
                           detail: "this reader was stopped after reading; create a new one to read again")
        }
    }

    /// ``run(onEvent:_:)`` after ``claimRun()``.
    func runClaimed(onEvent: (Event) throws -> Void, _ onSample: (Sample) throws -> Void) throws {
        defer {
            state.withLock { state in
                state.running = false
                state.ranBefore = true
            }
        }
        var pending: ConnectionAttempt?
        defer { endOutage(at: AccelerometerReader.monotonicSeconds()) }
        var reader: AccelerometerReader?
        var lastRetryKind: String?
        /// When the permission errors going on began (monotonic seconds), if they did.
        var deniedSince: Double?
        /// Whether the device was missing or lost since the start: waited for.
        var waited = false
        switch connectResult(&pending) {
        case .success(nil): return
        case .success(let opened): reader = opened
        case .failure(let error):
            guard reconnects && error.mayClearUpByWaiting else { throw error }
            waited = true
            try onEvent(.waiting(error))
            lastRetryKind = Self.retryKind(error)
        }
        var timeOffset = 0.0
        var lastTime: Double?
        var lostAt: Double?
        var lastArrival: Double?
        while !isStopped {
            guard let current = reader else {
                // Waiting for the device to come (back).
                if waitUnlessStopped(retryInterval) {
                    restoreRateWhileWaiting()
                    return
                }
                switch connectResult(&pending) {
                case .success(nil):
                    restoreRateWhileWaiting()
                    return
                case .success(let opened):
                    // (The retry kind is forgotten once reading starts: the buffer may still fail.)
                    reader = opened
                case .failure(let error):
                    // Once the device was there, anything may be its coming back half-way:
                    // retried; a permission error only until udev has had time to apply its rule.
                    if error.kind == .permissionDenied {
                        try checkPermissionGrace(error, since: &deniedSince)
                    } else {
                        deniedSince = nil
                    }
                    let kind = Self.retryKind(error)
                    if kind != lastRetryKind { try onEvent(.retryFailed(error)) }
                    lastRetryKind = kind
                }
                continue
            }
            let stopNow = state.withLock { state -> Bool in
                state.current = current
                if state.rateToRestore == nil { state.rateToRestore = current.rateBefore }
                return state.stopped
            }
            if stopNow { return }
            var firstOfConnection = true
            /// Whether `connected` was told for this connection: as reading starts the first time;
            /// after a loss or a wait, with the first sample (a device still stalled opens, starts
            /// and sends nothing: a failed retry, not a connection lost again).
            var started = false
            func tellConnected() throws {
                started = true
                try onEvent(.connected(current.device, rateHertz: current.rateHertz, mode: current.mode,
                                       mountMatrix: current.mountMatrix))
            }
            do {
                try current.run(onStart: {
                    if !waited { try tellConnected() }
                }) { sample in
                    if !started { try tellConnected() }
                    var shifted = sample
                    if firstOfConnection, let lastTime, let lostAt {
                        // Continue the clock: the outage's length, at least one sample period.
                        let outage = max(1 / current.rateHertz, AccelerometerReader.monotonicSeconds() - lostAt)
                        timeOffset = lastTime + outage - sample.time
                        state.withLock { state in
                            state.timeOffset = timeOffset
                            state.previous.outageSeconds += outage
                            state.previous.outages += 1
                            state.outageStart = nil
                        }
                    }
                    firstOfConnection = false
                    deniedSince = nil
                    lastRetryKind = nil
                    shifted.time += timeOffset
                    lastTime = shifted.time
                    lastArrival = AccelerometerReader.monotonicSeconds()
                    try onSample(shifted)
                }
                return
            } catch let error as IIOError where waited && !started
                        && [.permissionDenied, .deviceGone, .timedOut].contains(error.kind) {
                // Failed before a sample came (the buffer is created in `run`) on a device that
                // was waited for: a failed retry, the outage going on, not another loss. Denied:
                // udev may not have given it to the group yet; gone: it is back in sysfs before
                // its /dev node (udev makes it a moment later), or gone again; timed out: still
                // stalled.
                if error.kind == .permissionDenied {
                    try checkPermissionGrace(error, since: &deniedSince)
                } else {
                    deniedSince = nil
                }
                state.withLock { state in
                    state.previous.reads += current.statistics.reads
                    state.current = nil
                }
                reader = nil
                let kind = Self.retryKind(error)
                if kind != lastRetryKind { try onEvent(.retryFailed(error)) }
                lastRetryKind = kind
            } catch let error as IIOError where reconnects && !waited && !started && error.kind == .deviceGone {
                // The first attempt opened the device but could not start reading it (its sysfs
                // directory is there before its /dev node, at boot): not there yet, as at the
                // start, rather than lost before it was ever read. (A first read that times out
                // is a stall, reported as one: lost.)
                state.withLock { $0.current = nil }
                reader = nil
                waited = true
                try onEvent(.waiting(error))
                lastRetryKind = Self.retryKind(error)
            } catch let error as IIOError where error.kind == .deviceGone || error.kind == .timedOut {
                lostAt = lastArrival ?? AccelerometerReader.monotonicSeconds()
                state.withLock { state in
                    let stats = current.statistics
                    state.previous.samplesDelivered += stats.samplesDelivered
                    state.previous.reads += stats.reads
                    state.previous.droppedSamples += stats.droppedSamples
                    state.previous.gaps += stats.gaps
                    state.previous.outOfOrderSamples += stats.outOfOrderSamples
                    state.previous.clockStepsBack += stats.clockStepsBack
                    state.previous.spreadSamples += stats.spreadSamples
                    state.previous.consumerOverruns += stats.consumerOverruns
                    state.previous.measuredRateHertz = stats.measuredRateHertz ?? state.previous.measuredRateHertz
                    state.previous.lastSampleTime = lastTime
                    state.current = nil
                    // An outage is counted when it is waited for (and a sample came before it).
                    if reconnects && lastTime != nil && state.outageStart == nil { state.outageStart = lostAt }
                }
                reader = nil
                waited = true
                try onEvent(.lost(error, time: lastTime))
                if !reconnects { throw error }
            }
        }
        // Stopped between a loss (or a failed retry) and the wait after it: as in the wait.
        if reader == nil { restoreRateWhileWaiting() }
    }

    /// Stopped while waiting for the device to come back: the reader that set the rate ended in a
    /// failure, which leaves the rate as it was (the device may be gone); a device that is there
    /// (stalled, or back) gets its rate back, as a stop while reading gives it. Waits up to 2 s
    /// (at most the read timeout) for it.
    private func restoreRateWhileWaiting() {
        guard let rate = state.withLock({ $0.rateToRestore }) else { return }
        var options = options
        options.rateHertz = rate
        options.rateToRestore = rate
        // The reader opened sets the rate; never run, it is let go at once.
        _ = ConnectionAttempt(uri: uri, device: deviceName, options: options).result(waiting: min(2, options.readTimeout))
    }

    /// Throws `error`, a permission error while waiting for the device, once such errors have
    /// gone on for ``permissionGraceSeconds``; notes when they began.
    private func checkPermissionGrace(_ error: IIOError, since deniedSince: inout Double?) throws(IIOError) {
        let now = AccelerometerReader.monotonicSeconds()
        if now - (deniedSince ?? now) >= Self.permissionGraceSeconds { throw error }
        deniedSince = deniedSince ?? now
    }

    /// Closes an outage still open when reading ends (stopped while waiting): counted up to `now`.
    private func endOutage(at now: Double) {
        state.withLock { state in
            guard let start = state.outageStart else { return }
            state.previous.outages += 1
            state.previous.outageSeconds += now - start
            state.outageStart = nil
        }
    }

    private static func retryKind(_ error: IIOError) -> String { "\(error.function) \(error.code.rawValue)" }

    /// Sleeps `seconds` unless stopped first; true when stopped.
    private func waitUnlessStopped(_ seconds: Double) -> Bool {
        let deadline = AccelerometerReader.monotonicSeconds() + seconds
        while !isStopped {
            let remaining = deadline - AccelerometerReader.monotonicSeconds()
            if remaining <= 0 { return false }
            NamedThread.sleep(seconds: min(0.02, remaining))
        }
        return true
    }

    private func connectResult(_ pending: inout ConnectionAttempt?) -> Result<AccelerometerReader?, IIOError> {
        do throws(IIOError) {
            return .success(try connect(&pending))
        } catch {
            return .failure(error)
        }
    }

    /// Opens the device on a helper thread; nil when stopped first.
    /// - Parameter pending: an attempt given up earlier that is still running: waited for
    ///   again rather than starting a second one beside it.
    /// - Throws: the attempt's ``IIOError``; `.timedOut` when it takes longer than
    ///   ``AccelerometerReadOptions/readTimeout``.
    private func connect(_ pending: inout ConnectionAttempt?) throws(IIOError) -> AccelerometerReader? {
        var options = options
        options.rateToRestore = state.withLock { $0.rateToRestore }
        let attempt = pending ?? ConnectionAttempt(uri: uri, device: deviceName, options: options)
        pending = nil
        let deadline = AccelerometerReader.monotonicSeconds() + options.readTimeout
        while true {
            if let result = attempt.result(waiting: 0.02) { return try result.get() }
            if isStopped { return nil }
            if AccelerometerReader.monotonicSeconds() >= deadline {
                pending = attempt
                let waited = "within \(options.readTimeout) s (the read timeout)"
                throw IIOError(
                    code: .timedOut, function: "iio_create_context_from_uri", uri: uri, device: deviceName,
                    detail: uri.hasPrefix("ip:")
                        ? "iiod at \(uri.dropFirst(3)) did not give the context \(waited): is it hung, or the host overloaded?"
                        : "libiio did not open the context \(waited)",
                    kind: .timedOut)
            }
        }
    }
}

/// One `AccelerometerReader` being created on its own thread.
private final class ConnectionAttempt: Sendable {
    private let slot = Mutex<Result<AccelerometerReader, IIOError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(uri: String, device: String?, options: AccelerometerReadOptions) {
        NamedThread.start("shake.iio-conn") { [self] in
            let result: Result<AccelerometerReader, IIOError>
            do throws(IIOError) {
                result = .success(try AccelerometerReader(uri: uri, device: device, options: options))
            } catch {
                result = .failure(error)
            }
            slot.withLock { $0 = result }
            done.signal()
        }
    }

    /// The outcome, waiting up to `seconds` for it; nil while still connecting. Once taken, the
    /// outcome is gone (the caller owns the reader).
    func result(waiting seconds: Double) -> Result<AccelerometerReader, IIOError>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return slot.withLock { slot in
            defer { slot = nil }
            return slot
        }
    }
}

extension ReconnectingAccelerometerReader.Event: CustomStringConvertible {
    /// One line for a log: `connected to lis3dh at 100 Hz (buffered)`, `lost at 12.340 s: …`,
    /// with the error's own description (which names the function, device and attribute).
    public var description: String {
        switch self {
        case .connected(let device, let rate, let mode, let matrix):
            let rotated = matrix.isIdentity ? "" : ", mount matrix applied"
            let hertz = rate.rounded() == rate && abs(rate) < 1e15 ? String(Int64(rate)) : String(rate)
            return "connected to \(device.displayName) at \(hertz) Hz (\(mode.rawValue)\(rotated))"
        case .waiting(let error): return "waiting: \(error)"
        case .lost(let error, let time):
            return "lost\(time.map { " at " + Self.milliseconds($0) + " s" } ?? ""): \(error)"
        case .retryFailed(let error): return "retry failed: \(error)"
        }
    }

    /// `seconds` with three decimals, `12.340` (as `%.3f`, without Foundation).
    static func milliseconds(_ seconds: Double) -> String {
        let thousandths = (abs(seconds) * 1000).rounded()
        guard seconds.isFinite, thousandths < 1e15 else { return "\(seconds)" }
        let count = Int64(thousandths)
        let fraction = String(count % 1000)
        return (seconds < 0 && count != 0 ? "-" : "") + "\(count / 1000)."
            + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
