import Foundation
import Testing

/// What the tool says names what the user types: its flags, not the library's parameters; its
/// help is true and laid out like every other command's.
@Suite struct CLIWordingTests {
    struct HintCase: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var options: [String] = []
        /// The whole of stderr after `Error: <path>`.
        var says: String
        var testDescription: String { name }
    }

    static let hintCases: [HintCase] = [
        HintCase(name: "decimal comma", text: "time_s;x;y;z\n0;1,5;2;3\n",
                 says: ":2:3: '1,5' is not a number in column 'x' (for decimal commas pass --decimal-comma)\n"),
        HintCase(name: "time written as a date in a form not read", text: "Timestamp,X,Y,Z\n01/02/2024 10:00:00.000,0.1,0.2,9.8\n",
                 says: ":2:1: '01/02/2024 10:00:00.000' is not a number in column 'Timestamp' (a time written as a date or "
                     + "clock time is read in these forms only: 2024-01-31 13:05:10.25 (also with T, and Z or +01:00), "
                     + "31-Jan-2024 13:05:10.250, 13:05:10.25, 13:05:10:250 and 05:10.25; else choose a column of numbers "
                     + "with --time-column, such as elapsed seconds)\n"),
        HintCase(name: "a time unit for clock times", text: "x,y,z,time\n0,0,9.8,12:00:01.5\n", options: ["--time-units", "ms"],
                 says: ":2:9: '12:00:01.5' in column 'time' is a time of day, which is read in seconds: leave out "
                     + "--time-units (it is for a column of numbers)\n"),
        HintCase(name: "gravity-free columns",
                 text: "\"Time (s)\",\"Linear Acceleration x (m/s^2)\",\"Linear Acceleration y (m/s^2)\",\"Linear Acceleration z (m/s^2)\"\n0,0,0,0\n",
                 says: ":1:1: no x column: expected a column named x, ax, acc_x, accel_x, acceleration_x, "
                     + "accelerometer_x, … in header '\"Time (s)\",\"Linear Acceleration x (m/s^2…'. "
                     + "'Linear Acceleration x (m/s^2)' is acceleration without gravity: export it with gravity (the "
                     + "detector removes gravity itself), or choose them with --x-column, --y-column and --z-column to "
                     + "read these columns as they are\n"),
        HintCase(name: "a unit option against the header's", text: "time_s,x (m/s^2),y (m/s^2),z (m/s^2)\n0,0,0,9.8\n",
                 options: ["--units", "g"],
                 says: ":1:8: column 'x (m/s^2)' is in m/s^2, but g was given as the acceleration unit: leave out --units "
                     + "(the unit the file states is used), or correct the file if it is wrong\n"),
        HintCase(name: "an acceleration column of another name", text: "time_s,x,yy,z\n0,0,0,9.8\n",
                 says: ":1:1: no y column: expected a column named y, ay, acc_y, accel_y, acceleration_y, accelerometer_y, … "
                     + "in header 'time_s,x,yy,z'; if it has another name, choose them with --x-column, --y-column and "
                     + "--z-column\n"),
        HintCase(name: "milliseconds without a unit",
                 text: "timestamp,x,y,z\n1700000000000,0,0,9.8\n1700000000010,0,0,9.8\n",
                 says: ":3:1: the time column 'timestamp' has no unit and its first interval is 10.0: in seconds that is "
                     + "a rate under 4 Hz, so it is probably not seconds, but milliseconds (100 Hz): pass --time-units ms "
                     + "(or us or ns; s if it really is seconds)\n"),
        HintCase(name: "epoch nanoseconds without a unit", text: "timestamp,x,y,z\n1700000000000000000,0,0,9.8\n",
                 says: ":2:1: time 1.7e+18 s in column 'timestamp' is out of range (beyond ±1e13 s, about 317,000 years): "
                     + "it looks like nanoseconds since 1970: pass --time-units ns (and pass --rebase-time to start at 0)\n"),
        HintCase(name: "epoch microseconds under a header that says seconds",
                 text: "time_s,x,y,z\n1700000000000000,0,0,9.8\n",
                 says: ":2:1: time 1700000000000000.0 s in column 'time_s' is out of range (beyond ±1e13 s, about 317,000 "
                     + "years): it looks like microseconds since 1970 (2023), or nanoseconds since the device started (19.7 "
                     + "days in, as Android and Linux IIO stamp samples), not the s its header states: correct the unit in the "
                     + "header to us (and pass --rebase-time to start at 0)\n"),
        HintCase(name: "nanoseconds since boot without a unit", text: "timestamp,x,y,z\n18000000000000,0,0,9.8\n",
                 says: ":2:1: time 18000000000000.0 s in column 'timestamp' is out of range (beyond ±1e13 s, about 317,000 "
                     + "years): it looks like nanoseconds since the device started (5.0 hours in, as Android and Linux IIO "
                     + "stamp samples): pass --time-units ns (and pass --rebase-time to start at 0)\n"),
        HintCase(name: "another sensor's row in a merged export",
                 text: "time,sensor_AccelerometerX[],sensor_AccelerometerY[],sensor_AccelerometerZ[],sensor_GyroscopeX[]\n"
                     + "0,0,0,9.8,\n0.01,,,,0.5\n",
                 says: ":3:6: missing value in column 'sensor_AccelerometerX[]' (x, y and z are all empty: a row of another "
                     + "sensor, as in a merged export? pass --skip-rows-without-acceleration to skip such rows)\n"),
        HintCase(name: "unknown time unit", text: "Time (h),x,y,z\n0,0,0,9.8\n",
                 says: ":1:1: unknown time unit 'h' in column 'Time (h)': pass --time-units (s, ms, us or ns) to say which it is\n"),
        HintCase(name: "unknown acceleration unit", text: "time_s,x (ft/s^2),y (ft/s^2),z (ft/s^2)\n0,0,0,9.8\n",
                 says: ":1:8: unknown acceleration unit 'ft/s^2' in column 'x (ft/s^2)': pass --units (m/s^2, g or mg) to say which it is\n"),
        HintCase(name: "no header", text: "0,0,0,9.8\n0.01,0,0,9.8\n",
                 says: ":1:1: no header line: the first line holds numbers; expected a header like time_s,x,y,z "
                     + "(or pass --no-header)\n"),
        HintCase(name: "acceleration in g without a unit",
                 text: "time,x,y,z\n" + (0..<64).map { "\(Double($0) / 100),0,0.8,0.6\n" }.joined(),
                 says: ":65:6: the acceleration columns 'x', 'y', 'z' have no unit and |a| stays between 0.8 and 1.25 "
                     + "over the first 64 samples (to this line), where it would be 9.8 m/s² at rest: the file looks like "
                     + "it is in g: pass --units g (or m/s^2 if the values really are m/s²)\n"),
        HintCase(name: "a decimal comma in a comma-separated file", text: "time_s,x,y,z\n0,0,0,9.8\n",
                 options: ["--decimal-comma"],
                 says: ":1:1: the comma is the decimal separator, so it cannot also separate the fields, and the header "
                     + "line 'time_s,x,y,z' has no ';', tab or '|': pass --separator semicolon, tab or pipe, or leave out --decimal-comma\n"),
        HintCase(name: "a separator the file does not use", text: "time_s,x,y,z\n0,0,0,9.8\n",
                 options: ["--separator", "semicolon"],
                 says: ":1:1: the header line 'time_s,x,y,z' has no ';', the separator chosen; it seems to use ',': "
                     + "pass the --separator it uses, or leave --separator out to detect it\n"),
        // An export's activity column named 'label' was taken for the shake labels, and nothing
        // said how to read the file without them (there was no flag for it).
        HintCase(name: "an activity column named label", text: "time,x,y,z,label\n0.00,0.1,0.2,9.8,idle\n",
                 says: ":2:18: 'idle' is not a label in column 'label' (use 0 or 1, or pass --ignore-labels to read "
                     + "the file without labels)\n"),
        HintCase(name: "a line over 1 MiB", text: "time_s,x,y,z\n" + String(repeating: "1", count: 2 << 20) + "\n",
                 says: ":2:1048577: line is longer than the limit of 1 MiB (1048576 bytes): "
                     + "not a recording, or a line end is missing\n"),
    ]

    @Test(arguments: hintCases)
    func recordingErrorsNameTheFlags(_ hint: HintCase) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("r.csv", hint.text)
        let run = runShake(["replay"] + hint.options + [recording])
        #expect(run.status == 65)
        #expect(run.err == "Error: \(recording)\(hint.says)")
    }

    /// What the hint names works: the file reads without its labels, unlabelled.
    @Test func ignoreLabelsReadsAnExportWhoseLabelColumnIsSomethingElse() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("activity.csv", "time,x,y,z,label\n0.00,0.1,0.2,9.8,idle\n0.01,0.1,0.2,9.8,walk\n")
        let run = runShake("replay", "--ignore-labels", recording)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("activity.csv: 0 shakes in 2 samples"), "\(run.out)")
        let convert = runShake("convert", "--ignore-labels", recording, "-o", folder.file("out.csv"))
        #expect(convert.out.hasSuffix("2 samples, 0.0 s, no labels\n"), "\(convert.out)")
        let both = runShake("replay", "--ignore-labels", "--label-column", "label", recording)
        #expect(both.status == 64)
        #expect(both.err.hasPrefix("Error: '--ignore-labels' and '--label-column' contradict each other"), "\(both.err)")
    }

    /// A file separated by '|' reads as it is, and `--separator pipe` (listed in the help) chooses it.
    @Test func aFileSeparatedByPipesIsRead() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("pipes.csv", "time_s|x|y|z\n0.00|0.1|0.2|9.8\n0.01|0.1|0.2|9.8\n")
        for options in [[], ["--separator", "pipe"]] {
            let run = runShake(["replay"] + options + [recording])
            #expect(run.status == 0, "\(options): \(run.err)")
            #expect(run.out.contains("pipes.csv: 0 shakes in 2 samples"), "\(options): \(run.out)")
        }
        let help = runShake("replay", "--help")
        let words = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: auto, comma, semicolon, tab, pipe; default: auto)"), "\(help.out)")
        let commas = try folder.write("commas.csv", "time_s,x,y,z\n0,0,0,9.8\n")
        let wrong = runShake("replay", "--separator", "pipe", commas)
        #expect(wrong.status == 65)
        #expect(wrong.err == "Error: \(commas):1:1: the header line 'time_s,x,y,z' has no '|', the separator chosen; it seems "
            + "to use ',': pass the --separator it uses, or leave --separator out to detect it\n", "\(wrong.err)")
    }

    /// The import options' values are taken as the reader's `init?(argument:)` spells them, as a
    /// user copies them from a phone app's header or from the help's own units: a `;`-separated
    /// export in milliseconds and g reads with `--separator ';' --time-units msec --units G`, and
    /// `--units m/s²` is m/s^2 (each had been refused as not among the listed values, exit 64).
    @Test func importOptionValuesTakeTheReadersSpellings() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let phone = try folder.write("phone.csv", "t;ax;ay;az\n0;0;0;1\n10;0;0;1\n20;0;0;1\n")
        for options in [["--separator", ";", "--time-units", "msec", "--units", "G"],
                        ["--separator", "semicolon", "--time-units", "ms", "--units", "g"]] {
            let run = runShake(["replay", "--format", "json"] + options + [phone])
            #expect(run.status == 0, "\(options): \(run.err)")
            #expect(run.out.contains("\"sample_rate_hz\" : 100"), "\(options): \(run.out)")
        }
        // A tab typed as backslash and t, or the character itself, is the tab.
        let tabbed = try folder.write("tabbed.csv", "t\tax\tay\taz\n0\t0\t0\t1\n10\t0\t0\t1\n20\t0\t0\t1\n")
        for separator in ["\\t", "\t", "tab"] {
            let run = runShake("replay", "--format", "json", "--separator", separator, "--time-units", "ms", "--units", "g", tabbed)
            #expect(run.status == 0, "\(separator): \(run.err)")
            #expect(run.out.contains("\"sample_rate_hz\" : 100"), "\(separator): \(run.out)")
        }
        let metres = try folder.write("metres.csv", "time,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n")
        for unit in ["m/s²", "m/s2", "m/s^2"] {
            let run = runShake("replay", "--units", unit, metres)
            #expect(run.status == 0, "\(unit): \(run.err)")
            #expect(run.out.hasPrefix("\(metres): 0 shakes in 2 samples"), "\(unit): \(run.out)")
        }
        let wrong = runShake("replay", "--units", "furlongs", metres)
        #expect(wrong.status == 64)
        #expect(wrong.err.hasPrefix("Error: The value 'furlongs' is invalid for '--units <unit>' (values: m/s^2, g, mg)"),
                "\(wrong.err)")
    }

    /// `synth` into an existing file: the recording writer's refusal in the tool's words.
    /// One sample, or one recording, is not "1 samples".
    @Test func countsOfOneAreSingular() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = try folder.write("one.csv", "time_s,x,y,z\n0,0,0,9.8\n")
        let replay = runShake("replay", input)
        #expect(replay.out.contains("one.csv: 0 shakes in 1 sample (0.0 s)"), "\(replay.out)")
        let convert = runShake("convert", input, "-o", folder.file("out.csv"))
        #expect(convert.out == "\(folder.file("out.csv")): 1 sample, 0.0 s, no labels\n", "\(convert.out)")
    }

    @Test func synthNamesForce() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let existing = try folder.write("s.csv", "mine\n")
        let run = runShake("synth", "shakes", "-o", existing)
        #expect(run.status == 73)
        #expect(run.err == "Error: \(existing): already exists (pass --force to replace it)\n")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine\n")
    }

    @Test(arguments: [["help", "--help"], ["help", "-h"]])
    func helpOfHelpIsTheToolsHelp(arguments: [String]) {
        let run = runShake(arguments)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty)
        #expect(run.out == runShake("--help").out)
    }

    /// Every subcommand's help separates its own text from the shared CSV paragraph by a blank line.
    @Test(arguments: ["replay", "evaluate", "tune", "plot", "demo", "convert"])
    func csvParagraphFollowsABlankLine(command: String) {
        let help = runShake(command, "--help").out
        #expect(help.contains("\n\nRecordings are CSV:"), "\(help)")
    }

    @Test func evaluateHelpSaysAllCores() {
        let help = runShake("evaluate", "--help").out
        // The words as read, whatever line they are wrapped onto.
        let text = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("both cores"), "\(help)")
        #expect(text.contains("Files are scored in parallel on all the machine's processor cores."), "\(help)")
    }

    /// The same recording twice would count its shakes twice: refused, naming it.
    @Test(arguments: ["evaluate", "tune"])
    func sameFileTwiceIsAUsageError(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("r.csv", labelledShakeCSV(shakes: 1).text)
        let twice = runShake(command, recording, recording)
        #expect(twice.status == 64)
        #expect(twice.out.isEmpty)
        #expect(twice.err.hasPrefix("Error: The file '\(recording)' is given twice; each recording counts once\n"), "\(twice.err)")
        let spelled = folder.path + "/./r.csv"
        let viaFolder = runShake(command, recording, folder.path + "/.")
        #expect(viaFolder.status == 64)
        #expect(viaFolder.err.hasPrefix("Error: '\(spelled)' and '\(recording)' are the same file; each recording counts once\n"),
                "\(viaFolder.err)")
    }
}
