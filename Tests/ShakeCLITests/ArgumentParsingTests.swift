import Testing
@testable import ShakeCLI

@Suite struct ArgumentParsingTests {
    static let spec = CommandSpec(
        name: "demo", abstract: "A test command.",
        arguments: [ArgumentSpec("file", help: "Files.", variadic: true)],
        options: [
            .option("preset", value: "name", help: "Preset.", values: ["light", "medium"], default: "medium"),
            .option("output", short: "o", value: "file", help: "Output."),
            .flag("force", help: "Overwrite."),
        ])

    @Test(arguments: [
        (["a.csv", "--preset", "light"], "light"),
        (["--preset=light", "a.csv"], "light"),
        (["a.csv"], nil),
    ] as [([String], String?)])
    func optionValuesInBothSpellings(arguments: [String], preset: String?) throws {
        let parsed = try ParsedArguments(arguments, spec: Self.spec)
        #expect(parsed.value("preset") == preset)
        #expect(parsed.positionals == ["a.csv"])
    }

    @Test func shortOptionsFlagsAndDoubleDash() throws {
        let parsed = try ParsedArguments(["-o", "out.csv", "--force", "--", "--odd-name.csv"], spec: Self.spec)
        #expect(parsed.value("output") == "out.csv")
        #expect(parsed.flag("force"))
        #expect(parsed.positionals == ["--odd-name.csv"])
    }

    @Test(arguments: [
        (["a.csv", "--presett", "light"], "Unknown option '--presett'\nDid you mean '--preset'?"),
        (["a.csv", "--preset", "soft"], "The value 'soft' is invalid for '--preset <name>' (values: light, medium)"),
        (["a.csv", "--preset"], "Missing value for '--preset <name>'"),
        ([], "Missing expected argument '<file> ...'"),
        (["a.csv", "--force=yes"], "The flag '--force' does not take a value"),
        (["a.csv", "-o", "x", "-o", "y"], "The option '--output' was given more than once"),
        // The next argument is an option of the command: the value is missing (no file "--force").
        (["a.csv", "-o", "--force"],
         "Missing value for '-o <file>': '--force' is an option (for a value that begins so, write --output=--force)"),
        (["a.csv", "-o", "-o", "x.csv"],
         "Missing value for '-o <file>': '-o' is an option (for a value that begins so, write --output=-o)"),
        (["a.csv", "--output", "-h"],
         "Missing value for '--output <file>': '-h' is an option (for a value that begins so, write --output=-h)"),
        (["a.csv", "-o", "--preset=light"],
         "Missing value for '-o <file>': '--preset=light' is an option (for a value that begins so, write --output=--preset=light)"),
        // Defect: an empty file name (`"$FILE"` with FILE unset) went on to "Error: : cannot open …".
        (["a.csv", ""], "An empty argument where '<file> ...' goes (an unset shell variable?)"),
        (["a.csv", "-o", ""], "Empty value for '-o <file>' (an unset shell variable?)"),
        (["a.csv", "--output="], "Empty value for '--output <file>' (an unset shell variable?)"),
        (["a.csv", "--preset", ""], "Empty value for '--preset <name>' (an unset shell variable?)"),
    ] as [([String], String)])
    func usageMistakesAreNamed(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ParsedArguments(arguments, spec: Self.spec) }
    }

    @Test func shortOptionWithItsValueAttached() throws {
        let parsed = try ParsedArguments(["-oout.csv", "a.csv"], spec: Self.spec)
        #expect(parsed.value("output") == "out.csv")
        #expect(parsed.positionals == ["a.csv"])
    }

    @Test func valuesThatBeginWithADashButAreNoOptionAreValues() throws {
        // Negative numbers, standard input, an unknown short letter, and the spelled-out form.
        for value in ["-0.5", "-", "-1,0,0", "-x.csv", "--force"] {
            let parsed = try ParsedArguments(["a.csv", "--output=\(value)"], spec: Self.spec)
            #expect(parsed.value("output") == value)
        }
        for value in ["-0.5", "-", "-1,0,0", "-x.csv"] {
            let parsed = try ParsedArguments(["a.csv", "-o", value], spec: Self.spec)
            #expect(parsed.value("output") == value)
            #expect(parsed.positionals == ["a.csv"])
        }
    }

    @Test func helpListsOptionsWithValuesAndDefaults() {
        let help = Self.spec.help(toolName: "shake")
        #expect(help.hasPrefix("OVERVIEW: A test command."))
        #expect(help.contains("USAGE: shake demo [--preset <name>] [-o <file>] [--force] <file> ..."))
        #expect(help.contains("--preset <name>         Preset. (values: light, medium; default: medium)"))
        #expect(help.contains("-o, --output <file>"))
    }

    @Test(arguments: [("kitten", "sitting", 3), ("--preset", "--prest", 1), ("", "abc", 3)])
    func editDistanceCountsEdits(a: String, b: String, distance: Int) {
        #expect(editDistance(a, b) == distance)
    }
}

@Suite struct ToolTests {
    @Test func noArgumentsAndHelpPrintOverviewToStdout() {
        for arguments in [[], ["--help"], ["help"], ["help", "help"]] as [[String]] {
            let run = runShake(arguments)
            #expect(run.status == 0)
            #expect(run.out.contains("USAGE: shake <subcommand>"))
            #expect(run.out.contains("See 'shake help <subcommand>' for detailed help."))
            #expect(run.err.isEmpty)
        }
    }

    /// The names of the SUBCOMMANDS section of a `shake --help` text: its lines that start with
    /// two spaces and a word (a wrapped abstract goes on under the column of abstracts).
    static func listedSubcommands(_ help: String) -> [String] {
        help.components(separatedBy: "\nSUBCOMMANDS:\n").dropFirst().first.map { section in
            section.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
                .map { String($0.dropFirst(2).prefix { $0 != " " }) }
        } ?? []
    }

    /// Every subcommand `shake --help` lists, the one the README's copy of it lists too (a
    /// subcommand dropped from the tool would still be in the README), has its help, through
    /// `--help` and `shake help`.
    @Test func everySubcommandHasHelp() throws {
        let listed = Self.listedSubcommands(runShake("--help").out)
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let documented = Self.listedSubcommands(readme)
        #expect(documented.count > 1 && documented.last == "help", "\(documented)")
        #expect(listed == documented, "shake --help lists \(listed), the README \(documented)")
        for name in listed where name != "help" {
            let viaFlag = runShake(name, "--help")
            let viaHelp = runShake("help", name)
            #expect(viaFlag.status == 0, "shake \(name) --help")
            #expect(viaFlag.out.contains("USAGE: shake \(name)"))
            #expect(viaFlag.out == viaHelp.out)
            #expect(runShake(name, "-h").out == viaFlag.out, "shake \(name) -h")
        }
    }

    @Test func helpListsTheArgumentsAndAShortUsageSpellsOutTheOptions() {
        #expect(runShake("replay", "--help").out.contains("\nARGUMENTS:\n  <file> ..."))
        // Four options are spelled out; five or more are summarised as [<options>].
        #expect(runShake("devices", "--help").out.contains(
            "USAGE: shake devices [--uri <uri>] [--timeout <seconds>] [--verbose] [--format <format>]\n"))
    }

    /// The nearest option is suggested, `--help` among them, when it is at most a third of the
    /// name's length of edits away (at least 2); a former name kept working, hidden, never is.
    @Test(arguments: [
        (["replay", "--hepl", "r.csv"], "Did you mean '--help'?\n"),
        (["replay", "--prst", "r.csv"], "Did you mean '--preset'?\n"),
        (["replay", "--rbse-tme", "r.csv"], "Did you mean '--rebase-time'?\n"),
        // record's --overwrite (now --force) is one edit away.
        (["record", "--overwrit", "-o", "x.csv"], ""),
    ] as [([String], String)])
    func misspeltOptionsAreAnsweredWithTheNearest(arguments: [String], suggestion: String) {
        let run = runShake(arguments)
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("Error: Unknown option '\(arguments[1])'\n\(suggestion)Usage: "), "\(run.err)")
    }

    @Test func unknownSubcommandIsAUsageErrorWithSuggestion() {
        let run = runShake("replya", "x.csv")
        #expect(run.status == 64)
        #expect(run.out.isEmpty)
        #expect(run.err.hasPrefix("Error: Unknown subcommand 'replya'\nDid you mean 'replay'?"))
    }

    @Test func unknownOptionExits64WithUsageOnStderr() {
        let run = runShake("evaluate", "--bogus", "x.csv")
        #expect(run.status == 64)
        #expect(run.err.hasPrefix("Error: Unknown option '--bogus'"))
        #expect(run.err.contains("Usage: shake evaluate"))
    }

    @Test func configAndPresetTogetherIsAUsageError() {
        let run = runShake("replay", "--preset", "hard", "--config", "c.json", "x.csv")
        #expect(run.status == 64)
        #expect(run.err.contains("Use either '--config' or '--preset', not both"))
    }
}
