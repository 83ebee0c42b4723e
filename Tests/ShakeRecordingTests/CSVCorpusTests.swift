import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// `<repo>/../shared/data`, where the corpus lives beside the repository (also in CI).
func csvSharedDataFolder(filePath: String = #filePath) -> String {
    var url = URL(fileURLWithPath: filePath)
    for _ in 0 ..< 3 { url.deleteLastPathComponent() }  // …/Tests/ShakeRecordingTests/X.swift → repo
    return url.deletingLastPathComponent().appendingPathComponent("shared/data").path
}

@Suite struct CSVCorpusTests {
    static var devFiles: [String] {
        let folder = csvSharedDataFolder() + "/dev"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().map { folder + "/" + $0 }
    }

    @Test func theDevCorpusIsThere() {
        #expect(Self.devFiles.count == 17, "expected the 17 dev recordings in \(csvSharedDataFolder())/dev")
    }

    @Test(arguments: devFiles)
    func everyCorpusFileLoadsWithOneSamplePerDataLine(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let comments = lines.count(where: { $0.hasPrefix("#") })
        let expectedRows = lines.count - comments - 1  // minus the header
        var reader = try RecordingReader(path: path)
        var rows = 0
        var labelled = 0
        var previous = -Double.infinity
        while let row = try reader.next() {
            rows += 1
            if row.isShake == true { labelled += 1 }
            #expect(row.sample.time > previous)
            previous = row.sample.time
        }
        #expect(rows == expectedRows)
        #expect(reader.hasLabels)
        #expect(reader.metadata.contains { $0.key == "source" })
        #expect(reader.duplicateTimestampCount == 0, "the corpus README promises strictly increasing time")
        if path.contains("oxford") { #expect(labelled == 0) } else { #expect(labelled > 0) }
    }
}
