import Foundation
import Testing

/// A folder given to `replay`, `evaluate` or `tune` as it comes off a USB stick, a Mac or a
/// script: hidden files, a named pipe, names that are not UTF-8, a subfolder its user may not
/// read, a tree thousands of folders deep.
@Suite struct FolderOfRecordingsTests {
    /// macOS's `._a.csv` resource forks (binary), `.git`, an editor's `.#a.csv`: left out, as a
    /// shell's `*.csv` leaves them out (was: read, and the binary fork stopped the run, exit 65).
    @Test(arguments: ["replay", "evaluate"])
    func hiddenFilesAndFoldersAreLeftOut(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text = labelledShakeCSV(shakes: 1).text
        _ = try folder.write("a.csv", text)
        try Data([0, 5, 22, 7, 0, 2, 0, 0, 0x4d, 0x61, 0x63]).write(to: URL(fileURLWithPath: folder.file("._a.csv")))
        try FileManager.default.createDirectory(atPath: folder.file(".git"), withIntermediateDirectories: false)
        _ = try folder.write(".git/b.csv", text)
        _ = try folder.write(".#a.csv", text)
        let run = runShake(command, "--format", "json", folder.path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.components(separatedBy: "\"file\" : ").count - 1 == 1, "\(run.out)")
        #expect(run.out.contains("\"file\" : \"\(folder.file("a.csv"))\""))
    }

    /// A folder given with a trailing slash names its files with one slash; `.CSV` is a recording
    /// as `.csv` is; a symbolic link to a folder, even one named *.csv, is not followed.
    @Test func upperCaseExtensionsCountAndLinksToFoldersAreNotFollowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text = labelledShakeCSV(shakes: 1).text
        _ = try folder.write("A.CSV", text)
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        _ = try folder.write("sub/b.csv", text)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.csv"), withDestinationPath: folder.file("sub"))
        let run = runShake("replay", folder.path + "/")
        #expect(run.status == 0, "\(run.err)")
        let files = run.out.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != ":" }) }
        #expect(files == [folder.file("A.CSV"), folder.file("sub/b.csv")], "\(run.out)")
    }

    /// A named pipe called *.csv inside the folder: an error naming it (was: the run waited
    /// for a writer forever). Named on the command line, a pipe is read (FixtureReplayTests).
    @Test(arguments: ["replay", "evaluate", "tune"])
    func aNamedPipeInAFolderIsNamedNotWaitedFor(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        _ = try folder.write("a.csv", labelledShakeCSV(shakes: 1).text)
        #expect(mkfifo(folder.file("b.csv"), 0o600) == 0)
        let run = runShake(command, folder.path)
        #expect(run.status == 66)
        #expect(run.err == "Error: \(folder.file("b.csv")): a named pipe, not a recording file: name it on the command line to read it\n")
        #expect(run.out == "")
    }

    /// A file whose name is not UTF-8 (Latin-1 from an old camera or Windows share): an error
    /// that says so (was: `cannot open for reading: No such file or directory` of a file that is
    /// there, since the name, turned into Swift text, no longer spells it).
    @Test(arguments: ["replay", "evaluate"])
    func aNameThatIsNotUTF8IsNamedAsSuch(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        _ = try folder.write("a.csv", labelledShakeCSV(shakes: 1).text)
        // "Messung_ü.csv" in Latin-1: ü is the single byte 0xFC, not valid UTF-8.
        let name: [UInt8] = Array(folder.path.utf8) + Array("/Messung_".utf8) + [0xFC] + Array(".csv".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        try #require(fd >= 0)
        close(fd)
        let run = runShake(command, folder.path)
        #expect(run.status == 66)
        #expect(run.err == "Error: \(folder.path)/Messung_\u{FFFD}.csv: the name is not valid UTF-8 (shown with \u{FFFD}), "
            + "and shake opens files by UTF-8 names only: rename it (convmv -f latin1 -t utf8 does)\n")
    }

    /// The same name given on the command line reaches the tool with U+FFFD in place of the
    /// byte (Swift reads arguments as text): the error says why the file is not found (was only
    /// `No such file or directory` of a file the user can see).
    @Test(arguments: ["replay", "evaluate", "plot", "convert"])
    func aNameArgumentThatWasNotUTF8SaysWhyItIsNotFound(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.path + "/Messung_\u{FFFD}.csv"
        let outputs = ["plot": ["-o", folder.file("p.svg")], "convert": ["-o", folder.file("c.csv")]]
        let run = runShake([command, path] + (outputs[command] ?? []))
        #expect(run.status == 66)
        let missing = command == "evaluate" ? "no such file or folder" : "cannot open for reading: No such file or directory (errno 2)"
        #expect(run.err == "Error: \(path): \(missing) (the name holds "
            + "\u{FFFD}, which stands for bytes that are not UTF-8: shake opens files by UTF-8 names only; rename the file, "
            + "e.g. with convmv -f latin1 -t utf8, or give it as '-' on standard input)\n", "\(run.err)")
    }

    /// A subfolder its user may not read (as root, the tool runs as `nobody`): an error naming
    /// it (was: left out without a word, so the figures silently covered fewer recordings).
    @Test func anUnreadableSubfolderIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        _ = try folder.write("a.csv", labelledShakeCSV(shakes: 1).text)
        try FileManager.default.createDirectory(atPath: folder.file("locked"), withIntermediateDirectories: false)
        _ = try folder.write("locked/b.csv", labelledShakeCSV(shakes: 1).text)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.file("locked"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.file("locked")) }
        let run: CLIRun
        if runningAsRoot {
            let shake = try #require(builtShakeExecutable(), "the shake executable is built with the tests")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            run = try runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                      shake, "evaluate", folder.path])
        } else {
            run = runShake("evaluate", folder.path)
        }
        #expect(run.status == 66, "\(run.err)")
        #expect(run.err == "Error: \(folder.file("locked")): folder cannot be read: Permission denied (errno 13)\n")
        #expect(run.out == "")
    }

    /// 2000 nested folders (a path of about 4000 bytes) are read, and 1200 nested folders with
    /// longer names, whose path passes PATH_MAX, are an error naming the system's reason (was:
    /// `folder holds no .csv recordings`, the deep file silently not seen).
    @Test func deepTreesAreReadOrNamed() throws {
        let folder = try TemporaryFolder()
        defer {
            // FileManager cannot remove a tree whose paths pass PATH_MAX.
            _ = try? runProcess("/bin/rm", ["-rf", folder.path])
        }
        let text = labelledShakeCSV(shakes: 1).text
        /// `depth` folders named `level` nested in `folder/name`, then x.csv in the deepest;
        /// made with descriptors (`mkdirat`, `openat`), as a path that long cannot be named
        /// and the working directory is the whole test process's.
        func nest(_ name: String, _ level: String, _ depth: Int) throws {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: false)
            var current = open(folder.file(name), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            try #require(current >= 0)
            for _ in 0..<depth {
                try #require(mkdirat(current, level, 0o755) == 0)
                let next = openat(current, level, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                close(current)
                try #require(next >= 0)
                current = next
            }
            let file = openat(current, "x.csv", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            close(current)
            try #require(file >= 0)
            let bytes = Array(text.utf8)
            #expect(write(file, bytes, bytes.count) == bytes.count)
            close(file)
        }
        try nest("shallow", "d", 2000)
        let read = runShake("evaluate", "--format", "json", folder.file("shallow"))
        #expect(read.status == 0, "\(read.err.prefix(300))")
        #expect(read.out.contains("/d/d/x.csv\""))

        try nest("deep", "dddd", 1200)
        let tooLong = runShake("evaluate", folder.file("deep"))
        #expect(tooLong.status == 66)
        #expect(tooLong.err.hasPrefix("Error: \(folder.file("deep"))/dddd/dddd/"))
        #expect(tooLong.err.hasSuffix(": folder cannot be read: File name too long (errno 36)\n"), "\(tooLong.err.suffix(200))")
    }
}
