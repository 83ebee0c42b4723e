import Foundation
import ShakeRecording
import Synchronization

/// Progress of a long command on standard error.
///
/// On a terminal (`CommandIO.errIsTerminal`): one bar redrawn in place at most 10 times a
/// second, `tune [#########-----------]  45%  refining  812 configs  ETA 0:41`, erased when done.
/// Otherwise: a plain line at each further 10 % (never a bar, no carriage returns), so logs stay readable.
/// Safe to call from any thread.
final class ProgressDisplay: Sendable {
    private let io: CommandIO
    private let label: String
    private let started = Date()

    private struct State {
        var lastDraw = -Double.infinity
        var lastDecile = -1
        var drawn = false
    }
    private let state = Mutex(State())

    init(io: CommandIO, label: String) {
        self.io = io
        self.label = label
    }

    /// A one-off status line (both modes).
    func note(_ text: String) {
        io.err("\(label): \(text)\n")
    }

    func update(_ progress: TuningProgress) {
        let elapsed = Date().timeIntervalSince(started)
        let fraction = progress.fraction
        let eta = fraction > 0.02 ? elapsed * (1 - fraction) / fraction : nil
        state.withLock { state in
            if io.errIsTerminal {
                guard elapsed - state.lastDraw >= 0.1 else { return }
                state.lastDraw = elapsed
                state.drawn = true
                let width = 24
                let filled = Int((fraction * Double(width)).rounded(.down))
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                let percent = String(Int((fraction * 100).rounded(.down))).leftPadded(3)
                io.err("\r\u{1B}[K\(label) [\(bar)] \(percent)%  \(progress.stage)  "
                    + "\(progress.configurationsEvaluated) configs  ETA \(Self.clock(eta))")
            } else {
                let decile = Int((fraction * 10).rounded(.down))
                guard decile > state.lastDecile else { return }
                state.lastDecile = decile
                io.err("\(label): \(decile * 10)% (\(progress.stage), \(progress.configurationsEvaluated) "
                    + "configurations, \(Self.clock(elapsed)) elapsed, ETA \(Self.clock(eta)))\n")
            }
        }
    }

    /// Erases the bar (on a terminal) and prints a closing line.
    func finish(_ text: String) {
        state.withLock { state in
            if io.errIsTerminal && state.drawn { io.err("\r\u{1B}[K") }
            state.drawn = false
        }
        io.err("\(label): \(text)\n")
    }

    /// `m:ss`, or `?` when unknown.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "?" }
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + String(whole % 60).leftPadded(2).replacingOccurrences(of: " ", with: "0")
    }
}
