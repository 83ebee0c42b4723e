import Foundation
import ShakeDetection
import ShakeRecording
import Synchronization
import Testing

/// Labelled recordings with a planted optimum: deliberate shakes oscillate with amplitude
/// `shakeAmplitude`, distractors (labelled shake=0) the same way with `distractorAmplitude`,
/// so only a threshold between the two separates them.
enum PlantedMotion {
    static let shakeAmplitude = 18.0
    static let distractorAmplitude = 11.0

    /// `shakes` labelled shakes (1.5 s each, 4 Hz along x) and `distractors` unlabelled oscillations
    /// (`distractorSeconds` each, 4 Hz along x), alternating, with 2 s of rest between and around
    /// them; device flat, `rate` Hz.
    static func recording(name: String, shakes: Int, distractors: Int, rate: Double = 100,
                          distractorAmplitude: Double = distractorAmplitude,
                          distractorSeconds: Double = 1.5) -> TuningRecording {
        let (samples, labels) = motion(shakes: shakes, distractors: distractors, rate: rate,
                                       distractorAmplitude: distractorAmplitude, distractorSeconds: distractorSeconds)
        return TuningRecording(path: name, samples: samples, labels: labels)
    }

    /// The samples and labels of
    /// `recording(name:shakes:distractors:rate:distractorAmplitude:distractorSeconds:)`.
    static func motion(shakes: Int, distractors: Int, rate: Double = 100,
                       distractorAmplitude: Double = distractorAmplitude,
                       distractorSeconds: Double = 1.5) -> (samples: [Sample], labels: [Bool]) {
        var samples: [Sample] = []
        var labels: [Bool] = []
        var time = 0.0
        func rest(_ seconds: Double) {
            let end = time + seconds
            while time < end {
                samples.append(Sample(time: time, x: 0.05 * sin(7 * time), y: 0, z: standardGravity))
                labels.append(false)
                time += 1 / rate
            }
        }
        func oscillate(_ amplitude: Double, seconds: Double = 1.5, labelled: Bool) {
            let start = time
            while time < start + seconds {
                samples.append(Sample(time: time, x: amplitude * sin(2 * Double.pi * 4 * (time - start)), y: 0,
                                      z: standardGravity))
                labels.append(labelled)
                time += 1 / rate
            }
        }
        rest(2)
        for index in 0..<max(shakes, distractors) {
            if index < shakes { oscillate(shakeAmplitude, labelled: true); rest(2) }
            if index < distractors {
                oscillate(distractorAmplitude, seconds: distractorSeconds, labelled: false)
                rest(2)
            }
        }
        return (samples, labels)
    }

    static func corpus() -> [TuningRecording] {
        [recording(name: "alpha_1.csv", shakes: 3, distractors: 3),
         recording(name: "beta_1.csv", shakes: 2, distractors: 4, rate: 50),
         recording(name: "gamma_1.csv", shakes: 3, distractors: 2, rate: 200)]
    }

    static let thresholdAxis = ParameterAxis(
        "onsetAcceleration", .real(\.onsetAcceleration),
        values: [6, 8, 10, 12, 14, 16, 20, 24], coarse: [6, 24])
}

/// How many times a tuning run reported its progress.
final class ProgressReports: Sendable {
    let count = Atomic<Int>(0)
}

@Suite struct TuningTests {
    func options(axes: [ParameterAxis] = [PlantedMotion.thresholdAxis], jobs: Int = 2) -> TuningOptions {
        var options = TuningOptions()
        options.axes = axes
        options.jobs = jobs
        return options
    }

    // Defect: a search whose axes the base rules out everywhere (onsets above its
    // ongoingMotionPeakAcceleration), no recording, or no axis stopped the program with a
    // precondition failure in `run`; now `run` throws, saying why, before replaying anything:
    // no progress is reported (a search reports each replay as it ends, as the searchable one at
    // the end shows; with no axis the grid would have been the reference alone, replayed at once).
    @Test func aSearchThatCannotStartIsAnErrorNotACrash() throws {
        var ruledOut = options(axes: [ParameterAxis("onsetAcceleration", .real(\.onsetAcceleration), values: [13, 14])])
        ruledOut.reference = ShakeConfiguration(ongoingMotionPeakAcceleration: 12)
        ruledOut.crossValidate = false
        var noAxis = options()
        noAxis.axes = []
        let cases: [(tuner: Tuner, says: String)] = [
            (Tuner(recordings: PlantedMotion.corpus(), options: ruledOut), "no configuration in the search is valid: "),
            (Tuner(recordings: [], options: options()), "tuning needs at least one recording"),
            (Tuner(recordings: PlantedMotion.corpus(), options: noAxis), "tuning needs at least one parameter axis"),
        ]
        for (tuner, says) in cases {
            var tuner = tuner
            let reports = ProgressReports()
            #expect {
                _ = try tuner.run { _ in reports.count.add(1, ordering: .relaxed) }
            } throws: { error in
                (error as? TuningError)?.message.hasPrefix(says) == true
            }
            #expect(reports.count.load(ordering: .relaxed) == 0, "\(says): progress reported, so something was replayed")
        }
        var searchable = options(axes: [ParameterAxis("onsetAcceleration", .real(\.onsetAcceleration), values: [10, 14])])
        searchable.crossValidate = false
        searchable.tradeoffBudgets = []
        var tuner = Tuner(recordings: [PlantedMotion.recording(name: "alpha_1.csv", shakes: 1, distractors: 1)],
                          options: searchable)
        let reports = ProgressReports()
        _ = try tuner.run { _ in reports.count.add(1, ordering: .relaxed) }
        #expect(reports.count.load(ordering: .relaxed) > 0)
    }

    @Test func plantedOptimumIsFound() throws {
        let corpus = PlantedMotion.corpus()
        // The planted trap: the medium preset fires on the distractors.
        var reference = EvaluationCounts()
        for recording in corpus { reference += recording.evaluate(ShakeConfiguration.medium) }
        #expect(reference.falseShakes > 0)

        var tuner = Tuner(recordings: corpus, options: options())
        let result = try tuner.run()
        let threshold = result.configuration.onsetAcceleration
        // Between the distractors' and the shakes' amplitude; the coarse grid (6, 24) holds no such value.
        #expect(threshold > PlantedMotion.distractorAmplitude && threshold < PlantedMotion.shakeAmplitude)
        #expect(result.metBudget)
        #expect(result.inSample.recall == 1)
        #expect(result.inSample.falseShakes == 0)
        #expect(result.inSample.duplicates == 0)
        #expect(result.inSample.shakes == 8)
    }

    @Test func sameInputsGiveSameResultWhateverTheJobs() throws {
        let axes = [PlantedMotion.thresholdAxis,
                    ParameterAxis("minimumHalfWaves", .whole(\.minimumHalfWaves), values: [2, 3, 4, 5, 6], coarse: [3, 5])]
        var results: [TuningResult] = []
        for jobs in [1, 2, 2, 3] {
            var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options(axes: axes, jobs: jobs))
            results.append(try tuner.run())
        }
        for result in results.dropFirst() {
            #expect(result.configuration == results[0].configuration)
            #expect(result.inSample == results[0].inSample)
            #expect(result.tradeoff.map(\.summary) == results[0].tradeoff.map(\.summary))
            #expect(result.tradeoff.map(\.configuration) == results[0].tradeoff.map(\.configuration))
            #expect(result.crossValidation?.pooled == results[0].crossValidation?.pooled)
            #expect(result.configurationsEvaluated == results[0].configurationsEvaluated)
        }
    }

    @Test func tradeoffRecallNeverFallsAsTheBudgetGrows() throws {
        // A distractor almost as strong as the shakes: catching every shake costs a false shake,
        // which over the corpus's 8 minutes without shakes (most of them a device lying still)
        // is about 7.4 false shakes per hour: within the largest budget (10), over the others.
        var corpus = PlantedMotion.corpus()
        corpus.append(PlantedMotion.recording(name: "delta_1.csv", shakes: 2, distractors: 1, distractorAmplitude: 17))
        let still = (0 ..< 7 * 60 * 50).map { i in
            Sample(time: Double(i) / 50, x: 0.05 * sin(7 * Double(i) / 50), y: 0, z: standardGravity)
        }
        corpus.append(TuningRecording(path: "still_1.csv", samples: still, labels: still.map { _ in false }))
        var tuner = Tuner(recordings: corpus, options: options())
        let result = try tuner.run()
        #expect(result.tradeoff.map(\.budget) == [0, 0.5, 1, 2, 5, 10])
        let recalls = result.tradeoff.map { $0.summary.recall ?? 0 }
        #expect(zip(recalls, recalls.dropFirst()).allSatisfy { $0 <= $1 }, "\(recalls)")
        // The trade-off is real: the largest budget buys shakes the smallest cannot catch.
        #expect(recalls.count >= 2 && recalls[recalls.count - 1] > recalls[0], "\(recalls)")
        #expect(result.tradeoff.contains { $0.metBudget }, "no point met its budget")
        for point in result.tradeoff where point.metBudget {
            #expect((point.summary.falsePerHour ?? 0) <= point.budget)
            #expect(point.summary.duplicates == 0)
        }
    }

    @Test func aTieInRecallGoesToFewerFalseShakesBeforeLowerLatency() throws {
        // Brief motion as strong as the shakes, labelled shake=0: a chain of few half-waves answers
        // the shakes sooner but fires on the brief motion too; a longer chain waits it out.
        let corpus = [
            PlantedMotion.recording(name: "alpha_1.csv", shakes: 3, distractors: 3,
                                    distractorAmplitude: PlantedMotion.shakeAmplitude, distractorSeconds: 0.5),
            PlantedMotion.recording(name: "beta_1.csv", shakes: 2, distractors: 2, rate: 50,
                                    distractorAmplitude: PlantedMotion.shakeAmplitude, distractorSeconds: 0.5),
        ]
        let halfWaves = [3, 6]
        let counts = halfWaves.map { count in
            var configuration = ShakeConfiguration.medium
            configuration.minimumHalfWaves = count
            return corpus.reduce(into: EvaluationCounts()) { $0 += $1.evaluate(configuration) }.summary
        }
        // The premise: both find every shake; the quicker fires sooner (by more than the 50 ms the
        // objective tells apart) and fires false shakes, the slower none.
        let (quick, careful) = (counts[0], counts[1])
        #expect(quick.detected == 5 && careful.detected == 5)
        let quickLatency = try #require(quick.latencyMedianSeconds)
        let carefulLatency = try #require(careful.latencyMedianSeconds)
        #expect(quickLatency + 2 * Tuner.latencyResolutionSeconds < carefulLatency)
        #expect(quick.falseShakes > 0 && careful.falseShakes == 0, "\(quick.falseShakes), \(careful.falseShakes)")

        // A budget no figure approaches: recall ties, and fewer false shakes win before latency,
        // in the choice and at every budget of the trade-off curve that both values meet.
        var options = options(axes: [ParameterAxis("minimumHalfWaves", .whole(\.minimumHalfWaves), values: halfWaves.map(Double.init),
                                                   coarse: halfWaves.map(Double.init))])
        options.maximumFalsePerHour = 1_000_000
        options.tradeoffBudgets = [0, 1_000_000]
        options.crossValidate = false
        var tuner = Tuner(recordings: corpus, options: options)
        let result = try tuner.run()
        #expect(result.configuration.minimumHalfWaves == 6)
        #expect(result.inSample == careful)
        #expect(result.tradeoff.map(\.configuration.minimumHalfWaves) == [6, 6])
    }

    @Test func crossValidationHoldsOutEachGroup() throws {
        var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options())
        let validation = try #require(try tuner.run().crossValidation)
        #expect(validation.method == "leave-one-group-out")
        #expect(validation.folds.map(\.name) == ["alpha", "beta", "gamma"])
        #expect(validation.folds.map(\.heldOutFiles) == [["alpha_1.csv"], ["beta_1.csv"], ["gamma_1.csv"]])
        // Pooled held-out counts add up to the corpus: every recording is held out exactly once.
        #expect(validation.pooled.shakes == 8)
        #expect(validation.folds.reduce(0) { $0 + $1.heldOut.shakes } == 8)
    }

    @Test func fewerThanThreeGroupsFallBackToKFoldByFile() throws {
        let corpus = (1...4).map { PlantedMotion.recording(name: "same_\($0).csv", shakes: 1, distractors: 1) }
        var tuner = Tuner(recordings: corpus, options: options())
        let validation = try #require(try tuner.run().crossValidation)
        #expect(validation.method == "k-fold by file")
        #expect(validation.folds.count == 4)
        #expect(Set(validation.folds.flatMap(\.heldOutFiles)).count == 4)
    }

    /// Two groups are fewer than three too; folds by file are at most five, each file held out once.
    @Test func twoGroupsOfSixFilesMakeFiveFoldsByFile() throws {
        let corpus = ["left", "right"].flatMap { group in
            (1...3).map { PlantedMotion.recording(name: "\(group)_\($0).csv", shakes: 1, distractors: 1) }
        }
        var options = options()
        options.tradeoffBudgets = []
        var tuner = Tuner(recordings: corpus, options: options)
        let validation = try #require(try tuner.run().crossValidation)
        #expect(validation.method == "k-fold by file")
        #expect(validation.folds.count == 5)
        #expect(validation.folds.flatMap(\.heldOutFiles).sorted() == corpus.map(\.path).sorted())
    }

    /// A range that holds none of an axis's coarse values starts the search from the value in
    /// the range nearest the reference's (`--range` passes medium's value as `preferred`).
    @Test func aRangeWithoutACoarseValueStartsNearestThePreferredValue() throws {
        let axis = try #require(ParameterAxis.standard.first { $0.name == "minimumReversalIntervalSeconds" })
        #expect(axis.coarseIndices.map { axis.values[$0] } == [0.04])
        let above = try #require(axis.restricted(to: 0.05...0.12, preferred: 0.04))
        #expect(above.values == [0.05, 0.08, 0.12])
        #expect(above.coarseIndices.map { above.values[$0] } == [0.05])
        // A coarse value in the range is kept, however near another value is to the preferred one.
        let around = try #require(axis.restricted(to: 0.03...0.05, preferred: 0.03))
        #expect(around.coarseIndices.map { around.values[$0] } == [0.04])
        #expect(axis.restricted(to: 0.2...0.3, preferred: 0.04) == nil)
    }

    @Test(arguments: [
        ("/data/dev/wiimote_session11.csv", "wiimote"),
        ("microbit_mltrainer_session01.csv", "microbit"),
        ("dev/oxford_validation_user1_bag.csv", "oxford"),
        ("Recording.CSV", "recording"),
    ])
    func groupIsTheFileNameUpToTheFirstUnderscore(path: String, group: String) {
        #expect(TuningRecording.group(ofPath: path) == group)
    }

    @Test func progressReachesTheEnd() throws {
        let seen = ProgressLog()
        var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options())
        _ = try tuner.run { seen.add($0) }
        let all = seen.all
        #expect(!all.isEmpty)
        #expect(all.last?.fraction == 1)
        #expect(all.allSatisfy { $0.samplesDone <= $0.samplesEstimated })
    }
}

final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [TuningProgress] = []
    func add(_ progress: TuningProgress) { lock.withLock { items.append(progress) } }
    var all: [TuningProgress] { lock.withLock { items } }
}
