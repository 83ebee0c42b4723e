import Foundation
import ShakeDetection
import Testing

/// The README's first detector snippet (under "Linking the library"), checked: it must compile,
/// fire `began` and `ended` once for one shake, and the README must show the code run here.
@Suite struct ReadmeDetectorSnippetTests {
    /// 100 Hz: 1 s lying still, a firm 3 Hz shake of ±25 m/s² along x for 1.5 s (a triangle
    /// wave), then 2.5 s still. Gravity on z.
    static let samples: [Sample] = (0..<500).map { index in
        let time = Double(index) / 100
        var x = 0.0
        if time >= 1, time < 2.5 {
            let phase = (time - 1) * 3 - ((time - 1) * 3).rounded(.down)
            x = 25 * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase)
        }
        return Sample(time: time, x: x, y: 0, z: 9.80665)
    }

    /// The snippet over the whole stream, and over a stream that stops in the middle of the
    /// shake: the first fires `began` and `ended` once; the second `began`, and its end of stream
    /// cancels it (no undo).
    @Test func readmeSnippetFiresOnceForOneShake() throws {
        func run(_ samples: [Sample]) -> (prepared: Int, undone: Int, cancelled: Int) {
            var prepared = 0
            var undone = 0
            var cancelled = 0
            func prepareFeedback() { prepared += 1 }
            func undoLastAction() { undone += 1 }
            func cancelFeedback() { cancelled += 1 }
            // README snippet begins
            var detector = ShakeDetector(configuration: .medium)      // or .light, .hard, or ShakeRecording's ConfigurationFile.load(path:)
            for sample in samples {                                    // Sample(time: s, x:, y:, z: m/s² with gravity)
                guard let event = detector.process(sample) else { continue }
                switch event.phase {
                case .began: prepareFeedback()                         // recognised: get ready
                case .ended: undoLastAction()                          // one physical shake, exactly once
                case .cancelled: cancelFeedback()                      // event.cancellationReason: .gap, .tooLong, .timeWentBackwards
                }
            }
            if detector.interrupt(at: samples.last?.time ?? 0) != nil {   // the stream ends: a shake in progress is cancelled
                cancelFeedback()
            }
            // README snippet ends
            return (prepared, undone, cancelled)
        }
        let whole = run(Self.samples)
        #expect(whole.prepared == 1 && whole.undone == 1 && whole.cancelled == 0, "\(whole)")
        let cut = run(Array(Self.samples.prefix(200)))  // stops at 2.0 s, in the middle of the shake
        #expect(cut.prepared == 1 && cut.undone == 0 && cut.cancelled == 1, "\(cut)")
        // The README must show the code run above, not a copy kept by hand: the lines between
        // the markers, indented as the README's block is (by 12 less), after `import ShakeDetection`.
        let source = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(source.firstIndex { $0.hasSuffix("// README snippet begins") })
        let end = try #require(source.firstIndex { $0.hasSuffix("// README snippet ends") })
        let body = source[(begin + 1)..<end].map { String($0.dropFirst(12)) }
        let snippet = (["```swift", "import ShakeDetection", ""] + body + ["```"]).joined(separator: "\n")
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(snippet), "README's detector snippet differs from the code tested here")
    }
}
