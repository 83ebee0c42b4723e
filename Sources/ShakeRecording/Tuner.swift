import Dispatch
import ShakeDetection
import Synchronization

/// Searches `ShakeConfiguration`s on labelled recordings held in memory.
///
/// **Objective.** A configuration is *feasible* when its false shakes per hour (over the
/// `shake = 0` time of the recordings) stay within the budget and it fires no duplicates.
/// Among feasible ones the tuner prefers, in order: more detected shakes (higher recall), fewer
/// false shakes (a budget raised to see what is possible buys recall, not latency at the cost of
/// false shakes), lower median latency in steps of `latencyResolutionSeconds` (50 ms: smaller
/// differences are noise on a few dozen shakes, and chasing them drifts away from the preset), a
/// smaller distance from the reference (medium) preset — the sum over axes of |value − reference
/// value| / (axis span) — and finally the earlier candidate in axis order. When nothing is
/// feasible it prefers fewer false shakes plus duplicates, then the same.
///
/// **Search.** Every point of the coarse grid (the product of each axis's coarse values), then
/// coordinate descent from each of the best few (`TuningOptions.refinementStarts`) of all
/// configurations replayed so far: for each axis in turn, every value of that axis with the
/// others held; repeated until a pass changes nothing (at most
/// `TuningOptions.maximumRefinementPasses`). This runs for the budget and for each budget of
/// the trade-off curve; then each picks the best of every configuration tried on all recordings.
/// A cross-validation fold searches the same way on its training recordings, starting from the
/// grid only (no candidate found with its held-out recordings in view).
///
/// **Speed and determinism.** Each (configuration, recording) replay runs once and is cached,
/// so the grid is shared by the main search, the trade-off curve and every cross-validation
/// fold. Replays run on `jobs` threads; results are stored by index and summed in recording
/// order, so the outcome does not depend on thread timing.
public struct Tuner {
    public let recordings: [TuningRecording]
    public let options: TuningOptions

    /// Per candidate (indices into each axis's values), the counts per recording once replayed.
    private var cache: [[Int]: [EvaluationCounts?]] = [:]
    /// Median latencies closer than this compare equal in the objective, s.
    public static let latencyResolutionSeconds = 0.05

    /// Candidates whose configuration fails `validate()`: never replayed, ranked last.
    private var invalid: Set<[Int]> = []
    private let counter = WorkCounter()
    private var progressHandler: @Sendable (TuningProgress) -> Void = { _ in }
    /// Work-estimate bookkeeping (samples): see `plannedDescent`.
    private var firstDescentRatio: Double?
    private var remainingDescentSamples = 0

    /// `recordings` and `options` are checked when the tuner runs.
    public init(recordings: [TuningRecording], options: TuningOptions = TuningOptions()) {
        self.recordings = recordings
        self.options = options
    }

    /// Runs the search, the trade-off curve and the cross-validation.
    ///
    /// `progress` is called from worker threads (often: throttle it).
    /// - Throws: ``TuningError`` before replaying anything when there is no recording or no
    ///   axis, or no point of the coarse grid is a valid configuration (``checkSearchable()``).
    public mutating func run(progress: @escaping @Sendable (TuningProgress) -> Void = { _ in }) throws(TuningError)
        -> TuningResult {
        if recordings.isEmpty { throw TuningError("tuning needs at least one recording") }
        if options.axes.isEmpty { throw TuningError("tuning needs at least one parameter axis to search") }
        try checkSearchable()
        progressHandler = progress
        let all = Array(recordings.indices)
        let budget = options.maximumFalsePerHour
        let folds = options.crossValidate ? crossValidationFolds() : nil
        let curveBudgets = options.tradeoffBudgets.filter { $0 != budget }
        // Estimate of the work: the grid on everything, then descents. Measured on the dev corpus,
        // a search replays about (1 + starts) / 3 lines of every axis that the cache does not
        // already hold; the estimate is corrected after each search (`plannedDescent`).
        let descentCost = descentReplays
        let allSamples = sampleCount(all)
        var plannedDescents: [Int] = [allSamples] + curveBudgets.map { _ in allSamples }
        for fold in folds?.folds ?? [] { plannedDescents.append(sampleCount(fold.training)) }
        plannedDescents = plannedDescents.map { $0 * descentCost }
        counter.estimate.store(gridCandidates().count * allSamples + plannedDescents.reduce(0, +),
                               ordering: .relaxed)

        counter.stage.withLock { $0 = "grid" }
        ensure(gridCandidates(), on: all)
        remainingDescentSamples = plannedDescents.reduce(0, +)

        counter.stage.withLock { $0 = "refining" }
        _ = plannedDescent(on: all, budget: budget, startingFrom: known(on: all))
        counter.stage.withLock { $0 = "trade-off" }
        for curveBudget in curveBudgets {
            _ = plannedDescent(on: all, budget: curveBudget, startingFrom: known(on: all))
        }
        // What any search on all recordings found competes for every budget, so the curve and the
        // choice are the best of everything tried (and recall never falls as the budget grows).
        let everything = known(on: all)
        let best = bestCandidate(everything, on: all, budget: budget)
        let tradeoff = options.tradeoffBudgets.map { curveBudget in
            let point = bestCandidate(everything, on: all, budget: curveBudget)
            let counts = total(point, on: all)
            return TradeoffPoint(budget: curveBudget, metBudget: isFeasible(counts, budget: curveBudget),
                                 summary: counts.summary, configuration: configuration(point))
        }

        var crossValidation: CrossValidation?
        if let folds {
            counter.stage.withLock { $0 = "cross-validation" }
            var pooled = EvaluationCounts()
            var results: [CrossValidation.Fold] = []
            for fold in folds.folds {
                // Only the grid and this fold's own descents: candidates found with the held-out
                // recordings in view would leak them into the choice.
                let chosen = plannedDescent(on: fold.training, budget: budget, startingFrom: gridCandidates())
                ensure([chosen], on: fold.heldOut)
                let trained = total(chosen, on: fold.training)
                let heldOut = total(chosen, on: fold.heldOut)
                pooled += heldOut
                results.append(CrossValidation.Fold(
                    name: fold.name,
                    heldOutFiles: fold.heldOut.map { RecordingError.displayName(ofPath: recordings[$0].path) },
                    configuration: configuration(chosen), metBudget: isFeasible(trained, budget: budget),
                    training: trained.summary, heldOut: heldOut.summary))
            }
            crossValidation = CrossValidation(method: folds.method, folds: results, pooled: pooled.summary,
                                              metBudget: isFeasible(pooled, budget: budget))
        }
        // The reference, untuned: one replay of each recording (a search makes hundreds).
        var reference = EvaluationCounts()
        for recording in recordings { reference += recording.evaluate(options.reference) }

        let counts = total(best, on: all)
        counter.estimate.store(counter.done.load(ordering: .relaxed), ordering: .relaxed)
        report()
        // Each axis's values that some configuration replayed had (the others were ruled out
        // by `validate()` at every point the search reached).
        var tried = options.axes.map { _ in Set<Int>() }
        for candidate in cache.keys {
            for (axis, index) in candidate.enumerated() { tried[axis].insert(index) }
        }
        return TuningResult(
            configuration: configuration(best), maximumFalsePerHour: budget,
            metBudget: isFeasible(counts, budget: budget), inSample: counts.summary,
            referenceSummary: reference.summary, tradeoff: tradeoff,
            crossValidation: crossValidation, configurationsEvaluated: cache.count,
            recordings: recordings.count, samples: allSamples,
            valuesTried: zip(options.axes, tried).map { axis, indices in indices.sorted().map { axis.values[$0] } })
    }

    /// Throws when no point of the coarse grid is a valid configuration (axes restricted so that
    /// they rule each other out, or a base whose other values rule them out), with the first
    /// point's problem: `run` needs one to start from.
    public static func checkSearchable(axes: [ParameterAxis], reference: ShakeConfiguration) throws(TuningError) {
        var options = TuningOptions()
        options.axes = axes
        options.reference = reference
        try Tuner(recordings: [TuningRecording(path: "-", samples: [], labels: [])], options: options).checkSearchable()
    }

    /// `checkSearchable(axes:reference:)` for this tuner's options.
    public func checkSearchable() throws(TuningError) {
        var problem = ""
        for candidate in gridCandidates() {
            do {
                try configuration(candidate).validate()
                return
            } catch {
                if problem.isEmpty { problem = "\(error)" }
            }
        }
        throw TuningError("no configuration in the search is valid: \(problem)")
    }

    // MARK: Candidates

    /// The configuration of a candidate: the reference with each axis's chosen value.
    public func configuration(_ candidate: [Int]) -> ShakeConfiguration {
        var configuration = options.reference
        for (axis, index) in zip(options.axes, candidate) { axis.apply(axis.values[index], to: &configuration) }
        return configuration
    }

    /// Every point of the coarse grid, in axis order (the first axis varies slowest).
    func gridCandidates() -> [[Int]] {
        var candidates: [[Int]] = [[]]
        for axis in options.axes {
            candidates = candidates.flatMap { prefix in axis.coarseIndices.map { prefix + [$0] } }
        }
        return candidates
    }

    /// The best result of coordinate descents on `subset`, each started from one of the
    /// `TuningOptions.refinementStarts` best distinct candidates of `pool`.
    mutating func descend(on subset: [Int], budget: Double, startingFrom pool: [[Int]]) -> [Int] {
        ensure(pool, on: subset)
        let ranked = pool.filter { !invalid.contains($0) }
            .map { score($0, counts: total($0, on: subset), budget: budget) }
            .sorted { $0.isBetter(than: $1) }
        precondition(!ranked.isEmpty, "no valid configuration to start from (check the axes against validate())")
        var best: Score?
        for start in ranked.prefix(max(1, options.refinementStarts)) {
            let end = descend(from: start.candidate, on: subset, budget: budget)
            let endScore = score(end, counts: total(end, on: subset), budget: budget)
            if best == nil || endScore.isBetter(than: best!) { best = endScore }
        }
        return best!.candidate
    }

    /// Every valid candidate replayed on all of `subset` so far.
    func known(on subset: [Int]) -> [[Int]] {
        cache.compactMap { candidate, counts in subset.allSatisfy { counts[$0] != nil } ? candidate : nil }
    }

    /// Coordinate descent from `start`: each axis in turn takes its best value with the others
    /// held, until a pass changes nothing or `maximumRefinementPasses` are done.
    mutating func descend(from start: [Int], on subset: [Int], budget: Double) -> [Int] {
        var current = start
        for _ in 0..<options.maximumRefinementPasses {
            var changed = false
            for (axisIndex, axis) in options.axes.enumerated() where axis.values.count > 1 {
                let line = axis.values.indices.map { index -> [Int] in
                    var candidate = current
                    candidate[axisIndex] = index
                    return candidate
                }
                let best = bestCandidate(line, on: subset, budget: budget)
                if best != current {
                    current = best
                    changed = true
                }
            }
            if !changed { break }
        }
        return current
    }

    mutating func bestCandidate(_ candidates: [[Int]], on subset: [Int], budget: Double) -> [Int] {
        ensure(candidates, on: subset)
        var best: (candidate: [Int], score: Score)?
        for candidate in candidates {
            let counts = invalid.contains(candidate) ? EvaluationCounts() : total(candidate, on: subset)
            let score = self.score(candidate, counts: counts, budget: budget)
            if best == nil || score.isBetter(than: best!.score) { best = (candidate, score) }
        }
        return best!.candidate
    }

    // MARK: Objective

    struct Score {
        var feasible: Bool
        /// False shakes plus duplicates.
        var errors: Int
        var detected: Int
        var latency: Double
        var distance: Double
        var candidate: [Int]

        /// Feasible first; then (infeasible) fewer errors; more detected; fewer errors (a feasible
        /// candidate's are its false shakes: it has no duplicates); lower latency; closer to the
        /// reference; earlier in axis order.
        func isBetter(than other: Score) -> Bool {
            if feasible != other.feasible { return feasible }
            if !feasible && errors != other.errors { return errors < other.errors }
            if detected != other.detected { return detected > other.detected }
            if errors != other.errors { return errors < other.errors }
            if latency != other.latency { return latency < other.latency }
            if distance != other.distance { return distance < other.distance }
            return candidate.lexicographicallyPrecedes(other.candidate)
        }
    }

    func score(_ candidate: [Int], counts: EvaluationCounts, budget: Double) -> Score {
        if invalid.contains(candidate) {
            return Score(feasible: false, errors: .max, detected: 0, latency: .infinity, distance: .infinity,
                         candidate: candidate)
        }
        var distance = 0.0
        for (axis, index) in zip(options.axes, candidate) {
            distance += abs(axis.values[index] - axis.value(in: options.reference)) / axis.span
        }
        let median = EvaluationSummary.percentile(counts.latencies.sorted(), 0.5) ?? .infinity
        let latency = (median / Self.latencyResolutionSeconds).rounded()
        return Score(feasible: isFeasible(counts, budget: budget), errors: counts.falseShakes + counts.duplicates,
                     detected: counts.detected, latency: latency, distance: distance, candidate: candidate)
    }

    /// Within `budget` false shakes per hour of negative time, and no duplicates.
    func isFeasible(_ counts: EvaluationCounts, budget: Double) -> Bool {
        guard counts.duplicates == 0 else { return false }
        guard counts.falseShakes > 0 else { return true }
        guard counts.negativeSeconds > 0 else { return false }
        return Double(counts.falseShakes) / (counts.negativeSeconds / 3600) <= budget * (1 + 1e-12)
    }

    // MARK: Replays

    /// Sum of the cached counts of `candidate` over `subset`, in recording order.
    func total(_ candidate: [Int], on subset: [Int]) -> EvaluationCounts {
        var sum = EvaluationCounts()
        let perRecording = cache[candidate]!
        for index in subset { sum += perRecording[index]! }
        return sum
    }

    /// Replays every (candidate, recording) pair not yet cached, on `options.jobs` threads.
    mutating func ensure(_ candidates: [[Int]], on subset: [Int]) {
        var work: [(candidate: [Int], recording: Int)] = []
        var seen = Set<[Int]>()
        for candidate in candidates where seen.insert(candidate).inserted && !invalid.contains(candidate) {
            if cache[candidate] == nil {
                do {
                    try configuration(candidate).validate()
                } catch {
                    invalid.insert(candidate)
                    continue
                }
            }
            let cached = cache[candidate]
            for recording in subset where cached?[recording] == nil { work.append((candidate, recording)) }
        }
        guard !work.isEmpty else { return }
        // Longest replays first, so the threads finish together.
        work.sort { recordings[$0.recording].samples.count > recordings[$1.recording].samples.count }
        let tasks = configurationsAndRecordings(work)
        let results = ResultSlots(count: work.count)
        let loaded = recordings
        let counter = counter
        let handler = progressHandler
        let newConfigurations = Set(work.map(\.candidate)).filter { cache[$0] == nil }.count
        counter.configurations.add(newConfigurations, ordering: .relaxed)
        Self.parallelForEach(count: work.count, jobs: options.jobs) { index in
            let job = tasks[index]
            let recording = loaded[job.recording]
            let counts = recording.evaluate(job.configuration)
            results.store(counts, at: index)
            counter.done.add(recording.samples.count, ordering: .relaxed)
            handler(counter.progress())
        }
        let counts = results.values()
        for (index, item) in work.enumerated() {
            if cache[item.candidate] == nil {
                cache[item.candidate] = [EvaluationCounts?](repeating: nil, count: recordings.count)
            }
            cache[item.candidate]![item.recording] = counts[index]
        }
    }

    private func configurationsAndRecordings(_ work: [(candidate: [Int], recording: Int)])
        -> [(configuration: ShakeConfiguration, recording: Int)]
    {
        work.map { (configuration($0.candidate), $0.recording) }
    }

    /// Runs `body(0..<count)` on at most `jobs` threads (each takes the next index).
    static func parallelForEach(count: Int, jobs: Int, _ body: @Sendable (Int) -> Void) {
        let threads = max(1, min(jobs, count))
        if threads == 1 {
            for index in 0..<count { body(index) }
            return
        }
        let next = WorkCounter()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.done.wrappingAdd(1, ordering: .relaxed).oldValue
                if index >= count { break }
                body(index)
            }
        }
    }

    // MARK: Progress

    private func report() { progressHandler(counter.progress()) }

    private func sampleCount(_ subset: [Int]) -> Int {
        subset.reduce(0) { $0 + recordings[$1].samples.count }
    }

    /// Configurations a search is expected to replay, for the first work estimate.
    private var descentReplays: Int {
        max(1, (1 + options.refinementStarts) * options.axes.reduce(0) { $0 + $1.values.count } / 3)
    }

    /// A descent that was counted in the work estimate. The first one (the main search, which
    /// starts with little in the cache, as each cross-validation fold does) measures the real
    /// cost per planned replay; the estimate of the remaining searches is scaled by it.
    private mutating func plannedDescent(on subset: [Int], budget: Double, startingFrom pool: [[Int]]) -> [Int] {
        let before = counter.done.load(ordering: .relaxed)
        let result = descend(on: subset, budget: budget, startingFrom: pool)
        let planned = sampleCount(subset) * descentReplays
        remainingDescentSamples = max(0, remainingDescentSamples - planned)
        let done = counter.done.load(ordering: .relaxed)
        if firstDescentRatio == nil { firstDescentRatio = Double(done - before) / Double(max(1, planned)) }
        counter.estimate.store(done + Int((firstDescentRatio ?? 1) * Double(remainingDescentSamples)), ordering: .relaxed)
        return result
    }

    // MARK: Cross-validation folds

    struct Folds {
        var method: String
        var folds: [(name: String, training: [Int], heldOut: [Int])]
    }

    func crossValidationFolds() -> Folds? {
        guard recordings.count >= 2 else { return nil }
        let groups = Array(Set(recordings.map(\.group))).sorted()
        if groups.count >= 3 {
            return Folds(method: "leave-one-group-out", folds: groups.map { group in
                (group, recordings.indices.filter { recordings[$0].group != group },
                 recordings.indices.filter { recordings[$0].group == group })
            })
        }
        let k = min(5, recordings.count)
        let order = recordings.indices.sorted { recordings[$0].path < recordings[$1].path }
        return Folds(method: "k-fold by file", folds: (0..<k).map { fold in
            let heldOut = order.enumerated().filter { $0.offset % k == fold }.map(\.element).sorted()
            return ("fold \(fold + 1)", recordings.indices.filter { !heldOut.contains($0) }, heldOut)
        })
    }
}

/// Shared counters of a tuning run, updated by worker threads.
final class WorkCounter: Sendable {
    let done = Atomic<Int>(0)
    let estimate = Atomic<Int>(0)
    let configurations = Atomic<Int>(0)
    let stage = Mutex<String>("")

    func progress() -> TuningProgress {
        let done = done.load(ordering: .relaxed)
        return TuningProgress(samplesDone: done, samplesEstimated: max(done, estimate.load(ordering: .relaxed)),
                              configurationsEvaluated: configurations.load(ordering: .relaxed),
                              stage: stage.withLock { $0 })
    }
}

/// Results written by worker threads, one slot each.
final class ResultSlots: Sendable {
    private let slots: Mutex<[EvaluationCounts?]>

    init(count: Int) { slots = Mutex([EvaluationCounts?](repeating: nil, count: count)) }

    func store(_ counts: EvaluationCounts, at index: Int) { slots.withLock { $0[index] = counts } }

    func values() -> [EvaluationCounts] { slots.withLock { $0.map { $0! } } }
}
