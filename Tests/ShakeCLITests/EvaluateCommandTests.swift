import Foundation
import Testing
import ShakeCLI

@Suite struct EvaluateCommandTests {
    @Test func jsonTotalHasExactlyTheDocumentedKeys() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = labelledShakeCSV(shakes: 3)
        let path = try folder.write("three.csv", recording.text)
        let run = runShake("evaluate", "--format", "json", path)
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let total = try #require(object["total"] as? [String: Any])
        #expect(Set(total.keys) == [
            "shakes", "detected", "recall", "duplicates", "false_shakes", "negative_hours",
            "false_per_hour", "precision", "f1", "latency_median_s", "latency_p95_s",
        ])
        #expect(total["shakes"] as? Int == 3)
        #expect(total["detected"] as? Int == 3)
        #expect(total["duplicates"] as? Int == 0)
        #expect(total["false_shakes"] as? Int == 0)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(files.first?["file"] as? String == path)
    }

    @Test func folderIsSearchedForRecordingsAndTotalled() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        _ = try folder.write("a.csv", labelledShakeCSV(shakes: 1).text)
        _ = try folder.write("b.csv", labelledShakeCSV(shakes: 2).text)
        _ = try folder.write("notes.txt", "not a recording")
        let run = runShake("evaluate", folder.path)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(folder.path + "/a.csv") })
        #expect(lines.contains { $0.hasPrefix(folder.path + "/b.csv") })
        #expect(!run.out.contains("notes.txt"))
        let total = try #require(lines.last)
        #expect(total.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["TOTAL", "3", "3"])
    }

    @Test func unlabelledRecordingIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("plain.csv", "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n")
        let run = runShake("evaluate", path)
        #expect(run.status == 65)
        #expect(run.err.contains("\(path): no 'shake' column"))
    }

    @Test func missingPathExits66() {
        let run = runShake("evaluate", "/nonexistent/recordings")
        #expect(run.status == 66)
        #expect(run.err == "Error: /nonexistent/recordings: no such file or folder\n")
    }
}

@Suite struct ReplayCommandTests {
    @Test func replayListsEachShakeOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = labelledShakeCSV(shakes: 2)
        let path = try folder.write("two.csv", recording.text)
        let run = runShake("replay", "--format", "json", path)
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let file = try #require((object["files"] as? [[String: Any]])?.first)
        #expect(file["shakes"] as? Int == 2)
        let events = try #require(file["events"] as? [[String: Any]])
        #expect(events.map { $0["phase"] as? String } == ["began", "ended", "began", "ended"])
        let began = events.filter { $0["phase"] as? String == "began" }.compactMap { $0["time_s"] as? Double }
        for (time, start) in zip(began, recording.runStarts) {
            #expect(time > start && time < start + 1.0, "began \(time) for a shake starting at \(start)")
        }
        for event in events { #expect(event["axis"] as? String == "x") }
    }

    @Test func textOutputNamesFileAndCount() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("one.csv", labelledShakeCSV(shakes: 1).text)
        let run = runShake("replay", path)
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("\(path): 1 shake in "))
        #expect(run.out.contains(" began "))
        #expect(run.out.contains(" ended "))
    }
}
