import Foundation
import ShakeDetection
import ShakeIIO
import Synchronization
import Testing

/// The README's ShakeIIO snippet (under "Live input from IIO accelerometers"): run inside the
/// emulator by ``ShakeIIOLibraryTests/readmeLiveSnippetUndoesOncePerShake()``, and shown by the
/// README as it is here.
extension ShakeIIOInEmulator {
    /// The emulated device plays ``Fixture``'s two shakes once (then stalls): the snippet undoes
    /// once for each, and logs the connection first.
    static func runReadmeLiveSnippet() async throws {
        let undos = Mutex(0)
        let lines = Mutex<[String]>([])
        let daemon = Task {
            func undoLastAction() { undos.withLock { $0 += 1 } }
            func log(_ line: String) { lines.withLock { $0.append(line) } }
            // README live snippet begins
            let reader = ReconnectingAccelerometerReader(uri: "local:")   // the first accelerometer; "ip:HOST" through iiod
            var detector = ShakeDetector()                                  // or a tuned ShakeConfiguration
            for try await update in reader.updates() {                      // cancel the task to stop: the device is released
                switch update {
                case .sample(let sample):                                   // m/s², the mount matrix applied
                    if detector.process(sample)?.phase == .ended { undoLastAction() }
                case .event(.lost(_, let time?)):                           // the device vanished or stalled: retrying
                    if detector.interrupt(at: time) != nil { log("a shake was cut off") }
                case .event(let event):
                    log("\(event)")                                         // "connected to lis3dh at 100 Hz (buffered)"
                }
            }
            // README live snippet ends
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while undos.withLock({ $0 }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(300))  // time for a shake fired twice to show
        daemon.cancel()
        _ = await daemon.result
        #expect(undos.withLock { $0 } == 2)
        let first = lines.withLock { $0.first } ?? ""
        #expect(first.hasPrefix("connected to shakekit-accel at "), "\(first)")
    }

    @Test func readmeLiveSnippetUndoesOncePerShake() async throws {
        try await Self.runReadmeLiveSnippet()
    }
}

/// The README shows the snippet run above, not a copy kept by hand.
@Suite struct ReadmeLiveSnippetTextTests {
    @Test func readmeShowsTheLiveSnippetAsTested() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(source.firstIndex { $0.hasSuffix("// README live snippet begins") })
        let end = try #require(source.firstIndex { $0.hasSuffix("// README live snippet ends") })
        let body = source[(begin + 1)..<end].map { String($0.dropFirst(12)) }
        let snippet = (["```swift", "import ShakeDetection", "import ShakeIIO", ""] + body + ["```"]).joined(separator: "\n")
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(snippet), "README's ShakeIIO snippet differs from the code tested here")
    }
}
