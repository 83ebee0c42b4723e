import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `NearMissCollector` (chains that did not become a shake, from the detector's explanations)
/// and `RecordingReplay.runExplaining` (the same events as `run`, plus the near misses).
@Suite struct NearMissTests {
    typealias HalfWave = ShakeExplanation.HalfWave

    static func halfWave(_ peak: Double, chain: Int, _ link: ShakeExplanation.Link) -> HalfWave {
        HalfWave(startTime: peak - 0.05, peakTime: peak, peakAcceleration: 15, chainHalfWaves: chain, link: link)
    }

    static let linked = ShakeExplanation.Link.linked(cosine: -0.9, intervalSeconds: 0.15)

    static func event(_ phase: ShakeEvent.Phase, at time: Double) -> ShakeEvent {
        ShakeEvent(phase: phase, time: time, startTime: time - 0.5, endTime: time, peakAcceleration: 20,
                   reversals: 3, dominantAxis: .x)
    }

    @Test func chainsThatDidNotBecomeAShakeAreNearMisses() {
        var collector = NearMissCollector()
        func add(_ halfWave: HalfWave? = nil, refusal: ShakeExplanation.Refusal? = nil, event: ShakeEvent? = nil) {
            collector.add(ShakeExplanation(halfWave: halfWave, refusal: refusal), event: event)
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
        let misses = collector.finish()

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

    @Test func aChainThatBeganAShakeIsNotANearMiss() {
        var collector = NearMissCollector()
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1, chain: 1, .nothingBefore)), event: nil)
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.15, chain: 2, Self.linked)), event: nil)
        // Refused as refractory at first, then began: a shake, not a near miss.
        collector.add(ShakeExplanation(refusal: ShakeExplanation.Refusal(
            time: 1.4, chainStartTime: 0.95, chainHalfWaves: 4, reason: .refractory(until: 1.45))), event: nil)
        collector.add(ShakeExplanation(), event: Self.event(.began, at: 1.5))
        collector.add(ShakeExplanation(halfWave: Self.halfWave(1.6, chain: 5, Self.linked)), event: nil)
        collector.add(ShakeExplanation(), event: Self.event(.ended, at: 2.1))
        // After the shake: two linked half-waves, a near miss.
        collector.add(ShakeExplanation(halfWave: Self.halfWave(3, chain: 1, .nothingBefore)), event: nil)
        collector.add(ShakeExplanation(halfWave: Self.halfWave(3.15, chain: 2, Self.linked)), event: nil)
        let misses = collector.finish()
        #expect(misses.map(\.startTime) == [2.95])
        #expect(misses.first?.refusal == nil)
    }

    /// A canonical CSV at 100 Hz, gravity along z: rest, three half-waves of a 4 Hz, 3 g shake
    /// at 2 s (one short of a shake), rest, a 1.5 s shake at 5 s, rest until 8 s.
    static func burstThenShake() throws -> String {
        var text = "time_s,x,y,z\n"
        for i in 0..<800 {
            let t = Double(i) / 100
            var x = 0.0
            if t >= 2 && t < 2.375 { x = 3 * 9.80665 * sin(2 * .pi * 4 * (t - 2)) }
            if t >= 5 && t < 6.5 { x = 3 * 9.80665 * sin(2 * .pi * 4 * (t - 5)) }
            text += String(format: "%.6f,%.5f,0.10000,9.80665\n", t, x)
        }
        let path = NSTemporaryDirectory() + "/shakekit-nearmiss-\(UUID().uuidString).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
    }
}
