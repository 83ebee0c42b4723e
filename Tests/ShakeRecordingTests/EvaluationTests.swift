import Testing
import ShakeRecording

@Suite struct ShakeScorerTests {
    /// 10 s at 10 Hz with one labelled shake from 2.0 s to 3.0 s and another from 6.0 s to 6.5 s.
    func scorer(detections: [Double]) -> EvaluationCounts {
        var scorer = ShakeScorer()
        for step in 0..<100 {
            let time = Double(step) / 10
            let shaking = (time >= 1.95 && time <= 3.05) || (time >= 5.95 && time <= 6.55)
            scorer.addSample(time: time, isShake: shaking)
        }
        for time in detections { scorer.addDetection(at: time) }
        return scorer.finish()
    }

    @Test func detectionsInsideWindowsMatchOncePerShake() {
        let counts = scorer(detections: [2.4, 6.1])
        #expect(counts.shakes == 2)
        #expect(counts.detected == 2)
        #expect(counts.duplicates == 0)
        #expect(counts.falseShakes == 0)
        #expect(counts.latencies.count == 2)
        #expect(abs(counts.latencies[0] - 0.4) < 1e-9)
        #expect(abs(counts.latencies[1] - 0.1) < 1e-9)
    }

    @Test(arguments: [
        // A detection up to 0.5 s before the start or after the end still matches.
        ([1.55], 1, 0, 0),
        ([3.45], 1, 0, 0),
        ([1.45], 0, 0, 1),
        ([3.55], 0, 0, 1),
        // A second detection in a matched window is a duplicate.
        ([2.2, 2.9], 1, 1, 0),
        // Detections far from any shake are false.
        ([0.5, 4.5, 9.0], 0, 0, 3),
    ] as [([Double], Int, Int, Int)])
    func windowEdgesDuplicatesAndFalseShakes(detections: [Double], detected: Int, duplicates: Int, falseShakes: Int) {
        let counts = scorer(detections: detections)
        #expect(counts.detected == detected)
        #expect(counts.duplicates == duplicates)
        #expect(counts.falseShakes == falseShakes)
    }

    /// A detection exactly on a window's edge matches, though the edge computed in binary
    /// (1.97 + 0.5 = 2.4699999999999998, 16.1 − 0.5 = 15.600000000000001) lies just inside.
    @Test(arguments: [(1.0, 1.97, 2.47), (16.1, 16.6, 15.6)])
    func detectionOnAWindowEdgeMatches(start: Double, end: Double, detection: Double) {
        var scorer = ShakeScorer()
        for step in 0...2000 {
            let time = Double(step) / 100
            scorer.addSample(time: time, isShake: time >= start && time <= end)
        }
        scorer.addDetection(at: detection)
        let counts = scorer.finish()
        #expect(counts.detected == 1)
        #expect(counts.falseShakes == 0)
        // And just past the edge it is a false shake.
        var later = scorer
        later.addDetection(at: detection < start ? detection - 0.001 : detection + 0.001)
        #expect(later.finish().falseShakes == 1)
    }

    /// On the edge in whole microseconds matches, 1 µs past it does not, whatever the times' size
    /// (a slack of 1 µs added to the seconds took most such detections as inside, by rounding:
    /// 148 of 180 near 0, 1000 and 86400 s).
    @Test(arguments: [0.0, 1000, 86400, 1_700_000_000])
    func oneMicrosecondPastAnEdgeIsOutside(base: Double) {
        for (startOffset, endOffset) in [(1.0, 1.909999), (1.000001, 1.9)] {
            let (start, end) = (base + startOffset, base + endOffset)
            for (detection, inside) in [(end + 0.5, true), (end + 0.500001, false), (end + 0.499999, true),
                                        (start - 0.5, true), (start - 0.500001, false)] {
                var scorer = ShakeScorer()
                for time in [base, start, end, base + 5] {
                    scorer.addSample(time: time, isShake: time == start || time == end)
                }
                scorer.addDetection(at: detection)
                let counts = scorer.finish()
                #expect(counts.detected == (inside ? 1 : 0), "base \(base), run \(start)–\(end), detection \(detection)")
                #expect(counts.falseShakes == (inside ? 0 : 1))
            }
        }
    }

    /// Times beyond 1.8e302 s (whose microseconds overflow) are compared in seconds: a detection
    /// far from the run is no match (with infinite microseconds every comparison held).
    @Test func hugeTimesAreComparedInSeconds() {
        var scorer = ShakeScorer()
        scorer.addSample(time: 1e303, isShake: true)
        scorer.addSample(time: 2e303, isShake: false)
        scorer.addDetection(at: 1.5e303)
        scorer.addDetection(at: 1e303)
        let counts = scorer.finish()
        #expect(counts.detected == 1)
        #expect(counts.falseShakes == 1)
    }

    /// `outcome()` names what the counts count: the run no detection matched (by its first and
    /// last labelled sample), the false shake's and the duplicate's times; its counts are
    /// `finish()`'s.
    @Test func outcomeListsMissedShakesFalseShakesAndDuplicates() {
        var scorer = ShakeScorer()
        for step in 0..<100 {
            let time = Double(step) / 10
            scorer.addSample(time: time, isShake: (time >= 1.95 && time <= 3.05) || (time >= 5.95 && time <= 6.55))
        }
        for time in [9.0, 2.9, 0.5, 2.2] { scorer.addDetection(at: time) }
        let (counts, details) = scorer.outcome()
        #expect(counts == scorer.finish())
        #expect(counts.detected == 1 && counts.duplicates == 1 && counts.falseShakes == 2)
        #expect(details.missed == [LabeledShake(start: 6.0, end: 6.5)])
        #expect(details.falseShakeTimes == [0.5, 9.0])
        #expect(details.duplicateTimes == [2.9])
    }

    @Test func negativeTimeCountsOnlyUnlabelledIntervals() {
        let counts = scorer(detections: [])
        // 9.9 s of sample intervals; each interval takes the label of the sample that starts it,
        // so 11 + 6 labelled samples account for 1.7 s.
        #expect(abs(counts.negativeSeconds - 8.2) < 1e-9)
    }

    @Test func summaryRatiosAndPercentiles() {
        var counts = EvaluationCounts()
        counts.shakes = 4
        counts.detected = 3
        counts.duplicates = 1
        counts.falseShakes = 2
        counts.negativeSeconds = 1800
        counts.latencies = [0.4, 0.2, 0.8]
        let summary = counts.summary
        #expect(summary.recall == 0.75)
        #expect(summary.precision == 0.5)
        #expect(summary.falsePerHour == 4)
        #expect(abs((summary.f1 ?? 0) - 0.6) < 1e-12)
        #expect(summary.latencyMedianSeconds == 0.4)
        #expect(abs((summary.latencyP95Seconds ?? 0) - 0.76) < 1e-12)
    }

    @Test func undefinedRatiosAreNil() {
        let summary = EvaluationCounts().summary
        #expect(summary.recall == nil)
        #expect(summary.precision == nil)
        #expect(summary.falsePerHour == nil)
        #expect(summary.latencyMedianSeconds == nil)
    }

    /// Each interval between samples takes the label of the sample that starts it, also when the
    /// intervals are uneven: the 2 s after the labelled sample at 1 s are not negative time, so
    /// 2 s are, and one false shake in them is 1800 per hour (by the sample that ends each
    /// interval it would be 3 s and 1200 per hour).
    @Test func negativeTimeTakesTheLabelOfEachIntervalsFirstSample() {
        var scorer = ShakeScorer()
        for (time, shaking) in [(0.0, false), (1.0, true), (3.0, false), (4.0, false)] {
            scorer.addSample(time: time, isShake: shaking)
        }
        scorer.addDetection(at: 3.8)
        let summary = scorer.finish().summary
        #expect(summary.falseShakes == 1)
        #expect(summary.negativeHours * 3600 == 2)
        #expect(summary.falsePerHour == 1800)
    }

    /// A recording that ends while labelled shaking still holds that shake: it is counted, listed
    /// as missed (to its last sample) while no detection matches it, and matched by one in it.
    @Test func aShakeThatRunsToTheRecordingsEndCounts() {
        var scorer = ShakeScorer()
        for step in 0...30 {
            scorer.addSample(time: Double(step) / 10, isShake: step >= 20)
        }
        let (unmatched, details) = scorer.outcome()
        #expect(unmatched.shakes == 1)
        #expect(details.missed == [LabeledShake(start: 2.0, end: 3.0)])
        scorer.addDetection(at: 2.3)
        let counts = scorer.finish()
        #expect(counts.shakes == 1)
        #expect(counts.detected == 1)
        #expect(counts.falseShakes == 0)
    }

    /// Two shakes 0.6 s apart (1.0–1.2 s and 1.8–2.0 s) have overlapping windows; a detection in
    /// the overlap (1.5 s) goes to the earlier one, still unmatched, so the next (2.4 s, in the
    /// later window only) matches the later one. Given to the later shake, the first would have
    /// left the second a duplicate and the earlier shake missed.
    @Test func aDetectionInOverlappingWindowsGoesToTheEarlierShake() {
        var scorer = ShakeScorer()
        for step in 0...30 {
            scorer.addSample(time: Double(step) / 10, isShake: (10...12).contains(step) || (18...20).contains(step))
        }
        scorer.addDetection(at: 1.5)
        scorer.addDetection(at: 2.4)
        let (counts, details) = scorer.outcome()
        #expect(counts.detected == 2)
        #expect(counts.duplicates == 0)
        #expect(details.missed.isEmpty)
        #expect(counts.latencies.count == 2)
        #expect(abs(counts.latencies[0] - 0.5) < 1e-9)
        #expect(abs(counts.latencies[1] - 0.6) < 1e-9)
    }

    /// Beyond 1.8e302 s, where times are compared in seconds, a run's window still reaches to its
    /// last sample (plus the tolerance), not only to its first.
    @Test func hugeTimesMatchUpToTheRunsLastSample() {
        var scorer = ShakeScorer()
        scorer.addSample(time: 1e303, isShake: true)
        scorer.addSample(time: 2e303, isShake: true)
        scorer.addSample(time: 3e303, isShake: false)
        scorer.addDetection(at: 2e303)
        let counts = scorer.finish()
        #expect(counts.detected == 1)
        #expect(counts.falseShakes == 0)
    }

    /// Detections but none of them on a labelled shake: recall and precision are 0, and F1 is 0
    /// too (defined, written as 0, not null).
    @Test func f1IsZeroWhenNoDetectionFindsAShake() {
        var counts = EvaluationCounts()
        counts.shakes = 3
        counts.falseShakes = 2
        counts.negativeSeconds = 3600
        let summary = counts.summary
        #expect(summary.recall == 0)
        #expect(summary.precision == 0)
        #expect(summary.f1 == 0)
    }

    /// One matched shake: its latency is both the median and the 95th percentile.
    @Test func oneLatencyIsItsOwnMedianAndP95() {
        var counts = EvaluationCounts()
        counts.shakes = 1
        counts.detected = 1
        counts.latencies = [0.3]
        #expect(counts.summary.latencyMedianSeconds == 0.3)
        #expect(counts.summary.latencyP95Seconds == 0.3)
    }
}
