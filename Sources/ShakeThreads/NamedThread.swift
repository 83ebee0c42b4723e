#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The threads of ShakeIIO (its readers) and ShakeRecording (the read-ahead's parsers), on
/// pthreads: Foundation's `Thread` would put ICU's data (about 34 MB) into every program linked
/// with `--static-swift-stdlib` that uses them, as a device's software is.
package enum NamedThread {
    /// What the new thread runs, handed to it through `pthread_create`'s argument.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts a detached thread running `body`, named `name` where the system shows it (`ps -L`,
    /// `top -H`, `/proc/PID/task/*/comm`, gdb); Linux keeps 15 bytes of a name.
    package static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let argument = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            NamedThread.setSystemName(start.name)
            start.body()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(argument).release()
            // As Foundation's Thread did: without the thread, the caller cannot go on.
            fatalError("pthread_create for thread \(name) failed (errno \(result))")
        }
        #if canImport(Glibc)
        pthread_detach(thread)
        #else
        if let thread { pthread_detach(thread) }
        #endif
    }

    /// Names the calling thread for the system: the first 15 bytes of `name` (whole characters).
    package static func setSystemName(_ name: String) {
        var bytes = 0
        let kept = name.unicodeScalars.prefix { scalar in
            bytes += String(scalar).utf8.count
            return bytes <= 15
        }
        // pthread_setname_np is not visible to Swift without _GNU_SOURCE; this is what it does.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var text = String(String.UnicodeScalarView(kept))
        text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
    }

    /// Sleeps the calling thread for `seconds` (at least 0).
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
