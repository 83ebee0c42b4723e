import ShakeDetection
import ShakeThreads

extension AccelerometerReader {
    /// Reads on a new background thread (named `shake.iio-read`), calling `onSample` for each
    /// sample (on that thread, in order) and `onFinish` once at the end: nil after ``stop()``,
    /// else the error that ended reading (``IIOError`` of kind `.deviceGone`, `.timedOut`...).
    /// A reader reads once: for a reader already reading or done, `onFinish` gets that error at
    /// once, on the calling thread, and the reading going on is not disturbed.
    public func start(
        onSample: @escaping @Sendable (Sample) -> Void,
        onFinish: @escaping @Sendable ((any Error)?) -> Void
    ) {
        do {
            try claimRun()
        } catch {
            onFinish(error)  // already reading, or read: that reading goes on
            return
        }
        NamedThread.start("shake.iio-read") { [self] in
            do {
                try runClaimed(onStart: {}, onSample)
                onFinish(nil)
            } catch {
                onFinish(error)
            }
        }
    }

    /// The samples as an async sequence, read on a background thread. It finishes after
    /// ``stop()``, when the task iterating it is cancelled, or when the stream itself is released
    /// (the loop ends and nothing else holds it: leaving the loop alone does not stop a stream
    /// kept in a variable). Once it has ended for its loop (the loop left and the stream let go
    /// with it, the task cancelled, or the stream finished), before the loop's next statement,
    /// the device is released and a rate this reader set put back, so another reader of the same
    /// device may be made at once: the loop's last `next()` waits until the reading thread has
    /// done it, and a stream let go early blocks the thread that lets it go until then (under
    /// 4 ms against the emulator, `local:` and `ip:`), for at most twice
    /// ``AccelerometerReadOptions/readTimeout`` and 1 s (10 s at most) should the device or
    /// `iiod` not answer. After ``stop()`` the stream finishes once the device is released.
    /// It throws the ``IIOError`` that ended reading. When the consumer falls more than
    /// ``AccelerometerReadOptions/streamBufferDuration`` seconds behind, the oldest queued
    /// samples are dropped and counted in ``AccelerometerReadStatistics/consumerOverruns``.
    ///
    /// In top-level code (a `main.swift` whose loop is in no function) Swift does not let go of a
    /// loop's iterator when the loop is left by `break`: the stream goes on, and the device stays
    /// enabled at this reader's rate. There, call ``stop()`` after the loop, or loop in a function.
    ///
    /// A reader reads once: the stream of a second call (or of a reader that has read) only
    /// throws that error, and ends no other reading.
    public func samples() -> AsyncThrowingStream<Sample, any Error> {
        do {
            try claimRun()
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Sample.self, throwing: (any Error).self, bufferingPolicy: options.streamBufferingPolicy(hertz: rateHertz))
        let released = ReadingEnd()
        // Never waits here (see ReleaseAwaitingStream): the stream's consumer waits for the release.
        continuation.onTermination = { [self] _ in stop() }
        NamedThread.start("shake.iio-read") { [self] in
            do {
                try runClaimed(onStart: {}) { sample in
                    if case .dropped = continuation.yield(sample) { countConsumerOverrun() }
                }
                released.signal()
                continuation.finish()
            } catch {
                released.signal()
                continuation.finish(throwing: error)
            }
        }
        return ReleaseAwaitingStream.make(
            stream, released: released, waitSeconds: Self.releaseWaitSeconds(readTimeout: options.readTimeout))
    }

    /// The longest a stream ended by its consumer (``samples()``,
    /// ``ReconnectingAccelerometerReader/updates()``) waits for the reading thread to release
    /// the device, s: twice `readTimeout` and 1 s (the buffer closed and the rate put back over an
    /// `iiod` that does not answer, each bounded by the read timeout), at most 10 s.
    static func releaseWaitSeconds(readTimeout: Double) -> Double {
        min(10, 1 + 2 * readTimeout)
    }
}
