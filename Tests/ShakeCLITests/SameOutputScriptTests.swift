import Foundation
import Testing

/// `Scripts/same-output`: the check, before a change lands, that the `shake` tool still prints,
/// writes and exits as it did. Run here on stand-ins for `shake` (shell scripts that echo their
/// arguments and write the file `-o` names), so that what it compares, and how it says so, is
/// seen without two release builds.
@Suite struct SameOutputScriptTests {
    static let script = repositoryRoot + "/Scripts/same-output"

    /// A stand-in for `shake`: prints its arguments, writes "written" to the file after `-o`, and
    /// exits 0; `tweak` is shell code run last, with the arguments in "$@", to make it differ.
    static func standIn(in folder: TemporaryFolder, named name: String, tweak: String = "") throws -> String {
        let path = try folder.write(name, """
            #!/bin/sh
            echo "$@"
            previous=
            for argument in "$@"; do
                [ "$previous" = -o ] && echo written > "$argument"
                previous=$argument
            done
            \(tweak)
            exit 0

            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The commands the script reports as differing, as it names them.
    static func differing(_ run: CLIRun) -> [String] {
        run.out.split(separator: "\n").filter { $0.hasPrefix("differs: shake ") }
            .map { String($0.dropFirst("differs: shake ".count).prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
    }

    @Test func twoToolsThatBehaveAlikeAreTheSameWhereverTheyLie() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // Two files at two paths: each prints its own path in no output, so only behaviour counts.
        // Each logs the arguments it is run with, led by its name.
        let log = folder.file("commands.log")
        let record = "echo \"$(basename \"$0\") $*\" >> '\(log)'"
        let old = try Self.standIn(in: folder, named: "old-shake", tweak: record)
        let new = try Self.standIn(in: folder, named: "new-shake", tweak: record)
        let run = try runProcess(Self.script, ["--binaries", old, new])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        let last = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("same-output: all ") && last.hasSuffix(" commands gave the same output, status and files"), "\(run.out)")
        let count = Int(last.split(separator: " ")[2]) ?? 0
        #expect(count >= 60, "\(last)")
        // Both tools ran each of the commands counted, the same ones in the same order.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let ran = { (tool: String) in lines.filter { $0.hasPrefix(tool + " ") }.map { String($0.dropFirst(tool.count + 1)) } }
        #expect(ran("old-shake").count == count && ran("new-shake") == ran("old-shake"), "\(lines)")
        // Tune, config and synth are among them, run (not only their help), and the help texts.
        let commands = ran("new-shake")
        for command in ["tune", "config", "synth"] {
            #expect(commands.contains { $0 == command || ($0.hasPrefix(command + " ") && !$0.hasSuffix("--help")) },
                    "\(command): \(commands)")
        }
        for help in ["--help", "help replay", "tune --help", "config --help", "synth --help"] {
            #expect(commands.contains(help), "\(help): \(commands)")
        }
    }

    /// In a repository whose path holds a space, every command still gets the Fixtures folder as
    /// one argument (the paths had been split by eval, every command on them failed alike on both
    /// sides, and the check passed while comparing nothing). The stand-ins log any path they are
    /// given that does not exist.
    @Test func aRepositoryPathWithASpaceStaysOneArgument() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let root = folder.file("my repo")
        try FileManager.default.createDirectory(atPath: root + "/Scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.script, toPath: root + "/Scripts/same-output")
        try FileManager.default.copyItem(atPath: repositoryRoot + "/Fixtures", toPath: root + "/Fixtures")
        let log = folder.file("missing.log")
        let check = "for argument in \"$@\"; do case \"$argument\" in */*) [ -e \"$argument\" ] || echo \"$argument\" >> '\(log)';; esac; done"
        let old = try Self.standIn(in: folder, named: "old-shake", tweak: check)
        let new = try Self.standIn(in: folder, named: "new-shake", tweak: check)
        let run = try runProcess(root + "/Scripts/same-output", ["--binaries", old, new])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: log),
                "paths split: \((try? String(contentsOfFile: log, encoding: .utf8).prefix(300)) ?? "")")
        #expect(run.out.contains("same-output: all "), "\(run.out)")
    }

    @Test func aDifferenceInOutputFileOrStatusIsNamedWithItsCommand() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let old = try Self.standIn(in: folder, named: "old-shake")
        // Standard output differs for `config --preset light`, the file written for `synth
        // shakes`, standard error for `replay in/empty.csv`, and the exit status for `demo`.
        let new = try Self.standIn(in: folder, named: "new-shake", tweak: """
            [ "$*" = "config --preset light" ] && echo one more line
            [ "$*" = "synth shakes -o shakes.csv" ] && echo more >> shakes.csv
            [ "$*" = "replay in/empty.csv" ] && echo "Error: a new message" >&2
            [ "$*" = demo ] && exit 3
            """)
        let run = try runProcess(Self.script, ["--binaries", old, new])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(Self.differing(run) == ["config --preset light", "replay in/empty.csv", "synth shakes -o shakes.csv", "demo"],
                "\(run.out)")
        // The folder with every command's output and the diffs is kept, and its path given.
        let last = run.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("same-output: 4 of "), "\(last)")
        let kept = last.components(separatedBy: "(kept in ").last?.dropLast() ?? ""
        #expect(FileManager.default.fileExists(atPath: kept + "/diff-1"), "\(kept)")
        try? FileManager.default.removeItem(atPath: String(kept))
    }

    @Test(arguments: [[String](), ["--binaries", "/nonexistent/shake", "/bin/sh"], ["--binaries", "/bin/sh"],
                      ["not-a-commit-anywhere"], ["--fast"]])
    func badUsageSaysWhatIsWrong(arguments: [String]) throws {
        let run = try runProcess(Self.script, arguments)
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("Error: ") && run.err.hasSuffix("(see --help)\n"), "\(run.err)")
        #expect(run.out.isEmpty)
    }
}
