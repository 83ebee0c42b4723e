import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// `ConfigurationFile.save` and `PlotFile.write` as a library user meets them when writing fails:
/// the message names the path and says why in plain words, the file already there is kept, and no
/// temporary file is left behind.
@Suite struct WholeFileWriteTests {
    /// One of the two library calls that write a file whole, and the text it writes.
    struct Writer: CustomTestStringConvertible, Sendable {
        var name: String
        var write: @Sendable (_ path: String, _ overwrite: Bool) throws -> Void
        /// Whether a file holds what this writer writes.
        var wrote: @Sendable (_ text: String) -> Bool
        var testDescription: String { name }
    }

    static let writers: [Writer] = [
        Writer(
            name: "ConfigurationFile.save",
            write: { path, overwrite in try ConfigurationFile.save(.hard, to: path, overwrite: overwrite) },
            wrote: { text in
                (try? ConfigurationFile.decode(Data(text.utf8), path: "written.json")) == ShakeConfiguration.hard
            }),
        Writer(
            name: "PlotFile.write",
            write: { path, overwrite in try PlotFile.write("<svg>plot</svg>\n", to: path, overwrite: overwrite) },
            wrote: { text in text == "<svg>plot</svg>\n" }),
    ]

    /// The message after `PATH: ` of what `body` throws.
    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ConfigurationFileError {
            return error.message
        } catch let error as PlotFileError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    private func names(in dir: CSVTestDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    @Test(arguments: writers)
    func aMissingFolderIsNamed(writer: Writer) {
        let dir = CSVTestDirectory()
        let said = message { try writer.write(dir.file("nodir/out"), false) }
        #expect(said == "cannot be written: the folder '\(dir.file("nodir"))' does not exist")
        #expect(names(in: dir).isEmpty)
    }

    /// A path through a file (`notes.txt/out`) names that file as not a folder, rather than
    /// the system's "Not a directory" about a temporary name the user never gave.
    @Test(arguments: writers)
    func aFileWhereTheFolderShouldBeIsNamed(writer: Writer) {
        let dir = CSVTestDirectory()
        let file = dir.write("notes.txt", "the user's notes\n")
        let said = message { try writer.write(file + "/out", false) }
        #expect(said == "cannot be written: '\(file)' is not a folder")
        #expect(names(in: dir) == ["notes.txt"])
        #expect(dir.text("notes.txt") == "the user's notes\n")
    }

    @Test(arguments: writers)
    func aFolderInTheWayIsNotAFile(writer: Writer) throws {
        let dir = CSVTestDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("out"), withIntermediateDirectories: false)
        for overwrite in [false, true] {
            #expect(message { try writer.write(dir.file("out"), overwrite) } == "is a directory; give a file name")
        }
        #expect(names(in: dir) == ["out"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("out")).isEmpty)
    }

    @Test(arguments: writers)
    func anExistingFileIsKeptUnlessReplacingIsAllowed(writer: Writer) {
        let dir = CSVTestDirectory()
        let path = dir.write("out", "the user's own file\n")
        #expect(message { try writer.write(path, false) } == "already exists (pass overwrite: true to replace it)")
        #expect(dir.text("out") == "the user's own file\n")
        #expect(message { try writer.write(path, true) } == nil)
        #expect(dir.text("out").map(writer.wrote) == true)
        #expect(names(in: dir) == ["out"])
    }

    @Test(arguments: writers)
    func aNewFileGetsTheModeOfAnyNewFile(writer: Writer) throws {
        let dir = CSVTestDirectory()
        #expect(message { try writer.write(dir.file("out"), false) } == nil)
        #expect(dir.text("out").map(writer.wrote) == true)
        _ = dir.write("plain", "")
        let mode = { (name: String) in
            try (FileManager.default.attributesOfItem(atPath: dir.file(name))[.posixPermissions] as? Int)
        }
        // Not the 0600 of a temporary file: readable as the umask allows, like any file created.
        #expect(try mode("out") == mode("plain"))
        #expect(names(in: dir) == ["out", "plain"])
    }

    @Test(arguments: writers)
    func aReadOnlyPlaceSaysWhy(writer: Writer) throws {
        // /proc refuses new files for everyone, root included.
        let said = message { try writer.write("/proc/shakekit-cannot-write-here", false) }
        let text = try #require(said)
        #expect(text.hasPrefix("cannot be written: "))
        #expect(text.contains("(errno "))
        #expect(!text.contains("could not be completed"))
    }

    /// A named pipe or a symbolic link (to a file, or leading nowhere) at the path, with
    /// `overwrite: true`: refused, and left as it was. The file is moved into place when
    /// written, which replaces the name: a link became a regular file (its target unchanged),
    /// and as root `/dev/stdout` stopped being a link. `RecordingWriter` refuses the same.
    @Test(arguments: ["pipe", "link", "dangling"])
    func aPipeOrALinkIsNotReplaced(kind: String) throws {
        let dir = CSVTestDirectory()
        let target = dir.write("target.txt", "the user's file\n")
        let path = dir.file("out")
        let expected: String
        switch kind {
        case "pipe":
            try #require(mkfifo(path, 0o600) == 0)
            expected = "is a named pipe, not a regular file: the output is written to a new file and moved into place when done, which would replace it; give a file name"
        default:
            let to = kind == "link" ? target : dir.file("nowhere")
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: to)
            expected = "is a symbolic link to '\(to)': the output is written to a new file and moved into place when done, which would replace the link, not the file it leads to; give the file's own name"
        }
        var before = stat()
        try #require(lstat(path, &before) == 0)
        for writer in Self.writers {
            #expect(message { try writer.write(path, true) } == expected, "\(writer.name)")
        }
        #expect(throws: RecordingError(path: path, kind: .invalidArgument, message: expected)) {
            _ = try RecordingWriter(path: path, labelled: false, overwrite: true)
        }
        var after = stat()
        #expect(lstat(path, &after) == 0)
        #expect(after.st_mode == before.st_mode && after.st_ino == before.st_ino)
        #expect(names(in: dir) == ["out", "target.txt"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "the user's file\n")
    }
}
