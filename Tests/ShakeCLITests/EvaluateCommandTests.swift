import Foundation
import Testing
import ShakeCLI
import ShakeDetection
import ShakeRecording

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

    /// A saved JSON report says which detector made it: the whole configuration, as --config
    /// reads it (a file's, or a preset's), or the seismic rule's threshold; replay's too.
    @Test(arguments: ["evaluate", "replay"])
    func jsonSaysWhichDetectorMadeIt(command: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("three.csv", labelledShakeCSV(shakes: 3).text)
        let config = try folder.write("c.json", "{\"onsetAcceleration\": 12, \"releaseAcceleration\": 6}\n")
        func report(_ options: [String]) throws -> [String: Any] {
            let run = runShake([command, "--format", "json", path] + options)
            #expect(run.status == 0, "\(run.err)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        }
        for (options, expected) in [(["--config", config], try ConfigurationFile.load(path: config)),
                                    (["--preset", "hard"], ShakeConfiguration.hard)] {
            let object = try report(options)
            #expect(object["detector"] as? String == "shakekit")
            let saved = try folder.write("saved.json", String(decoding: try JSONSerialization.data(
                withJSONObject: try #require(object["configuration"])), as: UTF8.self))
            #expect(try ConfigurationFile.load(path: saved) == expected, "\(options)")
        }
        let seismic = try report(["--detector", "seismic", "--preset", "light"])
        #expect(seismic["detector"] as? String == "seismic" && seismic["configuration"] == nil)
        #expect(seismic["seismic_threshold_m_s2"] as? Double == SeismicDetector.lightThreshold)
        // Without --preset, the medium preset's threshold, as for ShakeKit's detector.
        let seismicDefault = try report(["--detector", "seismic"])
        #expect(seismicDefault["seismic_threshold_m_s2"] as? Double == SeismicDetector.mediumThreshold)
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
        // The table ends with the total; under it, the total's confidence intervals.
        #expect(lines.count >= 2)
        let total = lines[lines.count - 2]
        #expect(total.split(separator: " ", omittingEmptySubsequences: true).prefix(3) == ["TOTAL", "3", "3"])
        #expect(lines.last?.hasPrefix("TOTAL, 95 % confidence: recall ") == true)
    }

    /// Under the table, and in JSON as `total_interval_95`, the total's 95 % intervals: Wilson
    /// for recall, exact Poisson for false shakes per hour. Three shakes, all found, one false
    /// shake: recall 0.439 to 1 (Newcombe's formula), the false-shake count 0.0253 to 5.57.
    @Test func totalConfidenceIntervalsAreShownInTextAndJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = labelledShakeCSV(shakes: 4)
        // The last shake labelled 0: its detection is a false shake.
        let lastShake = recording.runStarts[3]..<(recording.runStarts[3] + 1.5)
        let path = try folder.write("four.csv", Self.relabelled(recording.text) { lastShake.contains($0) ? 0 : nil })

        let json = runShake("evaluate", "--format", "json", path)
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let total = try #require(object["total"] as? [String: Any])
        #expect(total["shakes"] as? Int == 3)
        #expect(total["detected"] as? Int == 3)
        #expect(total["false_shakes"] as? Int == 1)
        let hours = try #require(total["negative_hours"] as? Double)
        let interval = try #require(object["total_interval_95"] as? [String: Any])
        #expect(Set(interval.keys) == ["recall", "false_per_hour"])
        let recall = try #require(interval["recall"] as? [Double])
        #expect(recall.count == 2)
        #expect(abs(recall[0] - 0.4385) < 1e-4 && recall.last == 1, "\(recall)")
        let rate = try #require(interval["false_per_hour"] as? [Double])
        #expect(rate.count == 2)
        #expect(abs(rate[0] - 0.0253 / hours) < 0.001 * max(1, 0.0253 / hours), "\(rate)")
        #expect(abs(rate.last! - 5.5716 / hours) < 0.001 * 5.5716 / hours, "\(rate)")

        let text = runShake("evaluate", path)
        #expect(text.status == 0, "\(text.err)")
        let line = try #require(text.out.split(separator: "\n").last)
        #expect(line.hasPrefix("TOTAL, 95 % confidence: recall 0.439 to 1.000 (3 of 3 shakes, Wilson score); false/h "))
        #expect(line.hasSuffix(" (1 in \(String(format: "%.3f", hours)) h, exact Poisson)"))
    }

    /// Without labelled shakes there is no recall, so only the false-shake interval is shown;
    /// in JSON recall's interval is null, as the recall itself is.
    @Test func recallIntervalIsLeftOutWithoutLabelledShakes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let still = (0..<500).map { "\(Double($0) / 100),0,0,9.81,0" }.joined(separator: "\n")
        let path = try folder.write("still.csv", "time_s,x,y,z,shake\n" + still + "\n")
        let text = runShake("evaluate", path)
        #expect(text.status == 0, "\(text.err)")
        let line = try #require(text.out.split(separator: "\n").last)
        #expect(line.hasPrefix("TOTAL, 95 % confidence: false/h 0.0 to "), "\(line)")
        #expect(!line.contains("recall"))
        let json = runShake("evaluate", "--format", "json", path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let interval = try #require(object["total_interval_95"] as? [String: Any])
        #expect(interval["recall"] is NSNull)
        #expect((interval["false_per_hour"] as? [Double])?.first == 0)
    }

    @Test func unlabelledRecordingIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("plain.csv", "time_s,x,y,z\n0,0,0,9.8\n0.01,0,0,9.8\n")
        let run = runShake("evaluate", path)
        #expect(run.status == 65)
        #expect(run.err.contains("\(path): no 'shake' column"))
    }

    /// A labelled header with no rows has nothing to score: it says so (as tune does), not that
    /// the file has no labels; also in a folder with good recordings.
    @Test(arguments: ["time_s,x,y,z,shake\n", "# source: test\ntime_s,x,y,z,shake\n\n"])
    func labelledHeaderWithoutSamplesSaysSo(text: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("h.csv", text)
        let run = runShake("evaluate", path)
        #expect(run.status == 65)
        #expect(run.out.isEmpty)
        #expect(run.err == "Error: \(path): no samples\n")
        _ = try folder.write("good.csv", labelledShakeCSV(shakes: 1).text)
        let inFolder = runShake("evaluate", folder.path)
        #expect(inFolder.status == 65)
        #expect(inFolder.err == "Error: \(path): no samples\n")
    }

    /// `--list` names the missed shake and the false shake behind the counts, in text and JSON;
    /// without it the JSON per file is as before. The recording: a labelled stretch of rest
    /// (0.5-1.49 s: a shake no detector can find), a real shake labelled 0 (its detection is a
    /// false shake) and a real shake labelled 1.
    @Test func listNamesMissedAndFalseShakes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = labelledShakeCSV(shakes: 2)
        let firstShake = recording.runStarts[0]..<(recording.runStarts[0] + 1.5)
        let path = try folder.write("relabelled.csv", Self.relabelled(recording.text) { time in
            if time >= 0.495 && time < 1.495 { return 1 }
            return firstShake.contains(time) ? 0 : nil
        })

        let text = runShake("evaluate", "--list", path)
        #expect(text.status == 0, "\(text.err)")
        // The listing follows the table after a blank line.
        let listing = try #require(text.out.components(separatedBy: "\n\n").last)
        let listed = listing.split(separator: "\n").filter { $0.hasPrefix(path + "  ") }
        #expect(listed.count == 2, "\(text.out)")
        #expect(listed.first?.hasSuffix("missed shake  labelled 0.500 to 1.490 s: no half-wave: largest |l| 0.0 m/s², "
                                        + "under the onset (onsetAcceleration 10.0 m/s²)") == true, "\(listed)")
        let falseLine = try #require(listed.last)
        #expect(falseLine.contains("false shake   began at "), "\(falseLine)")
        let began = try #require(Self.beganTime(falseLine))
        // With what the rules measured as it began.
        #expect(falseLine.contains(" s: on 4 linked half-waves from "), "\(falseLine)")
        #expect(falseLine.contains("(maximumLinearity 0.50)") && falseLine.contains("(maximumIntervalRatio 4.0)"))
        #expect(began > firstShake.lowerBound && began < firstShake.lowerBound + 1, "\(falseLine)")

        let json = runShake("evaluate", "--list", "--format", "json", path)
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let file = try #require((object["files"] as? [[String: Any]])?.first)
        let missed = try #require(file["missed"] as? [[String: Any]])
        #expect(missed.count == 1)
        #expect(missed.first?["start_s"] as? Double == 0.5 && missed.first?["end_s"] as? Double == 1.49)
        #expect(missed.first?["largest_l_m_s2"] as? Double == 0)
        #expect((missed.first?["why"] as? String)?.hasPrefix("no half-wave: ") == true, "\(missed)")
        let falseTimes = try #require(file["false_shake_times_s"] as? [Double])
        #expect(falseTimes.count == 1 && abs(falseTimes[0] - began) < 0.0005, "\(falseTimes) against \(began)")
        #expect(file["duplicate_times_s"] as? [Double] == [])
        let falseWhy = try #require(file["false_shake_why"] as? [String])
        #expect(falseWhy.count == 1 && falseWhy[0].hasPrefix("on 4 linked half-waves from "), "\(falseWhy)")
        #expect(file["duplicate_why"] as? [String] == [])
        #expect(file["false_shakes"] as? Int == 1)

        let plain = runShake("evaluate", "--format", "json", path)
        let plainFile = try #require(
            ((try JSONSerialization.jsonObject(with: Data(plain.out.utf8)) as? [String: Any])?["files"]
                as? [[String: Any]])?.first)
        #expect(plainFile["missed"] == nil && plainFile["false_shake_times_s"] == nil)

        // The Seismic baseline has no half-waves: its missed shakes carry no why.
        let seismic = runShake("evaluate", "--list", "--format", "json", "--detector", "seismic", path)
        #expect(seismic.status == 0, "\(seismic.err)")
        let seismicFile = try #require(
            ((try JSONSerialization.jsonObject(with: Data(seismic.out.utf8)) as? [String: Any])?["files"]
                as? [[String: Any]])?.first)
        let seismicMissed = try #require(seismicFile["missed"] as? [[String: Double]])
        #expect(seismicMissed == [["start_s": 0.5, "end_s": 1.49]])
        #expect(seismicFile["false_shake_why"] == nil && seismicFile["duplicate_why"] == nil)
    }

    /// `--list` goes file by file in the order given, each by time: a later file's earlier
    /// miss comes after the first file's.
    @Test func listFollowsTheFilesInTheOrderGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let rest = labelledShakeCSV(shakes: 0).text
        let late = try folder.write("late.csv", Self.relabelled(rest) { $0 >= 1.995 && $0 < 2.495 ? 1 : nil })
        let soon = try folder.write("soon.csv", Self.relabelled(rest) { $0 >= 0.495 && $0 < 0.995 ? 1 : nil })
        let run = runShake("evaluate", "--list", late, soon)
        #expect(run.status == 0, "\(run.err)")
        let listed = run.out.split(separator: "\n").filter { $0.contains("missed shake") }
        #expect(listed.count == 2, "\(run.out)")
        #expect(listed.first?.hasPrefix(late + "  missed shake  labelled 2.000 to 2.490 s") == true, "\(listed)")
        #expect(listed.last?.hasPrefix(soon + "  missed shake  labelled 0.500 to 0.990 s") == true, "\(listed)")
    }

    /// `text` (a labelled CSV whose rows end in a one-digit label) with the label of each row
    /// whose time `label` maps to a value replaced by that value.
    static func relabelled(_ text: String, _ label: (Double) -> Int?) -> String {
        text.split(separator: "\n").map { line -> String in
            guard let time = Double(line.prefix { $0 != "," }), let value = label(time) else { return String(line) }
            return line.dropLast() + String(value)
        }.joined(separator: "\n") + "\n"
    }

    /// The time in a `--list` line's "began at T s".
    static func beganTime<S: StringProtocol>(_ line: S) -> Double? {
        line.components(separatedBy: "began at ").dropFirst().first?.split(separator: " ").first.flatMap { Double($0) }
    }

    /// A labelled CSV at 100 Hz, gravity on z: a 3 g shake of `hertz` along x during `shake` (s),
    /// labelled 1 where `label(t)` holds.
    static func labelledCSV(seconds: Double, hertz: Double, shake: Range<Double>, label: (Double) -> Bool) -> String {
        var text = "time_s,x,y,z,shake\n"
        for i in 0..<Int(seconds * 100) {
            let t = Double(i) / 100
            let x = shake.contains(t) ? 3 * 9.80665 * sin(2 * .pi * hertz * (t - shake.lowerBound)) : 0
            text += String(format: "%.6f,%.5f,0.10000,9.80665,%d\n", t, x, label(t) ? 1 : 0)
        }
        return text
    }

    /// A shake whose label covers only its first 0.1 s: the 2 Hz shake begins after the label's
    /// window (end + 0.5 s), and `--list` says so, with the time it began.
    @Test func listSaysWhenAShakeBeganOutsideTheWindow() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("late.csv", Self.labelledCSV(seconds: 6, hertz: 2, shake: 2..<4) { $0 >= 2 && $0 < 2.1 })
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        #expect(line.contains("labelled 2.000 to 2.090 s: a shake began at "), "\(line)")
        #expect(line.hasSuffix(", outside the window (1.500 to 2.590 s)"), "\(line)")
        let falseLine = try #require(run.out.split(separator: "\n").first { $0.contains("false shake") })
        let began = try #require(Self.beganTime(falseLine))
        #expect(line.contains("a shake began at \(String(format: "%.3f", began)) s"), "\(line) / \(falseLine)")
    }

    /// One shake labelled as two, 0.3 s apart: its detection lies in both windows and goes to
    /// the first; `--list` says the second's shake was counted for the earlier one.
    @Test func listSaysWhenTheDetectionWentToAnEarlierShake() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("split.csv", Self.labelledCSV(seconds: 5, hertz: 4, shake: 2..<3.5) {
            ($0 >= 2 && $0 < 2.3) || ($0 >= 2.6 && $0 < 3.5)
        })
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        #expect(line.contains("labelled 2.600 to 3.490 s: a shake began at 2."), "\(line)")
        #expect(line.hasSuffix(" s and was counted for an earlier labelled shake"), "\(line)")
    }

    /// `samples` rows at 100 Hz, labelled a shake from 2 s to `labelledUntil`: still but for a
    /// burst of three half-waves (4 Hz, 3 g along x, 0.375 s) at each time of `starts`.
    static func bursts(at starts: [Double], samples: Int, labelledUntil: Double) -> String {
        var text = "time_s,x,y,z,shake\n"
        for i in 0..<samples {
            let t = Double(i) / 100
            let burst = starts.first { t >= $0 && t < $0 + 0.375 }
            let x = burst.map { 3 * 9.80665 * sin(2 * .pi * 4 * (t - $0)) } ?? 0
            text += String(format: "%.6f,%.5f,0.10000,9.80665,%d\n", t, x, t >= 2 && t < labelledUntil ? 1 : 0)
        }
        return text
    }

    /// A labelled shake whose strokes formed two chains (three half-waves of a 4 Hz, 3 g shake,
    /// a pause, three more, the first of them peaking 0.45 s after the last): `--list` names
    /// the closest chain and the other too, each with how it ended; the first chain's break is
    /// what to look at (a link missed by 0.1 s).
    @Test func listNamesEveryChainOfAMissedShake() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("two-chains.csv", Self.bursts(at: [2.0, 2.7], samples: 500, labelledUntil: 3.075))
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        let parts = line.components(separatedBy: "; also at ")
        #expect(parts.count == 2, "\(line)")
        #expect(parts.first?.contains(": at 2.0") == true, "\(line)")
        #expect(parts.first?.contains("3 linked half-waves (minimumHalfWaves 4); no half-wave peaked within 0.35 s of the last "
                                      + "(maximumReversalIntervalSeconds; the next, ") == true, "\(line)")
        #expect(parts.first?.contains("peaked 0.45") == true, "\(line)")
        #expect(parts.last?.hasPrefix("2.7") == true, "\(line)")
        #expect(parts.last?.hasSuffix("3 linked half-waves (minimumHalfWaves 4); no further half-wave before the recording ended")
                == true, "\(line)")
    }

    /// A missed shake whose strokes formed four chains (four bursts of three half-waves, each
    /// peaking 0.45 s after the last): `--list` names the closest and the three others, all it
    /// shows, with no count of more chains left out.
    @Test func listNamesThreeOtherChainsWithoutACountOfMore() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("four-chains.csv",
                                    Self.bursts(at: [2.0, 2.7, 3.4, 4.1], samples: 700, labelledUntil: 4.475))
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        #expect(line.components(separatedBy: "; also at ").count == 4, "\(line)")
        #expect(!line.contains("more chains"), "\(line)")
    }

    /// `--list` says why a labelled shake was missed: a real shake cut to three half-waves is
    /// named with its chain and how it ended, with the largest linear acceleration.
    @Test func listSaysWhyAShakeWasMissed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // 4 Hz, 3 g shakes of 0.375 s: three half-waves, one short of a shake.
        let path = try folder.write("short.csv", labelledShakeCSV(shakes: 1, shakeSeconds: 0.375).text)
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        #expect(line.contains(": at 3.0"), "\(line)")
        #expect(line.contains("3 linked half-waves (minimumHalfWaves 4); no further half-wave before the recording ended; "
                              + "largest |l| "), "\(line)")
    }

    @Test func listSaysSoWhenNothingWasMissed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("two.csv", labelledShakeCSV(shakes: 2).text)
        let run = runShake("evaluate", "--list", path)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.hasSuffix("\nNo missed shake, false shake or duplicate.\n"), "\(run.out)")
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
        // Each began has its time, so that every shake's is checked below.
        #expect(recording.runStarts.count == 2)
        #expect(began.count == recording.runStarts.count, "\(events)")
        for (time, start) in zip(began, recording.runStarts) {
            #expect(time > start && time < start + 1.0, "began \(time) for a shake starting at \(start)")
        }
        for event in events { #expect(event["axis"] as? String == "x") }
    }

    /// The length of a recording whose times do not start at 0 (an export cut from a longer
    /// one) is from its first sample to its last, in text and in JSON.
    @Test func durationRunsFromTheFirstSample() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let rows = (0..<201).map { "\(100 + Double($0) / 100),0.1,0.2,9.8\n" }.joined()
        let path = try folder.write("late.csv", "time_s,x,y,z\n" + rows)
        let text = runShake("replay", path)
        #expect(text.out == "\(path): 0 shakes in 201 samples (2.0 s)\n", "\(text.out)")
        let json = runShake("replay", "--format", "json", path)
        #expect(json.out.contains("\"duration_s\" : 2,"), "\(json.out)")
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

    /// Rows repeating the previous time, and gaps over maximumGapSeconds, are counted on the
    /// file's line in words (only when there are any) and in JSON always.
    @Test(arguments: [
        ([0.01, 0.02, 0.03], "", 0, 0, 0.01),
        ([0.01, 0.01, 0.02], "; 1 repeated timestamp ignored", 1, 0, 0.01),
        ([0.01, 0.01, 0.02, 0.02, 0.02], "; 3 repeated timestamps ignored", 3, 0, 0.01),
        ([0.01, 0.6], "; 1 gap over 0.5 s (0.59 s)", 0, 1, 0.59),
        ([0.5, 0.5, 1.25, 2, 2.01], "; 1 repeated timestamp ignored, 2 gaps over 0.5 s (largest 0.75 s)", 1, 2, 0.75),
    ])
    func summaryCountsRepeatedTimestampsAndGaps(
        times: [Double], says: String, repeated: Int, gaps: Int, largest: Double
    ) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let rows = ([0] + times).map { String(format: "%.2f,0.1,0.2,9.8\n", $0) }.joined()
        let path = try folder.write("irregular.csv", "time_s,x,y,z\n" + rows)
        let text = runShake("replay", path)
        #expect(text.status == 0, "\(text.err)")
        let duration = String(format: "%.1f", times.last ?? 0)
        #expect(text.out == "\(path): 0 shakes in \(times.count + 1) samples (\(duration) s)\(says)\n")
        let json = runShake("replay", "--format", "json", path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let file = try #require((object["files"] as? [[String: Any]])?.first)
        #expect(file["repeated_timestamps"] as? Int == repeated)
        #expect(file["gaps"] as? Int == gaps)
        #expect(file["gap_limit_s"] as? Double == 0.5)
        #expect(file["largest_gap_s"] as? Double == largest)
    }

    /// The gap limit is the detector's maximumGapSeconds.
    @Test func gapsAreCountedOverTheConfiguredLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = try folder.write("gap.csv", "time_s,x,y,z\n0,0.1,0.2,9.8\n0.3,0.1,0.2,9.8\n0.4,0.1,0.2,9.8\n")
        let config = try folder.write("config.json", "{\"maximumGapSeconds\": 0.25}")
        let run = runShake("replay", "--config", config, path)
        #expect(run.out.hasSuffix("; 1 gap over 0.25 s (0.3 s)\n"), "\(run.out)")
    }
}
