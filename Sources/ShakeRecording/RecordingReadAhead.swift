#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeThreads

/// Parses a recording on threads of their own and hands the samples over in batches, a bounded
/// number of batches ahead of the caller: `RecordingReplay.run(…, readAhead: true)`. On two
/// cores the detector then runs beside the parser instead of after it.
///
/// A large regular file in the canonical layout (`time,x,y,z[,label]`, times not rebased) is
/// parsed on two threads: after the header and the first rows (which settle the unit guesses),
/// the rest is cut into parts of about `Splitting.partBytes`, each starting after a line end;
/// part k is parsed by thread k % 2 with line numbers counted from its start, and the caller
/// takes part 0's samples, then part 1's, … The caller joins the parts: it adds the lines before
/// each part, checks the first time of a part against the last time of the part before (time
/// going backwards, a duplicate or a gap across the cut) and sums the counts. A part that ends in
/// an error, or whose first time goes backwards, is parsed again from its start on the caller's
/// thread by the single parser, set up with the state before the part (previous time and line,
/// counts, lines): the samples already handed over are skipped, and that parser reads on to the
/// end of the file, giving exactly the error (message, line, column) and the samples the plain
/// reader gives. Anything else (small files, other layouts, standard input) is parsed by the
/// single parser on one thread.
///
/// Memory stays constant: per thread, at most `depth` (one thread) or `Splitting.depth` (two)
/// batches queued and one being filled, and a line buffer (`CSVLineSource`, 1.25 MiB at most);
/// peak RSS of `shake replay` grew by about 3.3 MiB when split (23.3 → 26.6 MiB, on 100 MB and
/// on 1 GB alike).
///
/// The file is opened on the first thread, so an error opening it is thrown by the first `next()`,
/// like every other error of the reader, after the samples before it. Not `Sendable`: one caller.
@usableFromInline final class RecordingReadAhead {
    /// Samples per batch.
    static let batchSize = 4096
    /// Batches parsed ahead of the caller by a single parsing thread.
    static let depth = 2
    /// The parsing threads' names for the system (`ps -L`, `top -H`): 15 bytes at most, which is
    /// all Linux keeps ("shake read-ahead", named through Foundation's Thread before, was one
    /// byte too long and left the threads unnamed), in the style of ShakeIIO's `shake.iio-read`.
    static let threadNames = (first: "shake.csv-read", second: "shake.csv-read2")

    /// When and how a file is parsed on two threads.
    struct Splitting: Sendable {
        /// Files with fewer bytes after the first rows are parsed on one thread: 16 MiB.
        var minimumBytes = 16 << 20
        /// Bytes per part: 1 MiB (about 29,000 canonical rows, seven batches).
        var partBytes = 1 << 20
        /// Batches each of the two threads may queue ahead of the caller: about two parts (2.6 MB),
        /// so that the thread of the next part can finish it while the caller takes the current
        /// one (8 gave 0.39 s on the 181 MB recording against 0.37 s, 11 alternating runs).
        var depth = 16

        static let standard = Splitting()
        /// Never split (for comparisons in tests).
        static let never = Splitting(minimumBytes: .max)
    }

    private let channels: [Channel]
    private var finished = false
    /// Set once the first thread has split the file.
    private var plan: Plan?
    /// The part being taken, the samples of it handed over so far, the lines before it, and the
    /// reader's state at its start (absolute lines).
    private var part = 0
    private var deliveredInPart = 0
    private var linesBeforePart = 0
    private var stateBeforePart = CSVRecordParser.Continuation()
    /// The single parser, on the caller's thread, after a part ended in an error.
    private var careful: CSVRecordParser?
    /// The single parser's error, thrown after the batch of samples before it.
    private var pendingError: RecordingError?

    /// The reader's counts at the end of the recording (nil before): samples read, duplicate
    /// timestamps, largest time gap, and the last time and its line.
    private(set) var statistics: CSVRecordParser.Continuation?

    /// The repeated timestamps and the largest time gap, s, as `RecordingReader` counts them
    /// (`duplicateTimestampCount`, `largestTimeGap`): joined across the parts of a split file;
    /// zeros before the end of the recording.
    @usableFromInline var timeCounts: (repeatedTimestamps: Int, largestTimeGap: Double) {
        (statistics?.duplicateTimestampCount ?? 0, statistics?.largestTimeGap ?? 0)
    }

    /// Whether the header has a label column; false before the end of the recording.
    @usableFromInline var hasLabels: Bool { statistics?.hasLabels ?? false }

    /// The header's `EarlyMagnitude.gravityFreeExport`; nil before the end of the recording.
    @usableFromInline var gravityFreeExport: String? { statistics?.gravityFreeExport }

    /// Whether the file was split (known once the first batch after the first rows was taken).
    var wasSplit: Bool { plan != nil }

    /// Starts parsing `path` with `options` on a new thread.
    @usableFromInline convenience init(path: String, options: CSVImportOptions) {
        self.init(path: path, options: options, splitting: .standard)
    }

    init(path: String, options: CSVImportOptions, splitting: Splitting) {
        let channels = [Channel(depth: RecordingReadAhead.depth), Channel(depth: splitting.depth)]
        self.channels = channels
        NamedThread.start(Self.threadNames.first) {
            Self.parse(path: path, options: options, splitting: splitting, into: channels)
        }
    }

    /// Stops the parsing threads if the caller did not read to the end.
    deinit { for channel in channels { channel.cancel() } }

    /// The next batch (never empty), or nil at the end of the recording.
    @usableFromInline func next() throws(RecordingError) -> [LabeledSample]? {
        while true {
            if finished { return nil }
            if let careful {
                return try nextCarefully(careful)
            }
            guard let plan else {
                switch channels[0].receive() {
                case .batch(let samples):
                    return samples
                case .split(let plan):
                    self.plan = plan
                    linesBeforePart = plan.lineNumber
                    stateBeforePart = plan.state
                    continue
                case .end(let state):
                    finished = true
                    statistics = state
                    return nil
                case .failure(let error):
                    finished = true
                    throw error
                case .partEnd:
                    preconditionFailure("a part before the split")
                }
            }
            switch channels[part % 2].receive() {
            case .batch(let samples):
                if deliveredInPart == 0, samples[0].sample.time < stateBeforePart.previousTime {
                    // Time goes backwards across the cut: the single parser says so.
                    try parseCarefully(plan)
                    continue
                }
                deliveredInPart += samples.count
                return samples
            case .partEnd(let summary):
                join(summary)
                if summary.readToEnd {
                    finished = true
                    statistics = stateBeforePart
                    return nil
                }
                part += 1
                deliveredInPart = 0
            case .failure:
                try parseCarefully(plan)
            case .split, .end:
                preconditionFailure("a split or an end after the split")
            }
        }
    }

    /// Adds a part's counts to those before it, with the comparison of its first time to the
    /// last time before it that its own parser could not make.
    private func join(_ summary: PartSummary) {
        let state = summary.state
        if let first = summary.firstTime {
            if first == stateBeforePart.previousTime {
                stateBeforePart.duplicateTimestampCount &+= 1
            } else if stateBeforePart.samplesRead > 0 {
                stateBeforePart.largestTimeGap = max(stateBeforePart.largestTimeGap, first - stateBeforePart.previousTime)
            }
            stateBeforePart.duplicateTimestampCount &+= state.duplicateTimestampCount
            stateBeforePart.largestTimeGap = max(stateBeforePart.largestTimeGap, state.largestTimeGap)
            stateBeforePart.previousTime = state.previousTime
            stateBeforePart.previousTimeLine = linesBeforePart + state.previousTimeLine
            stateBeforePart.samplesRead &+= state.samplesRead
        }
        linesBeforePart += summary.lines
    }

    /// Stops the parsing threads and reads on from the start of the current part with the single
    /// parser, skipping the samples of the part already handed over.
    private func parseCarefully(_ plan: Plan) throws(RecordingError) {
        for channel in channels { channel.cancel() }
        let start = plan.boundary(part) ?? plan.start
        let source = CSVLineSource(rangeOf: plan.template.source, from: start, to: nil, lineNumber: linesBeforePart)
        let parser = CSVRecordParser(continuing: plan.template, source: source, state: stateBeforePart)
        careful = parser
        do {
            for _ in 0..<deliveredInPart { _ = try parser.next() }
        } catch {
            finished = true
            throw error
        }
    }

    /// The single parser's next batch; its samples before an error first, then the error.
    private func nextCarefully(_ parser: CSVRecordParser) throws(RecordingError) -> [LabeledSample]? {
        if let error = pendingError {
            finished = true
            throw error
        }
        var batch: [LabeledSample] = []
        batch.reserveCapacity(Self.batchSize)
        do {
            while batch.count < Self.batchSize, let sample = try parser.next() { batch.append(sample) }
        } catch {
            if !batch.isEmpty {
                pendingError = error
                return batch
            }
            finished = true
            throw error
        }
        if batch.isEmpty {
            finished = true
            statistics = parser.continuation
            return nil
        }
        return batch
    }

    /// The first thread's body: the header and first rows, then either every sample in batches
    /// followed by `.end` or the first error, or `.split` and every other part.
    private static func parse(path: String, options: CSVImportOptions, splitting: Splitting, into channels: [Channel]) {
        let channel = channels[0]
        var batch: [LabeledSample] = []
        do throws(RecordingError) {
            let source = try CSVLineSource(path: path, maximumLineBytes: options.maximumLineBytes)
            let parser = try CSVRecordParser(source: source, options: options)
            batch.reserveCapacity(batchSize)
            while !parser.unitGuessesSettled, let sample = try parser.next() { batch.append(sample) }
            if let plan = Plan(parser, splitting: splitting) {
                if !batch.isEmpty {
                    guard channel.send(.batch(batch)) else { return }
                }
                guard channel.send(.split(plan)) else { return }
                NamedThread.start(Self.threadNames.second) { parseParts(plan, from: 1, into: channels[1]) }
                parseParts(plan, from: 0, into: channel)
                return
            }
            while let sample = try parser.next() {
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
            channel.send(.end(parser.continuation))
        } catch {
            // The samples before the error first, as the reader returns them.
            if !batch.isEmpty {
                guard channel.send(.batch(batch)) else { return }
            }
            channel.send(.failure(error))
        }
    }

    /// Parses parts `first`, `first + 2`, … with line numbers and counts of their own.
    private static func parseParts(_ plan: Plan, from first: Int, into channel: Channel) {
        var part = first
        while part < plan.partCount {
            guard let start = plan.boundary(part) else { return }
            let end = plan.boundary(part + 1)  // nil: the last part, read to the end of the file
            let source = CSVLineSource(rangeOf: plan.template.source, from: start, to: end, lineNumber: 0)
            let parser = CSVRecordParser(continuing: plan.template, source: source, state: .init())
            var batch: [LabeledSample] = []
            batch.reserveCapacity(batchSize)
            var firstTime: Double?
            do throws(RecordingError) {
                while let sample = try parser.next() {
                    if firstTime == nil { firstTime = sample.sample.time }
                    batch.append(sample)
                    if batch.count == batchSize {
                        guard channel.send(.batch(batch)) else { return }
                        batch = []
                        batch.reserveCapacity(batchSize)
                    }
                }
            } catch {
                // The caller finds the error again with the lines and times before the part.
                if !batch.isEmpty {
                    guard channel.send(.batch(batch)) else { return }
                }
                channel.send(.failure(error))
                return
            }
            if !batch.isEmpty {
                guard channel.send(.batch(batch)) else { return }
            }
            let summary = PartSummary(
                lines: source.lineNumber, firstTime: firstTime, state: parser.continuation, readToEnd: end == nil)
            guard channel.send(.partEnd(summary)) else { return }
            if end == nil { return }
            part += 2
        }
    }

    /// Where the parts of a split file start.
    /// `@unchecked Sendable`: `template` is no longer used to parse once the plan exists; the
    /// threads only read its settings (and the file through its descriptor, with `pread`).
    final class Plan: @unchecked Sendable {
        /// The parser that read the header and the first rows.
        let template: CSVRecordParser
        /// Offset of the first part, lines before it, and the reader's state there.
        let start: Int
        let lineNumber: Int
        let state: CSVRecordParser.Continuation
        /// Where each part starts, found once here, so that both threads cut the file at the
        /// same places even when it grows meanwhile (the last part reads to the end).
        let boundaries: [Int]
        var partCount: Int { boundaries.count }

        /// A plan for the rest of the file `parser` reads, or nil when it is not to be split.
        init?(_ parser: CSVRecordParser, splitting: Splitting) {
            let source = parser.source
            guard parser.rowsMayBeSplit, source.path != CSVLineSource.standardInputPath,
                  let fd = source.fileDescriptor
            else { return nil }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let start = source.consumedOffset
            let remaining = Int(info.st_size) - start
            guard remaining >= splitting.minimumBytes, remaining > 0 else { return nil }
            let maximumLineBytes = max(64, parser.options.maximumLineBytes)
            // A part is longer than a line, so each cut finds a line end before the next cut.
            let partBytes = max(splitting.partBytes, maximumLineBytes + 2)
            var boundaries = [start]
            for index in 1..<((remaining + partBytes - 1) / partBytes) {
                guard let boundary = Self.lineStart(
                    after: start + index * partBytes - 1, within: maximumLineBytes + 2, fd: fd)
                else { break }
                boundaries.append(boundary)
            }
            self.boundaries = boundaries
            template = parser
            self.start = start
            lineNumber = source.lineNumber
            state = parser.continuation
        }

        /// Where part `index` starts (nil past the last part).
        func boundary(_ index: Int) -> Int? {
            index < boundaries.count ? boundaries[index] : nil
        }

        /// Just after the first line end at or after `offset`, looking `within` bytes (a line's
        /// length at most). Nil when there is none there (the line is too long, which the part
        /// before reports) or before the end of the file: the part before then reads to the end.
        private static func lineStart(after offset: Int, within: Int, fd: CInt) -> Int? {
            var offset = offset
            let limit = offset + within
            // A canonical row is about 40 bytes: 4 KiB at a time, not a whole line's worth.
            var buffer = [UInt8](repeating: 0, count: 4096)
            while offset < limit {
                let wanted = min(buffer.count, limit - offset)
                var n: Int
                repeat {
                    n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
                } while n < 0 && errno == EINTR
                if n <= 0 { return nil }
                if let newline = buffer[..<n].firstIndex(of: 0x0A) { return offset + newline + 1 }
                offset += n
            }
            return nil
        }
    }

    /// What a part's thread tells the caller after the part's samples.
    struct PartSummary: Sendable {
        /// Lines in the part.
        var lines: Int
        /// The time of its first sample (nil: none).
        var firstTime: Double?
        /// Its parser's state at its end (lines counted from its start).
        var state: CSVRecordParser.Continuation
        /// The part read to the end of the file: the last part.
        var readToEnd: Bool
    }

    /// A bounded queue between a parsing thread (`send`) and the caller (`receive`).
    /// `@unchecked Sendable`: every stored variable is read and written only with `condition` locked.
    private final class Channel: @unchecked Sendable {
        enum Message: Sendable {
            case batch([LabeledSample])
            /// The rest of the file is split (from the first thread).
            case split(Plan)
            /// A part's samples are all sent.
            case partEnd(PartSummary)
            /// The end of an unsplit recording.
            case end(CSVRecordParser.Continuation)
            case failure(RecordingError)
        }

        private let condition = ThreadCondition()
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
