import Foundation

/// Parses a recording on a thread of its own and hands the samples over in batches, at most
/// `depth` batches ahead of the caller: `RecordingReplay.run(…, readAhead: true)`. On two cores
/// the detector then runs beside the parser instead of after it. Memory stays constant: at most
/// `depth` + 2 batches exist at once (about 0.6 MB).
///
/// The file is opened on that thread, so an error opening it is thrown by the first `next()`,
/// like every other error of the reader, after the samples before it. Not `Sendable`: one caller.
@usableFromInline final class RecordingReadAhead {
    /// Samples per batch.
    static let batchSize = 4096
    /// Batches parsed ahead of the caller.
    static let depth = 2

    private let channel = Channel(depth: RecordingReadAhead.depth)
    private var finished = false

    /// Starts parsing `path` with `options` on a new thread.
    @usableFromInline init(path: String, options: CSVImportOptions) {
        let channel = self.channel
        let thread = Thread { Self.parse(path: path, options: options, into: channel) }
        thread.name = "shake read-ahead"
        thread.start()
    }

    /// Stops the parsing thread if the caller did not read to the end.
    deinit { channel.cancel() }

    /// The next batch (never empty), or nil at the end of the recording.
    @usableFromInline func next() throws(RecordingError) -> [LabeledSample]? {
        if finished { return nil }
        switch channel.receive() {
        case .batch(let samples):
            return samples
        case .end:
            finished = true
            return nil
        case .failure(let error):
            finished = true
            throw error
        }
    }

    /// The parsing thread's body: every sample in batches, then `.end` or the first error.
    private static func parse(path: String, options: CSVImportOptions, into channel: Channel) {
        do throws(RecordingError) {
            var reader = try RecordingReader(path: path, options: options)
            var batch: [LabeledSample] = []
            batch.reserveCapacity(batchSize)
            while let sample = try reader.next() {
                batch.append(sample)
                if batch.count == batchSize {
                    guard channel.send(.batch(batch)) else { return }
                    batch = []
                    batch.reserveCapacity(batchSize)
                }
            }
            if !batch.isEmpty {
                guard channel.send(.batch(batch)) else { return }
            }
            channel.send(.end)
        } catch {
            channel.send(.failure(error))
        }
    }

    /// A bounded queue between the parsing thread (`send`) and the caller (`receive`).
    /// `@unchecked Sendable`: every stored variable is read and written only with `condition` locked.
    private final class Channel: @unchecked Sendable {
        enum Message: Sendable {
            case batch([LabeledSample])
            case end
            case failure(RecordingError)
        }

        private let condition = NSCondition()
        private let depth: Int
        private var queue: [Message] = []
        private var cancelled = false

        init(depth: Int) {
            self.depth = depth
        }

        /// Waits for room, then queues `message`. False (and nothing queued) once cancelled.
        @discardableResult
        func send(_ message: Message) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while queue.count >= depth && !cancelled { condition.wait() }
            if cancelled { return false }
            queue.append(message)
            condition.broadcast()
            return true
        }

        /// Waits for the oldest message and takes it.
        func receive() -> Message {
            condition.lock()
            defer { condition.unlock() }
            while queue.isEmpty { condition.wait() }
            let message = queue.removeFirst()
            condition.broadcast()
            return message
        }

        /// The receiver is gone: the batches queued are dropped, and a sender waiting for room,
        /// or sending later, gives up.
        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            queue.removeAll()
            condition.broadcast()
        }
    }
}
