import Dispatch
import Synchronization

/// A stream read on a thread of its own (``AccelerometerReader/samples()``,
/// ``ReconnectingAccelerometerReader/updates()``) that ends, as its consumer sees it, only once
/// the reading thread has released the device (its rate put back): the loop that iterates it
/// ends after the release, whether it is left (`break`), its task is cancelled, or the stream
/// finishes.
///
/// The wait is the consumer's own. `items`' termination handler must not wait: for a cancelled
/// task, `AsyncThrowingStream` runs it on the cancelling thread, inside the task's cancellation
/// handler, where the task's status is locked; the reading thread's next `yield` to the waiting
/// consumer needs that lock, so a wait there held the reading thread until the wait's bound ran
/// out, and the loop ended before the release. Here `next()` waits, suspended, for the release
/// before it gives the end (or the error); a loop left early (its iterator let go) waits, on the
/// thread that leaves it, in `deinit`.
enum ReleaseAwaitingStream {
    /// `items` (whose termination stops reading and does not wait), ended for its consumer once
    /// `released` is signalled or `waitSeconds` have passed since the end came.
    static func make<Element: Sendable>(
        _ items: consuming AsyncThrowingStream<Element, any Error>, released: ReadingEnd, waitSeconds: Double
    ) -> AsyncThrowingStream<Element, any Error> {
        let consumer = Consumer(items.makeAsyncIterator(), released: released, waitSeconds: waitSeconds)
        // The stream's storage holds the closure, the closure the consumer: the consumer goes
        // when the stream and its iterator go, or when the iterating task is cancelled.
        return AsyncThrowingStream(unfolding: { try await consumer.next() })
    }

    /// `@unchecked Sendable`: its iterator is used by one task at a time, as any stream
    /// iterator is (two tasks calling `next()` at once is a programmer error, which `items`
    /// reports).
    private final class Consumer<Element: Sendable>: @unchecked Sendable {
        private var items: AsyncThrowingStream<Element, any Error>.Iterator?
        private let released: ReadingEnd
        private let waitSeconds: Double

        init(_ items: AsyncThrowingStream<Element, any Error>.Iterator, released: ReadingEnd, waitSeconds: Double) {
            self.items = items
            self.released = released
            self.waitSeconds = waitSeconds
        }

        func next() async throws -> Element? {
            guard var iterator = items else { return nil }
            do {
                if let item = try await iterator.next() { return item }
            } catch {
                await released.wait(seconds: waitSeconds)
                throw error
            }
            await released.wait(seconds: waitSeconds)
            return nil
        }

        deinit {
            // Letting `items` go terminates it (reading is stopped) unless it has ended already.
            items = nil
            released.blockingWait(seconds: waitSeconds)
        }
    }
}

/// The end of a stream's reading thread, signalled once it has released the device (its rate
/// put back), for the stream's consumer to wait for.
final class ReadingEnd: Sendable {
    private struct State {
        var released = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var lastWaiter = 0
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    /// Reading has ended and the device is released.
    func signal() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
        done.signal()
    }

    /// Suspends until ``signal()``, for up to `seconds` (whether or not the task is cancelled).
    func wait(seconds: Double) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = state.withLock { state -> Int? in
                if state.released { return nil }
                state.lastWaiter += 1
                state.waiters[state.lastWaiter] = continuation
                return state.lastWaiter
            }
            guard let waiter else { return continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
            }
        }
    }

    /// Blocks the calling thread until ``signal()``, for up to `seconds`.
    func blockingWait(seconds: Double) {
        if state.withLock({ $0.released }) { return }
        if done.wait(timeout: .now() + seconds) == .success { done.signal() }  // for any later wait
    }
}
