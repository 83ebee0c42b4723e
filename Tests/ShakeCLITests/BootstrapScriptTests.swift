import Testing

/// `Scripts/bootstrap`, which the README's two commands run first: its help, and an argument it
/// does not take refused before anything is installed (it went on to install, exit 0).
@Suite struct BootstrapScriptTests {
    @Test func anUnknownArgumentIsAUsageError() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/bootstrap", ["--bogus"])
        #expect(run.status == 64)
        #expect(run.err == "Error: Unknown argument '--bogus' (Scripts/bootstrap takes none)\nUsage: Scripts/bootstrap [--help]\n")
        #expect(run.out.isEmpty)
    }

    @Test func helpSaysWhatItInstalls() throws {
        let run = try runProcess(repositoryRoot + "/Scripts/bootstrap", ["--help"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("Installs what a fresh Debian machine lacks"), "\(run.out)")
        #expect(run.out.contains("libiio-dev") && run.out.contains("iiod"))
    }
}
