import Dispatch
import Foundation
import Synchronization
import Testing
@testable import ShakeIIO

/// The thread polled mode reads `in_accel_*_raw` on, and the per-device count of reads given up:
/// what the reading thread sees when a read never returns (a stuck sensor or bus). Without a
/// device: the reads here are closures that block until the test lets them go.
@Suite struct BlockingReadTests {
    /// What happened, in order, from any thread.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// A pipe whose read end is the `wake` descriptor; closed when the test ends.
    final class WakePipe: Sendable {
        let read: CInt, write: CInt
        init() throws {
            var fds: [CInt] = [-1, -1]
            try #require(pipe(&fds) == 0)
            read = fds[0]; write = fds[1]
        }
        func wake() {
            var byte: UInt8 = 1
            _ = Foundation.write(write, &byte, 1)
        }
        deinit { close(read); close(write) }
    }

    @Test func eachReadGivesItsValueInTurn() throws {
        let counter = Mutex(0)
        let reads = try Self.started(BlockingReadThread(name: "test", read: { counter.withLock { $0 += 1; return $0 } }))
        defer { reads.finish() }
        let wake = try WakePipe()
        for expected in 1...5 {
            guard case .value(let value) = reads.next(timeout: 5, wake: wake.read) else {
                Issue.record("read \(expected) gave no value")
                return
            }
            #expect(value == expected)
        }
    }

    @Test func aReadThatDoesNotReturnIsGivenUpAfterTheTimeoutAndEndsLater() throws {
        let log = Log()
        let release = DispatchSemaphore(value: 0)
        let reads = try Self.started(BlockingReadThread(
            name: "test", read: { release.wait(); return 7 },
            givenUp: { log.add("given up") }, lateReturn: { log.add("returned late") }))
        let wake = try WakePipe()
        let start = AccelerometerReader.monotonicSeconds()
        let outcome = reads.next(timeout: 0.2, wake: wake.read)
        let waited = AccelerometerReader.monotonicSeconds() - start
        guard case .timedOut = outcome else {
            Issue.record("expected a timeout, got \(outcome)")
            return
        }
        #expect(waited >= 0.19 && waited < 2, "waited \(waited) s for a 0.2 s timeout")
        #expect(log.all == ["given up"])
        release.signal()
        try waitUntil { log.all.count == 2 }
        #expect(log.all == ["given up", "returned late"])
    }

    @Test func aWakeEndsTheWaitAtOnce() throws {
        let log = Log()
        let release = DispatchSemaphore(value: 0)
        let reads = try Self.started(BlockingReadThread(
            name: "test", read: { release.wait(); return 1 },
            givenUp: { log.add("given up") }, lateReturn: { log.add("returned late") }))
        let wake = try WakePipe()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { wake.wake() }
        let start = AccelerometerReader.monotonicSeconds()
        let outcome = reads.next(timeout: 30, wake: wake.read)
        let waited = AccelerometerReader.monotonicSeconds() - start
        guard case .woken = outcome else {
            Issue.record("expected a wake, got \(outcome)")
            return
        }
        #expect(waited < 2, "woken after \(waited) s")
        release.signal()
        try waitUntil { log.all.count == 2 }
        #expect(log.all == ["given up", "returned late"])
    }

    /// ``BlockingReadThread/finish()`` ends a thread waiting for its next request: it lets go of
    /// its `read` closure, and of what that holds.
    @Test func finishEndsTheIdleThread() throws {
        final class Held: Sendable {}
        var held: Held? = Held()
        weak let released = held
        let reads = try Self.started(BlockingReadThread(name: "test", read: { [held] in held == nil ? 0 : 1 }))
        held = nil
        let wake = try WakePipe()
        guard case .value(1) = reads.next(timeout: 5, wake: wake.read) else {
            Issue.record("the read gave no value")
            return
        }
        #expect(released != nil, "let go while the thread still waits for requests")
        reads.finish()
        try waitUntil { released == nil }
    }

    @Test func aLaterReaderWaitsForTheStuckReadOfTheSameDevice() throws {
        let device = "local: iio:device\(UUID().uuidString)", other = device + "-other"
        let wake = try WakePipe()
        StuckReads.gaveUp(device)
        StuckReads.gaveUp(device)
        #expect(StuckReads.wait(for: other, timeout: 0.1, wake: wake.read) == .clear)
        #expect(StuckReads.wait(for: device, timeout: 0.1, wake: wake.read) == .stillStuck)
        StuckReads.returned(device)
        #expect(StuckReads.wait(for: device, timeout: 0.1, wake: wake.read) == .stillStuck, "one of two returned")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { StuckReads.returned(device) }
        #expect(StuckReads.wait(for: device, timeout: 5, wake: wake.read) == .clear)
        StuckReads.gaveUp(device)
        wake.wake()
        #expect(StuckReads.wait(for: device, timeout: 5, wake: wake.read) == .woken)
        StuckReads.returned(device)
        #expect(!StuckReads.isStuck(device))
    }

    /// The thread, or a failed test when its pipes could not be made.
    static func started<Value>(_ thread: BlockingReadThread<Value>?) throws -> BlockingReadThread<Value> {
        try #require(thread != nil, "pipe() failed: errno \(errno)")
        return thread!
    }

    /// Waits up to 5 s for `condition`.
    func waitUntil(_ condition: () -> Bool) throws {
        let deadline = AccelerometerReader.monotonicSeconds() + 5
        while !condition() {
            try #require(AccelerometerReader.monotonicSeconds() < deadline, "waited 5 s")
            usleep(5_000)
        }
    }
}
