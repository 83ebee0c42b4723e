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
        public var sampleCount: Int
        /// Time of the first and last sample, seconds.
        public var startTime: Double?
        public var endTime: Double?
    }

    /// Replays `path` through `detector` in constant memory (plus the events).
    ///
    /// At the end of the file a shake still in progress is cancelled with reason `interrupted`.
    public static func run<Detector: ShakeDetecting>(
        path: String, options: CSVImportOptions = .canonical, detector: inout Detector
    ) throws -> Result {
        var reader = try RecordingReader(path: path, options: options)
        var scorer = ShakeScorer()
        var events: [ShakeEvent] = []
        var labelled: Bool?
        var count = 0
        var first: Double?
        var last: Double?
        while let labelledSample = try reader.next() {
            let sample = labelledSample.sample
            if labelled == nil { labelled = labelledSample.isShake != nil }
            if let isShake = labelledSample.isShake { scorer.addSample(time: sample.time, isShake: isShake) }
            if let event = detector.process(sample) {
                events.append(event)
                if event.phase == .began { scorer.addDetection(at: event.time) }
            }
            if first == nil { first = sample.time }
            last = sample.time
            count += 1
        }
        if let last, let event = detector.interrupt(at: last) { events.append(event) }
        return Result(path: path, events: events, counts: labelled == true ? scorer.finish() : nil,
                      sampleCount: count, startTime: first, endTime: last)
    }
}
