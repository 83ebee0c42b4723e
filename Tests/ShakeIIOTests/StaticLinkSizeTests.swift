import Foundation
import Testing
@testable import ShakeIIO

/// A device's software links ShakeKit's modules with `--static-swift-stdlib`. Full Foundation in
/// any of them brings ICU's data along: the `shake` tool measured 61.1 MB stripped with Foundation,
/// 34 MB of it the `icudt` table. Building such a program takes minutes, so this checks the cause:
/// no source file of a shipped module imports Foundation or one of its ICU-backed parts
/// (FoundationEssentials, Dispatch, Synchronization and Glibc are small).
@Suite struct StaticLinkSizeTests {
    /// The modules that ship and are free of Foundation, with the fewest Swift files each holds
    /// (a folder renamed or emptied would pass unseen).
    static let modules: [(name: String, minimumFiles: Int)] = [
        ("ShakeDetection", 10), ("ShakeThreads", 2), ("ShakeIIO", 10), ("ShakeUndo", 10), ("ShakeRecording", 30), ("ShakeCLI", 20),
        ("shake", 1),
    ]

    /// The modules whose import puts ICU into a static program.
    static let icuModules: Set<String> = [
        "Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "_FoundationICU",
    ]

    /// The module an import line imports (`Foundation` for `@preconcurrency public import
    /// struct Foundation.Date`), or nil for any other line.
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let word = words.first, word.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(word) {
            words.removeFirst()
        }
        guard words.first == "import" else { return nil }
        words.removeFirst()
        if let kind = words.first, ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"].contains(kind) {
            words.removeFirst()
        }
        return words.first.map { String($0.split(separator: ".")[0]) }
    }

    @Test(arguments: modules.map(\.name))
    func moduleDoesNotImportFoundation(module: String) throws {
        let folder = Emulator.repositoryRoot.appendingPathComponent("Sources/\(module)").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        let minimum = Self.modules.first { $0.name == module }?.minimumFiles ?? 1
        #expect(files.count >= minimum, "\(files)")
        for file in files.sorted() {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let imports = text.split(separator: "\n").filter { Self.importedModule($0).map(Self.icuModules.contains) ?? false }
            #expect(imports.isEmpty, "Sources/\(module)/\(file): \(imports); this puts ICU's 34 MB into every static program using \(module)")
        }
    }

    @Test func importLinesAreRead() {
        #expect(Self.importedModule("import Foundation") == "Foundation")
        #expect(Self.importedModule("  @preconcurrency public import Foundation") == "Foundation")
        #expect(Self.importedModule("@_exported import FoundationInternationalization") == "FoundationInternationalization")
        #expect(Self.importedModule("import struct Foundation.Date") == "Foundation")
        #expect(Self.importedModule("import FoundationEssentials") == "FoundationEssentials")
        #expect(Self.importedModule("// import Foundation") == nil)
        #expect(Self.importedModule("let important = 1") == nil)
    }

    /// The reconnection log's times keep three decimals, as `%.3f` gave them.
    @Test(arguments: [(12.34, "12.340"), (0, "0.000"), (0.0004, "0.000"), (1.9996, "2.000"), (-3.5, "-3.500"),
                      (123456.789, "123456.789")])
    func lostTimesHaveThreeDecimals(seconds: Double, text: String) {
        #expect(ReconnectingAccelerometerReader.Event.milliseconds(seconds) == text)
    }
}
