#if canImport(Glibc)
import Glibc
#endif
@testable import ShakeRecording
import ShakeThreads
import Testing

/// ShakeThreads' pthreads (no Foundation `Thread`), which run ShakeIIO's readers and the
/// read-ahead's parsers: named for the system, and handing values over under their condition.
@Suite struct NamedThreadTests {
    /// The name the system shows for a thread started with `name`.
    static func systemName(of name: String) async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            NamedThread.start(name) {
                var buffer = [UInt8](repeating: 0, count: 64)
                let fd = open("/proc/thread-self/comm", O_RDONLY)
                let count = fd >= 0 ? read(fd, &buffer, buffer.count) : 0
                if fd >= 0 { close(fd) }
                continuation.resume(returning: String(decoding: buffer.prefix(max(0, count)), as: UTF8.self))
            }
        }
    }

    @Test func threadRunsItsBodyUnderItsNameCutTo15Bytes() async {
        #expect(await Self.systemName(of: "shake.test-name-kept-to-15") == "shake.test-name\n")
    }

    @Test func readAheadThreadsKeepTheirWholeNames() async {
        let names = RecordingReadAhead.threadNames
        #expect(await Self.systemName(of: names.first) == names.first + "\n")
        #expect(await Self.systemName(of: names.second) == names.second + "\n")
    }

    @Test func conditionHandsOverBetweenThreads() async {
        final class Box: @unchecked Sendable {
            let condition = ThreadCondition()
            var value = 0
        }
        let box = Box()
        NamedThread.start("shake.test") {
            box.condition.lock()
            box.value = 42
            box.condition.broadcast()
            box.condition.unlock()
        }
        box.condition.lock()
        while box.value == 0 { box.condition.wait() }
        let value = box.value
        box.condition.unlock()
        #expect(value == 42)
    }
}
