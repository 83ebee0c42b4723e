import ShakeDetection

/// Streams a recording through a detector: what `shake replay` and `shake evaluate` do per file.
public enum RecordingReplay {
    /// The result of replaying one recording.
    public struct Result: Sendable, Hashable {
        public var path: String
        /// Every event the detector emitted, in order.
        public var events: [ShakeEvent]
        /// Scores against the recording's labels; nil when it has no `shake` column.
        public var counts: EvaluationCounts?
        /// The missed shakes, false shakes and duplicates behind `counts`; nil with it.
        public var details: EvaluationDetails?
        public var sampleCount: Int
        /// Time of the first and last sample, seconds.
        public var startTime: Double?
        public var endTime: Double?
        /// Rows whose time equals the previous row's (tolerated; the detector ignores the repeat),
        /// as the reader counts them (`RecordingReader.duplicateTimestampCount`).
        public var repeatedTimestamps: Int
        /// Intervals between consecutive samples longer than `gapLimit` (gaps across which the
        /// detector restarts).
        public var gaps: Int
        /// The interval `gaps` counts those longer than, seconds.
        public var gapLimit: Double
        /// Largest interval between consecutive samples, seconds (0 with fewer than two samples),
        /// as the reader measures it (`RecordingReader.largestTimeGap`).
        public var largestTimeGap: Double
        /// The intervals `gaps` counts, added up, seconds.
        public var gapSeconds: Double
        /// The mean |a| over the first samples, and the export the file's header and name tell
        /// (`EarlyMagnitude.gravityFreeExport`): whether the acceleration looks like it has
        /// gravity taken out, in which the detector misses shakes.
        public var earlyMagnitude: EarlyMagnitude
        /// The size of the bursts the samples come in, when their first intervals (16 among the
        /// first 64 samples, repeated times and gaps left out) come in bursts close together with pauses between, as a FIFO
        /// batch stamped sample by sample as it is read out gives them (the detector then sees
        /// each burst as one moment); nil otherwise. `SampleStreamCheck.samplesPerBurst(_:)`.
        public var samplesPerBurst: Double?

        /// The mean sample rate, Hz, over the intervals that are neither a gap nor a repeated
        /// timestamp; nil when there are none (fewer than two samples, say). Compare with
        /// `ShakeDetector.slowestSupportedSampleRate`.
        public var meanSampleRate: Double? {
            guard let startTime, let endTime else { return nil }
            let intervals = sampleCount - 1 - repeatedTimestamps - gaps
            let seconds = endTime - startTime - gapSeconds
            guard intervals > 0, seconds > 0 else { return nil }
            return Double(intervals) / seconds
        }

        @usableFromInline init(
            path: String, events: [ShakeEvent], outcome: (counts: EvaluationCounts, details: EvaluationDetails)?,
            sampleCount: Int, startTime: Double?, endTime: Double?,
            repeatedTimestamps: Int, gaps: Int, gapLimit: Double, largestTimeGap: Double, gapSeconds: Double,
            earlyMagnitude: EarlyMagnitude, samplesPerBurst: Double?
        ) {
            self.path = path
            self.events = events
            self.counts = outcome?.counts
            self.details = outcome?.details
            self.sampleCount = sampleCount
            self.startTime = startTime
            self.endTime = endTime
            self.repeatedTimestamps = repeatedTimestamps
            self.gaps = gaps
            self.gapLimit = gapLimit
            self.largestTimeGap = largestTimeGap
            self.gapSeconds = gapSeconds
            self.earlyMagnitude = earlyMagnitude
            self.samplesPerBurst = samplesPerBurst
        }
    }

    /// Replays `path` through `detector` in constant memory (plus the events).
    ///
    /// At the end of the file a shake still in progress is cancelled with reason `interrupted`.
    ///
    /// With `readAhead`, the file is parsed on a thread of its own, a few thousand samples ahead
    /// of the detector (`RecordingReadAhead`): on two cores the detector then runs beside the
    /// parser, for about 3 MB more peak memory (the thread's stack and the batches). A canonical
    /// file of more than 16 MiB is parsed in 1 MiB parts on two threads, for about 3 MB more.
    /// Samples, events, counts and errors are the same either way. Leave it off when replaying
    /// several files at once on all cores.
    ///
    /// `gapLimit` is the interval between samples, seconds, over which `Result.gaps` counts a
    /// gap; by default the detector's (`ShakeDetecting.gapLimitSeconds`: a `ShakeDetector`'s
    /// `maximumGapSeconds`), or the presets' 0.5 s for a detector without one.
    ///
    /// Inlinable so that the caller's loop is specialized for its detector type (a generic call
    /// across modules would reach `process(_:)` through a witness table on every sample).
    @inlinable
    public static func run<Detector: ShakeDetecting>(
        path: String, options: CSVImportOptions = .canonical, detector: inout Detector,
        readAhead: Bool = false, gapLimit: Double? = nil
    ) throws(RecordingError) -> Result {
        var replay = Accumulator(gapLimit: gapLimit ?? Accumulator.gapLimit(of: detector))
        // The loop is written out here and in `runExplaining`: through a shared helper taking a
        // closure, `shake replay` ran 1.6 % more instructions (callgrind, 1 M rows).
        if readAhead {
            let reader = RecordingReadAhead(path: path, options: options)
            while let batch = try reader.next() {
                for labelledSample in batch { replay.add(labelledSample, to: &detector) }
            }
            replay.readerCounts = reader.timeCounts
            replay.fileHasLabels = reader.hasLabels
            replay.early.gravityFreeExport = reader.gravityFreeExport
        } else {
            var reader = try RecordingReader(path: path, options: options)
            while let labelledSample = try reader.next() { replay.add(labelledSample, to: &detector) }
            replay.readerCounts = (reader.duplicateTimestampCount, reader.largestTimeGap)
            replay.fileHasLabels = reader.hasLabels
            replay.early.gravityFreeExport = reader.earlyMagnitude.gravityFreeExport
        }
        return replay.finish(path: path, interrupting: &detector)
    }

    /// Replays samples already in memory (from `RecordingReader.readAll`, a synthesizer, or a
    /// test's own) as `run(path:…)` replays a file: the same events, counts and details, and the
    /// same cancellation of a shake in progress at the last sample. `name` stands in for the path
    /// in the result. The samples are taken as given: nothing checks that time goes forward, as
    /// the reader does for a file. A sample with a NaN or infinite time or value (which a file
    /// cannot hold, and the detector ignores) is given to the detector and left out of the scores,
    /// the times and the counts. The result is labelled when any sample carries a label.
    @inlinable
    public static func run<Detector: ShakeDetecting, Samples: Sequence<LabeledSample>>(
        samples: Samples, name: String = "<samples>", detector: inout Detector,
        gapLimit: Double? = nil
    ) -> Result {
        var replay = Accumulator(gapLimit: gapLimit ?? Accumulator.gapLimit(of: detector))
        // The reader's counts, kept here as it keeps them.
        var previous: Double?
        var repeated = 0
        var largestGap = 0.0
        for labelledSample in samples {
            let sample = labelledSample.sample
            guard sample.time.isFinite, sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else {
                // One such sample made the negative time NaN, and with it false shakes per hour.
                if let event = detector.process(sample) { replay.record(event: event) }
                continue
            }
            let time = sample.time
            if let previous {
                if time == previous { repeated += 1 } else { largestGap = max(largestGap, time - previous) }
            }
            previous = time
            replay.add(labelledSample, to: &detector)
        }
        replay.readerCounts = (repeated, largestGap)
        return replay.finish(path: name, interrupting: &detector)
    }

    /// What `run` keeps while it streams.
    @usableFromInline struct Accumulator {
        /// An event, scored as a detection when it is a `began`.
        @inlinable
        mutating func record(event: ShakeEvent) {
            events.append(event)
            if event.phase == .began { scorer.addDetection(at: event.time) }
        }

        @usableFromInline var scorer = ShakeScorer()
        @usableFromInline var events: [ShakeEvent] = []
        @usableFromInline var labelled: Bool?
        @usableFromInline var count = 0
        @usableFromInline var first: Double?
        @usableFromInline var last: Double?
        @usableFromInline let gapLimit: Double
        @usableFromInline var gaps = 0
        @usableFromInline var gapSeconds = 0.0
        /// The last sample's time, s; +∞ before the first (so that no gap is counted before it).
        @usableFromInline var previousTime = Double.infinity
        /// The reader's repeated timestamps and largest time gap, s, once it read to the end.
        @usableFromInline var readerCounts: (repeatedTimestamps: Int, largestTimeGap: Double) = (0, 0)
        /// Whether the header has a label column, once the reader read to the end: a labelled
        /// file of no rows is scored (no shakes, no time) rather than taken for unlabelled.
        @usableFromInline var fileHasLabels = false
        @usableFromInline var early = EarlyMagnitude()
        /// The first `SampleStreamCheck.intervalsChecked` intervals that are neither a repeated
        /// time nor a gap, among the first `samplesChecked` samples, s (for `Result.samplesPerBurst`).
        @usableFromInline var firstIntervals: [Double] = []

        @inlinable init(gapLimit: Double) {
            self.gapLimit = gapLimit
        }

        /// `detector`'s gap limit, s, or the presets' for a detector without one.
        @inlinable static func gapLimit<Detector: ShakeDetecting>(of detector: Detector) -> Double {
            detector.gapLimitSeconds ?? ShakeConfiguration.medium.maximumGapSeconds
        }

        @inlinable @inline(__always)
        mutating func add<Detector: ShakeDetecting>(
            _ labelledSample: LabeledSample, to detector: inout Detector
        ) {
            let event = detector.process(labelledSample.sample)
            record(labelledSample, event: event, scoredAt: detector.lastProcessedTime)
        }

        /// The result, after cancelling a shake still in progress at the last sample.
        @inlinable
        mutating func finish<Detector: ShakeDetecting>(path: String, interrupting detector: inout Detector) -> Result {
            if let last, let event = detector.interrupt(at: last) { events.append(event) }
            return Result(
                path: path, events: events, outcome: (labelled ?? fileHasLabels) ? scorer.outcome() : nil,
                sampleCount: count, startTime: first, endTime: last,
                repeatedTimestamps: readerCounts.repeatedTimestamps, gaps: gaps, gapLimit: gapLimit,
                largestTimeGap: readerCounts.largestTimeGap, gapSeconds: gapSeconds, earlyMagnitude: early,
                samplesPerBurst: SampleStreamCheck.samplesPerBurst(firstIntervals))
        }

        /// Takes in a sample and the event the detector returned for it. `scoredAt` is the time
        /// the detector took the sample at when it re-times samples (spread FIFO batches): the
        /// label is scored there, on the events' clock, as `shake convert --spread-batches`
        /// writes it; the gaps and the time span stay the file's own.
        @inlinable @inline(__always)
        mutating func record(_ labelledSample: LabeledSample, event: ShakeEvent?, scoredAt: Double? = nil) {
            let sample = labelledSample.sample
            if let isShake = labelledSample.isShake {
                labelled = true
                scorer.addSample(time: scoredAt ?? sample.time, isShake: isShake)
            } else if labelled == nil {
                labelled = false
            }
            if let event { record(event: event) }
            if first == nil { first = sample.time }
            let interval = sample.time - previousTime
            if interval > gapLimit {  // rare: the branch is predicted
                gaps &+= 1
                gapSeconds += interval
            } else if count < SampleStreamCheck.samplesChecked, interval > 0,  // the first samples only
                      firstIntervals.count < SampleStreamCheck.intervalsChecked {
                firstIntervals.append(interval)
            }
            previousTime = sample.time
            last = sample.time
            early.add(sample)
            count += 1
        }
    }
}
