import ShakeDetection

/// A deterministic generator of labelled accelerometer recordings from scripted motion.
///
/// ```swift
/// let samples = try Synthesizer(seed: 7).render(
///     script: [.rest(seconds: 2, orientation: .handheld, held: true),
///              .shake(frequencyHertz: 5, amplitudeG: 2.5, axis: .x, cycles: 10),
///              .rest(seconds: 2, held: true)],
///     sensor: SensorModel(rateHertz: 100, jitterFraction: 0.1))
/// ```
///
/// The same seed, script and sensor give bit-identical samples on every run and machine: all
/// randomness comes from the synthesizer's own generator (xoshiro256**), in three independent
/// streams: the motion (stream 0, drawn once per script, so the same script rendered at two
/// rates is the same motion), the timing jitter (1) and the noise (2). Samples with a time inside
/// a `shake` segment are labelled `isShake == true`, all others `false`.
public struct Synthesizer: Sendable {
    /// The seed of every random choice.
    public var seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// All samples of `script` read through `sensor`.
    ///
    /// - Throws: `SynthesisError` naming the segment and parameter out of range.
    /// - Complexity: O(duration · rate) time and memory.
    public func render(
        script: [MotionSegment], sensor: SensorModel = SensorModel()
    ) throws(SynthesisError) -> [LabeledSample] {
        Array(try samples(script: script, sensor: sensor))
    }

    /// The samples of `script` read through `sensor`, generated lazily one at a time.
    ///
    /// - Throws: `SynthesisError` naming the segment and parameter out of range.
    /// - Complexity: O(script) to lay out; then O(log segments) per sample, constant memory.
    public func samples(script: [MotionSegment], sensor: SensorModel = SensorModel()) throws(SynthesisError)
        -> SynthesizedRecording
    {
        try sensor.validate()
        return SynthesizedRecording(timeline: try SynthTimeline(script: script, seed: seed), sensor: sensor, seed: seed)
    }
}

/// The samples of a script read through a sensor, as a lazy sequence (see `Synthesizer`).
public struct SynthesizedRecording: Sequence, Sendable {
    let timeline: SynthTimeline
    /// The sensor the motion is read through.
    public let sensor: SensorModel
    let seed: UInt64

    /// Length of the script, s. Samples lie in `sensor.startTime ..< sensor.startTime + duration`.
    public var duration: Double { timeline.duration }

    /// Number of samples, at least (exactly, without jitter; with it, at most one less).
    public var underestimatedCount: Int {
        // Sample n is produced when its offset `(n + jitterFraction · u) / rateHertz`, u in
        // [0, 1), and every offset before it lie below `duration` (`Iterator.next()`). Offsets
        // grow with n, and each is at most `(n + jitterFraction) / rateHertz` as computed here
        // (rounding is monotonic), which without jitter is the iterator's own computation: so
        // the count is the first n whose bound reaches `duration`, found from the real-number
        // estimate by stepping over the few values that rounding can move across it.
        let rate = sensor.rateHertz
        let jitter = sensor.jitterFraction
        let duration = duration
        func surelyProduced(_ n: Int) -> Bool { (Double(n) + jitter) / rate < duration }
        let estimate = (duration * rate - jitter).rounded(.up)
        var count = estimate > 0 ? Int(Swift.min(estimate, 0x1p52)) : 0
        while count > 0, !surelyProduced(count - 1) { count -= 1 }
        while surelyProduced(count) { count += 1 }
        return count
    }

    public func makeIterator() -> Iterator {
        Iterator(recording: self)
    }

    /// Produces one `LabeledSample` per call.
    public struct Iterator: IteratorProtocol {
        private let timeline: SynthTimeline
        private let sensor: SensorModel
        private var index = 0
        private var jitter: SynthRandom
        private var noise: SynthRandom
        /// Offsets of the points averaged within one interval, s.
        private let averagingOffsets: [Double]
        private let clipLimit: Double?

        init(recording: SynthesizedRecording) {
            timeline = recording.timeline
            sensor = recording.sensor
            jitter = SynthRandom(seed: recording.seed, stream: 1)
            noise = SynthRandom(seed: recording.seed, stream: 2)
            let interval = 1 / sensor.rateHertz
            if sensor.averagesOverInterval {
                // About one point per millisecond, 2 to 40 points.
                let count = Swift.min(40, Swift.max(2, Int((interval / 0.001).rounded(.up))))
                averagingOffsets = (0..<count).map { (index: Int) -> Double in
                    let fraction = (Double(index) + 0.5) / Double(count)
                    return fraction * interval - interval / 2
                }
            } else {
                averagingOffsets = [0]
            }
            // With quantisation the largest output is the last whole step within the range.
            let step = sensor.quantizationStep
            clipLimit = sensor.clipG.map { clipG in
                let limit = clipG * standardGravity
                guard let step else { return limit }
                return (limit / step).rounded(.down) * step
            }
        }

        public mutating func next() -> LabeledSample? {
            let offset = (Double(index) + sensor.jitterFraction * jitter.unit()) / sensor.rateHertz
            guard offset < timeline.duration else { return nil }
            index += 1
            // Whole microseconds, as recordings are written; jitter ≤ 0.9 keeps them increasing.
            let motionTime = (offset * 1e6).rounded() / 1e6
            var value = SIMD3<Double>(0, 0, 0)
            for averagingOffset in averagingOffsets {
                value += timeline.reading(at: motionTime + averagingOffset)
            }
            value /= Double(averagingOffsets.count)
            value += SIMD3(noise.gaussian(), noise.gaussian(), noise.gaussian()) * sensor.noiseRMS
            if let step = sensor.quantizationStep {
                value = (value / step).rounded(.toNearestOrEven) * step
            }
            if let clipLimit {
                value = value.clamped(lowerBound: SIMD3(repeating: -clipLimit), upperBound: SIMD3(repeating: clipLimit))
            }
            let time = ((sensor.startTime + motionTime) * 1e6).rounded() / 1e6
            return LabeledSample(
                sample: Sample(time: time, x: value.x, y: value.y, z: value.z),
                isShake: timeline.isShake(at: motionTime))
        }
    }
}
