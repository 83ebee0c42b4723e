import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Thread {
    /// Starts a thread running `body`, named `name` where the system shows it (`ps -L`,
    /// `top -H`, `/proc/PID/task/*/comm`, gdb): Foundation's `Thread.name` alone does not reach
    /// the system on Linux, whose names keep 15 bytes (a longer one is cut there).
    static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.setSystemName(name)
            body()
        }
        thread.name = name
        thread.start()
    }

    /// Names the calling thread for the system: the first 15 bytes of `name` (whole characters).
    static func setSystemName(_ name: String) {
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
}
