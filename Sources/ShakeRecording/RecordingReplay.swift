import ShakeDetection

/// Streams a recording through a detector: what `shake replay` and `shake evaluate` do per file.
public enum RecordingReplay {
    /// The result of replaying one recording.
    public struct Result: Sendable {
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

        @usableFromInline init(
            path: String, events: [ShakeEvent], outcome: (counts: EvaluationCounts, details: EvaluationDetails)?,
            sampleCount: Int, startTime: Double?, endTime: Double?
        ) {
            self.path = path
            self.events = events
            self.counts = outcome?.counts
            self.details = outcome?.details
            self.sampleCount = sampleCount
            self.startTime = startTime
            self.endTime = endTime
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
    /// Samples, events and errors are the same either way. Leave it off when replaying several
    /// files at once on all cores.
    ///
    /// Inlinable so that the caller's loop is specialized for its detector type (a generic call
    /// across modules would reach `process(_:)` through a witness table on every sample).
    @inlinable
    public static func run<Detector: ShakeDetecting>(
        path: String, options: CSVImportOptions = .canonical, detector: inout Detector,
        readAhead: Bool = false
    ) throws -> Result {
        var replay = Accumulator()
        // The loop is written out here and in `runExplaining`: through a shared helper taking a
        // closure, `shake replay` ran 1.6 % more instructions (callgrind, 1 M rows).
        if readAhead {
            let reader = RecordingReadAhead(path: path, options: options)
            while let batch = try reader.next() {
                for labelledSample in batch { replay.add(labelledSample, to: &detector) }
            }
        } else {
            var reader = try RecordingReader(path: path, options: options)
            while let labelledSample = try reader.next() { replay.add(labelledSample, to: &detector) }
        }
        return replay.finish(path: path, interrupting: &detector)
    }

    /// What `run` keeps while it streams.
    @usableFromInline struct Accumulator {
        @usableFromInline var scorer = ShakeScorer()
        @usableFromInline var events: [ShakeEvent] = []
        @usableFromInline var labelled: Bool?
        @usableFromInline var count = 0
        @usableFromInline var first: Double?
        @usableFromInline var last: Double?

        @inlinable init() {}

        @inlinable @inline(__always)
        mutating func add<Detector: ShakeDetecting>(
            _ labelledSample: LabeledSample, to detector: inout Detector
        ) {
            record(labelledSample, event: detector.process(labelledSample.sample))
        }

        /// The result, after cancelling a shake still in progress at the last sample.
        @inlinable
        mutating func finish<Detector: ShakeDetecting>(path: String, interrupting detector: inout Detector) -> Result {
            if let last, let event = detector.interrupt(at: last) { events.append(event) }
            return Result(
                path: path, events: events, outcome: labelled == true ? scorer.outcome() : nil,
                sampleCount: count, startTime: first, endTime: last)
        }

        /// Takes in a sample and the event the detector returned for it.
        @inlinable @inline(__always)
        mutating func record(_ labelledSample: LabeledSample, event: ShakeEvent?) {
            let sample = labelledSample.sample
            if labelled == nil { labelled = labelledSample.isShake != nil }
            if let isShake = labelledSample.isShake { scorer.addSample(time: sample.time, isShake: isShake) }
            if let event {
                events.append(event)
                if event.phase == .began { scorer.addDetection(at: event.time) }
            }
            if first == nil { first = sample.time }
            last = sample.time
            count += 1
        }
    }
}
