import Foundation
import Testing

/// The catalogue of bad command lines (issue 7), run in process through `ShakeTool.main`: each is
/// a usage error (exit status 64) with `Error: …` and the usage line on stderr, nothing on
/// stdout, and no file written.
@Suite struct BadInputArgumentTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        /// The start of the first line of stderr, after `Error: `; the whole line when it ends in a newline.
        var says: String
        var testDescription: String { name }
        init(_ name: String, _ arguments: [String], says: String) {
            self.name = name
            self.arguments = arguments
            self.says = says
        }
    }

    /// `OUT` in the arguments stands for an output path in a fresh folder.
    static let cases: [Case] = [
        Case("unknown option", ["replay", "--treshold", "9", "r.csv"], says: "Unknown option '--treshold'"),
        // A detector parameter given as an option (the help lists none): the error says where it
        // goes, instead of only that the option is unknown.
        Case("a detector parameter as an option", ["replay", "--onset", "12", "r.csv"],
             says: "Unknown option '--onset': onsetAcceleration (m/s²) is a detector parameter, set in a configuration "
                + "file given with --config ('shake config --preset medium -o my.json' writes one to edit)\n"),
        Case("a detector parameter by its key", ["evaluate", "--quietSeconds=0.3", "r.csv"],
             says: "Unknown option '--quietSeconds': quietSeconds (s) is a detector parameter, set in a configuration "
                + "file given with --config"),
        Case("a detector parameter in dashes", ["plot", "--minimum-half-waves", "3", "r.csv", "-o", "OUT"],
             says: "Unknown option '--minimum-half-waves': minimumHalfWaves is a detector parameter"),
        Case("a detector parameter's first four letters", ["replay", "--onse", "12", "r.csv"],
             says: "Unknown option '--onse': onsetAcceleration (m/s²) is a detector parameter"),
        // The start of several parameters names none of them.
        Case("the start of several detector parameters", ["replay", "--maximum", "1", "r.csv"],
             says: "Unknown option '--maximum'\n"),
        Case("a configuration for the seismic rule", ["replay", "--detector", "seismic", "--config", "c.json", "r.csv"],
             says: "'--config' configures ShakeKit's detector; the seismic detector takes only '--preset'\n"),
        Case("a detector parameter to tune", ["tune", "--onsetAcceleration", "12", "r.csv"],
             says: "Unknown option '--onsetAcceleration': onsetAcceleration (m/s²) is a detector parameter: hold it with "
                + "--range onsetAcceleration=VALUE, limit it with --range onsetAcceleration=LOW..HIGH, or set it in "
                + "the base configuration given with --config\n"),
        Case("a detector parameter tune does not search", ["tune", "--maximum-gap-seconds", "1", "r.csv"],
             says: "Unknown option '--maximum-gap-seconds': maximumGapSeconds (s) is a detector parameter, set in the "
                + "base configuration given with --config (tune does not search it)\n"),
        Case("unknown option with a value", ["replay", "--treshold=9", "r.csv"], says: "Unknown option '--treshold'\n"),
        Case("unknown short option", ["synth", "shakes", "-x", "-o", "OUT"], says: "Unknown option '-x'"),
        Case("missing option value", ["synth", "shakes", "-o"], says: "Missing value for '-o <file>'"),
        Case("missing option value at the end", ["replay", "r.csv", "--preset"], says: "Missing value for '--preset <name>'"),
        Case("value not in the list", ["replay", "--preset", "extreme", "r.csv"],
             says: "The value 'extreme' is invalid for '--preset <name>' (values: light, medium, hard)"),
        Case("not a number", ["synth", "shakes", "--rate", "fast", "-o", "OUT"], says: "The value 'fast' is invalid for '--rate': expected a number"),
        // A number written with its unit, as the help names the units: the error says to leave it out.
        Case("a number with its unit", ["synth", "shakes", "--rate", "200Hz", "-o", "OUT"],
             says: "The value '200Hz' is invalid for '--rate': expected a number, without its unit (--rate 200)\n"),
        Case("a number with a unit after a space", ["plot", "r.csv", "--from", "5 s", "-o", "OUT"],
             says: "The value '5 s' is invalid for '--from': expected a number, without its unit (--from 5)\n"),
        // A number with its unit beyond the option's range: the number alone would be refused too
        // (`--jitter 10` was suggested for 10 %); a percentage of an option taking a fraction, the fraction.
        Case("a percentage for a fraction", ["synth", "shakes", "--jitter", "10%", "-o", "OUT"],
             says: "The value '10%' is invalid for '--jitter': expected a number, as a fraction (--jitter 0.1)\n"),
        Case("a number with its unit beyond the range", ["synth", "shakes", "--rate", "50000Hz", "-o", "OUT"],
             says: "The value '50000Hz' is invalid for '--rate': expected a number, without its unit, 1 to 20000\n"),
        Case("a percentage beyond the range", ["synth", "shakes", "--jitter", "95 %", "-o", "OUT"],
             says: "The value '95 %' is invalid for '--jitter': expected a number, without its unit, 0 to 0.9\n"),
        Case("a whole number with its unit beyond the range", ["tune", "--jobs", "2000x", "r.csv"],
             says: "The value '2000x' is invalid for '--jobs': expected a whole number, without its unit, 1 to 1024\n"),
        Case("seconds with their unit", ["live", "--timeout", "3s"],
             says: "The value '3s' is invalid for '--timeout': expected a number, without its unit (--timeout 3)\n"),
        Case("a range bound with its unit", ["tune", "--range", "onsetAcceleration=12m/s2..16", "r.csv"],
             says: "'--range onsetAcceleration=12m/s2..16': '12m/s2' is not a number: give it without its unit (12)\n"),
        Case("a range with a dash", ["tune", "--range", "onsetAcceleration=12-16", "r.csv"],
             says: "'--range onsetAcceleration=12-16': '12-16' is not a number: write a range as LOW..HIGH (12..16)\n"),
        // Labels ignored where they are scored: a usage error, not the file's (exit 65, "no 'shake' column").
        Case("evaluate without labels", ["evaluate", "--ignore-labels", "r.csv"],
             says: "'--ignore-labels' reads recordings without their shake labels, which evaluate scores against: leave it out "
                + "(for a 'label' column of activity names, name the 0/1 column with --label-column)\n"),
        Case("tune without labels", ["tune", "--ignore-labels", "r.csv"],
             says: "'--ignore-labels' reads recordings without their shake labels, which tune scores against"),
        // An exponent beyond a Double is no unit (it was taken for one: "without its unit (1)").
        Case("a number beyond a Double", ["tune", "--max-false-per-hour", "1e400", "r.csv"],
             says: "The value '1e400' is invalid for '--max-false-per-hour': expected a number\n"),
        Case("a range bound beyond a Double", ["tune", "--range", "onsetAcceleration=1E+400", "r.csv"],
             says: "'--range onsetAcceleration=1E+400': '1E+400' is not a number\n"),
        // Digits that make no finite number are no number before a unit either ("without its unit (inf)").
        Case("infinity with a unit", ["synth", "shakes", "--duration", "inf s", "-o", "OUT"],
             says: "The value 'inf s' is invalid for '--duration': expected a number\n"),
        Case("whole number below the range", ["tune", "--jobs", "0", "r.csv"],
             says: "The value '0' is invalid for '--jobs': expected 1 to 1024\n"),
        Case("whole number with its unit", ["tune", "--jobs", "4x", "r.csv"],
             says: "The value '4x' is invalid for '--jobs': expected a whole number, without its unit (--jobs 4)\n"),
        // Only a command that reads a configuration is told where a detector parameter goes.
        Case("a detector parameter where no configuration is read", ["convert", "r.csv", "--onset", "2", "-o", "OUT"],
             says: "Unknown option '--onset'\n"),
        Case("NaN as a number", ["synth", "shakes", "--noise", "nan", "-o", "OUT"], says: "The value 'nan' is invalid for '--noise': expected a number"),
        Case("infinity as a number", ["synth", "shakes", "--duration", "inf", "-o", "OUT"], says: "The value 'inf' is invalid for '--duration': expected a number"),
        Case("number below the range", ["synth", "shakes", "--rate", "0", "-o", "OUT"], says: "The value '0' is invalid for '--rate': expected 1 to 20000"),
        Case("number above the range", ["synth", "shakes", "--jitter", "1.5", "-o", "OUT"], says: "The value '1.5' is invalid for '--jitter': expected 0 to 0.9"),
        Case("negative duration", ["synth", "shakes", "--duration", "-3", "-o", "OUT"], says: "The value '-3' is invalid for '--duration'"),
        Case("negative seed", ["synth", "shakes", "--seed", "-1", "-o", "OUT"], says: "The value '-1' is invalid for '--seed': expected a whole number"),
        Case("seed beyond 64 bits", ["synth", "shakes", "--seed", "18446744073709551616", "-o", "OUT"], says: "The value '18446744073709551616' is invalid for '--seed'"),
        Case("flag given a value", ["synth", "shakes", "--force=yes", "-o", "OUT"], says: "The flag '--force' does not take a value"),
        Case("option given twice", ["replay", "--preset", "light", "--preset", "hard", "r.csv"], says: "The option '--preset' was given more than once"),
        Case("conflicting options", ["config", "--preset", "hard", "--config", "c.json"], says: "Use either '--config' or '--preset', not both"),
        Case("missing argument", ["replay"], says: "Missing expected argument '<file> ...'"),
        Case("unexpected argument", ["synth", "shakes", "run", "-o", "OUT"], says: "Unexpected argument 'run'"),
        // Every command that writes a file says a missing -o in the same words.
        Case("missing output to synth", ["synth", "shakes"], says: "Missing the output file: '-o <file>' (the recording to write)\n"),
        Case("missing output to record", ["record"], says: "Missing the output file: '-o <file>' (the recording to write)\n"),
        Case("missing output to convert", ["convert", "r.csv"], says: "Missing the output file: '-o <file>' (the recording to write)\n"),
        Case("missing output to plot", ["plot", "r.csv"], says: "Missing the output file: '-o <file>' (the SVG file to write)\n"),
        // An SVG under a raster or document format's name, which a viewer would refuse to open.
        Case("a plot named .png", ["plot", "r.csv", "-o", "plot.png"],
             says: "'plot.png': plot writes an SVG file, not PNG: name it .svg (plot.svg; an SVG converter such as "
                + "rsvg-convert makes a PNG of it)\n"),
        Case("a plot named .jpg in a folder", ["plot", "r.csv", "-o", "figures/plot.jpg"],
             says: "'figures/plot.jpg': plot writes an SVG file, not JPG: name it .svg (plot.svg; an SVG converter such as "
                + "rsvg-convert makes a JPG of it)\n"),
        Case("a trade-off plot named .pdf", ["tune", "r.csv", "--report", "trade.PDF"],
             says: "'trade.PDF': --report writes an SVG file, not PDF: name it .svg (trade.svg; an SVG converter such as "
                + "rsvg-convert makes a PDF of it)\n"),
        Case("unknown scenario", ["synth", "shaks", "-o", "OUT"], says: "Unknown scenario 'shaks'"),
        Case("unknown subcommand", ["shook"], says: "Unknown subcommand 'shook'"),
        Case("help for an unknown subcommand", ["help", "nothing"], says: "Unknown subcommand 'nothing'"),
        Case("--choices without --undo-demo", ["live", "--choices", "undo"], says: "'--choices' needs '--undo-demo'"),
        // The editing session is text for a person; JSON lines on the same stdout would be unreadable.
        Case("--undo-demo with JSON", ["live", "--undo-demo", "--format", "json"], says: "'--undo-demo' prints its editing session as text"),
        Case("standard output as a recording", ["synth", "shakes", "-o", "-"], says: "'-' as the output: give a file name"),
        Case("standard output as a plot", ["plot", "r.csv", "-o", "-"], says: "'-' as the output: give a file name"),
        Case("URI without a scheme", ["devices", "--uri", "192.168.2.1"],
             says: "'--uri 192.168.2.1': the URI needs a scheme: local: (this machine's devices), ip:HOST"),
        // record and live need samples: a saved description (xml:FILE) is not offered to them.
        Case("URI of an unknown scheme", ["record", "--uri", "bogus:x", "-o", "OUT"],
             says: "'--uri bogus:x': this libiio has no backend for the scheme 'bogus:'; the URI needs one of: "
                + "local: (this machine's devices), ip:HOST (iiod on HOST), usb: or usb:BUS.ADDRESS.INTERFACE "
                + "(a USB device)\n"),
        Case("URI of an unknown scheme to list", ["devices", "--uri", "bogus:x"],
             says: "'--uri bogus:x': this libiio has no backend for the scheme 'bogus:'; the URI needs one of: "
                + "local: (this machine's devices), ip:HOST (iiod on HOST), usb: or usb:BUS.ADDRESS.INTERFACE "
                + "(a USB device), xml:FILE (a saved description)\n"),
        // libiio answers ENOSYS for it too, which said until stop 50 that it had no local: backend (exit 74).
        Case("local: with something after it", ["live", "--uri", "local:nope"],
             says: "'--uri local:nope': the local backend takes nothing after 'local:' (it reads this machine's devices): use local:\n"),
        Case("xml: context for record", ["record", "--uri", "xml:ctx.xml", "-o", "OUT"],
             says: "'--uri xml:ctx.xml': an xml: context is a saved description, without samples; read a device "
                + "through local:, ip:HOST or usb: ('shake devices --uri xml:ctx.xml' lists it)"),
        Case("xml: context for live", ["live", "--uri", "xml:ctx.xml"],
             says: "'--uri xml:ctx.xml': an xml: context is a saved description, without samples"),
        Case("xml: without a file", ["devices", "--uri", "xml:"], says: "'--uri xml:' names no file: give xml:FILE"),
        Case("standard input twice to replay", ["replay", "-", "-"],
             says: "The file '-' (standard input) is given twice; it can be read only once"),
        Case("standard input twice to evaluate", ["evaluate", "-", "r.csv", "-"],
             says: "The file '-' is given twice; each recording counts once"),
        Case("standard input twice to tune", ["tune", "-", "-", "-o", "OUT"],
             says: "The file '-' is given twice; each recording counts once"),
        Case("column position 0", ["replay", "--time-column", "0", "r.csv"],
             says: "'--time-column' 0: column positions count from 1 (or give the header name)"),
        Case("negative column position", ["evaluate", "--label-column", "-2", "r.csv"], says: "'--label-column' -2: column positions count from 1"),
        Case("zero mount matrix", ["record", "--mount-matrix", "0, 0, 0; 0, 0, 0; 0, 0, 0", "-o", "OUT"],
             says: "--mount-matrix '0, 0, 0; 0, 0, 0; 0, 0, 0': the matrix is singular (determinant 0.0)"),
        Case("singular mount matrix", ["live", "--mount-matrix", "1, 0, 0; 1, 0, 0; 0, 0, 1"],
             says: "--mount-matrix '1, 0, 0; 1, 0, 0; 0, 0, 1': the matrix is singular (determinant 0.0): it would flatten"),
        Case("scaling mount matrix", ["live", "--mount-matrix", "2, 0, 0; 0, 2, 0; 0, 0, 2"],
             says: "--mount-matrix '2, 0, 0; 0, 2, 0; 0, 0, 2': the matrix is not a rotation (its rows must be unit vectors "
                + "at right angles; they are off by up to 3): it would scale or shear every acceleration"),
        Case("overflowing mount matrix", ["record", "--mount-matrix", "1e200, 0, 0; 0, 1e200, 0; 0, 0, 1e200", "-o", "OUT"],
             says: "--mount-matrix '1e200, 0, 0; 0, 1e200, 0; 0, 0, 1e200': its numbers are too large (the determinant is not finite)"),
    ]

    @Test(arguments: cases)
    func badCommandLineIsAUsageError(_ bad: Case) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let arguments = bad.arguments.map { $0 == "OUT" ? folder.file("out.csv") : $0 }
        let run = runShake(arguments)
        #expect(run.status == 64, "\(run.err)")
        #expect(run.out.isEmpty)
        let lines = run.err.split(separator: "\n", omittingEmptySubsequences: false)
        // A message ending in a newline is the whole first line; otherwise its start.
        #expect(lines.first.map { bad.says.hasSuffix("\n") ? "\($0)\n" == "Error: \(bad.says)" : $0.hasPrefix("Error: \(bad.says)") } == true,
                "\(run.err)")
        #expect(run.err.contains("Usage: shake"), "\(run.err)")
        #expect(listing(folder.path).isEmpty, "no file is written")
    }

    /// Import options that contradict each other are a usage error (64), whatever the file,
    /// even a missing one: the options alone are wrong.
    @Test(arguments: [
        (["--separator", "comma", "--decimal-comma"],
         "'--decimal-comma' needs '--separator semicolon', 'tab' or 'pipe' (or none, to detect it), not 'comma'"),
        (["--no-header", "--x-column", "acc_x"],
         "'--x-column acc_x' chooses a column by name, but --no-header is given: choose it by its position (1 for the first)"),
        (["--ignore-labels", "--label-column", "4"], "'--ignore-labels' and '--label-column' contradict each other"),
    ])
    func contradictoryImportOptionsAreRefused(options: [String], says: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("r.csv", "time_s,x,y,z\n0,0,0,9.8\n")
        for path in [recording, folder.file("missing.csv")] {
            let run = runShake(["replay"] + options + [path])
            #expect(run.status == 64, "\(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err.hasPrefix("Error: \(says)"), "\(run.err)")
            #expect(run.err.contains("Usage: shake replay"), "\(run.err)")
        }
    }

    /// The file of `devices --uri xml:FILE` is checked before libiio is asked (which says only
    /// "Invalid argument"): missing or unreadable is exit 66 naming it, a file libiio cannot read
    /// as a description 65; a description is listed. Only `devices` lists xml:FILE in its help.
    @Test func devicesChecksTheFileOfAnXMLContext() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let missing = folder.file("none.xml")
        let noFile = runShake("devices", "--uri", "xml:" + missing)
        #expect(noFile.status == 66)
        #expect(noFile.err == "Error: \(missing): no such file\n")
        let directory = runShake("devices", "--uri", "xml:" + folder.path)
        #expect(directory.status == 66)
        #expect(directory.err == "Error: \(folder.path): is a directory, not an IIO context description\n")
        let garbage = try folder.write("garbage.xml", "not xml\n")
        let refused = runShake("devices", "--uri", "xml:" + garbage)
        #expect(refused.status == 65)
        #expect(refused.err.hasPrefix("Error: \(garbage): not an IIO context description libiio can read ("), "\(refused.err)")
        let description = try folder.write("temp.xml", """
            <?xml version="1.0" encoding="utf-8"?>
            <context name="xml" description="a thermometer"><device id="iio:device0" name="temp">\
            <channel id="temp" type="input"><attribute name="raw" filename="in_temp_raw" /></channel>\
            </device></context>

            """)
        let listed = runShake("devices", "--uri", "xml:" + description)
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out == "No accelerometers at xml:\(description) (xml backend).\n")
        #expect(runShake("devices", "--help").out.contains("xml:FILE"))
        for command in ["record", "live"] { #expect(!runShake(command, "--help").out.contains("xml:")) }
        // An accelerometer in a description is listed, its attribute values unknown (libiio's xml
        // backend answers their reads with ENOSYS; that was exit 74 before).
        let axis = { (a: String, i: Int) in
            "<channel id=\"accel_\(a)\" type=\"input\"><scan-element index=\"\(i)\" format=\"le:s16/16&gt;&gt;0\" "
                + "scale=\"0.009576\" /><attribute name=\"raw\" filename=\"in_accel_\(a)_raw\" />"
                + "<attribute name=\"scale\" filename=\"in_accel_scale\" /></channel>"
        }
        let accelerometer = try folder.write("accel.xml", """
            <?xml version="1.0" encoding="utf-8"?>
            <context name="xml" description="an accelerometer"><device id="iio:device0" name="lis3dh">\
            \(axis("x", 0))\(axis("y", 1))\(axis("z", 2))<attribute name="sampling_frequency" /></device></context>

            """)
        let accelerometers = runShake("devices", "--uri", "xml:" + accelerometer)
        #expect(accelerometers.status == 0, "\(accelerometers.err)")
        #expect(accelerometers.out == """
            iio:device0: lis3dh
                reading:        buffered, no timestamp channel, format le:s16/16>>0
                values:         unknown: a saved description lists the channels, not the scale, offset, rate, trigger or mount matrix

            """)
    }
}
