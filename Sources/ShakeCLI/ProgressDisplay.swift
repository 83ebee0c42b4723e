#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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
    /// A monotonic clock: a wall clock set back (NTP, a user) would show a negative time elapsed.
    private let started = ContinuousClock.now

    private struct State {
        var lastDraw = -Double.infinity
        var lastDecile = -1
        var drawn = false
        /// The largest fraction shown: the bar never moves back when the estimate grows.
        var fraction = 0.0
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
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        state.withLock { state in
            // At most 99 %: the estimate of the work left can fall short (the last stage's
            // descents), and 100 % shown before the end said done while a tenth was left. The
            // closing line (`finish`) says when it is.
            state.fraction = max(state.fraction, min(progress.fraction, 0.99))
            let fraction = state.fraction
            let eta = fraction > 0.02 ? elapsed * (1 - fraction) / fraction : nil
            if io.errIsTerminal {
                guard elapsed - state.lastDraw >= 0.1 else { return }
                state.lastDraw = elapsed
                state.drawn = true
                let width = 24
                let filled = Int((fraction * Double(width)).rounded(.down))
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                let percent = String(Int((fraction * 100).rounded(.down))).leftPadded(3)
                let line = "\(label) [\(bar)] \(percent)%  \(progress.stage)  "
                    + "\(progress.configurationsEvaluated) configs  ETA \(Self.clock(eta))"
                io.err("\r\u{1B}[K" + Self.fitted(line, columns: columns))
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

    /// The width of the terminal that is the process's standard error (nil when unknown, or
    /// when the command does not own standard error: a test).
    private var columns: Int? {
        guard io.ownsProcessStandardError else { return nil }
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// `line` cut to fit in one row of a terminal `columns` wide (with the last column left
    /// free, where some terminals wrap): a bar that wraps is redrawn below itself, a new row at
    /// every redraw, as `\r` and erase-line reach back only to the start of the last row.
    static func fitted(_ line: String, columns: Int?) -> String {
        guard let columns, line.count > columns - 1 else { return line }
        return String(line.prefix(max(columns - 1, 0)))
    }

    /// `m:ss`, or `?` when unknown.
    static func clock(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "?" }
        let whole = Int(seconds.rounded())
        return "\(whole / 60):" + String(whole % 60).leftPadded(2).replacing(" ", with: "0")
    }
}
