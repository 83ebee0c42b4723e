/// Delivers feedback to several sinks at once, following the feedback rules:
///
/// - **Never haptic alone.** The sinks together must reach the visual or audible mode; haptics
///   only supplement them (`init` refuses haptic-only configurations). A visual-only
///   configuration is accepted: the screen is the baseline.
/// - **Prepared first.** `deliver` requires a `prepare()` since the previous delivery; a
///   preparation is used up by one delivery. Prepare shortly before the feedback is expected,
///   for shake to undo when the shake *begins*, so the feedback is ready when it *ends*.
/// - **Only for user-initiated actions.** The caller says so with `initiatedByUser:`;
///   feedback for anything else is refused.
/// - **Judiciously.** The same type is delivered at most once per `minimumIntervalSeconds`
///   (default 0.5 s); a second request within the interval is refused. Time is passed in
///   explicitly (seconds, any origin, the same clock as the shake events); there is no hidden
///   clock. A time earlier than a type's last delivery means the clock started again (a new
///   reader's times start at 0): it is not within the interval, and the new clock's deliveries
///   are limited among themselves.
///
/// Non-`Sendable`: use it from one isolation domain, with the `ShakeToUndo` that drives it.
public final class FeedbackCenter {
    /// The sinks, in delivery order.
    public let sinks: [any FeedbackSink]
    /// The modes the sinks reach together.
    public let modes: Set<FeedbackMode>
    /// Shortest time between two deliveries of the same type, s. Default 0.5.
    public let minimumIntervalSeconds: Double

    /// True after `prepare()` until the next delivery.
    public private(set) var isPrepared = false
    private var lastDeliveryTime: [FeedbackType: Double] = [:]

    /// - Parameters:
    ///   - sinks: the sinks; together they must reach `visual` or `audible`.
    ///   - minimumIntervalSeconds: shortest time between two deliveries of one type, s; default 0.5.
    /// - Throws: `FeedbackConfigurationError.noModes` when the sinks reach no mode;
    ///   `.hapticAlone` when they reach only `haptic`;
    ///   `.invalidInterval` when the interval is negative or not finite.
    public init(
        sinks: [any FeedbackSink], minimumIntervalSeconds: Double = 0.5
    ) throws(FeedbackConfigurationError) {
        let modes = sinks.reduce(into: Set<FeedbackMode>()) { $0.formUnion($1.modes) }
        if modes.isEmpty { throw .noModes }
        if modes == [.haptic] { throw .hapticAlone }
        guard minimumIntervalSeconds.isFinite, minimumIntervalSeconds >= 0 else {
            throw .invalidInterval(minimumIntervalSeconds)
        }
        self.sinks = sinks
        self.modes = modes
        self.minimumIntervalSeconds = minimumIntervalSeconds
    }

    /// Asks every sink to get ready; the next `deliver` may then go out.
    public func prepare() {
        for sink in sinks { sink.prepare() }
        isPrepared = true
    }

    /// Delivers `type` to every sink, if the rules allow it (checked in this order: user
    /// initiated, prepared, rate limit).
    ///
    /// - Parameters:
    ///   - type: the feedback type, used as intended.
    ///   - time: now, s (same clock as the shake events); a NaN or infinite time is delivered
    ///     as the other rules allow, but not counted for the rate limit.
    ///   - initiatedByUser: whether the feedback answers something the user did. Must be true.
    /// - Returns: what happened; only `.delivered` reaches the sinks and uses up the preparation.
    @discardableResult
    public func deliver(_ type: FeedbackType, at time: Double, initiatedByUser: Bool) -> FeedbackResult {
        guard initiatedByUser else { return .notUserInitiated }
        guard isPrepared else { return .notPrepared }
        // Earlier than the last delivery: the clock started again, not a delivery too soon.
        if let last = lastDeliveryTime[type], time >= last, time - last < minimumIntervalSeconds {
            return .rateLimited(nextAllowedTime: last + minimumIntervalSeconds)
        }
        // A time that is not finite is no time: delivered, but not kept (kept, a NaN made the
        // next delivery look like a new clock's, and let it through within the interval).
        if time.isFinite { lastDeliveryTime[type] = time }
        isPrepared = false
        for sink in sinks { sink.deliver(type) }
        return .delivered(modes)
    }
}

/// The answer of `FeedbackCenter.deliver(_:at:initiatedByUser:)`.
public enum FeedbackResult: Sendable, Hashable {
    /// Delivered to every sink, reaching these modes.
    case delivered(Set<FeedbackMode>)
    /// Refused: the feedback did not answer a user-initiated action.
    case notUserInitiated
    /// Refused: `prepare()` was not called since the last delivery.
    case notPrepared
    /// Refused: the same type was delivered less than the minimum interval ago; it may go out
    /// again from `nextAllowedTime` (s).
    case rateLimited(nextAllowedTime: Double)
}

/// Why a `FeedbackCenter` configuration was refused.
public enum FeedbackConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sinks reach no mode at all.
    case noModes
    /// The sinks reach only the haptic mode; pair it with visual or audible cues.
    case hapticAlone
    /// The minimum interval (s) is negative or not finite.
    case invalidInterval(Double)

    public var description: String {
        switch self {
        case .noModes:
            "feedback sinks reach no mode; give at least one visual or audible sink"
        case .hapticAlone:
            "haptic feedback alone is refused: pair it with a visual or audible sink"
        case .invalidInterval(let seconds):
            "minimum feedback interval must be a finite number of seconds >= 0, got \(seconds)"
        }
    }
}
