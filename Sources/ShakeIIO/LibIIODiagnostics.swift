import CLibIIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// libiio's own messages. libiio 0.24 prints warnings and errors itself, on the C library's
/// `stderr` stream, e.g. `WARNING: High-speed mode not enabled` (the local backend falling back
/// from mmap to read(2) buffers, harmless) and `ERROR: READ LINE: -32` (the network backend
/// finding iiod's connection closed, which ShakeIIO reports itself as an ``IIOError``). A
/// program that reports errors its own way can hide them.
///
/// Hiding points the C `stderr` stream at `/dev/null` process-wide: everything printed through
/// `stdio`'s `stderr` (libiio, and any other C code using it) is dropped; writes to file
/// descriptor 2 (Swift's `FileHandle.standardError`, the Swift runtime's crash reports) are
/// not affected. It needs no window around each libiio call, so nothing another thread prints
/// meanwhile is lost.
public enum LibIIODiagnostics {
    private struct Saved: @unchecked Sendable {
        var original: UnsafeMutablePointer<FILE>?
        var sink: UnsafeMutablePointer<FILE>?
    }

    private static let saved = Mutex(Saved())

    /// Drops libiio's messages (and anything else printed on the C `stderr` stream) until
    /// ``show()``. Calling it again has no further effect.
    public static func hide() {
        saved.withLock { saved in
            guard saved.sink == nil, let sink = fopen("/dev/null", "w") else { return }
            saved.original = CLibIIO_exchangeStderr(sink)
            saved.sink = sink
        }
    }

    /// Lets libiio's messages through again (the default).
    public static func show() {
        saved.withLock { saved in
            guard let sink = saved.sink else { return }
            _ = CLibIIO_exchangeStderr(saved.original)
            fclose(sink)
            saved = Saved()
        }
    }
}
