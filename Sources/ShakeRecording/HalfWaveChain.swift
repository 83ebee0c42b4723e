import ShakeDetection

/// A chain of linked half-waves as the detector saw it, and how it ended: what `shake replay
/// --explain` lists (the near misses) and what `shake evaluate --list` explains a missed shake
/// with. Times in seconds, accelerations in m/s² with gravity removed.
public struct HalfWaveChain: Sendable, Equatable {
    /// The chain's half-waves, in order (each after the first linked to the one before it).
    public var halfWaves: [ShakeExplanation.HalfWave]
    /// The last time a shake was refused although the chain was long enough
    /// (`minimumHalfWaves`), with the rule that refused it; nil when that never happened.
    public var refusal: ShakeExplanation.Refusal?
    /// Every rule that refused the chain, each with the first time it did, in the order first
    /// met (`refusal`'s rule among them; empty when never refused). A chain may meet one rule
    /// at its fourth half-wave and another later, as it goes on and changes: `refusal` alone
    /// names only the later.
    public var firstRefusals: [ShakeExplanation.Refusal]
    /// How the chain ended.
    public var end: End
    /// What step 4's rules measured when the chain began a shake; nil when it did not.
    public var began: ShakeExplanation.Began?
    /// When the chain began a shake (the `began` event's time); nil when it did not.
    public var shakeBegan: Double? { began?.time }
    /// Whether the chain was formed while a shake begun by an earlier chain was in progress (the
    /// shake went on through a stroke that did not link): part of that shake, not a near miss.
    public var withinShake: Bool

    public enum End: Sendable, Equatable {
        /// This half-wave came next and did not link (its `link` says why): it started a new chain.
        case broken(by: ShakeExplanation.HalfWave)
        /// The recording ended first.
        case recordingEnded
        /// The shake in progress ended or was cancelled first. The detector then starts afresh,
        /// except after a cancellation as too long: its own chain goes on, from the cancelled
        /// shake's start, until the motion pauses, so the next chain collected here (a near miss
        /// refused as `pauseNeeded`) is only the part after the cancellation.
        case shakeEnded
    }

    /// Start of the first half-wave, s. A chain of none is known only by its refusal (one
    /// refused for want of a pause after a shake cancelled as too long, before a half-wave of
    /// its own: see `End.shakeEnded`): the refusal's time.
    public var startTime: Double { halfWaves.first?.startTime ?? refusal?.time ?? 0 }
    /// Peak of the last half-wave, s; the refusal's time for a chain of none (see `startTime`).
    public var lastPeakTime: Double { halfWaves.last?.peakTime ?? refusal?.time ?? 0 }

    /// A near miss: it did not begin a shake nor belong to one, and it linked two or more
    /// half-waves or was refused.
    public var isNearMiss: Bool { shakeBegan == nil && !withinShake && (halfWaves.count >= 2 || refusal != nil) }

    /// `firstRefusals` nil: the chain met one rule only, `refusal`'s, first at `refusal`.
    public init(
        halfWaves: [ShakeExplanation.HalfWave], refusal: ShakeExplanation.Refusal?,
        firstRefusals: [ShakeExplanation.Refusal]? = nil, end: End,
        began: ShakeExplanation.Began? = nil, withinShake: Bool = false
    ) {
        self.halfWaves = halfWaves
        self.refusal = refusal
        self.firstRefusals = firstRefusals ?? (refusal.map { [$0] } ?? [])
        self.end = end
        self.began = began
        self.withinShake = withinShake
    }
}

/// Builds the chains from what `ShakeDetector.process(_:explanation:)` reports, sample by
/// sample: keeps the current chain (its half-waves, its refusals, its `began`) and closes it
/// when a half-wave does not link.
public struct HalfWaveChainCollector: Sendable {
    private var halfWaves: [ShakeExplanation.HalfWave] = []
    private var refusal: ShakeExplanation.Refusal?
    private var firstRefusals: [ShakeExplanation.Refusal] = []
    private var began: ShakeExplanation.Began?
    /// Whether a shake is in progress (known from the events passed to `add`).
    private var shaking = false
    /// Every chain closed so far, in time order, lone half-waves and shakes included.
    public private(set) var chains: [HalfWaveChain] = []

    public init() {}

    /// Takes in one sample's explanation and the event the detector returned with it.
    ///
    /// Without the events, a chain cut short by the end of a shake is closed by the next
    /// half-wave (which has `.nothingBefore`), and a chain formed inside a shake counts as a near
    /// miss.
    public mutating func add(_ explanation: ShakeExplanation, event: ShakeEvent? = nil) {
        if let halfWave = explanation.halfWave {
            if case .linked = halfWave.link {
                halfWaves.append(halfWave)
            } else {
                close(.broken(by: halfWave))
                halfWaves = [halfWave]
            }
        }
        if let refused = explanation.refusal {
            refusal = refused
            if !firstRefusals.contains(where: { $0.reason.isSameRule(as: refused.reason) }) {
                firstRefusals.append(refused)
            }
        }
        if let began = explanation.began { self.began = began }
        switch event?.phase {
        case .began?:
            shaking = true
        case .ended?, .cancelled?:
            close(.shakeEnded)
            halfWaves = []
            shaking = false
        case nil:
            break
        }
    }

    /// Removes and returns the chains closed so far, for a long or endless stream (`shake live
    /// --explain`), so that they are not all kept.
    public mutating func removeClosedChains() -> [HalfWaveChain] {
        defer { chains = [] }
        return chains
    }

    /// Closes the chain in progress at the end of the recording; returns every chain.
    public mutating func finish() -> [HalfWaveChain] {
        close(.recordingEnded)
        halfWaves = []
        return chains
    }

    private mutating func close(_ end: HalfWaveChain.End) {
        if !halfWaves.isEmpty || refusal != nil {
            chains.append(HalfWaveChain(
                halfWaves: halfWaves, refusal: refusal, firstRefusals: firstRefusals, end: end, began: began,
                withinShake: shaking && began == nil))
        }
        refusal = nil
        firstRefusals = []
        began = nil
    }
}

/// Why a labelled shake was missed: how strong the motion got, and the chains the detector
/// formed around it. For `shake evaluate --list`.
public struct MissedShakeExplanation: Sendable, Equatable {
    public var shake: LabeledShake
    /// The largest `|l|` (linear acceleration, gravity removed and smoothed: what the thresholds
    /// see) during the labelled shake, m/s². Under `onsetAcceleration`, no half-wave could start.
    public var largestLinearAcceleration: Double
    /// The chains with a half-wave that peaked within the shake's evaluation window (from
    /// `ShakeScorer.matchToleranceSeconds` before its start to as long after its end), in time
    /// order, lone half-waves included. A chain that began a shake did so outside the window, or
    /// its detection went to an earlier labelled shake whose window overlaps this one.
    public var chains: [HalfWaveChain]

    public init(shake: LabeledShake, largestLinearAcceleration: Double, chains: [HalfWaveChain]) {
        self.shake = shake
        self.largestLinearAcceleration = largestLinearAcceleration
        self.chains = chains
    }

    /// The chain that came closest: the one that began a shake (late) if any, else the one
    /// with the most half-waves (a refused one first when equal, then the earliest).
    public var closestChain: HalfWaveChain? {
        if let late = chains.first(where: { $0.shakeBegan != nil }) { return late }
        return chains.max { a, b in
            (a.halfWaves.count, a.refusal == nil ? 0 : 1, -a.startTime)
                < (b.halfWaves.count, b.refusal == nil ? 0 : 1, -b.startTime)
        }
    }
}

extension RecordingReplay {
    /// What `runExplaining` returns.
    public struct Explained: Sendable {
        /// The same as `run`'s.
        public var result: Result
        /// The chains that did not become a shake but linked two or more half-waves or were
        /// refused (`HalfWaveChain.isNearMiss`), in time order.
        public var nearMisses: [HalfWaveChain]
        /// One per missed labelled shake (`result.details.missed`), in the same order; empty for
        /// an unlabelled recording.
        public var missedShakes: [MissedShakeExplanation]
        /// The chains that began a shake (`HalfWaveChain.began`), in time order: what the rules
        /// measured for each detection, false shakes included.
        public var shakes: [HalfWaveChain]
        /// The largest |l| (the acceleration with gravity removed and smoothed, as the detector
        /// measures it) over the whole recording, m/s², and the time it was reached, s (nil
        /// without samples): under `onsetAcceleration`, no half-wave could open.
        public var largestLinearAcceleration: (magnitude: Double, time: Double)?
        /// With `spreadingBatches`, how many sample times the `BatchTimeSpreader` moved; nil
        /// without.
        public var spreadSamples: Int?

        /// The chain whose shake began at `time` (a `began` event's time), if any.
        public func shake(beganAt time: Double) -> HalfWaveChain? {
            shakes.first { $0.shakeBegan == time }
        }
    }

    /// Replays `path` like `run`, through a `ShakeDetector` with `configuration`, and also
    /// explains what the detector did: the near misses, and why each missed labelled shake was
    /// missed. The events are the same as `run`'s. Keeps every chain of the recording (lone
    /// half-waves included) until the end: memory grows with the half-waves, not the samples.
    ///
    /// With `spreadingBatches`, the samples go through a `BatchTimeSpreader` first, as in `run`
    /// with a `BatchSpreadingDetector`: the events, chains, half-waves and labels are timed by
    /// the spread times (the gaps and the time span stay the file's own).
    public static func runExplaining(
        path: String, options: CSVImportOptions = .canonical, configuration: ShakeConfiguration,
        readAhead: Bool = false, spreadingBatches: Bool = false
    ) throws(RecordingError) -> Explained {
        var detector = BatchSpreadingDetector(ShakeDetector(configuration: configuration))
        var replay = Accumulator(gapLimit: configuration.maximumGapSeconds)
        var collector = HalfWaveChainCollector()
        // The largest |l| of each labelled run, by the run's start time (as the scorer times it).
        var largest: [Double: Double] = [:]
        var largestOverall: (magnitude: Double, time: Double)?
        var runStart: Double?
        func add(_ labelledSample: LabeledSample) {
            var explanation = ShakeExplanation()
            let given = spreadingBatches ? detector.spread(labelledSample.sample) : labelledSample.sample
            let event = detector.detector.process(given, explanation: &explanation)
            replay.record(labelledSample, event: event, scoredAt: given.time)
            collector.add(explanation, event: event)
            let l = detector.detector.linearAcceleration
            let magnitude = (l.x * l.x + l.y * l.y + l.z * l.z).squareRoot()
            if magnitude > largestOverall?.magnitude ?? -1 { largestOverall = (magnitude, given.time) }
            guard labelledSample.isShake == true else {
                runStart = nil
                return
            }
            let start = runStart ?? given.time
            runStart = start
            largest[start] = max(largest[start] ?? 0, magnitude)
        }
        if readAhead {
            let reader = RecordingReadAhead(path: path, options: options)
            while let batch = try reader.next() {
                for labelledSample in batch { add(labelledSample) }
            }
            replay.readerCounts = reader.timeCounts
            replay.fileHasLabels = reader.hasLabels
            replay.early.gravityFreeExport = reader.gravityFreeExport
        } else {
            var reader = try RecordingReader(path: path, options: options)
            while let labelledSample = try reader.next() { add(labelledSample) }
            replay.readerCounts = (reader.duplicateTimestampCount, reader.largestTimeGap)
            replay.fileHasLabels = reader.hasLabels
            replay.early.gravityFreeExport = reader.earlyMagnitude.gravityFreeExport
        }
        let result = replay.finish(path: path, interrupting: &detector)
        let chains = collector.finish()
        let tolerance = ShakeScorer.matchToleranceSeconds
        let missed = (result.details?.missed ?? []).map { shake in
            MissedShakeExplanation(
                shake: shake, largestLinearAcceleration: largest[shake.start] ?? 0,
                chains: chains.filter { chain in
                    chain.halfWaves.contains {
                        $0.peakTime >= shake.start - tolerance && $0.peakTime <= shake.end + tolerance
                    }
                })
        }
        return Explained(result: result, nearMisses: chains.filter(\.isNearMiss), missedShakes: missed,
                         shakes: chains.filter { $0.began != nil }, largestLinearAcceleration: largestOverall,
                         spreadSamples: spreadingBatches ? detector.spreader.spreadSamples : nil)
    }
}
