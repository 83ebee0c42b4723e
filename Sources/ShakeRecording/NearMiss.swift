import ShakeDetection

/// A chain of linked half-waves that did not become a shake, and why: what `shake replay
/// --explain` lists, to see why a shake was missed or how close a motion came to being one.
/// Times in seconds, accelerations in m/s² with gravity removed.
public struct NearMiss: Sendable, Equatable {
    /// The chain's half-waves, in order (each after the first linked to the one before it).
    public var halfWaves: [ShakeExplanation.HalfWave]
    /// The last time a shake was refused although the chain was long enough
    /// (`minimumHalfWaves`), with the rule that refused it; nil when it never was that long.
    public var refusal: ShakeExplanation.Refusal?
    /// How the chain ended.
    public var end: End

    public enum End: Sendable, Equatable {
        /// This half-wave came next and did not link (its `link` says why): it started a new chain.
        case broken(by: ShakeExplanation.HalfWave)
        /// The recording ended first.
        case recordingEnded
    }

    /// Start of the first half-wave, s.
    public var startTime: Double { halfWaves.first?.startTime ?? 0 }
    /// Peak of the last half-wave, s.
    public var lastPeakTime: Double { halfWaves.last?.peakTime ?? 0 }

    public init(halfWaves: [ShakeExplanation.HalfWave], refusal: ShakeExplanation.Refusal?, end: End) {
        self.halfWaves = halfWaves
        self.refusal = refusal
        self.end = end
    }
}

/// Builds near misses from what `ShakeDetector.process(_:explanation:)` reports, sample by
/// sample: keeps the current chain (its half-waves and its last refusal) and closes it when a
/// half-wave does not link. A chain that began a shake is not a near miss; neither is a lone
/// half-wave that linked to nothing and was never refused.
public struct NearMissCollector: Sendable {
    private var chain: [ShakeExplanation.HalfWave] = []
    private var refusal: ShakeExplanation.Refusal?
    private var becameShake = false
    /// The near misses closed so far, in time order.
    public private(set) var nearMisses: [NearMiss] = []

    public init() {}

    /// Takes in one sample's explanation and event.
    public mutating func add(_ explanation: ShakeExplanation, event: ShakeEvent?) {
        if let halfWave = explanation.halfWave {
            if case .linked = halfWave.link {
                chain.append(halfWave)
            } else {
                close(.broken(by: halfWave))
                chain = [halfWave]
            }
        }
        if let refused = explanation.refusal { refusal = refused }
        if event?.phase == .began { becameShake = true }
    }

    /// Closes the chain in progress at the end of the recording; returns every near miss.
    public mutating func finish() -> [NearMiss] {
        close(.recordingEnded)
        chain = []
        return nearMisses
    }

    private mutating func close(_ end: NearMiss.End) {
        if !becameShake && (chain.count >= 2 || refusal != nil) {
            nearMisses.append(NearMiss(halfWaves: chain, refusal: refusal, end: end))
        }
        refusal = nil
        becameShake = false
    }
}

extension RecordingReplay {
    /// Replays `path` like `run`, through a `ShakeDetector` with `configuration`, and also
    /// returns the near misses: the chains of linked half-waves that did not become a shake
    /// (`NearMiss`). The events are the same as `run`'s.
    public static func runExplaining(
        path: String, options: CSVImportOptions = .canonical, configuration: ShakeConfiguration,
        readAhead: Bool = false
    ) throws -> (result: Result, nearMisses: [NearMiss]) {
        var detector = ShakeDetector(configuration: configuration)
        var replay = Accumulator()
        var collector = NearMissCollector()
        func add(_ labelledSample: LabeledSample) {
            var explanation = ShakeExplanation()
            let event = detector.process(labelledSample.sample, explanation: &explanation)
            replay.record(labelledSample, event: event)
            collector.add(explanation, event: event)
        }
        if readAhead {
            let reader = RecordingReadAhead(path: path, options: options)
            while let batch = try reader.next() {
                for labelledSample in batch { add(labelledSample) }
            }
        } else {
            var reader = try RecordingReader(path: path, options: options)
            while let labelledSample = try reader.next() { add(labelledSample) }
        }
        if let last = replay.last, let event = detector.interrupt(at: last) { replay.events.append(event) }
        let result = Result(
            path: path, events: replay.events, outcome: replay.labelled == true ? replay.scorer.outcome() : nil,
            sampleCount: replay.count, startTime: replay.first, endTime: replay.last)
        return (result, collector.finish())
    }
}
