#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import ShakeIIO
import Synchronization

/// Stops a reader on SIGINT, SIGTERM or SIGHUP (the terminal or SSH session closing) while
/// installed, so the recording is finished as on Ctrl-C; restores default handling at `remove()`.
final class SignalStopper {
    private final class Received: Sendable {
        let signal = Mutex<Int32?>(nil)
    }

    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    convenience init(stopping reader: AccelerometerReader) {
        self.init { reader.stop() }
    }

    convenience init(stopping reader: ReconnectingAccelerometerReader) {
        self.init { reader.stop() }
    }

    convenience init(stop: @escaping @Sendable () -> Void) {
        self.init(onSignal: { _ in stop() })
    }

    /// Calls `onSignal` with the signal's number, on a queue of its own, for each signal.
    init(onSignal: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "shake.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [received] in
                received.signal.withLock { $0 = number }
                onSignal(number)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The signal that stopped the reader, if any.
    var signal: Int32? { received.signal.withLock { $0 } }

    func remove() {
        for source in sources { source.cancel() }
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
    }

    /// The signals that stop the reader.
    static let signals = [SIGINT, SIGTERM, SIGHUP]
}

/// For a command that writes one file from start to end (`convert`, `synth`): until `remove()`,
/// SIGINT, SIGTERM or SIGHUP delete its half-written `<output>.partial`, say so on stderr and end
/// the tool with 128 plus the signal's number, as a shell reports a command the signal ended.
/// Without it the signal would end the process and leave `<output>.partial` behind, which blocks
/// the next run. It ends the process from the signal's own thread, so a read blocked on a pipe
/// cannot hold it up. Once `finishing()` was called, the signals are ignored: the output is being
/// given its name, and is then complete.
final class StopOnSignal {
    private final class State: Sendable {
        let finishing = Mutex(false)
    }

    private let state = State()
    private var stopper: SignalStopper?

    /// - Parameter partialPath: the file to delete (`RecordingWriter.partialPath`);
    ///   `output`: the name the message gives.
    init(partialPath: String, output: String) {
        stopper = SignalStopper(onSignal: { [state] number in
            state.finishing.withLock { finishing in
                guard !finishing else { return }
                unlink(partialPath)
                let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][number] ?? "signal \(number)"
                let message = "Error: stopped by \(name): \(output) was not written\n"
                _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
                _exit(128 + number)
            }
        })
    }

    /// From here on the signals are ignored: call it just before giving the output its name.
    func finishing() {
        state.finishing.withLock { $0 = true }
    }

    /// Restores default handling of the signals.
    func remove() { stopper?.remove() }
}

/// Runs `body` with SIGINT, SIGTERM and SIGHUP held back, for commands that write whole files
/// as they end (`tune -o` and `--report`, `config -o`, `plot -o`): each file is written beside
/// its name (`<output>.tmp-<pid>-<n>`) and then linked or renamed into place, and a signal in
/// between would end the tool with the temporary file left behind, or one output of two
/// written. A signal that comes meanwhile is noted by a plain handler (at once, on whichever
/// thread it lands: a dispatch source's handler, run later on its queue, could miss one that
/// came just before `body` ended) and ends the tool as it would have, by that signal (status
/// 128 plus its number), once `body` has returned or thrown: the files are then whole, or not
/// there.
///
/// The signals are unblocked in the calling thread meanwhile (and blocked again after, if they
/// were): a tool started with them blocked (as Foundation's `Process` starts it from a test
/// run) still notes and obeys them, as its dispatch sources do. A signal the tool was started
/// ignoring (a background job's SIGINT) stays ignored, and each signal's handling is put back
/// as it was before the held-back one is raised again.
func withSignalsDeferred<T>(_ body: () throws -> T) rethrows -> T {
    deferredSignal.store(0, ordering: .relaxed)
    var these = sigset_t()
    sigemptyset(&these)
    var previous: [(number: Int32, handler: __sighandler_t?)] = []
    for number in SignalStopper.signals {
        let handler = signal(number) { deferredSignal.store($0, ordering: .relaxed) }
        // SIG_IGN is the handler 1 (`(__sighandler_t) 1` in <signal.h>).
        if unsafeBitCast(handler, to: Int.self) == 1 {
            signal(number, handler)
        } else {
            sigaddset(&these, number)
        }
        previous.append((number, handler))
    }
    var before = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &these, &before)
    defer {
        for (number, handler) in previous { signal(number, handler) }
        let number = deferredSignal.load(ordering: .relaxed)
        if number != 0 { raise(number) }
        pthread_sigmask(SIG_SETMASK, &before, nil)
    }
    return try body()
}

/// The signal `withSignalsDeferred` held back, or 0.
private let deferredSignal = Atomic<Int32>(0)
