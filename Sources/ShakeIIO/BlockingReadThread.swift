import ShakeThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread of its own for reads that may never return (a sysfs attribute of a driver whose
/// sensor or bus is stuck blocks `read(2)` for as long as the driver waits), so that the thread
/// asking can give up after a deadline or at a stop instead of hanging with the read.
///
/// One read at a time: ``next(timeout:wake:)`` asks for a read and waits for its value. A read
/// given up on is left to finish: the thread then drops its value and ends (it holds the `read`
/// closure, and what that closure holds, until then). ``finish()`` ends an idle thread.
final class BlockingReadThread<Value: Sendable>: @unchecked Sendable {
    /// What ``next(timeout:wake:)`` got.
    enum Outcome {
        case value(Value)
        /// `wake` became readable first; the read, if still running, was given up.
        case woken
        /// No value within the timeout; the read was given up and is still running.
        case timedOut
    }

    private struct Slot {
        var value: Value?
        var abandoned = false
    }

    private let slot = Mutex(Slot())
    private let requestRead: CInt, requestWrite: CInt, replyRead: CInt, replyWrite: CInt
    /// Two `pollfd`s (the reply pipe, the caller's wake descriptor), allocated once.
    private let descriptors: UnsafeMutablePointer<pollfd>

    private let givenUp: @Sendable () -> Void

    /// Starts the thread. `read` runs on it once per ``next(timeout:wake:)``. When a read is
    /// given up while still running, `givenUp` runs (on the caller's thread) and, once that read
    /// returns at last, `lateReturn` (on this thread), always in that order.
    /// - Returns: nil when the pipes cannot be created (`errno` says why).
    init?(name: String, read: @escaping @Sendable () -> Value,
          givenUp: @escaping @Sendable () -> Void = {}, lateReturn: @escaping @Sendable () -> Void = {}) {
        var request: [CInt] = [-1, -1], reply: [CInt] = [-1, -1]
        guard pipe(&request) == 0 else { return nil }
        guard pipe(&reply) == 0 else {
            close(request[0]); close(request[1])
            return nil
        }
        for fd in request + reply { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.givenUp = givenUp
        requestRead = request[0]; requestWrite = request[1]
        replyRead = reply[0]; replyWrite = reply[1]
        descriptors = .allocate(capacity: 2)
        descriptors.initialize(repeating: pollfd(fd: -1, events: Int16(POLLIN), revents: 0), count: 2)
        NamedThread.start(name) { [self] in
            while true {
                var byte: UInt8 = 0
                let count = Glibc.read(requestRead, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count != 1 || byte == 0 { return }
                let value = read()
                let abandoned = slot.withLock { slot in
                    if !slot.abandoned { slot.value = value }
                    return slot.abandoned
                }
                if abandoned {
                    lateReturn()
                    return
                }
                var one: UInt8 = 1
                _ = write(replyWrite, &one, 1)
            }
        }
    }

    deinit {
        for fd in [requestRead, requestWrite, replyRead, replyWrite] { close(fd) }
        descriptors.deallocate()
    }

    /// Asks for one read and waits up to `timeout` seconds for its value, or until `wake` is
    /// readable. After `.woken` or `.timedOut` the thread is given up: do not call again.
    func next(timeout: Double, wake: CInt) -> Outcome {
        var one: UInt8 = 1
        _ = write(requestWrite, &one, 1)
        let deadline = AccelerometerReader.monotonicSeconds() + timeout
        while true {
            let remaining = deadline - AccelerometerReader.monotonicSeconds()
            if remaining > 0 {
                descriptors[0] = pollfd(fd: replyRead, events: Int16(POLLIN), revents: 0)
                descriptors[1] = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
                let ready = poll(descriptors, 2, CInt(min(1000, (remaining * 1000).rounded(.up))))
                if ready < 0 && errno == EINTR { continue }
                if ready > 0 && descriptors[0].revents != 0 {
                    var byte: UInt8 = 0
                    _ = Glibc.read(replyRead, &byte, 1)
                    return .value(slot.withLock { slot in
                        defer { slot.value = nil }
                        return slot.value!
                    })
                }
                if !(ready > 0 && descriptors[1].revents != 0) { continue }
            }
            // Given up (woken, or out of time), unless the value came just now.
            let value = slot.withLock { slot -> Value? in
                if let value = slot.value {
                    slot.value = nil
                    return value
                }
                slot.abandoned = true
                givenUp()  // under the lock: before the thread can see `abandoned` and return late
                return nil
            }
            if let value {
                var byte: UInt8 = 0
                _ = Glibc.read(replyRead, &byte, 1)
                return .value(value)
            }
            return remaining > 0 ? .woken : .timedOut
        }
    }

    /// Ends the thread when it is waiting for a request (after ``next(timeout:wake:)`` returned a
    /// value); a thread given up ends by itself after its read, leaving this request unread.
    func finish() {
        var zero: UInt8 = 0
        _ = write(requestWrite, &zero, 1)
    }
}

/// Reads given up while still running (``BlockingReadThread``), counted per device: a later
/// reader of the same device waits for them to return instead of starting another read beside
/// one that is stuck (with `--reconnect`, a stuck driver would otherwise collect a blocked
/// thread per attempt).
enum StuckReads {
    private static let counts = Mutex<[String: Int]>([:])

    /// A read of the device `key` was given up while still running.
    static func gaveUp(_ key: String) { counts.withLock { $0[key, default: 0] += 1 } }

    /// A read of `key` given up earlier has returned.
    static func returned(_ key: String) {
        counts.withLock { counts in
            guard let count = counts[key] else { return }
            counts[key] = count > 1 ? count - 1 : nil
        }
    }

    static func isStuck(_ key: String) -> Bool { counts.withLock { $0[key] != nil } }

    enum Wait { case clear, stillStuck, woken }

    /// Waits up to `timeout` seconds until no read of `key` is stuck, or until `wake` is readable.
    static func wait(for key: String, timeout: Double, wake: CInt) -> Wait {
        let deadline = AccelerometerReader.monotonicSeconds() + timeout
        while isStuck(key) {
            let remaining = deadline - AccelerometerReader.monotonicSeconds()
            if remaining <= 0 { return .stillStuck }
            var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, CInt(min(20, (remaining * 1000).rounded(.up)))) > 0 { return .woken }
        }
        return .clear
    }
}
