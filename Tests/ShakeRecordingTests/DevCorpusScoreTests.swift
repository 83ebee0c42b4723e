import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

/// The medium preset on the real dev corpus (`../shared/data/dev`, present in CI): the issue's
/// aims hold there, and a sensor sampling at 25 or 50 Hz would see the same shakes. A detector
/// or preset change that breaks either fails here, before anyone looks at eval. (`Scripts/dev-check`
/// prints the same figures, with harder variants of dev, for a person deciding on a change.)
@Suite struct DevCorpusScoreTests {
    /// Each dev recording's samples and labels, read once.
    static let recordings: [(path: String, samples: [Sample], labels: [Bool])] =
        CSVCorpusTests.devFiles.compactMap { path in
            // A file that fails to load is left out, which the tests report as a missing recording.
            var samples: [Sample] = [], labels: [Bool] = []
            do {
                var reader = try RecordingReader(path: path)
                while let row = try reader.next() {
                    samples.append(row.sample)
                    labels.append(row.isShake ?? false)
                }
            } catch {
                return nil
            }
            return (path, samples, labels)
        }

    static func score(rate: Double? = nil) -> EvaluationSummary {
        var total = EvaluationCounts()
        for recording in recordings {
            let (samples, labels) = rate.map { averaged(recording.samples, recording.labels, rate: $0) }
                ?? (recording.samples, recording.labels)
            total += TuningRecording(path: recording.path, samples: samples, labels: labels)
                .evaluate(ShakeConfiguration.medium)
        }
        return total.summary
    }

    /// The aims of the issue, on dev: recall ≥ 0.95, at most 2 false shakes per hour of
    /// negative time, no shake fired twice.
    @Test func mediumMeetsTheAimsOnDev() throws {
        try #require(Self.recordings.count == 17, "the 17 dev recordings, each loaded")
        let total = Self.score()
        #expect(total.shakes == 36)
        #expect(try #require(total.recall) >= 0.95, "\(total)")
        #expect(try #require(total.falsePerHour) <= 2, "\(total)")
        #expect(total.duplicates == 0, "\(total)")
    }

    /// Dev as a sensor at `rate` reads it (dev is recorded at 51 to 406 Hz): the same shakes
    /// found, the same false shakes, no duplicates, latency median within 50 ms.
    @Test(arguments: [25.0, 50.0])
    func devReadAtALowerRateScoresTheSame(rate: Double) throws {
        try #require(Self.recordings.count == 17, "the 17 dev recordings, each loaded")
        let native = Self.score()
        let resampled = Self.score(rate: rate)
        #expect(resampled.shakes == native.shakes)
        #expect(resampled.detected == native.detected, "at \(rate) Hz: \(resampled)")
        #expect(resampled.falseShakes == native.falseShakes, "at \(rate) Hz: \(resampled)")
        #expect(resampled.duplicates == 0)
        let nativeLatency = try #require(native.latencyMedianSeconds)
        let latency = try #require(resampled.latencyMedianSeconds)
        #expect(abs(latency - nativeLatency) <= 0.05, "at \(rate) Hz: \(latency) s against \(nativeLatency) s")
    }

    /// Dev's Wiimote sessions ten times over, every clip (each spliced gesture, the shakes and the
    /// others, up to the next) turned by its own random rotation, as `Scripts/dev-check`'s `clips`
    /// row does (with other rotations, seeded here): the gestures, made in other orientations and
    /// after a sudden turn, fire at most 2 false shakes per hour (the aim), and 90 % of the
    /// shakes are found. Today 189 of 200 and 1 false shake in 1.08 h; the detector before the
    /// linearity test measured about its mean found 187 and fired 9 here (11 on that row).
    @Test func wiimoteGesturesTurnedAtRandomRarelyFire() throws {
        let sessions = Self.recordings.filter { $0.path.split(separator: "/").last?.hasPrefix("wiimote") == true }
        try #require(sessions.count == 4, "the 4 dev Wiimote sessions, each loaded")
        // The clips are found (the corpus README: each clip after a rest that holds one sample,
        // `shake` = 1 exactly on a shake clip's samples, at least one other clip between two
        // shakes): each shake starts a clip, and another starts between two shakes.
        for session in sessions {
            let starts = clipStarts(session.samples)
            let onsets = session.labels.indices.filter { session.labels[$0] && ($0 == 0 || !session.labels[$0 - 1]) }
            try #require(onsets.count == 5 && onsets.allSatisfy { starts.contains($0) || starts.contains($0 + 1) }
                         && zip(onsets, onsets.dropFirst()).allSatisfy { a, b in starts.contains { $0 > a + 1 && $0 < b } },
                         "\(session.path): shakes begin at \(onsets), clips at \(starts)")
        }
        var random = SynthRandom(seed: 1, stream: 0)
        var total = EvaluationCounts()
        for _ in 0..<10 {
            for session in sessions {
                let samples = clipsTurned(session.samples, random: &random)
                total += TuningRecording(path: session.path, samples: samples, labels: session.labels)
                    .evaluate(ShakeConfiguration.medium)
            }
        }
        let summary = total.summary
        #expect(summary.shakes == 200)
        #expect(try #require(summary.falsePerHour) <= 2, "\(summary)")
        #expect(summary.duplicates == 0, "\(summary)")
        #expect(try #require(summary.recall) >= 0.9, "\(summary)")
    }

    /// Dev's walks (the Oxford recordings: in hand, pockets, bag, armband, neck pouch) made 1.6
    /// and 2 times as vigorous, as `Scripts/dev-check`'s walks row does at their own cadence: no
    /// false shake. (Before the ongoing-motion rule asked for two strong half-waves, the bag walk
    /// x2 fired 3 here: a step's single jolt over 25 m/s² during the walk.)
    @Test(arguments: [1.6, 2.0])
    func vigorousWalksFireNoFalseShake(gain: Double) throws {
        let walks = Self.recordings.filter { $0.path.split(separator: "/").last?.hasPrefix("oxford") == true }
        try #require(walks.count == 11, "the 11 dev walks, each loaded")
        for walk in walks {
            let samples = moreVigorous(walk.samples, gain: gain)
            var detector = ShakeDetector(configuration: .medium)
            let began = samples.compactMap { detector.process($0) }.filter { $0.phase == .began }
            #expect(began.isEmpty, "\(walk.path) x\(gain): shakes began at \(began.map(\.time)) s")
        }
    }
}

/// `samples` with every clip turned by its own random rotation (uniform over all rotations), as
/// `Scripts/scale-walks --turns N --clips` does: a clip starts at the first sample and after
/// every run of 5 or more samples that each repeat the one before exactly (the gaps between the
/// Wiimote sessions' spliced gestures), and runs to the next clip.
func clipsTurned(_ samples: [Sample], random: inout SynthRandom) -> [Sample] {
    turned(samples, stretchesFrom: clipStarts(samples), random: &random)
}

/// Where `clipsTurned` starts the clips of `samples` (ascending, the first 0).
func clipStarts(_ samples: [Sample]) -> [Int] {
    func repeatsTheOneBefore(_ k: Int) -> Bool {
        samples[k].x == samples[k - 1].x && samples[k].y == samples[k - 1].y && samples[k].z == samples[k - 1].z
    }
    var starts = [0]
    var k = 1
    while k < samples.count {
        var end = k
        while end < samples.count && repeatsTheOneBefore(end) { end += 1 }
        if end - k >= 5 && end < samples.count { starts.append(end) }
        k = max(end, k + 1)
    }
    return starts
}

/// `samples` with each stretch from one index of `starts` (ascending, the first 0) to the next
/// turned by its own uniform random rotation, from a uniform unit quaternion (Shoemake).
func turned(_ samples: [Sample], stretchesFrom starts: [Int], random: inout SynthRandom) -> [Sample] {
    var result = samples
    for (start, next) in zip(starts, starts.dropFirst() + [samples.count]) {
        let u1 = random.unit(), u2 = random.unit(), u3 = random.unit()
        let x = (1 - u1).squareRoot() * sin(2 * .pi * u2), y = (1 - u1).squareRoot() * cos(2 * .pi * u2)
        let z = u1.squareRoot() * sin(2 * .pi * u3), w = u1.squareRoot() * cos(2 * .pi * u3)
        let m = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                 [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                 [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
        for k in start..<next {
            let s = samples[k]
            result[k] = Sample(time: s.time, x: m[0][0] * s.x + m[0][1] * s.y + m[0][2] * s.z,
                               y: m[1][0] * s.x + m[1][1] * s.y + m[1][2] * s.z,
                               z: m[2][0] * s.x + m[2][1] * s.y + m[2][2] * s.z)
        }
    }
    return result
}

/// The motion about gravity multiplied by `gain`, gravity kept (as `Scripts/scale-walks --gain`):
/// gravity is a zero-phase one-pole low-pass of each axis (0.5 s, run forwards then backwards).
func moreVigorous(_ samples: [Sample], gain: Double) -> [Sample] {
    guard samples.count > 1 else { return samples }
    func lowPass(_ axis: KeyPath<Sample, Double>) -> [Double] {
        let tau = 0.5
        var forward = [samples[0][keyPath: axis]]
        forward.reserveCapacity(samples.count)
        for i in 1..<samples.count {
            let a = -expm1(-(samples[i].time - samples[i - 1].time) / tau)
            forward.append(forward[i - 1] + a * (samples[i][keyPath: axis] - forward[i - 1]))
        }
        var result = forward
        for i in stride(from: samples.count - 2, through: 0, by: -1) {
            let a = -expm1(-(samples[i + 1].time - samples[i].time) / tau)
            result[i] = result[i + 1] + a * (forward[i] - result[i + 1])
        }
        return result
    }
    let gx = lowPass(\.x), gy = lowPass(\.y), gz = lowPass(\.z)
    return samples.indices.map { i in
        let s = samples[i]
        return Sample(time: s.time, x: gx[i] + gain * (s.x - gx[i]),
                      y: gy[i] + gain * (s.y - gy[i]), z: gz[i] + gain * (s.z - gz[i]))
    }
}

/// Samples averaged over consecutive periods of 1/`rate` s from the first sample, as a sensor
/// that averages over its sample period reads the motion: one sample per period that holds
/// samples, at the period's end, labelled a shake when any sample in it was.
func averaged(_ samples: [Sample], _ labels: [Bool], rate: Double) -> ([Sample], [Bool]) {
    let period = 1 / rate
    let start = samples[0].time
    var outSamples: [Sample] = [], outLabels: [Bool] = []
    var bucket = -1
    var sum = (x: 0.0, y: 0.0, z: 0.0), count = 0.0, isShake = false
    func flush() {
        guard count > 0 else { return }
        outSamples.append(Sample(time: start + Double(bucket + 1) * period,
                                 x: sum.x / count, y: sum.y / count, z: sum.z / count))
        outLabels.append(isShake)
    }
    for (sample, label) in zip(samples, labels) {
        let index = Int(((sample.time - start) / period).rounded(.down))
        if index != bucket {
            flush()
            bucket = index
            sum = (0, 0, 0); count = 0; isShake = false
        }
        sum.x += sample.x; sum.y += sample.y; sum.z += sample.z
        count += 1
        isShake = isShake || label
    }
    flush()
    return (outSamples, outLabels)
}
