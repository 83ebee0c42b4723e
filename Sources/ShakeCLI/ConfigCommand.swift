import Foundation
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
            unless --force).
            """,
        options: DetectorOptions.specs + [
            .option("output", short: "o", value: "file", help: "Write the JSON to this file instead of standard output."),
            .flag("force", help: "Overwrite the output file if it exists."),
        ]
    )

    static func run(_ arguments: ParsedArguments, io: CommandIO) throws -> Int32 {
        let configuration = try DetectorOptions.configuration(arguments)
        guard let output = arguments.value("output") else {
            io.out(String(decoding: ConfigurationFile.encode(configuration), as: UTF8.self))
            return ExitStatus.success
        }
        let force = arguments.flag("force")
        try OutputFile.check(output, force: force)
        do {
            try ConfigurationFile.save(configuration, to: output, overwrite: force)
        } catch {
            throw CommandFailure("\(error)", exitStatus: ExitStatus.cannotCreate)
        }
        return ExitStatus.success
    }
}
