import Foundation
import ShakeDetection

extension AccelerometerReader {
    /// Reads on a new background thread (named `shake.iio-read`), calling `onSample` for each sample (on that thread, in
    /// order) and `onFinish` once at the end: nil after ``stop()``, else the error that ended
    /// reading (``IIOError`` of kind `.deviceGone`, `.timedOut`...).
    public func start(
        onSample: @escaping @Sendable (Sample) -> Void,
        onFinish: @escaping @Sendable ((any Error)?) -> Void
    ) {
        Thread.startNamed("shake.iio-read") { [self] in
            do {
                try run(onSample)
                onFinish(nil)
            } catch {
                onFinish(error)
            }
        }
    }

    /// The samples as an async sequence, read on a background thread. It finishes after
    /// ``stop()`` or when the consumer stops iterating (which stops the reader), and throws the
    /// ``IIOError`` that ended reading. When the consumer falls more than
    /// ``AccelerometerReadOptions/streamBufferDuration`` seconds behind, the oldest queued
    /// samples are dropped and counted in ``AccelerometerReadStatistics/consumerOverruns``.
    public func samples() -> AsyncThrowingStream<Sample, any Error> {
        let queued = rateHertz * options.streamBufferDuration  // checked in init: not negative or NaN
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Sample.self, throwing: (any Error).self,
            bufferingPolicy: queued >= Double(Int.max / 2) ? .unbounded : .bufferingNewest(max(16, Int(queued))))
        continuation.onTermination = { [self] _ in stop() }
        start(
            onSample: { [self] sample in
                if case .dropped = continuation.yield(sample) { countConsumerOverrun() }
            },
            onFinish: { error in continuation.finish(throwing: error) })
        return stream
    }
}
