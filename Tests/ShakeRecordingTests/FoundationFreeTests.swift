import Foundation
import Testing

/// A device's software may link ShakeRecording with `--static-swift-stdlib` (to write recordings,
/// say). Full Foundation in it brings ICU's data along (about 34 MB of a 60 MB program); building
/// such a program takes minutes, so this checks the cause: no source file of ShakeRecording imports
/// Foundation (FoundationEssentials, Dispatch, Synchronization and Glibc are small).
@Suite struct FoundationFreeTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ShakeRecording")

    @Test func shakeRecordingDoesNotImportFoundation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 30, "\(files)")
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                $0.hasPrefix("import Foundation") && !$0.hasPrefix("import FoundationEssentials")
                    || $0.hasPrefix("@_exported import Foundation") || $0.contains("import FoundationInternationalization")
            }
            #expect(imports.isEmpty, "Sources/ShakeRecording/\(file): \(imports); this puts ICU's 34 MB into every static program using ShakeRecording")
        }
    }
}
