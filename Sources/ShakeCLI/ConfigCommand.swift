import FoundationEssentials
import ShakeDetection
import ShakeRecording

/// `shake config`: prints a preset or checks a configuration file, as JSON.
enum ConfigCommand: ShakeCommand {
    static let spec = CommandSpec(
        name: "config",
        abstract: "Print a preset's configuration as JSON, or check a configuration file.",
        discussion: """
            The JSON printed is what --config reads: start from a preset, edit the values, and pass \
            the file to replay, evaluate, plot, demo or live. Keys are the parameter names: keys ending in \
            Seconds are in seconds, keys ending in Acceleration in m/s², and the rest are counts \
            (minimumHalfWaves, ongoingMotionStrongHalfWaves), a cosine (reversalCosine) or ratios \
            (maximumLinearity, shortChainLinearity, maximumIntervalRatio); keys left out take the \
            medium preset's values. With \
            --config FILE the file is loaded and checked, and the complete configuration it gives \
            is printed. With -o the JSON is written to a new file instead (an existing file is kept \
            unless --force). With --diff the values that differ from a preset or another file are \
            printed instead, one per line with their units ('shake config --config tuned.json \
            --diff medium': what tuning changed).
            """,
        options: DetectorOptions.specs + [
            .option("output", short: "o", value: "file", help: "Write the JSON to this file instead of standard output."),
            .flag("force", help: "Overwrite the output file if it exists."),
            .option("diff", value: "preset|file",
                    help: "Print only the values that differ from this preset (light, medium, hard) or configuration "
                        + "file (./medium for a file of that name), with both values and their units."),
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        // The usage errors come before anything is read (`--config -` read first, an empty
        // standard input was a JSON error, exit 65, rather than the usage error).
        let other = arguments.value("diff")
        if other != nil && arguments.value("output") != nil {
            throw UsageError("'--diff' prints the differences and writes no file: leave out '-o'")
        }
        if other == "-" && arguments.value("config") == "-" {
            throw UsageError("'--config -' and '--diff -' cannot both be read from standard input: give one as a file")
        }
        let configuration = try DetectorOptions.configuration(arguments)
        if let other {
            let name = DetectorOptions.configurationSource(arguments)
            let otherName: String
            let reference: ShakeConfiguration
            if let preset = ShakeConfiguration.preset(named: other) {
                (otherName, reference) = ("the \(other) preset", preset)
            } else {
                do {
                    reference = try ConfigurationFile.load(path: other)
                } catch {
                    throw CommandFailure(
                        "\(error)\(notAPresetNote(other, error))",
                        exitStatus: error.kind == .unreadable ? ExitStatus.noInput : ExitStatus.dataError)
                }
                otherName = other == "-" ? "the configuration from standard input" : "the configuration in \(other)"
            }
            io.out(difference(configuration, named: name, from: reference, named: otherName,
                              short: ShakeConfiguration.preset(named: other) != nil ? other
                                : RecordingError.displayName(ofPath: other)))
            return ExitStatus.success
        }
        guard let output = arguments.value("output") else {
            io.out(String(decoding: ConfigurationFile.encode(configuration), as: UTF8.self))
            return ExitStatus.success
        }
        let force = arguments.flag("force")
        try OutputFile.check(output, force: force)
        do {
            try withSignalsDeferred { try ConfigurationFile.save(configuration, to: output, overwrite: force) }
        } catch {
            throw OutputFile.writeFailure(error)
        }
        io.err("config: wrote \(output)\n")
        return ExitStatus.success
    }

    /// For `--diff NAME` where NAME is no file: when it is a bare name (no `/` or `.`), that it
    /// is no preset either, with the preset it is closest to (`medum`: did you mean 'medium'?).
    static func notAPresetNote(_ name: String, _ error: ConfigurationFileError) -> String {
        guard error.kind == .unreadable, !name.contains("/"), !name.contains("."), name != "-",
              !FileManager.default.fileExists(atPath: name) else { return "" }
        let presets = ShakeConfiguration.presetNames
        var note = ", nor a preset (\(presets.joined(separator: ", ")))"
        if let closest = presets.min(by: { editDistance($0, name.lowercased()) < editDistance($1, name.lowercased()) }),
           editDistance(closest, name.lowercased()) <= 2 {
            note += ": did you mean '\(closest)'?"
        }
        return note
    }

    /// The values of `configuration` that differ from `reference`, one per line, in key order:
    /// `  onsetAcceleration  12 m/s²  (medium: 10 m/s²)`; `short` names the reference in the lines.
    static func difference(_ configuration: ShakeConfiguration, named name: String, from reference: ShakeConfiguration,
                           named referenceName: String, short: String) -> String {
        let mine = values(configuration), theirs = values(reference)
        let changed = mine.keys.sorted().filter { mine[$0] != theirs[$0] }
        guard !changed.isEmpty else {
            return "\(name.capitalizedFirst) and \(referenceName) are the same (all \(mine.count) values).\n"
        }
        var text = "\(name.capitalizedFirst) against \(referenceName): \(changed.count) of \(mine.count) values differ.\n"
        let nameWidth = changed.map(\.count).max() ?? 0
        let cells = changed.map { shortestDecimal(mine[$0] ?? 0) }
        let valueWidth = cells.map(\.count).max() ?? 0
        let unitWidth = changed.map { TuneCommand.unit(of: $0).count }.max() ?? 0
        for (key, cell) in zip(changed, cells) {
            let unit = TuneCommand.unit(of: key)
            text += "  " + key.padding(toLength: nameWidth) + "  " + cell.leftPadded(valueWidth) + " "
                + unit.padding(toLength: unitWidth) + "  (\(short): " + shortestDecimal(theirs[key] ?? 0)
                + (unit.isEmpty ? "" : " " + unit) + ")\n"
        }
        return text
    }

    /// Every key of the configuration's JSON and its value, as `--config` reads it: exactly
    /// (JSONSerialization, used before, read 17 digits such as tune's 2.4499999999999997 back as
    /// 2.4499999999999993, so `--diff` printed a value that is not in the file).
    static func values(_ configuration: ShakeConfiguration) -> [String: Double] {
        // Every value of a configuration is a number.
        (try? JSONDecoder().decode([String: Double].self, from: ConfigurationFile.encode(configuration))) ?? [:]
    }
}

extension String {
    /// The string with its first character in upper case: "the medium preset" → "The medium preset".
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
