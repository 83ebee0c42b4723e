/// Times the samples of a buffered device without a timestamp channel, which carry no time of
/// their own, from their count and the arrival of the refills that bring them.
///
/// Arrival alone times them badly: a reader that pauses (a slow consumer, the process
/// descheduled) then reads a backlog of refills at once, and their samples, each refill timed
/// back from its arrival, came bunched together or no later than those before (which were then
/// discarded). Instead the samples follow on from one another a sample period apart (from the
/// first refill's arrival, its last sample then, the ones before a period apart), kept within
/// what the arrival clock allows:
/// - never after the refill arrived: samples that would be (a device faster than its rate says)
///   are spread evenly from the sample before to the arrival, at least half a period apart;
/// - never earlier than a full backlog before it (``backlogSeconds``: the kernel buffer and the
///   refill being read): samples that would be (samples lost as the kernel buffer overflowed, or
///   a device slower than its rate says) are moved forward to that bound, the time jumping
///   over the loss (which the reader then counts as dropped);
/// - a refill that came as it was measured (0.5 to 1.5 of its duration after the one before:
///   neither from a backlog nor after a pause) whose last sample would be more than the
///   refill's duration before its arrival (a device slower than its rate says, samples lost)
///   gets its samples up to 1.1 periods apart until it is no more, so that a slow clock is
///   followed without jumps that would count as drops.
///
/// A backlog shorter than ``backlogSeconds`` leaves the times as counted; samples lost within it
/// are not seen (their time is taken by the samples after them, which come at most
/// ``backlogSeconds`` late and catch up by a tenth of a period a sample). When the rate is not
/// known (``periodSeconds`` nil: the device has no `sampling_frequency` and none was given) each
/// refill's samples are spread evenly from the sample before to its arrival. Times are monotonic
/// seconds, as the arrivals given.
struct SampleCountClock {
    /// The sample period, s; nil when the rate is not known.
    let periodSeconds: Double?
    /// The longest a sample can have waited unread, s: the device's kernel buffer
    /// (`buffer/length` samples) and one refill, at the rate.
    let backlogSeconds: Double
    /// The period assumed for the first refill when the rate is not known, s.
    let guessedPeriodSeconds: Double

    /// The time of the last sample timed, and the arrival of its refill.
    private var last: Double?
    private var lastReceived = 0.0

    init(periodSeconds: Double?, backlogSeconds: Double, guessedPeriodSeconds: Double) {
        self.periodSeconds = periodSeconds
        self.backlogSeconds = backlogSeconds
        self.guessedPeriodSeconds = guessedPeriodSeconds
    }

    /// The times of a refill of `count` samples (at least 1) that arrived at `received`:
    /// `first + i · step` for the sample at `i`.
    /// - Complexity: O(1).
    mutating func refill(of count: Int, receivedAt received: Double) -> (first: Double, step: Double) {
        let samples = Double(max(1, count))
        defer { lastReceived = received }
        guard let last else {
            let period = periodSeconds ?? guessedPeriodSeconds
            self.last = received
            return (received - (samples - 1) * period, period)
        }
        guard let period = periodSeconds else { return spread(samples, from: last, to: received, minimum: 0) }
        var first = last + period
        var step = period
        let lag = received - (first + (samples - 1) * period)
        let sinceLast = (received - lastReceived) / (samples * period)
        let cameAsMeasured = sinceLast >= 0.5 && sinceLast <= 1.5
        if lag < 0 {
            return spread(samples, from: last, to: received, minimum: 0.5 * period)
        } else if lag > backlogSeconds {
            first += lag - backlogSeconds
        } else if cameAsMeasured && lag > samples * period {
            step = min(1.1 * period, period + (lag - samples * period) / samples)
            first = last + step
        }
        self.last = first + (samples - 1) * step
        return (first, step)
    }

    /// `samples` times evenly from after `last` to `received`, at least `minimum` apart (and
    /// never 0 apart).
    private mutating func spread(_ samples: Double, from last: Double, to received: Double,
                                 minimum: Double) -> (first: Double, step: Double) {
        var step = max((received - last) / samples, minimum)
        if !(step > 0) { step = guessedPeriodSeconds }
        self.last = last + samples * step
        return (last + step, step)
    }
}
