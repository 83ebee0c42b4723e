import Foundation
import Testing
@testable import ShakeIIO

/// A device's software links ShakeDetection, ShakeIIO and ShakeUndo with `--static-swift-stdlib`.
/// Full Foundation in any of them brings ICU's data along: the program measured 58.5 MB
/// stripped with ShakeIIO importing Foundation (for `Thread` and `String(format:)` alone), 34 MB
/// of it the `icudt` table. Building such a program takes minutes, so this checks the cause:
/// no source file of ShakeIIO imports Foundation (Dispatch, Synchronization and Glibc are small).
@Suite struct StaticLinkSizeTests {
    static let sources = Emulator.repositoryRoot.appendingPathComponent("Sources/ShakeIIO")

    @Test func shakeIIODoesNotImportFoundation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "\(files)")
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                $0.hasPrefix("import Foundation") || $0.hasPrefix("@_exported import Foundation")
                    || $0.hasPrefix("import FoundationInternationalization")
            }
            #expect(imports.isEmpty, "Sources/ShakeIIO/\(file): \(imports); this puts ICU's 34 MB into every static program using ShakeIIO")
        }
    }

    /// ShakeIIO's threads are its own (pthreads): named for the system as before.
    @Test func namedThreadRunsItsBodyUnderItsName() async {
        let name = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            NamedThread.start("shake.test-name-kept-to-15") {
                var buffer = [UInt8](repeating: 0, count: 64)
                let fd = open("/proc/thread-self/comm", O_RDONLY)
                let count = fd >= 0 ? read(fd, &buffer, buffer.count) : 0
                if fd >= 0 { close(fd) }
                continuation.resume(returning: String(decoding: buffer.prefix(max(0, count)), as: UTF8.self))
            }
        }
        #expect(name == "shake.test-name\n")
    }

    /// The reconnection log's times keep three decimals, as `%.3f` gave them.
    @Test(arguments: [(12.34, "12.340"), (0, "0.000"), (0.0004, "0.000"), (1.9996, "2.000"), (-3.5, "-3.500"),
                      (123456.789, "123456.789")])
    func lostTimesHaveThreeDecimals(seconds: Double, text: String) {
        #expect(ReconnectingAccelerometerReader.Event.milliseconds(seconds) == text)
    }
}
