#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The read-ahead's parsing threads, on pthreads, and the lock and condition of its queues:
/// Foundation's `Thread` and `NSCondition` would bring ICU's data (about 34 MB) into every program
/// linked with `--static-swift-stdlib` that uses ShakeRecording. (ShakeIIO's `NamedThread` is the
/// same; ShakeRecording does not depend on ShakeIIO, which needs libiio.)
enum ParsingThread {
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
    static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let argument = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let result = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            ParsingThread.setSystemName(start.name)
            start.body()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(argument).release()
            // As Foundation's Thread did: without the thread, the recording cannot be read.
            fatalError("ShakeRecording: pthread_create for thread \(name) failed (errno \(result))")
        }
        #if canImport(Glibc)
        pthread_detach(thread)
        #else
        if let thread { pthread_detach(thread) }
        #endif
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

/// A mutex and a condition variable on it (what `NSCondition` is), from pthreads.
///
/// `@unchecked Sendable`: the pthread objects are made for use from several threads; they live
/// at fixed addresses (allocated here) for the object's life.
final class ParsingCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        let mutexResult = pthread_mutex_init(mutex, nil)
        let conditionResult = pthread_cond_init(condition, nil)
        precondition(mutexResult == 0 && conditionResult == 0, "pthread_mutex_init or pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Unlocks, waits for a `broadcast` (or a spurious wake-up: wait in a loop), locks again.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread waiting.
    func broadcast() { pthread_cond_broadcast(condition) }
}
