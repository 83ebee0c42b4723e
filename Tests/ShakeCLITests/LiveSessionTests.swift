import Foundation
import Testing
import ShakeDetection
import Synchronization
@testable import ShakeCLI

/// What `shake live` prints as samples arrive, without a device (`LiveCommand.LiveSession`; the
/// whole command runs against the IIO emulator in `IIOEmulatorTests`): the level on the status
/// line, and with --explain the near misses in text.
@Suite struct LiveSessionTests {
    /// 100 Hz samples from `from` to `to` s: rest, or a 4 Hz, 3 g shake along x from 1 s for
    /// `shakeSeconds`.
    static func samples(from: Double, to: Double, shakeSeconds: Double) -> [Sample] {
        stride(from: from, to: to, by: 0.01).map { t in
            let x = t >= 1 && t < 1 + shakeSeconds ? 3 * 9.80665 * sin(2 * .pi * 4 * (t - 1)) : 0
            return Sample(time: t, x: x, y: 0.1, z: 9.80665)
        }
    }

    /// On a terminal the status line gives the largest |l| since its last update, against the
    /// onset: after three half-waves of a 3 g shake, about 29 m/s².
    @Test func statusLineShowsTheLevelAgainstTheOnset() {
        let err = Mutex("")
        let io = CommandIO(out: { _ in }, err: { text in err.withLock { $0 += text } }, errIsTerminal: true)
        var session = LiveCommand.LiveSession(configuration: .medium, json: false, io: io)
        // The status line is drawn at most every 0.2 s of wall time: at the first sample, then
        // again after the pause, with the level of everything in between.
        for sample in Self.samples(from: 0, to: 1.5, shakeSeconds: 0.375) { session.process(sample) }
        Thread.sleep(forTimeInterval: 0.25)
        session.process(Sample(time: 1.5, x: 0, y: 0.1, z: 9.80665))
        // (A stall of the machine may draw one more in between: every sample's level is still in
        // exactly one status line, so the largest over them is the shake's.)
        let statuses = err.withLock { $0 }.components(separatedBy: "\r").filter { $0.contains("|l| up to") }
        #expect(statuses.count >= 2, "\(statuses)")
        #expect(statuses.first?.contains("|l| up to 0.0 m/s² (onset 10.0)") == true, "\(statuses)")
        let levels = statuses.compactMap { line in
            line.components(separatedBy: "|l| up to ").last?.split(separator: " ").first.flatMap { Double($0) }
        }
        #expect(levels.count == statuses.count)
        #expect(levels.max().map { $0 > 25 && $0 < 31 } == true, "\(statuses)")
    }

    /// With --explain, a near miss is printed in text when it closes: the three half-waves of
    /// the short burst when the next half-wave comes too late.
    @Test func explainPrintsTheNearMissInText() {
        let out = Mutex("")
        let io = CommandIO(out: { text in out.withLock { $0 += text } }, err: { _ in })
        var session = LiveCommand.LiveSession(configuration: .medium, json: false, io: io, explaining: true)
        for sample in Self.samples(from: 0, to: 3, shakeSeconds: 0.375) { session.process(sample) }
        #expect(out.withLock { $0 }.isEmpty, "nothing is printed before the chain closes")
        session.finish()
        let text = out.withLock { $0 }
        #expect(text.hasPrefix("2.990 s  near miss  (start 1.0"), "\(text)")
        #expect(text.contains("3 linked half-waves (minimumHalfWaves 4); no further half-wave before the recording ended"), "\(text)")
        #expect(text.split(separator: "\n").count == 1)
    }
}
