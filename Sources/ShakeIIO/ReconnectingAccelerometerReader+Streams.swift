import ShakeDetection
import ShakeThreads

extension ReconnectingAccelerometerReader {
    /// One item of ``updates()``: a sample (times continuous across outages), or what happened
    /// to the connection.
    public enum Update: Sendable {
        case sample(Sample)
        case event(Event)
    }

    /// Reads on a new background thread (named `shake.iio-read`), calling `onEvent` and
    /// `onSample` on it, in order, and `onFinish` once at the end: nil after ``stop()``, else
    /// the error that ended reading (see ``run(onEvent:_:)``). While a run is going on,
    /// `onFinish` gets that error at once, on the calling thread, and the run is not disturbed.
    public func start(
        onEvent: @escaping @Sendable (Event) -> Void,
        onSample: @escaping @Sendable (Sample) -> Void,
        onFinish: @escaping @Sendable ((any Error)?) -> Void
    ) {
        do {
            try claimRun()
        } catch {
            onFinish(error)
            return
        }
        NamedThread.start("shake.iio-read") { [self] in
            do {
                try runClaimed(onEvent: onEvent, onSample)
                onFinish(nil)
            } catch {
                onFinish(error)
            }
        }
    }

    /// The samples and connection events as an async sequence, read on a background thread, as
    /// ``AccelerometerReader/samples()`` gives an ``AccelerometerReader``'s. It finishes after
    /// ``stop()``, when the task iterating it is cancelled, or when the stream itself is released,
    /// and throws the ``IIOError`` that ended reading. As ``AccelerometerReader/samples()`` says,
    /// once it has ended the device is released and its rate put back (ended while waiting for
    /// the device, after one attempt to open it, which may take 2 s more). Updates, connection
    /// events among them, beyond the queue are dropped as samples are. The queue holds
    /// ``AccelerometerReadOptions/streamBufferDuration`` seconds of updates at
    /// ``AccelerometerReadOptions/rateHertz`` (400 Hz when nil); when the consumer falls
    /// further behind, the oldest are dropped and counted in
    /// ``AccelerometerReadStatistics/consumerOverruns``. In top-level code, leaving the loop by
    /// `break` does not end the stream (see ``AccelerometerReader/samples()``): call ``stop()``.
    /// While a run is going on, the stream only throws that error, and ends nothing else.
    /// A stream that ended in an error leaves the reader free to run again, as a run that threw
    /// does; one ended by ``stop()`` or by its consumer (the loop left, the task cancelled)
    /// stops the reader for good.
    public func updates() -> AsyncThrowingStream<Update, any Error> {
        do {
            try claimRun()
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Update.self, throwing: (any Error).self,
            bufferingPolicy: options.streamBufferingPolicy(hertz: options.rateHertz ?? 400))
        let released = ReadingEnd()
        continuation.onTermination = { [self] termination in
            // Finished by the reading thread, reading has ended and the device is released; a
            // stop would refuse a later run, which a run that threw is allowed. Never waits
            // here (see ReleaseAwaitingStream): the stream's consumer waits for the release.
            guard case .cancelled = termination else { return }
            stop()
        }
        let yield: @Sendable (Update) -> Void = { [self] update in
            if case .dropped = continuation.yield(update) { countConsumerOverrun() }
        }
        NamedThread.start("shake.iio-read") { [self] in
            do {
                try runClaimed(onEvent: { yield(.event($0)) }) { yield(.sample($0)) }
                released.signal()
                continuation.finish()
            } catch {
                released.signal()
                continuation.finish(throwing: error)
            }
        }
        // Stopped while waiting for the device, the thread tries to open it for up to 2 s to put
        // the rate back.
        return ReleaseAwaitingStream.make(
            stream, released: released,
            waitSeconds: 2 + AccelerometerReader.releaseWaitSeconds(readTimeout: options.readTimeout))
    }
}
