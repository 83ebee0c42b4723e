#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Why standard output could not take what a command wrote.
public enum StandardOutputFailure: Sendable, Equatable {
    /// Its reader went away (`shake replay … | head -1`) while SIGPIPE is ignored, so `write`
    /// said `EPIPE` instead of the signal ending the process: not worth a message.
    case readerGone
    /// Any other failure, with its errno: `ENOSPC` (`> /dev/full`, a full disk), `EIO`, or
    /// `EBADF` when the tool was started with standard output closed (`>&-`).
    case failed(CInt)
}

extension CommandIO {
    /// The exit status when standard output's reader went away and SIGPIPE is ignored: what a
    /// shell reports for a process that SIGPIPE ended (128 + 13), which is how the tool ends
    /// when SIGPIPE has its default action.
    public static let readerGoneStatus: Int32 = 128 + SIGPIPE

    /// The process's standard output and error, for the `shake` executable: written with
    /// `write(2)`, a failure remembered (and reported by `ShakeTool.main`, exit 73) instead of
    /// ending the process as `FileHandle.write` does (a crash and a backtrace on `> /dev/full`).
    ///
    /// Descriptors 0, 1 and 2 that are closed when the tool starts (`>&-`, `2>&-`, `<&-`) are
    /// opened on `/dev/null` first, so no file the tool opens later (a recording being written)
    /// takes their number and receives text meant for the terminal. Writing to a standard
    /// output that was closed is still a failure (`EBADF`), as for `cat`, and so is reading a
    /// standard input that was closed (`-`: exit 66, `Bad file descriptor`; it read as an empty
    /// file until stop 50): descriptor 0 is opened for writing only.
    public static func standardStreams() -> CommandIO {
        var closedAtStart: Set<CInt> = []
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closedAtStart.insert(descriptor)
            let opened = open("/dev/null", O_WRONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
        var io = CommandIO.writing(output: STDOUT_FILENO, errors: STDERR_FILENO,
                                   errIsTerminal: drawsOnTerminal(isTerminal: !closedAtStart.contains(STDERR_FILENO)
                                                                      && isatty(STDERR_FILENO) != 0,
                                                                  term: getenv("TERM").map { String(cString: $0) }),
                                   ownsProcessStandardError: true)
        if closedAtStart.contains(STDOUT_FILENO) {
            let output = DescriptorWriter(STDOUT_FILENO, closed: true)
            io.out = { output.write($0) }
            io.outFailure = { output.failure }
        }
        return io
    }

    /// Whether progress bars may be drawn in place on standard error: a terminal, and not one
    /// that says it cannot move the cursor (`TERM=dumb`: Emacs's shell, some serial consoles),
    /// where `\r` and erase-line would show as `^[[K` garbage; there the plain lines are written.
    static func drawsOnTerminal(isTerminal: Bool, term: String?) -> Bool {
        isTerminal && term != "dumb"
    }

    /// Text written to the open descriptors `output` and `errors` with `write(2)`. A failure
    /// on `output` is kept (see ``outFailure``) and later text for it is dropped; a failure on
    /// `errors` is ignored, as there is nowhere left to say it.
    public static func writing(output: CInt, errors: CInt, errIsTerminal: Bool = false,
                               ownsProcessStandardError: Bool = false) -> CommandIO {
        let out = DescriptorWriter(output)
        let err = DescriptorWriter(errors)
        return CommandIO(out: { out.write($0) }, err: { err.write($0) }, errIsTerminal: errIsTerminal,
                         ownsProcessStandardError: ownsProcessStandardError, outFailure: { out.failure })
    }
}

/// Writes text to a descriptor whole (retrying short writes and `EINTR`), one caller at a time,
/// and remembers the first failure; after one, nothing more is written.
private final class DescriptorWriter: Sendable {
    private struct State {
        var failure: StandardOutputFailure?
        /// The descriptor was closed when the tool started (now /dev/null): writing fails.
        var closed: Bool
    }

    private let descriptor: CInt
    private let state: Mutex<State>

    init(_ descriptor: CInt, closed: Bool = false) {
        self.descriptor = descriptor
        state = Mutex(State(failure: nil, closed: closed))
    }

    var failure: StandardOutputFailure? { state.withLock { $0.failure } }

    func write(_ text: String) {
        state.withLock { state in
            guard state.failure == nil else { return }
            if state.closed {
                state.failure = .failed(EBADF)
                return
            }
            var bytes = Array(text.utf8)
            let count = bytes.count
            let failed: CInt? = bytes.withUnsafeMutableBytes { buffer in
                var done = 0
                while done < count {
                    let n = systemWrite(descriptor, buffer.baseAddress! + done, count - done)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    done += n
                }
                return nil
            }
            if let failed { state.failure = failed == EPIPE ? .readerGone : .failed(failed) }
        }
    }
}

private func systemWrite(_ descriptor: CInt, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Musl.write(descriptor, bytes, count)
    #endif
}
