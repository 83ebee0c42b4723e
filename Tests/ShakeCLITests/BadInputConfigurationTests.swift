import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// The catalogue of bad configuration files (issue 7), through `shake config --config FILE` (which
/// loads, checks and prints the configuration) and the commands that detect with it. Each gives
/// `Error: FILE:LINE:COLUMN: …` (`FILE: …` for the whole file) on stderr naming what is wrong,
/// exit status 65 (malformed) or 66 (cannot be read), and nothing on stdout.
@Suite struct BadInputConfigurationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// `LINE:COLUMN` of the problem, written after the path; nil for the whole file.
        var at: String?
        /// The message after `Error: PATH: ` (or `PATH:LINE:COLUMN: `).
        var says: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, at: String? = nil, says: String) {
            self.init(name, Array(text.utf8), at: at, says: says)
        }
        init(_ name: String, _ bytes: [UInt8], at: String? = nil, says: String) {
            self.name = name
            self.bytes = bytes
            self.at = at
            self.says = says
        }
    }

    static let malformed: [Case] = [
        Case("empty file", "", says: "not valid JSON: the file is empty"),
        Case("only blank lines", "\n  \n", says: "not valid JSON: the file is empty"),
        Case("not JSON", "onsetAcceleration = 12\n", at: "1:1", says: "not valid JSON: the file does not begin with '{': "
             + "a configuration is a JSON object, { \"key\": value, … }, as 'shake config --preset medium' prints\n"),
        // A recording given to --config: its '# key: value' lines are not a comment in JSON.
        Case("a recording as the configuration", "# source: shake synth shakes\ntime_s,x,y,z\n0,0,0,9.8\n", at: "1:1",
             says: "not valid JSON: the file does not begin with '{': a configuration is a JSON object"),
        Case("a comment before the object", "# gentler\n{\"onsetAcceleration\": 8}\n",
             at: "1:1", says: "not valid JSON: a comment, which JSON does not allow: remove it\n"),
        Case("truncated JSON", "{ \"onsetAcceleration\": 12,", at: "1:27", says: "not valid JSON: the text ends early"),
        Case("missing value on line 3", "{\n  \"onsetAcceleration\": 12,\n  \"quietSeconds\": ,\n}\n",
             at: "3:19", says: "not valid JSON: a value is missing after ':'\n"),
        // Foundation's parsers accept these; JSON (and every other reader of the file) does not.
        Case("comma after the last key", "{\"onsetAcceleration\": 7,}",
             at: "1:24", says: "not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it"),
        Case("comma after the last key, brace on the next line", "{\n  \"quietSeconds\": 0.4,\n}\n",
             at: "2:22", says: "not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it"),
        Case("comma after an array's last value", "{\"quietSeconds\": [0.4,]}",
             at: "1:22", says: "not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it"),
        Case("an earlier syntax error is said first", "{onsetAcceleration: 7,}",
             at: "1:2", says: "not valid JSON: a key without quotes: write it in double quotes (\"onsetAcceleration\")\n"),
        Case("UTF-8 byte-order mark not counted", [0xEF, 0xBB, 0xBF] + Array("{\n  \"quietSeconds\": ,\n}".utf8),
             at: "2:19", says: "not valid JSON: a value is missing after ':'\n"),
        Case("invalid value in UTF-16", utf16LE("{\n  \"onsetAcceleration\": 12,\n  \"quietSeconds\": -1\n}\n"),
             at: "3:3", says: "invalid configuration: quietSeconds: must be > 0 s, got -1.0 s"),
        Case("columns count characters (Unicode scalars), not bytes", "{\"onsetAcceleration\": 12, \"é\": 1 2}",
             at: "1:34", says: "not valid JSON: unexpected text"),
        Case("array at the top level", "[12, 6]",
             says: "wrong type at the top level: expected a JSON object { \"key\": value, … } at the top level, got an array"),
        // A number in quotes, or with its unit in quotes: what to write instead.
        Case("number as a string, said how to write it", "{\"onsetAcceleration\": \"12\"}",
             at: "1:2", says: "wrong type at 'onsetAcceleration': expected a number, got the string \"12\": write the number "
                + "without quotes (12)\n"),
        Case("number with its unit as a string", "{\"quietSeconds\": \"0.3 s\"}",
             at: "1:2", says: "wrong type at 'quietSeconds': expected a number, got the string \"0.3 s\": write the number "
                + "alone, without quotes or unit (0.3)\n"),
        Case("text for a count", "{\"minimumHalfWaves\": \"four\"}",
             at: "1:2", says: "wrong type at 'minimumHalfWaves': expected a whole number, got a string"),
        Case("null for a time", "{\n  \"quietSeconds\": null,\n  \"onsetAcceleration\": 14\n}",
             at: "2:3", says: "null at 'quietSeconds': give a number, or leave the key out for the medium value (0.4)"),
        // A value appended to `shake config` output to override one above it.
        Case("key given twice", "{\n  \"onsetAcceleration\": 9,\n  \"quietSeconds\": 0.4\n,\"onsetAcceleration\": 11}",
             at: "4:2", says: "duplicate key 'onsetAcceleration': already given at line 2, column 3; give each key once"),
        Case("ongoing motion not in whole half-seconds", "{\"ongoingMotionSeconds\": 1.3}",
             at: "1:2", says: "invalid configuration: ongoingMotionSeconds: must be a whole number of half-seconds (motion is judged in 0.5 s blocks), "
                + "got 1.3 s; the nearest allowed values are 1.0 and 1.5"),
        // Foundation's JSONDecoder reports a number that does not fit its type (a fraction for an
        // Int, 1e999 for a Double) as invalid JSON without a coding path; the key and place are
        // found all the same.
        Case("fraction for a count", "{\n  \"onsetAcceleration\": 12,\n  \"minimumHalfWaves\": 4.5\n}",
             at: "3:3", says: "bad value at 'minimumHalfWaves': expected a whole number, got 4.5"),
        Case("huge count", "{\"minimumHalfWaves\": 1e30}",
             at: "1:2", says: "bad value at 'minimumHalfWaves': too large for a count, got 1e+30"),
        Case("boolean for a time", "{\"quietSeconds\": true}",
             at: "1:2", says: "wrong type at 'quietSeconds': expected a number, got true"),
        Case("unknown key", "{\"quietSeconds\": 0.4,\n \"onsetAccel\": 12}",
             at: "2:2", says: "unknown configuration key 'onsetAccel' (known keys: "),
        Case("misspelt key", "{\"onsetAceleration\": 9}",
             at: "1:2", says: "unknown configuration key 'onsetAceleration': "
                + "did you mean 'onsetAcceleration'? (known keys: gravityTimeConstantSeconds, "),
        Case("key in another case", "{\"QuietSeconds\": 0.5}",
             at: "1:2", says: "unknown configuration key 'QuietSeconds': did you mean 'quietSeconds'?"),
        Case("key of an older version", "{\"smoothingTimeConstantSeconds\": 0.01}",
             at: "1:2", says: "'smoothingTimeConstantSeconds' was replaced by 'smoothingWindowSeconds'"),
        Case("smoothing window longer than the gravity filter", "{\"smoothingWindowSeconds\": 0.5}",
             at: "1:2", says: "invalid configuration: smoothingWindowSeconds: must be shorter than gravityTimeConstantSeconds (0.4 s), got 0.5 s"),
        Case("number too large for a Double", "{\"maximumShakeSeconds\": 1e999}",
             at: "1:25", says: "number 1e999 is out of the range of a Double"),
        Case("saturation below gravity", "{\n  \"saturationAcceleration\": 5\n}",
             at: "2:3", says: "invalid configuration: saturationAcceleration: must be above 9.80665 m/s² (1 g, "),
        Case("peaks that could never link into a shake",
             "{\"minimumReversalIntervalSeconds\": 0.3, \"maximumPeakIntervalSeconds\": 0.25}",
             at: "1:41", says: "invalid configuration: maximumPeakIntervalSeconds: must be above minimumReversalIntervalSeconds (0.3 s"),
        Case("negative time", "{\"quietSeconds\": -0.5}",
             at: "1:2", says: "invalid configuration: quietSeconds: must be > 0 s, got -0.5 s"),
        Case("invalid value on line 3", "{\n  \"onsetAcceleration\": 12,\n  \"ongoingMotionStrongHalfWaves\": 7\n}",
             at: "3:3", says: "invalid configuration: ongoingMotionStrongHalfWaves: must be from 1 to minimumHalfWaves (4), got 7"),
        Case("zero time constant", "{\"gravityTimeConstantSeconds\": 0}", at: "1:2", says: "invalid configuration: gravityTimeConstantSeconds: must be > 0 s"),
        Case("time constant past an hour", "{\"linearityTimeConstantSeconds\": 1e15}", at: "1:2",
             says: "invalid configuration: linearityTimeConstantSeconds: must be at most 3600.0 s (an hour"),
        Case("thresholds in the wrong order", "{\"onsetAcceleration\": 5, \"releaseAcceleration\": 8}",
             at: "1:26", says: "invalid configuration: releaseAcceleration: must be below onsetAcceleration (5.0 m/s²), got 8.0 m/s²"),
        Case("reversal interval bounds swapped", "{\"minimumReversalIntervalSeconds\": 0.5, \"maximumReversalIntervalSeconds\": 0.1}",
             at: "1:41", says: "invalid configuration: maximumReversalIntervalSeconds: must be above minimumReversalIntervalSeconds (0.5 s)"),
        Case("too few half-waves", "{\"minimumHalfWaves\": 1}", at: "1:2", says: "invalid configuration: minimumHalfWaves: must be from 2 (one reversal) to 64, got 1"),
        Case("a shake limit shorter than any shake", "{\"maximumShakeSeconds\": 0.01}",
             at: "1:2", says: "invalid configuration: maximumShakeSeconds: must be > 0 s and above (minimumHalfWaves − 1) × minimumReversalIntervalSeconds (3 × 0.04 s"),
        // The quiet time is named (and found), not the limit the file leaves at its default.
        Case("a quiet time longer than any shake may take", "{\"onsetAcceleration\": 12,\n \"quietSeconds\": 1e300}",
             at: "2:2", says: "invalid configuration: quietSeconds: must be below maximumShakeSeconds (10.0 s) minus "
                + "(minimumHalfWaves − 1) × minimumReversalIntervalSeconds (3 × 0.04 s"),
        Case("cosine out of range", "{\"reversalCosine\": 0.5}", at: "1:2", says: "invalid configuration: reversalCosine: must be in [-1, 0), got 0.5"),
        Case("negative saturation", "{\"saturationAcceleration\": -1}", at: "1:2", says: "invalid configuration: saturationAcceleration: must be above 9.80665 m/s²"),
        // Hand edits JSON does not allow, said as what they are (they had all been "unexpected text").
        Case("a comment", "{\n  // gentler shakes\n  \"onsetAcceleration\": 8\n}\n",
             at: "2:3", says: "not valid JSON: a comment, which JSON does not allow: remove it\n"),
        Case("a comment after a value", "{\n  \"onsetAcceleration\": 8 # gentler\n}\n",
             at: "2:26", says: "not valid JSON: a comment, which JSON does not allow: remove it\n"),
        Case("a key without quotes", "{\n  onsetAcceleration: 8\n}\n",
             at: "2:3", says: "not valid JSON: a key without quotes: write it in double quotes (\"onsetAcceleration\")\n"),
        Case("single quotes", "{'onsetAcceleration': 8}",
             at: "1:2", says: "not valid JSON: single quotes: JSON strings take double quotes (\")\n"),
        Case("a number with its unit", "{\n  \"onsetAcceleration\": 12m/s2\n}\n",
             at: "2:26", says: "not valid JSON: a unit after the number 12: write the number alone (keys ending in Seconds "
                + "are in s, keys ending in Acceleration in m/s²)\n"),
        Case("a missing comma", "{\n  \"onsetAcceleration\": 8\n  \"quietSeconds\": 0.3\n}\n",
             at: "3:3", says: "not valid JSON: a comma is missing before this key (after the value before it)\n"),
        Case("a decimal comma", "{\n  \"onsetAcceleration\": 8,5\n}\n",
             at: "2:26", says: "not valid JSON: a decimal comma? JSON numbers take a point (8.5)\n"),
        Case("a number without its leading zero", "{\"quietSeconds\": .3}",
             at: "1:18", says: "not valid JSON: a number begins with a digit (0.3, not .3)\n"),
        Case("a block comment after a value", "{\n  \"onsetAcceleration\": 8 /* gentler */\n}\n",
             at: "2:26", says: "not valid JSON: a comment, which JSON does not allow: remove it\n"),
        // The text is no JSON: its first mistake is said, not a key it seems to give twice.
        Case("a missing comma before a key given again", "{\"quietSeconds\": 0.5 \"quietSeconds\": 1}",
             at: "1:22", says: "not valid JSON: a comma is missing before this key (after the value before it)\n"),
        Case("a key without quotes that begins with an underscore", "{_onsetAcceleration: 8}",
             at: "1:2", says: "not valid JSON: a key without quotes: write it in double quotes (\"_onsetAcceleration\")\n"),
        Case("a missing comma after null", "{\n  \"onsetAcceleration\": null\n  \"quietSeconds\": 0.3\n}\n",
             at: "3:3", says: "not valid JSON: a comma is missing before this key (after the value before it)\n"),
        Case("a value missing before '}'", "{\"onsetAcceleration\": }",
             at: "1:23", says: "not valid JSON: a value is missing after ':'\n"),
        // A comma and a space between two numbers: no decimal comma, a value where a key belongs.
        Case("a number where a key belongs", "{\"onsetAcceleration\": 8, 5}",
             at: "1:26", says: "not valid JSON: unexpected text\n"),
        // The comma comes before the text ends: it is the first mistake, so it is said.
        Case("comma after an array's last value, the text ending early", "{\"quietSeconds\": [0.4,]",
             at: "1:22", says: "not valid JSON: a comma after the last value (JSON allows none before '}' or ']'): remove it"),
        Case("binary garbage", [0x7F, 0x45, 0x4C, 0x46, 0x00, 0xFF, 0x0A], at: "1:1", says: "not valid JSON"),
    ]

    /// `text` as UTF-16, little-endian, with a byte-order mark.
    static func utf16LE(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test(arguments: malformed)
    func malformedConfigurationIsRejectedNamingTheProblem(_ bad: Case) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("bad.json")
        try Data(bad.bytes).write(to: URL(fileURLWithPath: path))
        let run = runShake("config", "--config", path)
        #expect(run.status == 65, "\(run.err)")
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: \(path)\(bad.at.map { ":\($0)" } ?? ""): "), "\(run.err)")
        #expect(run.err.contains(bad.says), "\(run.err)")
    }

    /// A key that is unknown or was renamed is named once, right after its place: no value is
    /// at fault, so the message is not "bad value at 'key': … key 'key' …".
    @Test(arguments: [("{\"onsetAccel\": 12}", "unknown configuration key 'onsetAccel' (known keys: "),
                      ("{\"smoothingTimeConstantSeconds\": 0.01}", "'smoothingTimeConstantSeconds' was replaced by")])
    func aKeyUnknownOrRenamedIsNamedOnce(text: String, says: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("old.json", text)
        let run = runShake("config", "--config", path)
        #expect(run.status == 65)
        #expect(run.err.hasPrefix("Error: \(path):1:2: \(says)"), "\(run.err)")
    }

    /// The detecting commands check the configuration before reading any recording.
    @Test(arguments: ["replay", "evaluate"])
    func detectingCommandsRefuseAnInvalidConfiguration(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let config = try folder.write("c.json", "{\"releaseAcceleration\": 40}")
        let recording = try folder.write("r.csv", labelledShakeCSV(shakes: 1).text)
        let run = runShake(command, "--config", config, recording)
        #expect(run.status == 65)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: \(config):1:2: invalid configuration: releaseAcceleration: must be below"), "\(run.err)")
    }

    /// JSON in UTF-16 (with a byte-order mark, as some Windows editors save it) is valid JSON
    /// (RFC 8259 allows it for closed systems; Foundation reads it): it loads like UTF-8.
    @Test func utf16WithByteOrderMarkLoadsLikeUTF8() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("c.json")
        let text = "{\"onsetAcceleration\": 14}\n"
        try Data(Self.utf16LE(text)).write(to: URL(fileURLWithPath: path))
        let run = runShake("config", "--config", path)
        #expect(run.status == 0, "\(run.err)")
        #expect(try ConfigurationFile.decode(Data(run.out.utf8), path: "stdout").onsetAcceleration == 14)
    }

    @Test func directoryIsNotAConfiguration() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let run = runShake("config", "--config", folder.path)
        #expect(run.status == 66)
        #expect(run.err == "Error: \(folder.path): is a directory, not a configuration file\n")
    }

    /// A file its user may not read. Root reads any file, so as root the tool runs in a child
    /// process as the user `nobody` (through `setpriv`).
    @Test func unreadableFileIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("secret.json", "{}")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let run: CLIRun
        if runningAsRoot {
            let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            run = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                      shake, "config", "--config", path])
        } else {
            run = runShake("config", "--config", path)
        }
        #expect(run.status == 66, "\(run.err)")
        #expect(run.err == "Error: \(path): cannot be read: Permission denied (errno 13)\n")
    }

    /// A configuration from a named pipe, or from the shell's `<(…)` (a `/dev/fd/N` path to a
    /// pipe), is read like a file, as recordings are.
    @Test func namedPipeAndProcessSubstitutionAreRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text = "{\"onsetAcceleration\": 13}\n"
        let fifo = folder.file("c.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(text.utf8))
            try? handle?.close()
        }
        writer.start()
        let fromFIFO = runShake("config", "--config", fifo)
        #expect(fromFIFO.status == 0, "\(fromFIFO.err)")
        #expect(try ConfigurationFile.decode(Data(fromFIFO.out.utf8), path: "stdout").onsetAcceleration == 13)

        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        let substituted = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let recording = try folder.write("r.csv", labelledShakeCSV(shakes: 1).text)
        let replayed = runShake("replay", "--config", substituted, recording)
        #expect(replayed.status == 0, "\(replayed.err)")
        #expect(replayed.out.hasPrefix("\(recording): 1 shake in "), "\(replayed.out)")
    }

    /// `--config -` reads standard input, unless a recording is read from it too: that is a
    /// usage error saying so, before anything is read.
    @Test func configurationFromStandardInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
        let config = try folder.write("c.json", "{\"onsetAcceleration\": 13}\n")
        let read = try runProcess(shake, ["config", "--config", "-"], input: config)
        #expect(read.status == 0, "\(read.err)")
        #expect(try ConfigurationFile.decode(Data(read.out.utf8), path: "stdout").onsetAcceleration == 13)
        let bad = try folder.write("bad.json", "{\"onsetAcceleration\": 1}\n")
        let refused = try runProcess(shake, ["config", "--config", "-"], input: bad)
        #expect(refused.status == 65)
        #expect(refused.err.hasPrefix("Error: <stdin>: invalid configuration: "), "\(refused.err)")

        let recording = try folder.write("r.csv", labelledShakeCSV(shakes: 1).text)
        for command in ["replay", "evaluate", "plot"] {
            let output = command == "plot" ? ["-o", folder.file("p.svg")] : []
            let run = try runProcess(shake, [command, "--config", "-", "-"] + output, input: recording)
            #expect(run.status == 64, "\(command): \(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err.hasPrefix("Error: '--config -' and the recording '-' cannot both be read from standard "
                + "input: give the configuration as a file (or as <(...) in the shell)\n"), "\(run.err)")
        }
        // And config's `--diff -` beside `--config -`, whatever the input holds (an empty or
        // broken one was read first and refused as JSON, exit 65).
        let empty = try folder.write("empty.json", "")
        for input in [config, bad, empty] {
            let run = try runProcess(shake, ["config", "--config", "-", "--diff", "-"], input: input)
            #expect(run.status == 64, "\(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err.hasPrefix("Error: '--config -' and '--diff -' cannot both be read from standard input: "
                + "give one as a file\n"), "\(run.err)")
        }
        #expect(listing(folder.path) == ["bad.json", "c.json", "empty.json", "r.csv"])
    }

    @Test func outputIntoAMissingFolderCreatesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("no/such/folder/c.json")
        let run = runShake("config", "--preset", "hard", "-o", path)
        #expect(run.status == 73)
        #expect(run.err == "Error: \(path): the folder '\(folder.file("no/such/folder"))' does not exist\n", "\(run.err)")
        #expect(listing(folder.path).isEmpty)
    }
}
