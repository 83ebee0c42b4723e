import ShakeDetection
import ShakeRecording

/// `shake synth SCENARIO -o FILE`: writes a labelled recording of synthesized motion.
enum SynthCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "synth",
        abstract: "Write a labelled recording of synthesized motion (shakes, walking, taps, ...).",
        discussion: """
            Renders a scripted scenario through a model of an accelerometer and writes it as a \
            canonical CSV (time_s,x,y,z,shake; m/s² including gravity; shake=1 exactly during the \
            scripted shakes). The same scenario, seed and options always give the same file, on \
            every machine; the first line, '# source: shake synth ...', is the complete command \
            that recreates it. Options left out take the scenario's own sensor (100 Hz, 5 % jitter, \
            0.03 m/s² noise unless listed otherwise below).

            SCENARIOS:
            """ + "\n" + scenarioList,
        arguments: [ArgumentSpec("scenario", help: "The motion to synthesize (see SCENARIOS above).")],
        options: [
            .option("output", short: "o", value: "file", help: "The recording to write (required)."),
            .option("rate", value: "hz", help: "Sample rate, Hz (1 to 20000).", default: "the scenario's"),
            .option("seed", value: "n", help: "Seed of every random choice (0 to 2^64-1).", default: "1"),
            .option("jitter", value: "fraction",
                    help: "Timing jitter as a fraction of the sample interval (0 to 0.9).", default: "0.05"),
            .option("noise", value: "m/s²", help: "White noise per axis, RMS in m/s² (0 to 100).", default: "0.03"),
            .option("clip", value: "g",
                    help: "Sensor range: clip each axis at +/- this many g (0.1 to 1000), or 'none'.",
                    default: "none; 2 for clipped-shake"),
            .option("quantize", value: "m/s²",
                    help: "Round every value to a multiple of this step, m/s² (1e-9 to 100; e.g. 0.0096 for 1 mg).",
                    default: "none"),
            .option("duration", value: "s",
                    help: "Length of the recording, s (0.01 to 86400): stretches the walk or run, otherwise cuts or pads with rest (a shake cut to under two cycles is left out).",
                    default: "the scenario's"),
            .option("shake-g", value: "g",
                    help: "Peak of every scripted shake, in g (0.1 to 8): a product's gentle or vigorous shakes.",
                    default: "the scenario's"),
            .option("shake-hz", value: "hz",
                    help: "Frequency of every scripted shake, full back-and-forth cycles per second (1 to 12); "
                        + "each shake keeps its length.", default: "the scenario's"),
            .flag("force", help: "Overwrite the output file if it exists."),
        ]
    )

    /// One line per scenario, `name: summary (sensor)`, for the help screen.
    static var scenarioList: String {
        SynthScenario.allCases.map { scenario in
            let sensor = scenario.defaultSensor
            var notes: [String] = []
            if sensor.rateHertz != 100 { notes.append("\(fixed(sensor.rateHertz, 0)) Hz") }
            if let clip = sensor.clipG { notes.append("clipped at \(fixed(clip, 0)) g") }
            let note = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
            return "\(scenario.name): \(scenario.summary)" + note
        }.joined(separator: "\n")
    }

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let name = arguments.positionals[0]
        guard let scenario = SynthScenario(name: name) else {
            var message = "Unknown scenario '\(name)'"
            let best = SynthScenario.allCases.map { ($0.name, editDistance($0.name, name.lowercased())) }
                .min { $0.1 < $1.1 }
            if let best, best.1 <= 3 { message += "\nDid you mean '\(best.0)'?" }
            throw UsageError(message + " (see 'shake synth --help' for the list)")
        }
        guard let output = arguments.value("output") else {
            throw UsageError("Missing the output file: '-o <file>' (the recording to write)")
        }
        let force = arguments.flag("force")
        var sensor = scenario.defaultSensor
        if let rate = try arguments.double("rate", range: 1...20_000) { sensor.rateHertz = rate }
        if let jitter = try arguments.double("jitter", range: 0...0.9) { sensor.jitterFraction = jitter }
        if let noise = try arguments.double("noise", range: 0...100) { sensor.noiseRMS = noise }
        if let clip = arguments.value("clip") {
            sensor.clipG = clip == "none" ? nil : try arguments.double("clip", range: 0.1...1000)
        }
        if let step = try arguments.double("quantize", range: 1e-9...100) { sensor.quantizationStep = step }
        let seed: UInt64
        if let text = arguments.value("seed") {
            guard let value = UInt64(text) else {
                throw UsageError(
                    "The value '\(text)' is invalid for '--seed': expected a whole number from 0 to 2^64-1")
            }
            seed = value
        } else {
            seed = 1
        }
        let duration = try arguments.double("duration", range: 0.01...86_400)
        let shakeG = try arguments.double("shake-g", range: 0.1...8)
        let shakeHertz = try arguments.double("shake-hz", range: 1...12)
        var script = scenario.script(seconds: duration)
        if shakeG != nil || shakeHertz != nil {
            guard script.contains(where: { if case .shake = $0 { true } else { false } }) else {
                throw UsageError("'\(scenario.name)' has no shakes: '--shake-g' and '--shake-hz' change the scripted shakes")
            }
            script = script.map { segment in
                guard case .shake(var motion) = segment else { return segment }
                if let shakeG { motion.amplitudeG = shakeG }
                if let shakeHertz { motion.frequencyHertz = shakeHertz }
                return .shake(motion)
            }
        }
        try OutputFile.check(output, force: force, partial: true)

        let recording: SynthesizedRecording
        do {
            recording = try Synthesizer(seed: seed).samples(script: script, sensor: sensor)
        } catch {
            throw CommandFailure("\(error)", exitStatus: ExitStatus.usage)
        }
        // A recording of no samples is no recording: say so, and write nothing.
        var first = recording.makeIterator()
        guard first.next() != nil else {
            throw UsageError("The options give no samples: \(shortestDecimal(recording.duration)) s at "
                + "\(shortestDecimal(sensor.rateHertz)) Hz (one sample every \(shortestDecimal(1 / sensor.rateHertz)) s); "
                + "give a longer '--duration' or a higher '--rate'")
        }
        let command = sourceCommand(scenario: scenario, sensor: sensor, seed: seed, duration: duration,
                                    shakeG: shakeG, shakeHertz: shakeHertz, output: output)
        let metadata: [(key: String, value: String)] = [
            ("source", command),
            ("device", "synthetic (ShakeKit Synthesizer)"),
            ("activity", "\(scenario.name): \(scenario.summary)"),
            ("rate_hz", fixed(sensor.rateHertz, sensor.rateHertz.rounded() == sensor.rateHertz ? 0 : 3)),
            ("units", "m/s^2"),
        ]
        var count = 0
        var shakes = 0
        var wasShake = false
        do {
            let writer = try RecordingWriter(
                path: output, metadata: metadata, labelled: true, overwrite: force)
            let stopOnSignal = StopOnSignal(partialPath: writer.partialPath, output: output)
            defer { stopOnSignal.remove() }
            do {
                for labeled in recording {
                    try writer.write(labeled.sample, isShake: labeled.isShake)
                    count += 1
                    let isShake = labeled.isShake == true
                    if isShake && !wasShake { shakes += 1 }
                    wasShake = isShake
                }
                stopOnSignal.finishing()
                try writer.finish()
            } catch {
                writer.discard()
                throw OutputFile.discardedRecordingFailure(error, output: output)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw outputFailure(error)
        }
        let noun = shakes == 1 ? "shake" : "shakes"
        io.out(
            "\(output): \(counted(count, "sample")), \(fixed(recording.duration, 1)) s at \(shortestDecimal(sensor.rateHertz)) Hz, "
                + "\(shakes) labelled \(noun)\n")
        return ExitStatus.success
    }

    /// The command line that recreates the file, every setting spelled out.
    static func sourceCommand(
        scenario: SynthScenario, sensor: SensorModel, seed: UInt64, duration: Double?,
        shakeG: Double? = nil, shakeHertz: Double? = nil, output: String
    ) -> String {
        var parts = ["shake", "synth", scenario.name]
        parts += ["--rate", shortestDecimal(sensor.rateHertz), "--seed", String(seed)]
        parts += ["--jitter", shortestDecimal(sensor.jitterFraction), "--noise", shortestDecimal(sensor.noiseRMS)]
        parts += ["--clip", sensor.clipG.map(shortestDecimal) ?? "none"]
        if let step = sensor.quantizationStep { parts += ["--quantize", shortestDecimal(step)] }
        if let duration { parts += ["--duration", shortestDecimal(duration)] }
        if let shakeG { parts += ["--shake-g", shortestDecimal(shakeG)] }
        if let shakeHertz { parts += ["--shake-hz", shortestDecimal(shakeHertz)] }
        parts += ["-o", output]
        return parts.map(shellQuoted).joined(separator: " ")
    }


    /// `word` quoted for a POSIX shell when it needs to be.
    private static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:+,@%".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
