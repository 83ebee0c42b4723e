import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ShakeCLI
import Testing

@Suite struct PlotCommandTests {
    /// Counts of elements by class in an SVG file, or nil when it is not well-formed.
    final class ClassCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        var root: String?

        static func parse(_ data: Data) -> [String: Int]? {
            let parser = XMLParser(data: data)
            let counter = ClassCounter()
            parser.delegate = counter
            guard parser.parse(), counter.root == "svg" else { return nil }
            return counter.counts
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = elementName }
            for name in (attributes["class"] ?? "").split(separator: " ") { counts[String(name), default: 0] += 1 }
        }
    }

    /// The threshold labels (their position, anchor, font size and text) and the points of the
    /// linear-acceleration curve of a plot, read from its SVG.
    final class ThresholdLabelReader: NSObject, XMLParserDelegate {
        struct Label {
            var text = ""
            var x = 0.0, baseline = 0.0, size = 0.0
            var anchor = ""
        }
        var labels: [Label] = []
        var curve: [(x: Double, y: Double)] = []
        private var current: Label?

        static func read(_ data: Data) -> ThresholdLabelReader? {
            let parser = XMLParser(data: data)
            let reader = ThresholdLabelReader()
            parser.delegate = reader
            return parser.parse() ? reader : nil
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if elementName == "text" {
                current = Label(x: Double(attributes["x"] ?? "") ?? 0, baseline: Double(attributes["y"] ?? "") ?? 0,
                                size: Double(attributes["font-size"] ?? "") ?? 0, anchor: attributes["text-anchor"] ?? "")
            } else if elementName == "path", attributes["class"] == "series series-linear" {
                curve = (attributes["d"] ?? "").split(whereSeparator: { $0 == "M" || $0 == "L" }).compactMap { pair in
                    let xy = pair.split(separator: ",").compactMap { Double($0) }
                    return xy.count == 2 ? (xy[0], xy[1]) : nil
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { current?.text += string }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?) {
            if elementName == "text", let label = current,
               label.text.hasPrefix("onset ") || label.text.hasPrefix("release ") {
                labels.append(label)
            }
            current = nil
        }
    }

    /// Where the curve leaves room along a threshold's line, the threshold's label is drawn
    /// clear of it: the label's box (0.62 em a character, generous for the plot's DejaVu Sans,
    /// 0.8 em up and 0.25 em down from the baseline, with its 1.5 px white halo) meets no
    /// segment of the curve. At either end of the panel, the lines of these plots run through
    /// the curve (a shake at the start or the end of the view).
    @Test(arguments: [
        ["Fixtures/shakes_100hz.csv"],
        ["Fixtures/shakes_100hz.csv", "--from", "1.7", "--to", "21"],
        ["Fixtures/mixed_100hz.csv", "--from", "10", "--to", "30"],
    ])
    func thresholdLabelsKeepClearOfTheCurve(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.file("plot.svg")
        let run = runShake(["plot", repositoryRoot + "/" + arguments[0], "-o", output] + arguments.dropFirst())
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: output))
        let reader = try #require(ThresholdLabelReader.read(data))
        #expect(reader.labels.map { $0.text.split(separator: " ")[0] } == ["onset", "release"])
        #expect(reader.curve.count > 100)
        for label in reader.labels {
            let width = Double(label.text.count) * 0.62 * label.size
            let start = label.anchor == "end" ? label.x - width : label.x
            let (left, right) = (start - 1.5, start + width + 1.5)
            let (top, bottom) = (label.baseline - 0.8 * label.size - 1.5, label.baseline + 0.25 * label.size + 1.5)
            let meeting = zip(reader.curve, reader.curve.dropFirst()).first { a, b in
                let from = max(min(a.x, b.x), left), to = min(max(a.x, b.x), right)
                guard from <= to else { return false }
                let slope = a.x == b.x ? 0 : (b.y - a.y) / (b.x - a.x)
                let (y1, y2) = a.x == b.x ? (a.y, b.y) : (a.y + slope * (from - a.x), a.y + slope * (to - a.x))
                return max(y1, y2) >= top && min(y1, y2) <= bottom
            }
            #expect(meeting == nil, "'\(label.text)' at x \(label.x), y \(label.baseline) meets the curve: \(String(describing: meeting))")
        }
    }

    @Test func drawsTheRecordingWithBandsAndMarkers() throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 2, 2)], rate: 100)
        defer { folder.remove() }
        let output = folder.path + "/plot.svg"
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output])
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: output))
        let counts = try #require(ClassCounter.parse(data))
        #expect(counts["series-x"] == 1 && counts["series-y"] == 1 && counts["series-z"] == 1)
        #expect(counts["series-linear"] == 1)
        // The onset and release thresholds, and ±saturation on the raw panel.
        #expect(counts["threshold"] == 2)
        #expect(counts["saturation"] == 2)
        #expect(counts["shake-band"] == 2)
        // The medium preset fires on the shakes and on the planted distractors.
        let replay = CapturedRun(["replay", folder.path + "/planted_1.csv", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.out.utf8)) as? [String: Any])
        let file = try #require((report["files"] as? [[String: Any]])?.first)
        let events = try #require(file["events"] as? [[String: Any]])
        #expect(counts["event-began"] == events.filter { $0["phase"] as? String == "began" }.count)
        #expect(counts["event-ended"] == events.filter { $0["phase"] as? String == "ended" }.count)
        #expect((counts["event-began"] ?? 0) >= 2)
        // The detector's half-wave peaks: each shake links four or more.
        #expect((counts["half-wave-linked"] ?? 0) >= 2 * 3, "\(counts)")
        #expect(String(decoding: data, as: UTF8.self).contains("linear acceleration as the detector sees it"))
    }

    /// Ongoing motion is drawn as grey bands: along a walk (from 4 s after it starts, when the
    /// rule takes effect), not between shakes made from rest.
    @Test func drawsOngoingMotionAlongAWalkOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        func bands(_ fixture: String) throws -> Int {
            let output = folder.path + "/\(fixture).svg"
            let run = CapturedRun(["plot", repositoryRoot + "/Fixtures/\(fixture)", "-o", output])
            #expect(run.status == 0, "\(run.err)")
            let data = try #require(FileManager.default.contents(atPath: output))
            return try #require(ClassCounter.parse(data))["ongoing-motion"] ?? 0
        }
        #expect(try bands("walking_pocket_100hz.csv") >= 1)
        #expect(try bands("shakes_100hz.csv") == 0)
    }

    /// A recording whose FIFO batches of 16 were stamped once: drawn as read, the shakes replay
    /// finds (3 of 5); with --spread-batches, those of `replay --spread-batches` (5), and the
    /// subtitle says how many times were spread.
    @Test func spreadBatchesDrawsWhatTheDetectorWasGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let (_, batched) = try BunchedTimesTests.recordings(in: folder, readOut: false, batch: 16)
        func began(_ flags: [String]) throws -> Int {
            let run = CapturedRun(["replay", batched, "--format", "json"] + flags)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let events = try #require(((report["files"] as? [[String: Any]])?.first)?["events"] as? [[String: Any]])
            return events.count { $0["phase"] as? String == "began" }
        }
        for flags in [[], ["--spread-batches"]] {
            let output = folder.path + "/plot\(flags.count).svg"
            let run = CapturedRun(["plot", batched, "-o", output] + flags)
            #expect(run.status == 0, "\(run.err)")
            let data = try #require(FileManager.default.contents(atPath: output))
            let counts = try #require(ClassCounter.parse(data))
            #expect(counts["event-began"] ?? 0 == (try began(flags)), "\(flags): \(counts)")
            #expect(counts["event-began"] ?? 0 == (flags.isEmpty ? 3 : 5), "\(flags): \(counts)")
            #expect(String(decoding: data, as: UTF8.self).contains("sample times spread over their batches") == !flags.isEmpty)
        }
    }

    /// `--detector seismic` draws the baseline's events (as `replay --detector seismic` reports
    /// them) and none of ShakeKit's thresholds.
    @Test func drawsTheSeismicBaselinesShakes() throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 2, 2)], rate: 100)
        defer { folder.remove() }
        let output = folder.path + "/plot.svg"
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output, "--detector", "seismic"])
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: output))
        let counts = try #require(ClassCounter.parse(data))
        #expect(counts["threshold"] == nil && counts["saturation"] == nil && counts["half-wave"] == nil)
        #expect(String(decoding: data, as: UTF8.self).contains("Seismic rule, |a| above 13 m/s²"))
        for (preset, flags) in [("medium", [] as [String]), ("hard", ["--preset", "hard"])] {
            let replay = CapturedRun(["replay", folder.path + "/planted_1.csv", "--format", "json", "--detector", "seismic"] + flags)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.out.utf8)) as? [String: Any])
            let events = try #require(((report["files"] as? [[String: Any]])?.first)?["events"] as? [[String: Any]])
            let drawn: [String: Int]
            if preset == "medium" {
                drawn = counts
            } else {
                let hard = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output, "--force",
                                        "--detector", "seismic"] + flags)
                #expect(hard.status == 0, "\(hard.err)")
                let hardData = try #require(FileManager.default.contents(atPath: output))
                drawn = try #require(ClassCounter.parse(hardData))
            }
            #expect(drawn["event-began", default: 0] == events.filter { $0["phase"] as? String == "began" }.count, "\(preset)")
        }
        #expect((counts["event-began"] ?? 0) >= 1)
        // --config configures ShakeKit's detector only.
        let refused = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", folder.path + "/other.svg",
                                   "--detector", "seismic", "--config", "x.json"])
        #expect(refused.status == 64)
    }

    /// Every value `shake config` accepts plots: a saturation past `Int.max` (its label) crashed
    /// the number formatting until stop 50, and so did a gravity time constant (the panel's
    /// title), which validation now limits to an hour. The SVG is written, well-formed, and
    /// names the value.
    @Test(arguments: [("saturationAcceleration", "1e19", "sensor saturation ±1e+19 m/s²"),
                      ("saturationAcceleration", "1e300", "sensor saturation ±1e+300 m/s²"),
                      ("gravityTimeConstantSeconds", "3600", "τ = 3600 s")])
    func hugeConfigurationValuesPlot(key: String, value: String, shows: String) throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let configuration = folder.path + "/huge.json"
        try "{\"\(key)\": \(value)}".write(toFile: configuration, atomically: true, encoding: .utf8)
        #expect(CapturedRun(["config", "--config", configuration]).status == 0)
        let output = folder.path + "/plot.svg"
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "--config", configuration, "-o", output])
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: output))
        #expect(ClassCounter.parse(data) != nil, "not well-formed")
        #expect(String(decoding: data, as: UTF8.self).contains(shows))
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let output = folder.path + "/plot.svg"
        try "keep me".write(toFile: output, atomically: true, encoding: .utf8)
        let refused = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output])
        #expect(refused.status == 73)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        #expect(CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output, "--force"]).status == 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("<?xml"))
    }

    @Test(arguments: [
        ([] as [String], Int32(64)),
        (["--from", "5", "--to", "2"], Int32(64)),
        (["--from", "500"], Int32(64)),
        (["--preset", "medium", "--config", "x.json"], Int32(64)),
    ])
    func rejectsBadArguments(extra: [String], status: Int32) throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let output = extra.isEmpty ? [] : ["-o", folder.path + "/plot.svg"]
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv"] + output + extra)
        #expect(run.status == status)
        #expect(run.err.hasPrefix("Error: "))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/plot.svg"))
    }

    /// The range's times are written as given, in seconds, in every message about them.
    @Test(arguments: [
        (["--from", "5", "--to", "2.25"], "Error: '--to' (2.25 s) must be after '--from' (5 s)\n"),
        (["--from", "2", "--to", "2"], "Error: '--to' (2 s) must be after '--from' (2 s)\n"),
        // Before the recording's first sample (0 s) the range drawn starts there.
        (["--from", "-1", "--to", "0"], "Error: the range drawn, 0 to 0 s, has no length: give '--from' and '--to' around the part to see"),
        (["--from", "500"], "Error: '--from' (500 s) is after the recording's last sample ("),
        (["--to", "-3.5"], "Error: '--to' (-3.5 s) is before the recording's first sample (0 s)\n"),
        // A range of no length with the recording's own start, and one between two samples,
        // drew an empty chart with exit 0.
        (["--to", "0"], "Error: the range drawn, 0 to 0 s, has no length: give '--from' and '--to' around the part to see"),
        (["--from", "1.001", "--to", "1.009"], "Error: no sample lies between 1.001 and 1.009 s: widen the range"),
    ])
    func rangeMessagesGiveTimesInSeconds(extra: [String], message: String) throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", folder.path + "/plot.svg"] + extra)
        #expect(run.status == 64)
        #expect(run.err.hasPrefix(message), "\(run.err)")
    }

    /// A range from the first sample, for an export stamped with epoch times read without
    /// --rebase-time: the message says to pass it, also for a time up to half the recording's
    /// length (and a second) past its end; a negative time is none from the first sample.
    @Test(arguments: [
        (["--from", "1", "--to", "3"], "; for times from the first sample, pass --rebase-time (the samples then run from 0 to 5 s)"),
        (["--to", "7"], "; for times from the first sample, pass --rebase-time (the samples then run from 0 to 5 s)"),
        (["--from", "-1", "--to", "3"], ""),
    ] as [([String], String)])
    func aRangeFromTheStartOfAnEpochStampedExportNamesRebaseTime(range: [String], note: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("epoch.csv", "time_s,x,y,z\n1700000000,0,0,9.8\n1700000002.5,0,0,9.8\n1700000005,0,0,9.8\n")
        let run = runShake(["plot", recording] + range + ["-o", folder.file("plot.svg")])
        #expect(run.status == 64)
        let to = range[range.count - 1]
        #expect(run.err.hasPrefix("Error: '--to' (\(to) s) is before the recording's first sample (1700000000 s)\(note)\n"),
                "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("plot.svg")))
    }

    /// A pause between samples is shaded when it is longer than the detector's gap limit: a
    /// 1 s pause under the presets' 0.5 s, and not under a configuration's `maximumGapSeconds` of 2.
    @Test(arguments: [(nil, 1), ("{\"maximumGapSeconds\": 2}", 0)] as [(String?, Int)])
    func pausesAreShadedOverTheDetectorsGapLimit(configuration: String?, bands: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let times: [Double] = (0...500).map { Double($0) / 50 }.filter { $0 < 4 || $0 > 5 }
        let rows: [String] = times.map { String(format: "%.2f,0,0,9.81\n", $0) }
        let recording = try folder.write("pause.csv", "time_s,x,y,z\n" + rows.joined())
        var options: [String] = []
        if let configuration { options = ["--config", try folder.write("gap.json", configuration)] }
        let run = runShake(["plot", recording, "-o", folder.file("plot.svg")] + options)
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: folder.file("plot.svg")))
        #expect(ClassCounter.parse(data)?["sample-gap"] ?? 0 == bands)
    }

    /// The subtitle counts the labelled shakes (runs of shake=1, not their samples), and says
    /// how many detected shakes the range drawn shows, and which range, whether one end of it
    /// or both are given.
    @Test(arguments: [["--from", "5"], ["--to", "5"], ["--from", "1", "--to", "5"]])
    func subtitleNamesTheRangeDrawn(range: [String]) throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let output = folder.path + "/plot.svg"
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output] + range)
        #expect(run.status == 0, "\(run.err)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let from = range.firstIndex(of: "--from").map { range[$0 + 1] + ".00" } ?? "0.00"
        let to = range.firstIndex(of: "--to").map { range[$0 + 1] + ".00 s)" } ?? " s)"
        #expect(text.contains(" shown, \(from) to ") && text.contains(to), "\(text.prefix(1500))")
        // As many as the `began` markers drawn; the recording's one labelled shake counted.
        let drawn = try #require(ClassCounter.parse(Data(text.utf8)))["event-began"] ?? 0
        #expect(text.contains("(\(drawn) shown, "), "\(drawn) drawn: \(text.prefix(1500))")
        #expect(text.contains(" · 1 labelled shake · "), "\(text.prefix(1500))")
    }

    /// The title is the recording's file name (not its path), and the subtitle names the
    /// detector: the configuration file given, or the preset. A recording read with
    /// --spread-batches whose samples were evenly spaced has no time spread, and the subtitle
    /// says nothing of it.
    @Test(arguments: [true, false])
    func titleNamesTheFileAndSubtitleTheDetector(configured: Bool) throws {
        let folder = try PlantedFolder(files: [("planted_1.csv", 1, 1)])
        defer { folder.remove() }
        let configuration = folder.path + "/tuned.json"
        try "{\"onsetAcceleration\": 11}".write(toFile: configuration, atomically: true, encoding: .utf8)
        let output = folder.path + "/plot.svg"
        let run = CapturedRun(["plot", folder.path + "/planted_1.csv", "-o", output]
            + (configured ? ["--config", configuration] : ["--preset", "hard", "--spread-batches"]))
        #expect(run.status == 0, "\(run.err)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains(">planted_1.csv</text>") && !text.contains(">\(folder.path)"), "\(text.prefix(1500))")
        #expect(text.contains(">detector: " + (configured ? "configuration \(configuration)" : "hard preset") + " · "),
                "\(text.prefix(1500))")
        #expect(!text.contains("spread over"), "\(text.prefix(1500))")
    }

    /// A range that starts at the recording's last sample or ends at its first has no length
    /// (it is not past the recording's ends): the message says so.
    @Test(arguments: [(["--from", "2"], "Error: the range drawn, 2 to 2 s, has no length"),
                      (["--to", "0"], "Error: the range drawn, 0 to 0 s, has no length")])
    func aRangeAtTheRecordingsEndHasNoLength(range: [String], message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let recording = try folder.write("short.csv", "time_s,x,y,z\n0,0,0,9.8\n1,0,0,9.8\n2,0,0,9.8\n")
        let run = runShake(["plot", recording, "-o", folder.file("plot.svg")] + range)
        #expect(run.status == 64)
        #expect(run.err.hasPrefix(message), "\(run.err)")
    }

    @Test func missingRecordingIsReported() {
        let run = CapturedRun(["plot", "/nonexistent/recording.csv", "-o", NSTemporaryDirectory() + "never.svg"])
        #expect(run.status == 66)
        #expect(run.err.contains("/nonexistent/recording.csv"))
    }
}
