#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShakeRecording

/// The checks every command that writes a file makes before it does any work, and the words the
/// tool uses for the library's hints (its flags rather than the library's parameters).
enum OutputFile {
    /// Throws (exit 73) unless `path` can be created: its folder exists and is a folder, `path`
    /// is not a directory, and it does not exist unless `force`; with `partial` (a recording,
    /// written to `<path>.partial` first), that file must not exist either. `-` is a usage error
    /// (exit 64): outputs are files, written whole or not at all, never standard output.
    static func check(_ path: String, force: Bool, partial: Bool = false) throws {
        if path.isEmpty {
            throw UsageError("an empty output file name: give the file to write")
        }
        if partial, let error = RecordingWriter.leftoverPartialError(for: path) {
            throw CommandFailure(text(error), exitStatus: ExitStatus.cannotCreate)
        }
        if path == "-" {
            throw UsageError("'-' as the output: give a file name (the output is written to a file, "
                + "not to standard output)")
        }
        func failure(_ message: String) -> CommandFailure {
            CommandFailure("\(path): \(message)", exitStatus: ExitStatus.cannotCreate)
        }
        // /dev/stdout, /dev/null, a named pipe, a symbolic link: --force would have replaced the
        // name itself (as root, the system's /dev/stdout link) with the finished file.
        if let problem = RecordingWriter.destinationProblem(path) { throw failure(problem) }
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw failure("is a directory") }
            if !force { throw failure(alreadyExists) }
            return
        }
        let folder = folder(of: path)
        if stat(folder, &info) != 0 {
            throw failure("the folder '\(folder)' does not exist")
        }
        if info.st_mode & S_IFMT != S_IFDIR {
            throw failure("'\(folder)' is not a folder")
        }
        if access(folder, W_OK) != 0 {
            throw failure("the folder '\(folder)' is not writable")
        }
    }

    /// Throws a usage error (exit 64) when `output` is one of the recordings `inputs` (the same
    /// file, however spelled: `./in.csv`, a symbolic or hard link), which writing it would
    /// destroy. `what` names what would be written ("the converted recording"). `-` (standard
    /// input) is no file to compare.
    static func checkNotAnInput(_ output: String, inputs: [String], writing what: String) throws(UsageError) {
        for input in inputs where input != "-" && isSameFile(input, output) {
            throw UsageError("'\(output)' is the recording being read: write \(what) to another file")
        }
        // A recording is written to `<output>.partial` first: reading that file (one a killed
        // `shake record` left, being recovered) would have it overwritten as it is read.
        let workFile = output + RecordingWriter.partialSuffix
        for input in inputs where input != "-" && namesSameFile(input, workFile) {
            throw UsageError("'\(input)' is the recording being read, and writing '\(output)' goes through "
                + "'\(workFile)' first: write \(what) to another file")
        }
    }

    /// Whether `a` and `b` name the same file, existing or not: one existing file (the same
    /// device and inode; a symbolic or hard link), or one name in one folder (`out.json` and
    /// `./out.json`; the folders compared as `realpath` resolves them).
    static func namesSameFile(_ a: String, _ b: String) -> Bool {
        if a == b || isSameFile(a, b) { return true }
        func resolved(_ path: String) -> String? {
            let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
            guard !name.isEmpty, name != ".", name != "..", let folder = realpath(folder(of: path), nil) else { return nil }
            defer { free(folder) }
            return String(cString: folder) + "/" + name
        }
        guard let first = resolved(a), let second = resolved(b) else { return false }
        return first == second
    }

    /// Throws a usage error (exit 64) when `output` (the file `flag` names) would replace the
    /// configuration file the command reads (`--config`; not standard input).
    static func checkNotTheConfiguration(_ output: String, flag: String, _ arguments: ParsedArguments) throws(UsageError) {
        guard let configuration = arguments.value("config"), configuration != "-",
              namesSameFile(output, configuration) else { return }
        throw UsageError("'--\(flag)' would replace the configuration '\(configuration)' (--config) it reads: give another file")
    }

    /// Throws a usage error (exit 64) when the SVG file `output` is named as a raster image or a
    /// document (`plot.png`, `report.pdf`), which a viewer would refuse to open; any other name
    /// (`.svg`, none) is left alone. `writer` names what writes it (`plot`, `--report`).
    static func checkSVGName(_ output: String, writer: String) throws(UsageError) {
        let name = output.split(separator: "/").last.map(String.init) ?? output
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let suffix = name[name.index(after: dot)...]
        let formats = ["png", "jpg", "jpeg", "gif", "bmp", "webp", "tif", "tiff", "pdf", "eps", "ps"]
        guard formats.contains(suffix.lowercased()) else { return }
        let format = suffix.uppercased()
        throw UsageError("'\(output)': \(writer) writes an SVG file, not \(format): name it .svg (\(name[..<dot]).svg; an SVG "
            + "converter such as rsvg-convert makes a\(format.first.map { "AEFHILMNORSX".contains($0) } == true ? "n" : "") "
            + "\(format) of it)")
    }

    /// The failure of a write that the checks before it let through (`ConfigurationFile.save`,
    /// `PlotFile.write`): the library's hint for an existing file names its parameter; the tool
    /// names its flag, and says the file appeared since the check.
    static func writeFailure(_ error: any Error) -> CommandFailure {
        var message = "\(error)"
        let libraryHint = "already exists (pass overwrite: true to replace it)"
        if message.hasSuffix(libraryHint) {
            message.removeLast(libraryHint.count)
            message += "appeared while this command ran; kept as it is (pass --force to replace it)"
        }
        return CommandFailure(message, exitStatus: ExitStatus.cannotCreate)
    }

    /// Whether `a` and `b` name one existing file (the same device and inode).
    static func isSameFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The error for a recording that failed while being written (a full disk, say) and whose
    /// `.partial` file was then deleted (`convert`, `synth`): the writer's own message says the
    /// rows written so far are kept in that file, which is true for `record` but not here.
    static func discardedRecordingFailure(_ error: any Error, output: String) -> CommandFailure {
        var failure = outputFailure(error)
        guard let error = error as? RecordingError, error.kind == .io else { return failure }
        var message = text(error)
        let keptNote = "; the rows flushed before are kept in this file"
        if message.hasSuffix(keptNote) { message.removeLast(keptNote.count) }
        failure.message = message + "; removed: \(output) was not written"
        return failure
    }

    /// The one wording of an existing output file, naming the flag that replaces it.
    static let alreadyExists = "already exists (pass --force to replace it)"

    /// The folder `path` would be created in: `nodir` for `nodir/x.json`, `.` for `x.json`.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The flag (or its state) that says what a library hint names.
    static func flagPhrase(_ hint: RecordingError.OptionHint) -> String {
        switch hint {
        case .decimalComma: "pass --decimal-comma"
        case .timeUnit: "pass --time-units"
        case .timeColumn: "choose a column of numbers with --time-column"
        case .noTimeUnit: "leave out --time-units"
        case .axisColumns: "choose them with --x-column, --y-column and --z-column"
        case .accelerationUnit: "pass --units"
        case .noAccelerationUnit: "leave out --units"
        case .noHeader: "pass --no-header"
        case .headerless: "--no-header is given"
        case .overwrite: "pass --force"
        case .skipRowsWithoutAcceleration: "pass --skip-rows-without-acceleration"
        case .separator: "pass the --separator it uses, or leave --separator out to detect it"
        case .pipeSeparator: "pass --separator pipe"
        case .commaIsDecimal: "pass --separator semicolon, tab or pipe, or leave out --decimal-comma"
        case .rebaseTime: "pass --rebase-time"
        case .ignoreLabels: "pass --ignore-labels"
        }
    }

    /// `file:line:column: message`, in the tool's terms (the tool already says `Error:`).
    static func text(_ error: RecordingError) -> String {
        var location = error.displayPath
        if error.line > 0 {
            location += ":\(error.line)"
            if error.column > 0 { location += ":\(error.column)" }
        }
        return "\(location): \(error.message(naming: flagPhrase))"
    }
}

/// `count` and `noun`, with an s unless the count is one: "1 sample", "2 samples".
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// ` (1 cancelled)` after a count of shakes when some of them were cancelled (too long, a gap,
/// the stream's end): they began, but no undo came of them. Empty for none.
func cancelledNote(_ cancelled: Int) -> String {
    cancelled > 0 ? " (\(cancelled) cancelled)" : ""
}
