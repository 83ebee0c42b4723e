import ShakeDetection

/// A labelled recording held in memory, so a tuner can replay it thousands of times after
/// reading the file once.
///
/// Memory: 33 bytes per sample (a 400 Hz hour is about 48 MB).
public struct TuningRecording: Sendable {
    /// The path it was read from (or a name given to synthesized data).
    public var path: String
    /// Every sample, in time order. Setting new samples (the same number: the recording re-timed,
    /// its FIFO batches spread) scores the labels at their times, as the detector sees them.
    public var samples: [Sample] {
        didSet {
            precondition(samples.count == labels.count, "one label per sample")
            scoreLabels()
        }
    }
    /// Whether each sample lies in a labelled shake.
    private let labels: [Bool]
    /// The recording group used for cross-validation: see `group(ofPath:)`.
    public var group: String
    /// A scorer already fed every label: copied for each replay, which only adds detections.
    private var labelScorer: ShakeScorer
    /// Labelled shakes (runs of `shake = 1`) and time labelled `shake = 0`, s.
    public private(set) var shakes = 0
    public private(set) var negativeSeconds = 0.0

    /// Wraps samples and their labels (`labels[i]` is whether `samples[i]` lies in a shake).
    /// - Precondition: one label per sample (`RecordingReader` gives both from a file).
    public init(path: String, samples: [Sample], labels: [Bool], group: String? = nil) {
        precondition(samples.count == labels.count, "one label per sample")
        self.path = path
        self.samples = samples
        self.labels = labels
        self.group = group ?? Self.group(ofPath: path)
        labelScorer = ShakeScorer()
        scoreLabels()
    }

    /// Feeds a fresh scorer every label at its sample's time.
    private mutating func scoreLabels() {
        var scorer = ShakeScorer()
        for (sample, isShake) in zip(samples, labels) { scorer.addSample(time: sample.time, isShake: isShake) }
        labelScorer = scorer
        let counts = scorer.finish()
        shakes = counts.shakes
        negativeSeconds = counts.negativeSeconds
    }

    /// Reads a labelled CSV recording (it must have a `shake` column).
    public static func load(path: String, options: CSVImportOptions = .canonical) throws -> TuningRecording {
        var reader = try RecordingReader(path: path, options: options)
        let name = RecordingError.displayName(ofPath: path)
        var samples: [Sample] = []
        var labels: [Bool] = []
        while let row = try reader.next() {
            guard let isShake = row.isShake else {
                throw TuningError("\(name): no 'shake' column; tuning needs labelled recordings (label one with "
                    + "'shake convert FILE --shakes START-END,... -o OUT', or --shakes none for one without shakes; '--label-column' names a label column "
                    + "called otherwise)")
            }
            samples.append(row.sample)
            labels.append(isShake)
        }
        guard !samples.isEmpty else { throw TuningError("\(name): no samples") }
        return TuningRecording(path: path, samples: samples, labels: labels)
    }

    /// The group of a recording for leave-one-group-out cross-validation: its file name
    /// (without folders) up to the first `_`, lowercased; the whole name without extension
    /// when it has no `_`. `dev/wiimote_session11.csv` → `wiimote`; `oxford_validation_user1_bag.csv` → `oxford`;
    /// `-` (standard input) → `<stdin>`.
    public static func group(ofPath path: String) -> String {
        if path == "-" { return RecordingError.displayName(ofPath: path) }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let underscore = name.firstIndex(of: "_") { return name[..<underscore].lowercased() }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { return name[..<dot].lowercased() }
        return name.lowercased()
    }

    /// Replays the recording through `detector` and scores its `began` events against the
    /// labels, as `RecordingReplay.run` does for a file (a shake in progress at the end is
    /// cancelled with `interrupt(at:)`).
    public func evaluate<Detector: ShakeDetecting>(_ detector: inout Detector) -> EvaluationCounts {
        var scorer = labelScorer
        for sample in samples {
            if let event = detector.process(sample), event.phase == .began {
                scorer.addDetection(at: event.time)
            }
        }
        if let last = samples.last { _ = detector.interrupt(at: last.time) }
        return scorer.finish()
    }

    /// Scores a fresh `ShakeDetector` with `configuration` on this recording.
    public func evaluate(_ configuration: ShakeConfiguration) -> EvaluationCounts {
        var detector = ShakeDetector(configuration: configuration)
        return evaluate(&detector)
    }
}

/// A tuning run could not start or its input is unusable.
public struct TuningError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
