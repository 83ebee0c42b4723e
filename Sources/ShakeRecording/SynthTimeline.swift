import ShakeDetection

/// A script laid out in time, with every random choice of the motion made: the continuous,
/// noise-free signal a perfect accelerometer would read.
struct SynthTimeline: Sendable {
    enum Model: Sendable {
        case rest(SynthRestModel)
        case shake(SynthShakeModel)
        case gait(SynthGaitModel)
        case pose(SynthPoseModel)
        case tap(SynthTapModel)
    }

    struct Segment: Sendable {
        let start: Double
        let end: Double
        let isShake: Bool
        let model: Model
    }

    let segments: [Segment]
    /// Total length, s.
    let duration: Double

    /// Lays out `script` starting at time 0, in the orientation the first segment names
    /// (`.flat` when it names none).
    /// Motion randomness comes from stream 0 of `seed`.
    init(script: [MotionSegment], seed: UInt64) throws(SynthesisError) {
        guard !script.isEmpty else {
            throw SynthesisError(location: "script", parameter: "segments", value: 0, allowed: "at least 1")
        }
        var random = SynthRandom(seed: seed, stream: 0)
        var orientation = script[0].declaredOrientation ?? .flat
        var start = 0.0
        var segments: [Segment] = []
        segments.reserveCapacity(script.count)
        for (index, segment) in script.enumerated() {
            let location = "segment \(index + 1) (\(segment.kindName))"
            if case .shake(let shake) = segment {
                // A shake given in cycles has its length from it (cycles / frequencyHertz): a
                // frequency of 0 or NaN was reported as "seconds", which the user never gave.
                try SynthesisError.check(shake.frequencyHertz, in: 1...12, "frequencyHertz", location)
            }
            try SynthesisError.check(segment.seconds, in: 0.001...1e6, "seconds", location)
            let model: Model
            switch segment {
            case .rest(let seconds, let target, let held):
                let turn = SynthTurn(from: orientation, to: target, segmentSeconds: seconds)
                orientation = turn.to
                model = .rest(SynthRestModel(turn: turn, tremor: held ? SynthTremor(random: &random) : nil, taps: []))
            case .typing(let seconds, let rate):
                try SynthesisError.check(rate, in: 0...20, "tapsPerSecond", location)
                let turn = SynthTurn(from: orientation, to: nil, segmentSeconds: seconds)
                let tremor = SynthTremor(random: &random)
                var taps: [(time: Double, peak: Double)] = []
                if rate > 0 {
                    var t = random.uniform(0.1, 1) / rate
                    while t < seconds - 4 * SynthRestModel.tapWidth {
                        taps.append((t, random.uniform(0.03, 0.12) * standardGravity))
                        t += random.uniform(0.5, 1.5) / rate
                    }
                }
                model = .rest(SynthRestModel(turn: turn, tremor: tremor, taps: taps))
            case .shake(let shake):
                // (frequencyHertz: checked above, before the length it gives.)
                try SynthesisError.check(shake.amplitudeG, in: 0.1...8, "amplitudeG", location)
                try SynthesisError.check(
                    SynthVector.length(shake.direction), in: 1e-6...1e6, "direction length", location)
                try SynthesisError.check(shake.rotationDegrees, in: 0...45, "rotationDegrees", location)
                try SynthesisError.check(shake.crossAxisLeakage, in: 0...1, "crossAxisLeakage", location)
                try SynthesisError.check(shake.frequencyWobble, in: 0...0.3, "frequencyWobble", location)
                model = .shake(SynthShakeModel(shake, orientation: orientation, random: &random))
            case .gait(let gait):
                let range: ClosedRange<Double> = gait.kind == .walk ? 1.2...2.6 : 2.2...3.6
                try SynthesisError.check(gait.stepHertz, in: range, "stepHertz", location)
                try SynthesisError.check(gait.bounceG, in: 0...3, "bounceG", location)
                try SynthesisError.check(gait.impactG, in: 0...4, "impactG", location)
                let gaitModel = SynthGaitModel(gait, from: orientation, random: &random)
                orientation = gaitModel.turn.to
                model = .gait(gaitModel)
            case .pickUp(let seconds, let target, let lift), .putDown(let seconds, let target, let lift):
                let isPickUp = if case .pickUp = segment { true } else { false }
                try SynthesisError.check(lift, in: 0...1, isPickUp ? "liftMeters" : "lowerMeters", location)
                let peak = SynthPoseModel.peakAcceleration(meters: lift, seconds: seconds)
                guard peak <= 0.5 * standardGravity else {
                    throw SynthesisError(
                        location: location, parameter: "peak acceleration (m/s²) of \(lift) m in \(seconds) s",
                        value: peak, allowed: "0…\(0.5 * standardGravity) (0.5 g)")
                }
                let displacement = isPickUp ? SIMD3(-0.4 * lift, 0, lift) : SIMD3(0.4 * lift, 0, -lift)
                model = .pose(
                    SynthPoseModel(
                        seconds: seconds, from: orientation, to: target, displacement: displacement,
                        landing: !isPickUp))
                orientation = target
            case .tap(let tap):
                try SynthesisError.check(tap.peakG, in: 0.1...16, "peakG", location)
                try SynthesisError.check(tap.widthSeconds, in: 0.001...0.1, "widthSeconds", location)
                try SynthesisError.check(tap.atSeconds, in: 0...tap.seconds, "atSeconds", location)
                model = .tap(SynthTapModel(tap: tap, rotation: orientation.rotation))
            }
            segments.append(Segment(start: start, end: start + segment.seconds, isShake: segment.isShake, model: model))
            start += segment.seconds
        }
        self.segments = segments
        duration = start
    }

    /// Index of the segment playing at `time` (clamped to the script).
    func segmentIndex(at time: Double) -> Int {
        max(0, segments.synthPartitionIndex { $0.start > time } - 1)
    }

    /// Whether `time` lies within a shake segment: [start, end).
    func isShake(at time: Double) -> Bool {
        let segment = segments[segmentIndex(at: time)]
        return segment.isShake && time >= segment.start && time < segment.end
    }

    /// What a perfect accelerometer reads at `time` (clamped to 0…duration): device frame,
    /// m/s², gravity included.
    func reading(at time: Double) -> SIMD3<Double> {
        let time = min(max(time, 0), duration)
        let segment = segments[segmentIndex(at: time)]
        let τ = min(time - segment.start, segment.end - segment.start)
        switch segment.model {
        case .rest(let model): return model.reading(at: τ)
        case .shake(let model): return model.reading(at: τ)
        case .gait(let model): return model.reading(at: τ)
        case .pose(let model): return model.reading(at: τ)
        case .tap(let model): return model.reading(at: τ)
        }
    }
}
