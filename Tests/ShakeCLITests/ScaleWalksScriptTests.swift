import Foundation
import Testing
import ShakeDetection
import ShakeRecording

/// `Scripts/scale-walks --turns N --clips`, which makes `Scripts/dev-check`'s `clips` row: every
/// clip of a recording (up to and including the held stretch after it) turned by its own
/// rotation, the motion itself unchanged.
@Suite struct ScaleWalksScriptTests {
    static let clips = 3, motionRows = 50, heldRows = 20

    /// Three clips at 100 Hz, each 0.5 s of changing motion and then 0.2 s holding its last
    /// sample (as the gaps between the Wiimote sessions' spliced gestures do); the second clip's
    /// motion is labelled a shake.
    static func recording() -> String {
        var text = "time_s,x,y,z,shake\n"
        var row = 0
        for clip in 0..<clips {
            var last = ""
            for k in 0..<motionRows {
                let t = Double(k) / 100
                last = String(format: "%.5f,%.5f,%.5f", 3 * sin(7 * t + Double(clip)), 9.8 + 2 * cos(5 * t),
                              1.5 * sin(11 * t) + Double(clip))
                text += String(format: "%.2f,", Double(row) / 100) + last + (clip == 1 ? ",1\n" : ",0\n")
                row += 1
            }
            for _ in 0..<heldRows {
                text += String(format: "%.2f,", Double(row) / 100) + last + ",0\n"
                row += 1
            }
        }
        return text
    }

    static func rows(_ path: String) throws -> [LabeledSample] {
        var reader = try RecordingReader(path: path)
        var rows: [LabeledSample] = []
        while let row = try reader.next() { rows.append(row) }
        return rows
    }

    static func dot(_ a: Sample, _ b: Sample) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    @Test func everyClipIsTurnedRigidlyByItsOwnRotation() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(atPath: folder.file("source"), withIntermediateDirectories: true)
        let source = try folder.write("source/wclips.csv", Self.recording())
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.file("source"), folder.file("out"), "--pattern", "w*.csv", "--gain", "1", "--tempo", "1",
            "--turns", "2", "--clips"])
        #expect(run.status == 0, "\(run.err)")
        #expect(listing(folder.file("out")) == ["wclips_k1_t1_turn0.csv", "wclips_k1_t1_turn1.csv"])

        let original = try Self.rows(source)
        let clipRows = Self.motionRows + Self.heldRows
        try #require(original.count == Self.clips * clipRows)
        var turnedSamples: [[Sample]] = []
        for name in listing(folder.file("out")) {
            let turned = try Self.rows(folder.file("out/" + name))
            try #require(turned.count == original.count, "\(name)")
            #expect(zip(turned, original).allSatisfy { abs($0.sample.time - $1.sample.time) < 1e-6 }, "\(name): times")
            #expect(turned.map(\.isShake) == original.map(\.isShake), "\(name): labels")
            for clip in 0..<Self.clips {
                let range = clip * clipRows..<(clip + 1) * clipRows
                let first = range.lowerBound
                // A rotation keeps every inner product: with the clip's first sample, and so lengths too.
                let kept = range.allSatisfy { k in
                    abs(Self.dot(turned[k].sample, turned[first].sample)
                        - Self.dot(original[k].sample, original[first].sample)) < 1e-3
                        && abs(Self.dot(turned[k].sample, turned[k].sample)
                               - Self.dot(original[k].sample, original[k].sample)) < 1e-3
                }
                #expect(kept, "\(name), clip \(clip): not one rotation")
                let moved = abs(turned[first].sample.x - original[first].sample.x)
                    + abs(turned[first].sample.y - original[first].sample.y)
                    + abs(turned[first].sample.z - original[first].sample.z)
                #expect(moved > 0.1, "\(name), clip \(clip): not turned")
            }
            // Across a clip boundary the inner product changes: each clip has a rotation of its own.
            for boundary in 1..<Self.clips {
                let k = boundary * clipRows
                let before = Self.dot(original[k - 1].sample, original[k].sample)
                let after = Self.dot(turned[k - 1].sample, turned[k].sample)
                #expect(abs(after - before) > 0.1, "\(name): clips \(boundary - 1) and \(boundary) turned alike")
            }
            turnedSamples.append(turned.map(\.sample))
        }
        #expect(turnedSamples.count == 2 && turnedSamples[0] != turnedSamples[1], "the two variants differ")
    }

    @Test func clipsWithoutTurnsIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let run = try runProcess(repositoryRoot + "/Scripts/scale-walks", [
            folder.path, folder.file("out"), "--clips"])
        #expect(run.status == 2)
        #expect(run.err.contains("--clips needs --turns"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    }
}
