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
    /// kept in a variable). The device is then released, and a rate this reader set put back,
    /// on the reading thread shortly after, not before the loop's next statement: another reader
    /// of the same device made at once may see its rate changed back under it (call ``stop()``
    /// and give the thread a moment, or read with ``run(_:)``, which returns after the release).
    /// It throws the ``IIOError`` that ended reading. When the consumer falls more than
    /// ``AccelerometerReadOptions/streamBufferDuration`` seconds behind, the oldest queued
    /// samples are dropped and counted in ``AccelerometerReadStatistics/consumerOverruns``.
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
        continuation.onTermination = { [self] _ in stop() }
        NamedThread.start("shake.iio-read") { [self] in
            do {
                try runClaimed(onStart: {}) { sample in
                    if case .dropped = continuation.yield(sample) { countConsumerOverrun() }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }
}
