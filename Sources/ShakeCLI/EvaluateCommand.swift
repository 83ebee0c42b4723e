#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import FoundationEssentials
import ShakeDetection
import ShakeRecording
import Synchronization

/// `shake evaluate PATH...`: recall, false shakes and latency on labelled recordings.
enum EvaluateCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "evaluate",
        abstract: "Score the detector on labelled recordings: recall, false shakes per hour, latency.",
        discussion: """
            Each PATH is a labelled CSV recording (with a 'shake' column) or a folder searched \
            recursively for *.csv files. A labelled shake is a run of shake=1 samples, from its first \
            to its last such sample; it is detected when a 'began' event lies within [run start - \
            0.5 s, run end + 0.5 s] (edges included; times compared in whole microseconds). Each run matches at most \
            one detection; further detections in its window are duplicates (one shake fired twice); \
            a detection outside every window is a false shake. Where two runs' windows overlap, a \
            detection goes to the earlier run not yet matched. negative_hours is the time labelled \
            shake=0: each interval between samples that starts at a shake=0 sample, counted whole \
            (also a gap); latency is began - run start, in seconds (down to -0.5 s). The median and \
            p95 interpolate linearly between ranks (rank (n - 1) x p from 0, as numpy's default: of \
            two latencies a and b, p95 is a + 0.95 (b - a)). A ratio with nothing to divide by is null in \
            JSON and '-' in text: recall without labelled shakes, precision without detections, \
            false_per_hour without negative time, f1 when recall or precision is, latencies without \
            a detected shake. Totals pool the files' counts and latencies. Under the table (in JSON \
            'total_interval_95', each [low, high] or null) are the total's 95 % confidence \
            intervals: the Wilson score interval for recall, the exact Poisson interval for \
            false_per_hour; they treat shakes and false shakes as independent events. JSON also \
            says which detector scored: 'detector' (shakekit or seismic) and, for shakekit, \
            'configuration' (every key, as --config reads it), for seismic \
            'seismic_threshold_m_s2'. Files are \
            scored in parallel on all the machine's processor cores.

            """ + "\n" + ImportOptions.discussion,
        arguments: [ArgumentSpec("path", help: "Labelled recordings or folders of them (- reads standard input).", variadic: true)],
        options: DetectorOptions.specs + [
            DetectorOptions.detectorSpec, DetectorOptions.formatSpec, DetectorOptions.spreadBatchesSpec,
            .flag("list", help: "Also list each missed shake (its labelled start and end, and why it was missed: "
                    + "the chain of half-waves that came closest, then up to 3 other chains in its window) "
                    + "and the time of each false shake and duplicate (and what the rules measured), per file, "
                    + "to look at with 'shake plot "
                    + "FILE --from A --to B' or 'shake replay --explain'. With --format json: per file, 'missed' "
                    + "([{start_s, end_s, why, largest_l_m_s2}]), 'false_shake_times_s' and 'duplicate_times_s', "
                    + "and 'false_shake_why' and 'duplicate_why' (what the rules measured when each began, "
                    + "against their limits). The whys are ShakeKit's detector's only."),
        ] + ImportOptions.specs
    )

    struct FileRow: Encodable {
        var file: String
        var summary: EvaluationSummary
        /// Written only with `--list`.
        var details: EvaluationDetails?
        /// Why each missed shake was missed, in `details.missed`'s order: with `--list`, for
        /// ShakeKit's detector.
        var missedWhy: [MissedWhy]?
        /// What the rules measured for each false shake and duplicate, in `details`' order: with
        /// `--list`, for ShakeKit's detector.
        var falseShakeWhy: [String]?
        var duplicateWhy: [String]?

        struct MissedWhy: Encodable {
            var why: String
            var largestLinearAcceleration: Double
        }

        struct MissedEntry: Encodable {
            var start: Double
            var end: Double
            var why: MissedWhy?

            enum CodingKeys: String, CodingKey {
                case start = "start_s", end = "end_s", why, largest = "largest_l_m_s2"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(RoundedNumber.seconds(start), forKey: .start)
                try container.encode(RoundedNumber.seconds(end), forKey: .end)
                try container.encodeIfPresent(why?.why, forKey: .why)
                try container.encodeIfPresent(why.map { RoundedNumber.acceleration($0.largestLinearAcceleration) },
                                              forKey: .largest)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FileKey.self)
            try container.encode(file, forKey: FileKey(stringValue: "file"))
            try summary.encode(to: encoder)
            guard let details else { return }
            let missed = details.missed.enumerated().map { index, shake in
                MissedEntry(start: shake.start, end: shake.end, why: missedWhy?[index])
            }
            try container.encode(missed, forKey: FileKey(stringValue: "missed"))
            try container.encode(details.falseShakeTimes.map(RoundedNumber.seconds),
                                 forKey: FileKey(stringValue: "false_shake_times_s"))
            try container.encode(details.duplicateTimes.map(RoundedNumber.seconds),
                                 forKey: FileKey(stringValue: "duplicate_times_s"))
            try container.encodeIfPresent(falseShakeWhy, forKey: FileKey(stringValue: "false_shake_why"))
            try container.encodeIfPresent(duplicateWhy, forKey: FileKey(stringValue: "duplicate_why"))
        }

        struct FileKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    struct Report: Encodable {
        var files: [FileRow]
        var total: EvaluationSummary
        var totalInterval: EvaluationIntervals
        var detector: DetectorReport

        enum CodingKeys: String, CodingKey {
            case files, total
            case totalInterval = "total_interval_95"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(files, forKey: .files)
            try container.encode(total, forKey: .total)
            try container.encode(totalInterval, forKey: .totalInterval)
            try detector.encode(to: encoder)
        }
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let chosen = try DetectorOptions.detector(arguments)
        try ImportOptions.checkLabelsAreRead(arguments, command: "evaluate")
        let options = try ImportOptions.options(arguments)
        let files = try recordingFiles(arguments.positionals)
        let list = arguments.flag("list")
        let results = try evaluate(files: files, options: options, detector: chosen, explaining: list,
                                   spreadingBatches: arguments.flag("spread-batches"))
        for (file, result) in zip(files, results) {
            if let rate = result.slowSampleRate { io.err(SlowSampleRate.fileWarning(file, hertz: rate)) }
            if let burst = result.samplesPerBurst {
                io.err(BunchedTimes.fileWarning(file, samplesPerBurst: burst, hinting: !arguments.flag("spread-batches")))
            }
            if let repeats = result.repeatsPerTime {
                io.err(BunchedTimes.fileWarning(file, samplesPerTime: repeats))
            }
            if let warning = ImportOptions.gravityFreeWarning(path: file, result.early) { io.err(warning) }
        }
        var total = EvaluationCounts()
        for result in results { total += result.counts }
        let rows = zip(files, results).map {
            FileRow(file: RecordingError.displayName(ofPath: $0), summary: $1.counts.summary,
                    details: list ? $1.details : nil, missedWhy: $1.why?.missed,
                    falseShakeWhy: $1.why?.falseShakes, duplicateWhy: $1.why?.duplicates)
        }
        if wantsJSON(arguments) {
            io.out(jsonText(Report(files: rows, total: total.summary, totalInterval: total.summary.intervals,
                                   detector: DetectorReport(selected: chosen))))
        } else {
            io.out(table(rows + [FileRow(file: "TOTAL", summary: total.summary)]))
            io.out(confidenceLine("TOTAL", total.summary))
            if list { io.out("\n" + listing(rows)) }
        }
        return ExitStatus.success
    }

    /// `--list` in text: one line per missed shake, false shake and duplicate, by file and time.
    static func listing(_ rows: [FileRow]) -> String {
        var lines: [(row: Int, time: Double, text: String)] = []
        for (index, row) in rows.enumerated() {
            guard let details = row.details else { continue }
            for (number, shake) in details.missed.enumerated() {
                var text = "missed shake  labelled \(fixed(shake.start, 3)) to \(fixed(shake.end, 3)) s"
                if let why = row.missedWhy?[number] { text += ": " + why.why }
                lines.append((index, shake.start, text))
            }
            for (number, time) in details.falseShakeTimes.enumerated() {
                let why = row.falseShakeWhy.map { ": " + $0[number] } ?? ""
                lines.append((index, time, "false shake   began at \(fixed(time, 3)) s" + why))
            }
            for (number, time) in details.duplicateTimes.enumerated() {
                let why = row.duplicateWhy.map { ": " + $0[number] } ?? ""
                lines.append((index, time, "duplicate     began at \(fixed(time, 3)) s" + why))
            }
        }
        guard !lines.isEmpty else { return "No missed shake, false shake or duplicate.\n" }
        lines.sort { ($0.row, $0.time) < ($1.row, $1.time) }  // files in the order given, then by time
        let width = lines.map { rows[$0.row].file.count }.max() ?? 0
        return lines.map { rows[$0.row].file.padding(toLength: width) + "  " + $0.text + "\n" }.joined()
    }

    /// One file's scores, and what `evaluate` warns of: a rate under the detector's slowest, the
    /// acceleration's early magnitude (gravity taken out?), samples stamped in bursts.
    typealias Scored = (counts: EvaluationCounts, details: EvaluationDetails, why: Whys?, slowSampleRate: Double?,
                        early: EarlyMagnitude, samplesPerBurst: Double?, repeatsPerTime: Double?)

    /// Scores every file with a fresh copy of `detector`, on all cores, in file order. With
    /// `explaining` and ShakeKit's detector, also says why each missed shake was missed and what
    /// the rules measured for each false shake and duplicate.
    static func evaluate(
        files: [String], options: CSVImportOptions = .canonical, detector: SelectedDetector,
        explaining: Bool = false, spreadingBatches: Bool = false
    ) throws -> [Scored] {
        let results = Mutex<[Int: Result<Scored, CommandFailure>]>([:])
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let outcome: Result<Scored, CommandFailure>
            do {
                let replay: RecordingReplay.Result
                var why: Whys?
                var spreadSamples: Int?
                if explaining, case .shakeKit(let shakeKit) = detector {
                    let configuration = shakeKit.configuration
                    let explained = try RecordingReplay.runExplaining(
                        path: files[index], options: options, configuration: configuration,
                        spreadingBatches: spreadingBatches)
                    replay = explained.result
                    spreadSamples = explained.spreadSamples
                    why = Whys(explained, configuration: configuration)
                } else {
                    let spread: Int?
                    (replay, spread) = try detector.replay(path: files[index], options: options,
                                                          spreadingBatches: spreadingBatches)
                    spreadSamples = spread
                }
                if replay.sampleCount == 0 {
                    // A header and no rows: whether it is labelled, there is nothing to score.
                    outcome = .failure(CommandFailure(
                        "\(RecordingError.displayName(ofPath: files[index])): no samples", exitStatus: ExitStatus.dataError))
                } else if let counts = replay.counts, let details = replay.details {
                    // Spread, the bursts are no longer what the detector sees.
                    let bursts = (spreadSamples ?? 0) > 0 ? nil : replay.samplesPerBurst
                    // Shared times make the rate between new times look slow: the batch is the
                    // problem to name, not the rate.
                    let repeats = BunchedTimes.repeatsPerTime(replay)
                    let slow = repeats == nil ? SlowSampleRate.flagged(replay) : nil
                    outcome = .success((counts, details, why, slow, replay.earlyMagnitude,
                                         bursts, (spreadSamples ?? 0) > 0 ? nil : repeats))
                } else {
                    outcome = .failure(CommandFailure(
                        "\(RecordingError.displayName(ofPath: files[index])): no 'shake' column; evaluate needs "
                            + "labelled recordings (label one with 'shake convert FILE --shakes START-END,... -o OUT', "
                            + "or --shakes none for one without shakes; or use 'shake replay' for unlabelled ones)",
                        exitStatus: ExitStatus.dataError))
                }
            } catch {
                outcome = .failure(recordingFailure(error))
            }
            results.withLock { $0[index] = outcome }
        }
        return try results.withLock { all in try files.indices.map { try all[$0]!.get() } }
    }

    /// Why each missed shake was missed, and what the rules measured for each false shake and
    /// duplicate, for `--list`.
    struct Whys {
        var missed: [FileRow.MissedWhy]
        var falseShakes: [String]
        var duplicates: [String]

        init(_ explained: RecordingReplay.Explained, configuration: ShakeConfiguration) {
            missed = explained.missedShakes.map {
                FileRow.MissedWhy(why: NearMissReport.missedWhy($0, configuration: configuration),
                                  largestLinearAcceleration: $0.largestLinearAcceleration)
            }
            func measured(_ time: Double) -> String {
                explained.shake(beganAt: time).flatMap { NearMissReport.beganWhy($0, configuration: configuration) }
                    ?? "no chain recorded for it"
            }
            falseShakes = (explained.result.details?.falseShakeTimes ?? []).map(measured)
            duplicates = (explained.result.details?.duplicateTimes ?? []).map(measured)
        }
    }

    /// Expands folders into their *.csv files (recursively, sorted); files are kept as given.
    /// A file named twice (directly, through a folder, or by another spelling of its path) is a
    /// usage error: counting it twice would skew every figure.
    static func recordingFiles(_ paths: [String]) throws -> [String] {
        // Standard input twice is a mistake in the command line: said before any file is looked at.
        if paths.count(where: { $0 == "-" }) > 1 {
            throw UsageError("The file '-' is given twice; each recording counts once")
        }
        let files = try expandedRecordingFiles(paths)
        var seen: [String: String] = [:]
        for file in files {
            let key = URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath().path
            if let first = seen[key] {
                throw UsageError(first == file
                    ? "The file '\(file)' is given twice; each recording counts once"
                    : "'\(file)' and '\(first)' are the same file; each recording counts once")
            }
            seen[key] = file
        }
        return files
    }

    /// `paths` with each folder replaced by its *.csv files (recursively, sorted); a missing path
    /// or a folder without recordings is an error (exit 66).
    static func expandedRecordingFiles(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            if path == "-" {  // standard input, read by RecordingReader
                files.append(path)
                continue
            }
            guard let isDirectory = isFolder(path) else {
                throw CommandFailure("\(path): no such file or folder\(notUTF8NameNote(path))", exitStatus: ExitStatus.noInput)
            }
            guard isDirectory else {
                files.append(path)
                continue
            }
            let base = path.hasSuffix("/") && path != "/" ? String(path.dropLast()) : path
            var found: [String] = []
            var others: [String] = []
            try collectRecordings(in: base, into: &found, others: &others)
            if found.isEmpty {
                throw CommandFailure("\(path): folder holds no .csv recordings\(otherFilesNote(others))", exitStatus: ExitStatus.noInput)
            }
            files += found.sorted().map { base == "/" ? "/" + $0 : base + "/" + $0 }
        }
        return files
    }

    /// Adds the *.csv files in `base/relative` and its subfolders to `found`, as paths relative
    /// to `base`. Hidden names (`.git`, macOS's `._x.csv` resource forks) are left out, as a
    /// shell's `*` leaves them out, and so are symbolic links to folders (no loops). A symbolic
    /// link to a file is kept, and one that leads nowhere too, so reading it says why. A named
    /// pipe, socket or device named *.csv (which reading would wait on), a name that is not
    /// UTF-8 (which cannot be opened by a name made of Swift text), and a subfolder that cannot
    /// be read are errors naming the path (exit 66): a recording left out would change every
    /// figure without a word.
    /// Folders are read one at a time, each closed before the next (a tree thousands deep
    /// needs neither a deep stack nor a descriptor per level).
    /// `others` gets the paths of the other files (not *.csv, not hidden), for the error of a
    /// folder without recordings.
    private static func collectRecordings(in base: String, into found: inout [String], others: inout [String]) throws {
        var pending = [""]
        while let relative = pending.popLast() {
            try collectRecordings(in: base, relative: relative, into: &found, others: &others, subfolders: &pending)
        }
    }

    /// For a folder without recordings: what it holds instead, and how to read such a file;
    /// empty when it holds nothing else.
    static func otherFilesNote(_ others: [String]) -> String {
        guard !others.isEmpty else { return "" }
        let how = "name a recording of another extension on the command line to read it"
        if others.count == 1 { return " (it holds 1 other file: \(others[0]); \(how))" }
        let examples = others.sorted().prefix(3).joined(separator: ", ")
        return " (it holds \(others.count) other files, such as \(examples); \(how))"
    }

    private static func collectRecordings(in base: String, relative: String, into found: inout [String],
                                          others: inout [String], subfolders: inout [String]) throws {
        let prefix = base == "/" ? "" : base
        let folder = relative.isEmpty ? base : prefix + "/" + relative
        func failure(_ path: String, _ message: String) -> CommandFailure {
            CommandFailure("\(path): \(message)", exitStatus: ExitStatus.noInput)
        }
        guard let directory = opendir(folder) else {
            let code = errno
            throw failure(folder, "folder cannot be read: \(String(cString: strerror(code))) (errno \(code))")
        }
        defer { closedir(directory) }
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 {
                    let code = errno
                    throw failure(folder, "folder cannot be read: \(String(cString: strerror(code))) (errno \(code))")
                }
                break
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes.first == UInt8(ascii: ".") { continue }
            var type = entry.pointee.d_type
            if type == DT_UNKNOWN {  // some file systems do not say: ask
                var info = stat()
                let entryPath = (folder == "/" ? "" : folder) + "/" + String(decoding: bytes, as: UTF8.self)
                type = lstat(entryPath, &info) != 0 ? UInt8(DT_REG) : directoryType(info.st_mode)
            }
            let isCSV = bytes.count >= 4 && String(decoding: bytes.suffix(4), as: UTF8.self).lowercased() == ".csv"
            guard let name = String(validating: bytes, as: UTF8.self) else {
                if isCSV || type == DT_DIR {
                    let shown = String(decoding: bytes, as: UTF8.self)
                    throw failure((folder == "/" ? "" : folder) + "/" + shown, "the name is not valid UTF-8 (shown with \u{FFFD}), "
                        + "and shake opens files by UTF-8 names only: rename it (convmv -f latin1 -t utf8 does)")
                }
                continue
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            if type == DT_DIR {
                subfolders.append(path)
                continue
            }
            guard isCSV else {
                if type == DT_REG || type == DT_LNK { others.append(path) }
                continue
            }
            if type == DT_LNK {
                var info = stat()
                // A link that leads nowhere (or in a loop) is kept: reading it says why.
                type = stat(prefix + "/" + path, &info) == 0 ? directoryType(info.st_mode) : UInt8(DT_REG)
                if type == DT_DIR { continue }  // links to folders are not followed
            }
            switch Int(type) {
            case Int(DT_REG):
                found.append(path)
            case Int(DT_FIFO):
                throw failure(prefix + "/" + path, "a named pipe, not a recording file: name it on the command line to read it")
            case Int(DT_SOCK):
                throw failure(prefix + "/" + path, "a socket, not a recording file")
            default:
                throw failure(prefix + "/" + path, "a device, not a recording file")
            }
        }
    }

    /// The `d_type` of a file of `mode`.
    private static func directoryType(_ mode: mode_t) -> UInt8 {
        switch mode & S_IFMT {
        case S_IFDIR: UInt8(DT_DIR)
        case S_IFLNK: UInt8(DT_LNK)
        case S_IFIFO: UInt8(DT_FIFO)
        case S_IFSOCK: UInt8(DT_SOCK)
        case S_IFCHR: UInt8(DT_CHR)
        case S_IFBLK: UInt8(DT_BLK)
        default: UInt8(DT_REG)
        }
    }

    static func table(_ rows: [FileRow]) -> String {
        let header = ["file", "shakes", "detected", "recall", "dup", "false", "neg_h", "false/h",
                      "precision", "f1", "lat_med_s", "lat_p95_s"]
        let cells: [[String]] = rows.map { row in
            let s = row.summary
            return [row.file, String(s.shakes), String(s.detected), fixed(s.recall, 3), String(s.duplicates),
                    String(s.falseShakes), fixed(s.negativeHours, 3), fixed(s.falsePerHour, 1),
                    fixed(s.precision, 3), fixed(s.f1, 3), fixed(s.latencyMedianSeconds, 2),
                    fixed(s.latencyP95Seconds, 2)]
        }
        let nameWidth = max(4, cells.map { $0[0].count }.max() ?? 0)
        let widths = [nameWidth] + header.dropFirst().indices.map { column in
            max(header[column].count, cells.map { $0[column].count }.max() ?? 0)
        }
        func line(_ values: [String]) -> String {
            values.enumerated().map { index, value in
                index == 0 ? value.padding(toLength: widths[0]) : value.leftPadded(widths[index])
            }.joined(separator: "  ") + "\n"
        }
        var text = line(header)
        for (index, row) in cells.enumerated() {
            if index == cells.count - 1 { text += String(repeating: "-", count: widths.reduce(0, +) + 2 * 11) + "\n" }
            text += line(row)
        }
        return text
    }
}

/// Whether `path` names a folder (following symbolic links, as `stat` does); nil when there is
/// nothing by that name, or it cannot be looked at (a folder on the way that may not be entered).
func isFolder(_ path: String) -> Bool? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & S_IFMT == S_IFDIR
}
