import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `HalfWaveChainCollector` (the detector's chains, from its explanations), near misses, and
/// `RecordingReplay.runExplaining` (the same events as `run`, plus near misses and why each
/// missed labelled shake was missed).
@Suite struct HalfWaveChainTests {
    typealias HalfWave = ShakeExplanation.HalfWave

    static func halfWave(_ peak: Double, chain: Int, _ link: ShakeExplanation.Link) -> HalfWave {
        HalfWave(startTime: peak - 0.05, peakTime: peak, peakAcceleration: 15, chainHalfWaves: chain, link: link)
    }

    static let linked = ShakeExplanation.Link.linked(cosine: -0.9, intervalSeconds: 0.15)

    @Test func chainsThatDidNotBecomeAShakeAreNearMisses() {
        var collector = HalfWaveChainCollector()
        func add(_ halfWave: HalfWave? = nil, refusal: ShakeExplanation.Refusal? = nil) {
            collector.add(ShakeExplanation(halfWave: halfWave, refusal: refusal))
        }
        // Three linked half-waves, broken by one pointing the same way.
        let first = [Self.halfWave(1.0, chain: 1, .nothingBefore), Self.halfWave(1.15, chain: 2, Self.linked),
                     Self.halfWave(1.3, chain: 3, Self.linked)]
        first.forEach { add($0) }
        let breaker = Self.halfWave(1.45, chain: 1, .notOpposite(cosine: 0.3, intervalSeconds: 0.15))
        add(breaker)
        // A lone half-wave, then one far too late: not a near miss.
        let late = Self.halfWave(3, chain: 1, .outsideInterval(intervalSeconds: 1.55))
        add(late)
        // Four linked half-waves refused as not straight, ended by the recording.
        let refused = [Self.halfWave(5, chain: 1, .outsideInterval(intervalSeconds: 2)),
                       Self.halfWave(5.15, chain: 2, Self.linked), Self.halfWave(5.3, chain: 3, Self.linked),
                       Self.halfWave(5.45, chain: 4, Self.linked)]
        refused.forEach { add($0) }
        add(refusal: ShakeExplanation.Refusal(time: 5.4, chainStartTime: 4.95, chainHalfWaves: 4,
                                              reason: .notStraight(linearity: 0.7, limit: 0.5)))
        let lastRefusal = ShakeExplanation.Refusal(time: 5.5, chainStartTime: 4.95, chainHalfWaves: 5,
                                                   reason: .notStraight(linearity: 0.65, limit: 0.5))
        add(refusal: lastRefusal)
        let chains = collector.finish()
        #expect(chains.map(\.halfWaves.count) == [3, 1, 1, 4])
        #expect(chains.allSatisfy { $0.shakeBegan == nil })
        let misses = chains.filter(\.isNearMiss)

        #expect(misses.count == 2)
        guard misses.count == 2 else { return }
        #expect(misses[0].halfWaves == first)
        #expect(misses[0].refusal == nil)
        #expect(misses[0].end == .broken(by: breaker))
        #expect(misses[0].startTime == 0.95 && misses[0].lastPeakTime == 1.3)
        #expect(misses[1].halfWaves == refused)
        #expect(misses[1].refusal == lastRefusal)
        #expect(misses[1].end == .recordingEnded)
    }

    /// A chain that one rule refuses, then another, then the first again keeps its last refusal
    /// and the first refusal of each rule, in the order met; the next chain starts with none.
    @Test func aChainKeepsTheFirstRefusalOfEachRule() {
        var collector = HalfWaveChainCollector()
        func refusal(_ time: Double, _ halfWaves: Int, _ reason: ShakeExplanation.Reason) -> ShakeExplanation.Refusal {
            ShakeExplanation.Refusal(time: time, chainStartTime: 0.95, chainHalfWaves: halfWaves, reason: reason)
        }
        let halfWaves = [Self.halfWave(1.0, chain: 1, .nothingBefore), Self.halfWave(1.15, chain: 2, Self.linked),
                         Self.halfWave(1.3, chain: 3, Self.linked), Self.halfWave(1.45, chain: 4, Self.linked),
                         Self.halfWave(1.6, chain: 5, Self.linked)]
        halfWaves.forEach { collector.add(ShakeExplanation(halfWave: $0)) }
        let weak = refusal(1.4, 4, .weakDuringOngoingMotion(strongHalfWaves: 0, needed: 2))
        let weakAgain = refusal(1.42, 4, .weakDuringOngoingMotion(strongHalfWaves: 1, needed: 2))
        let bent = refusal(1.55, 5, .notStraight(linearity: 0.6, limit: 0.5))
        let weakLast = refusal(1.58, 5, .weakDuringOngoingMotion(strongHalfWaves: 1, needed: 2))
        for refused in [weak, weakAgain, bent, weakLast] { collector.add(ShakeExplanation(refusal: refused)) }
        let breaker = Self.halfWave(1.75, chain: 1, .notOpposite(cosine: 0.2, intervalSeconds: 0.15))
        collector.add(ShakeExplanation(halfWave: breaker))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.9, chain: 2, Self.linked)))
        let chains = collector.finish()

        #expect(chains.count == 2)
        guard chains.count == 2 else { return }
        #expect(chains[0].refusal == weakLast)
        #expect(chains[0].firstRefusals == [weak, bent])
        #expect(chains[1].refusal == nil && chains[1].firstRefusals.isEmpty)
        // Made by hand with one refusal, a chain met that one rule.
        let made = HalfWaveChain(halfWaves: halfWaves, refusal: bent, end: .recordingEnded)
        #expect(made.firstRefusals == [bent])
    }

    @Test func aChainThatBeganAShakeIsNotANearMiss() {
        var collector = HalfWaveChainCollector()
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1, chain: 1, .nothingBefore)))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.15, chain: 2, Self.linked)))
        // Refused as refractory at first, then began: a shake, not a near miss.
        collector.add(ShakeExplanation(refusal: ShakeExplanation.Refusal(
            time: 1.4, chainStartTime: 0.95, chainHalfWaves: 4, reason: .refractory(until: 1.45))))
        let began = ShakeExplanation.Began(
            time: 1.5, chainStartTime: 0.95, chainHalfWaves: 4, linearity: 0.2, intervalRatio: 1.1,
            longestIntervalSeconds: 0.16, ongoingMotion: false, strongHalfWaves: 0)
        collector.add(ShakeExplanation(began: began))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.6, chain: 5, Self.linked)))
        // After the shake: two linked half-waves, a near miss.
        collector.add(ShakeExplanation(halfWave: Self.halfWave(3, chain: 1, .nothingBefore)))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(3.15, chain: 2, Self.linked)))
        let chains = collector.finish()
        #expect(chains.map(\.shakeBegan) == [1.5, nil])
        #expect(chains.first?.began == began)
        #expect(chains.first?.halfWaves.count == 3)
        let misses = chains.filter(\.isNearMiss)
        #expect(misses.map(\.startTime) == [2.95])
        #expect(misses.first?.refusal == nil)
    }

    /// A shake goes on through a stroke that does not link: the chain after it is part of the
    /// shake, not a near miss, and it closes when the shake ends, not (as when the collector saw
    /// no events) at the next half-wave, as if the samples had stopped.
    @Test func aChainInsideAShakeIsPartOfItAndClosesWhenItEnds() {
        var collector = HalfWaveChainCollector()
        func shakeEvent(_ phase: ShakeEvent.Phase, at time: Double) -> ShakeEvent {
            ShakeEvent(phase: phase, time: time, startTime: 0.95, endTime: time, peakAcceleration: 15,
                       reversals: 4, dominantAxis: .x)
        }
        let began = ShakeExplanation.Began(
            time: 1.5, chainStartTime: 0.95, chainHalfWaves: 4, linearity: 0.2, intervalRatio: 1.1,
            longestIntervalSeconds: 0.16, ongoingMotion: false, strongHalfWaves: 0)
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1, chain: 1, .nothingBefore)))
        for (i, peak) in [1.15, 1.3, 1.45].enumerated() {
            collector.add(ShakeExplanation(halfWave: Self.halfWave(peak, chain: i + 2, Self.linked)))
        }
        collector.add(ShakeExplanation(began: began), event: shakeEvent(.began, at: 1.5))
        // A stroke the same way as the one before, then two more linked ones, then the end.
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.6, chain: 1, .notOpposite(cosine: 0.5, intervalSeconds: 0.15))))
        for (i, peak) in [1.75, 1.9].enumerated() {
            collector.add(ShakeExplanation(halfWave: Self.halfWave(peak, chain: i + 2, Self.linked)))
        }
        collector.add(ShakeExplanation(), event: shakeEvent(.ended, at: 2.4))
        // After the shake: two linked half-waves, a near miss, ended by the recording.
        collector.add(ShakeExplanation(halfWave: Self.halfWave(4, chain: 1, .nothingBefore)))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(4.15, chain: 2, Self.linked)))
        let chains = collector.finish()
        #expect(chains.map(\.halfWaves.count) == [4, 3, 2])
        #expect(chains.map(\.shakeBegan) == [1.5, nil, nil])
        #expect(chains.map(\.withinShake) == [false, true, false])
        #expect(chains.map(\.end) == [
            .broken(by: Self.halfWave(1.6, chain: 1, .notOpposite(cosine: 0.5, intervalSeconds: 0.15))),
            .shakeEnded, .recordingEnded,
        ])
        #expect(chains.filter(\.isNearMiss).map(\.startTime) == [3.95])
    }

    /// After a shake cancelled as too long, the detector's chain goes on from that shake's start
    /// and is refused for want of a pause, while the next half-wave still rises: the part
    /// collected after the cancellation is one near miss with that refusal, even with fewer than
    /// two half-waves of its own (none, or one), timed by its half-waves or, with none, by the
    /// refusal.
    @Test(arguments: [0, 1, 2])
    func aChainRefusedAfterACancelledShakeIsANearMiss(halfWavesAfterCancellation: Int) {
        var collector = HalfWaveChainCollector()
        func shakeEvent(_ phase: ShakeEvent.Phase, at time: Double) -> ShakeEvent {
            ShakeEvent(phase: phase, time: time, startTime: 0.95, endTime: time, peakAcceleration: 15,
                       reversals: 4, dominantAxis: .x)
        }
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1, chain: 1, .nothingBefore)))
        for (i, peak) in [1.15, 1.3, 1.45].enumerated() {
            collector.add(ShakeExplanation(halfWave: Self.halfWave(peak, chain: i + 2, Self.linked)))
        }
        collector.add(ShakeExplanation(), event: shakeEvent(.began, at: 1.5))
        collector.add(ShakeExplanation(), event: shakeEvent(.cancelled, at: 4))
        let refused = ShakeExplanation.Refusal(time: 4.05, chainStartTime: 0.95, chainHalfWaves: 30, reason: .pauseNeeded)
        collector.add(ShakeExplanation(refusal: refused))
        let after = (0..<halfWavesAfterCancellation).map { Self.halfWave(4.1 + 0.15 * Double($0), chain: 30 + $0, Self.linked) }
        after.forEach { collector.add(ShakeExplanation(halfWave: $0)) }
        let chains = collector.finish()

        #expect(chains.map(\.end) == [.shakeEnded, .recordingEnded])
        let misses = chains.filter(\.isNearMiss)
        #expect(misses.count == 1, "\(chains)")
        #expect(misses.first?.halfWaves == after && misses.first?.refusal == refused)
        // Listed where it happened: with none of its own half-waves, at its refusal (not at 0 s).
        #expect(misses.first?.startTime == after.first?.startTime ?? refused.time)
        #expect(misses.first?.lastPeakTime == after.last?.peakTime ?? refused.time)
    }

    /// `removeClosedChains` hands each closed chain over once (as `shake live --explain` reports
    /// it): what `finish` returns afterwards is only the chains closed since.
    @Test func closedChainsAreHandedOverOnce() {
        var collector = HalfWaveChainCollector()
        let first = [Self.halfWave(1, chain: 1, .nothingBefore), Self.halfWave(1.15, chain: 2, Self.linked)]
        let breaker = Self.halfWave(3, chain: 1, .outsideInterval(intervalSeconds: 1.85))
        (first + [breaker]).forEach { collector.add(ShakeExplanation(halfWave: $0)) }
        let handedOver = collector.removeClosedChains()
        #expect(handedOver.map(\.halfWaves) == [first])
        #expect(collector.removeClosedChains().isEmpty)
        let second = Self.halfWave(3.15, chain: 2, Self.linked)
        collector.add(ShakeExplanation(halfWave: second))
        #expect(collector.finish().map(\.halfWaves) == [[breaker, second]])
    }

    /// A chain of `count` linked half-waves peaking 0.15 s apart from `start` s, refused as not
    /// straight at its last peak when `refused`, or beginning a shake there when `began`.
    static func chain(_ count: Int, from start: Double, refused: Bool = false, began: Bool = false) -> HalfWaveChain {
        let peaks = (0..<count).map { start + 0.15 * Double($0) }
        let halfWaves = peaks.enumerated().map { i, peak in
            halfWave(peak, chain: i + 1, i == 0 ? .nothingBefore : linked)
        }
        let last = peaks[count - 1]
        return HalfWaveChain(
            halfWaves: halfWaves,
            refusal: refused ? ShakeExplanation.Refusal(time: last, chainStartTime: start - 0.05, chainHalfWaves: count,
                                                        reason: .notStraight(linearity: 0.7, limit: 0.5)) : nil,
            end: .recordingEnded,
            began: began ? ShakeExplanation.Began(
                time: last, chainStartTime: start - 0.05, chainHalfWaves: count, linearity: 0.2, intervalRatio: 1.1,
                longestIntervalSeconds: 0.15, ongoingMotion: false, strongHalfWaves: 0) : nil)
    }

    /// Which chain around a missed shake came closest, by one of the rules `shake evaluate
    /// --list` explains the shake with.
    struct ClosestCase: Sendable, CustomStringConvertible {
        var rule: String
        var chains: [HalfWaveChain]
        var closest: Int
        var description: String { rule }
    }

    static let closestCases = [
        ClosestCase(rule: "a shake begun late before a longer near miss",
                    chains: [chain(6, from: 1, refused: true), chain(4, from: 3, began: true)], closest: 1),
        ClosestCase(rule: "the first of two shakes begun late",
                    chains: [chain(4, from: 1, began: true), chain(5, from: 3, began: true)], closest: 0),
        ClosestCase(rule: "the most half-waves", chains: [chain(2, from: 1, refused: true), chain(3, from: 3)], closest: 1),
        ClosestCase(rule: "a refused chain before an equal one that was not",
                    chains: [chain(3, from: 1), chain(3, from: 3, refused: true)], closest: 1),
        ClosestCase(rule: "the earliest of equal chains", chains: [chain(3, from: 1), chain(3, from: 3)], closest: 0),
    ]

    @Test(arguments: closestCases)
    func closestChainOfAMissedShake(_ closestCase: ClosestCase) {
        let missed = MissedShakeExplanation(
            shake: LabeledShake(start: 1, end: 4), largestLinearAcceleration: 15, chains: closestCase.chains)
        #expect(missed.closestChain == closestCase.chains[closestCase.closest])
    }

    /// A canonical CSV at 100 Hz written to a temporary file, gravity along z: rest, and 4 Hz
    /// shakes along x (start, length in s, amplitude in g); with `labelled`, a `shake` column
    /// that is 1 during them.
    static func recording(seconds: Double, shakes: [(start: Double, seconds: Double, g: Double)],
                          labelled: Bool = false) throws -> String {
        var text = labelled ? "time_s,x,y,z,shake\n" : "time_s,x,y,z\n"
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            var x = 0.0
            var label = 0
            for shake in shakes where t >= shake.start && t < shake.start + shake.seconds {
                x = shake.g * 9.80665 * sin(2 * .pi * 4 * (t - shake.start))
                label = 1
            }
            text += String(format: "%.6f,%.5f,0.10000,9.80665", t, x) + (labelled ? ",\(label)\n" : "\n")
        }
        let path = NSTemporaryDirectory() + "/shakekit-chains-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Rest, three half-waves of a 3 g shake at 2 s (one short of a shake), a 1.5 s shake at 5 s.
    static func burstThenShake() throws -> String {
        try recording(seconds: 8, shakes: [(2, 0.375, 3), (5, 1.5, 3)])
    }

    /// The same events, samples and times as `run`; the three half-waves are the one near miss,
    /// linked one after another; the shake is not one.
    @Test(arguments: [false, true])
    func explainingReplaysTheSameAndFindsTheNearMiss(readAhead: Bool) throws {
        let path = try Self.burstThenShake()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var detector = ShakeDetector()
        let plain = try RecordingReplay.run(path: path, detector: &detector)
        let explained = try RecordingReplay.runExplaining(path: path, configuration: .medium, readAhead: readAhead)
        #expect(explained.result.events == plain.events)
        #expect(explained.result.sampleCount == plain.sampleCount && plain.sampleCount == 800)
        #expect(explained.result.startTime == plain.startTime && explained.result.endTime == plain.endTime)
        #expect(plain.events.map(\.phase) == [.began, .ended])
        #expect(explained.nearMisses.count == 1, "\(explained.nearMisses)")
        guard let miss = explained.nearMisses.first else { return }
        #expect(miss.halfWaves.count == 3)
        #expect(miss.startTime > 2 && miss.lastPeakTime < 2.4, "\(miss.startTime)-\(miss.lastPeakTime) s")
        #expect(miss.refusal == nil)
        #expect(miss.halfWaves.dropFirst().allSatisfy {
            if case .linked = $0.link { return true } else { return false }
        })
        guard case .broken(let next) = miss.end, case .outsideInterval(let interval) = next.link else {
            Issue.record("\(miss.end)")
            return
        }
        #expect(next.peakTime > 5 && interval > 2.5, "the shake's first half-wave: \(next)")
        // The shake's own chain, with what the rules measured as it began.
        let began = try #require(plain.events.first { $0.phase == .began })
        #expect(explained.shakes.count == 1)
        let shake = try #require(explained.shake(beganAt: began.time))
        #expect(shake.began?.chainStartTime == began.startTime)
        #expect(shake.halfWaves.count >= 8 && shake.halfWaves.first?.peakTime == next.peakTime)
    }

    /// Labelled: a gentle shake (0.8 g, 1 s: under the 10 m/s² onset) at 2 s, three half-waves
    /// of a 3 g shake at 5 s, a whole 3 g shake at 8 s; rest until 11 s.
    static func labelledMisses() throws -> String {
        try recording(seconds: 11, shakes: [(2, 1, 0.8), (5, 0.375, 3), (8, 1.5, 3)], labelled: true)
    }

    /// The gentle shake is explained by its largest |l|, under the onset, with no chain; the short
    /// one by its chain of three half-waves; the whole shake is found and needs no explanation.
    @Test func missedShakesAreExplained() throws {
        let path = try Self.labelledMisses()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let explained = try RecordingReplay.runExplaining(path: path, configuration: .medium)
        #expect(explained.result.counts?.detected == 1)
        #expect(explained.result.details?.missed.count == 2)
        let missed = explained.missedShakes
        #expect(missed.map(\.shake) == explained.result.details?.missed)
        guard missed.count == 2 else { return }
        #expect(missed[0].largestLinearAcceleration > 5 && missed[0].largestLinearAcceleration < 8.5,
                "\(missed[0].largestLinearAcceleration) m/s²")
        #expect(missed[0].chains.isEmpty && missed[0].closestChain == nil)
        #expect(missed[1].largestLinearAcceleration > 20, "\(missed[1].largestLinearAcceleration) m/s²")
        #expect(missed[1].closestChain?.halfWaves.count == 3)
        #expect(missed[1].closestChain?.shakeBegan == nil)
        #expect(explained.nearMisses == missed[1].chains)

        var detector = ShakeDetector()
        let plain = try RecordingReplay.run(path: path, detector: &detector)
        #expect(explained.result.events == plain.events)
        #expect(explained.result.counts == plain.counts)
    }

    /// A device lying perfectly still: |l| is 0 at every sample, and the largest is that 0,
    /// first reached at the first sample (what `shake replay --explain` says the motion came
    /// closest to the onset with), not nothing.
    @Test func aStillRecordingsLargestIsZeroAtItsStart() throws {
        let path = try Self.recording(seconds: 2, shakes: [])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let explained = try RecordingReplay.runExplaining(path: path, configuration: .medium)
        let largest = try #require(explained.largestLinearAcceleration)
        #expect(largest.magnitude == 0 && largest.time == explained.result.startTime, "\(largest)")
    }

    /// A labelled shake's window opens `matchToleranceSeconds` before its start: a burst of three
    /// half-waves (labelled too) that ends 0.125 s before a motionless labelled span explains
    /// both misses, the span's as well.
    @Test func aMissedShakesWindowReachesBackBeforeItsStart() throws {
        let path = try Self.recording(seconds: 8, shakes: [(5, 0.375, 3), (5.5, 0.5, 0)], labelled: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let explained = try RecordingReplay.runExplaining(path: path, configuration: .medium)
        let missed = explained.missedShakes
        #expect(missed.map(\.shake.start) == [5, 5.5])
        guard missed.count == 2 else { return }
        #expect(missed[0].closestChain?.halfWaves.count == 3)
        #expect(missed[1].chains == missed[0].chains)
    }

    /// With `spreadingBatches`, the explaining replay sees what `run` sees through a
    /// `BatchSpreadingDetector`: the same events, counts and moved samples, for the labelled
    /// recording with its samples stamped in batches of 16 at each batch's last time; the file's
    /// repeated timestamps (15 of each full batch of 16, and all but one of the last) and gaps
    /// counted as `run` counts them; and each missed labelled shake's largest |l|, found at the
    /// spread time the scorer starts it at. Read ahead or not.
    @Test(arguments: [false, true])
    func explainingSpreadsBatchesAsRunDoes(readAhead: Bool) throws {
        let even = try Self.labelledMisses()
        defer { try? FileManager.default.removeItem(atPath: even) }
        let lines = try String(contentsOfFile: even, encoding: .utf8).split(separator: "\n")
        let rows = lines.dropFirst().map { $0.split(separator: ",", maxSplits: 1) }
        var text = lines[0] + "\n"
        for index in rows.indices {
            text += rows[min(index / 16 * 16 + 15, rows.count - 1)][0] + "," + rows[index][1] + "\n"
        }
        let path = NSTemporaryDirectory() + "/shakekit-chains-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        var spreading = BatchSpreadingDetector(ShakeDetector())
        let plain = try RecordingReplay.run(path: path, detector: &spreading)
        let explained = try RecordingReplay.runExplaining(
            path: path, configuration: .medium, readAhead: readAhead, spreadingBatches: true)
        #expect(spreading.spreader.spreadSamples > 900, "\(spreading.spreader.spreadSamples) of 1100")
        #expect(plain.repeatedTimestamps == rows.count / 16 * 15 + (rows.count % 16 - 1))
        #expect(explained.result.repeatedTimestamps == plain.repeatedTimestamps)
        #expect(explained.result.largestTimeGap == plain.largestTimeGap && plain.largestTimeGap > 0.15)
        #expect(explained.missedShakes.count == 2 && explained.missedShakes.allSatisfy { $0.largestLinearAcceleration > 5 },
                "\(explained.missedShakes.map(\.largestLinearAcceleration))")
        #expect(explained.spreadSamples == spreading.spreader.spreadSamples)
        #expect(explained.result.events == plain.events)
        #expect(explained.result.counts == plain.counts)
        #expect(explained.result.counts?.detected == 1)
        #expect(explained.shakes.count == 1 && explained.shakes.first?.shakeBegan == plain.events.first?.time)
        let unspread = try RecordingReplay.runExplaining(path: path, configuration: .medium)
        #expect(unspread.spreadSamples == nil)
        #expect(unspread.result.events != plain.events)
    }
}
