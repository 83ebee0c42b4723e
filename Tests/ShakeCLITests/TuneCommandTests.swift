import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ShakeCLI
import ShakeDetection
@testable import ShakeRecording
import Synchronization
import Testing

/// Runs `shake` in process and keeps what it wrote.
final class CapturedRun: Sendable {
    private let outText = Mutex("")
    private let errText = Mutex("")
    let status: Int32

    init(_ arguments: [String], terminal: Bool = false) {
        let out = Mutex("")
        let err = Mutex("")
        let io = CommandIO(out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
                           errIsTerminal: terminal)
        status = ShakeTool.main(arguments: arguments, io: io)
        outText.withLock { $0 = out.withLock { $0 } }
        errText.withLock { $0 = err.withLock { $0 } }
    }

    var out: String { outText.withLock { $0 } }
    var err: String { errText.withLock { $0 } }
}

/// Labelled CSV recordings with a planted optimum, written to a fresh temporary folder:
/// shakes oscillate at 20 m/s², distractors (labelled 0) at 13 m/s², 4 Hz along x, so the
/// medium preset (onset 10 m/s²) fires on the distractors and a higher threshold does not.
struct PlantedFolder {
    let path: String

    init(files: [(name: String, shakes: Int, distractors: Int)] = [("alpha_1.csv", 2, 2), ("beta_1.csv", 2, 1),
                                                                    ("gamma_1.csv", 1, 2)],
         rate: Double = 50, labelled: Bool = true) throws {
        path = NSTemporaryDirectory() + "shake-tune-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for file in files {
            try Self.csv(shakes: file.shakes, distractors: file.distractors, rate: rate, labelled: labelled)
                .write(toFile: path + "/" + file.name, atomically: true, encoding: .utf8)
        }
    }

    static func csv(shakes: Int, distractors: Int, rate: Double, labelled: Bool) -> String {
        var text = "# source: planted test motion\n" + (labelled ? "time_s,x,y,z,shake\n" : "time_s,x,y,z\n")
        var time = 0.0
        func row(_ x: Double, _ label: Bool) {
            text += String(format: "%.6f,%.5f,0,%.5f", time, x, standardGravity) + (labelled ? (label ? ",1\n" : ",0\n") : "\n")
            time += 1 / rate
        }
        func rest(_ seconds: Double) {
            let end = time + seconds
            while time < end { row(0.05 * sin(7 * time), false) }
        }
        func oscillate(_ amplitude: Double, _ label: Bool) {
            let start = time
            while time < start + 1.5 { row(amplitude * sin(2 * Double.pi * 4 * (time - start)), label) }
        }
        rest(2)
        for index in 0..<max(shakes, distractors) {
            if index < shakes { oscillate(20, true); rest(2) }
            if index < distractors { oscillate(13, false); rest(2) }
        }
        return text
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct TuneCommandTests {
    @Test func writesAConfigurationThatLoadsBackAndEvaluates() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let output = folder.path + "/tuned.json"
        let run = CapturedRun(["tune", folder.path, "--output", output, "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let loaded = try ConfigurationFile.load(path: output)
        // The JSON report names the same configuration.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let reported = try JSONSerialization.data(withJSONObject: try #require(report["configuration"]))
        #expect(try JSONDecoder().decode(ShakeConfiguration.self, from: reported) == loaded)
        let inSample = try #require(report["in_sample"] as? [String: Any])
        #expect(inSample["recall"] as? Double == 1)
        #expect(inSample["false_shakes"] as? Int == 0)
        for key in ["cross_validation", "tradeoff", "max_false_per_hour", "met_budget"] {
            #expect(report[key] != nil, "\(key)")
        }
        #expect((report["tradeoff"] as? [Any])?.count == 6)
        // evaluate and replay read it unchanged, and it escapes the planted trap that the medium
        // preset falls into (false shakes on the distractors).
        func total(_ options: [String]) throws -> [String: Any] {
            let run = CapturedRun(["evaluate", folder.path, "--format", "json"] + options)
            #expect(run.status == 0)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            return try #require(report["total"] as? [String: Any])
        }
        #expect(try total(["--preset", "medium"])["false_shakes"] as? Int ?? 0 > 0)
        let tuned = try total(["--config", output])
        #expect(tuned["false_shakes"] as? Int == 0)
        #expect(tuned["recall"] as? Double == 1)
        #expect(CapturedRun(["replay", folder.path + "/alpha_1.csv", "--config", output]).status == 0)
    }

    @Test func sameInputsGiveTheSameOutput() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        func report(jobs: Int) throws -> NSDictionary {
            let run = CapturedRun(["tune", folder.path, "--jobs", String(jobs), "--format", "json"])
            #expect(run.status == 0)
            var object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            // Only the wall-clock time and the job count may differ.
            object["search_seconds"] = nil
            object["jobs"] = nil
            return object as NSDictionary
        }
        let first = try report(jobs: 1)
        #expect(try report(jobs: 2) == first)
        #expect(try report(jobs: 2) == first)
    }

    @Test func progressBarOnlyOnATerminal() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let plain = CapturedRun(["tune", folder.path])
        #expect(plain.status == 0)
        #expect(!plain.err.contains("\r"))
        #expect(!plain.err.contains("\u{1B}"))
        #expect(!plain.err.contains("[#") && !plain.err.contains("[-"))
        #expect(plain.err.contains("tune: 90%"))
        // Never 100 % before the search has ended: the closing line says it has.
        #expect(!plain.err.contains("tune: 100%") && plain.err.contains("tune: searched "), "\(plain.err)")
        let terminal = CapturedRun(["tune", folder.path], terminal: true)
        #expect(terminal.status == 0)
        #expect(terminal.err.contains("\r"))
        #expect(terminal.err.contains("ETA"))
        // The text report goes to standard output either way.
        func withoutTiming(_ text: String) -> [Substring] {
            text.split(separator: "\n").filter { !$0.hasPrefix("Searched ") }
        }
        #expect(withoutTiming(plain.out) == withoutTiming(terminal.out))
        #expect(plain.out.contains("Cross-validation"))
    }

    /// The chosen values are printed with their units (seconds, m/s²; none for counts, cosines
    /// and ratios), and so are the medium preset's beside those that differ from it.
    @Test func chosenValuesCarryTheirUnits() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        var differing = 0
        for name in TuningOptions().axes.map(\.name) {
            let line = try #require(lines.first { $0.hasPrefix("  \(name) ") }, "\(name) in \(run.out)")
            let unit = name.contains("/") ? "" : name.hasSuffix("Seconds") ? " s" : name.hasSuffix("Acceleration") ? " m/s²" : ""
            let number = "-?[0-9]+(\\.[0-9]+)?"
            let pattern = "^  \(name) +\(number)\(unit)( +\\(medium: \(number)\(unit)\\))?$"
            #expect(line.wholeMatch(of: try Regex(pattern)) != nil, "\(line)")
            if line.contains("(medium:") { differing += 1 }
        }
        // The planted trap makes the onset threshold move off medium's.
        #expect(lines.contains { $0.hasPrefix("  onsetAcceleration ") && $0.hasSuffix(" m/s²  (medium: 10 m/s²)") }, "\(run.out)")
        #expect(differing > 0)
    }

    /// Under the in-sample and cross-validated figures, the cross-validated ones' 95 % intervals,
    /// with the same counts as their row: a handful of planted shakes proves little.
    @Test func crossValidatedFiguresComeWithTheirConfidenceIntervals() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("  cross-validated  ") }, "\(run.out)")
        let cells = lines[index].split(separator: " ")
        let (shakes, detected, falseShakes) = (try #require(Int(cells[1])), try #require(Int(cells[2])), try #require(Int(cells[5])))
        let recall = try #require(Double(cells[3]))
        #expect(shakes == 5)
        let line = lines[index + 1]
        let prefix = "  cross-validated, 95 % confidence: recall "
        #expect(line.hasPrefix(prefix), "\(line)")
        #expect(line.contains(" (\(detected) of \(shakes) shakes, Wilson score); false/h "), "\(line)")
        #expect(line.contains(" (\(falseShakes) in "), "\(line)")
        let bounds = line.dropFirst(prefix.count).split(separator: " ")
        let (low, high) = (try #require(Double(bounds[0])), try #require(Double(bounds[2])))
        #expect(low <= recall && recall <= high)
        // Five shakes: even all found, the interval reaches down past 0.5.
        #expect(low < 0.6, "\(line)")
    }

    /// The first row is the medium preset, not tuned: its figures are `shake evaluate`'s, and
    /// JSON gives them as `reference_in_sample`.
    @Test func theMediumPresetsFiguresComeFirst() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 0, "\(run.err)")
        let row = try #require(run.out.split(separator: "\n").first { $0.hasPrefix("  medium, not tuned  ") }, "\(run.out)")
        let cells = row.dropFirst("  medium, not tuned".count).split(separator: " ").map(String.init)
        let evaluated = CapturedRun(["evaluate", folder.path, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(evaluated.out.utf8)) as? [String: Any])
        let total = try #require(report["total"] as? [String: Any])
        #expect(Int(cells[0]) == total["shakes"] as? Int && Int(cells[1]) == total["detected"] as? Int, "\(row)")
        #expect(Int(cells[4]) == total["false_shakes"] as? Int && (total["false_shakes"] as? Int ?? 0) > 0, "\(row)")
        let json = CapturedRun(["tune", folder.path, "--format", "json"])
        let tuned = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let reference = try #require(tuned["reference_in_sample"] as? [String: Any])
        #expect(reference["false_shakes"] as? Int == total["false_shakes"] as? Int)
        #expect(reference["detected"] as? Int == total["detected"] as? Int)
    }

    /// With --config the search starts from a product's own configuration: the values it does
    /// not search are the base's, the first row is the base's (as `shake evaluate --config`
    /// scores it, and the --report plot names it), and -o may not replace the base.
    @Test func aBaseConfigurationKeepsTheValuesNotSearched() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let base = folder.path + "/base.json"
        try "{\"saturationAcceleration\": 30, \"maximumShakeSeconds\": 8, \"onsetAcceleration\": 9}\n"
            .write(toFile: base, atomically: true, encoding: .utf8)
        let output = folder.path + "/tuned.json"
        let run = CapturedRun(["tune", folder.path, "--config", base, "-o", output, "--report", folder.path + "/report.svg"])
        #expect(run.status == 0, "\(run.err)")
        // The trade-off plot names the base's untuned point in its legend and its label.
        let plot = try String(contentsOfFile: folder.path + "/report.svg", encoding: .utf8)
        #expect(plot.contains(">base, not tuned</text>") && plot.contains(">base, not tuned: recall "), "\(plot)")
        let tuned = try ConfigurationFile.load(path: output)
        #expect(tuned.saturationAcceleration == 30 && tuned.maximumShakeSeconds == 8)
        #expect(run.out.contains("\nBase: \(base) (--config): the values not searched are its own.\n"), "\(run.out)")
        #expect(run.out.contains("(tuned parameters; the rest as in base):"), "\(run.out)")
        #expect(run.out.contains("m/s²  (base: 9 m/s²)"), "\(run.out)")
        let row = try #require(run.out.split(separator: "\n").first { $0.hasPrefix("  base, not tuned  ") }, "\(run.out)")
        let cells = row.dropFirst("  base, not tuned".count).split(separator: " ").map(String.init)
        let evaluated = CapturedRun(["evaluate", folder.path, "--config", base, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(evaluated.out.utf8)) as? [String: Any])
        let total = try #require(report["total"] as? [String: Any])
        #expect(Int(cells[1]) == total["detected"] as? Int && Int(cells[4]) == total["false_shakes"] as? Int, "\(row)")
        let refused = CapturedRun(["tune", folder.path, "--config", base, "-o", base, "--force"])
        #expect(refused.status == 64)
        #expect(refused.err.contains("would replace the base configuration"), "\(refused.err)")
        #expect(try ConfigurationFile.load(path: base).onsetAcceleration == 9)
        // However the path is spelled, and for the report too: the base is never replaced.
        let baseBytes = try Data(contentsOf: URL(fileURLWithPath: base))
        for arguments in [["-o", folder.path + "/./base.json"], ["--report", base], ["--report", folder.path + "//base.json"]] {
            let again = CapturedRun(["tune", folder.path, "--config", base, "--force"] + arguments)
            #expect(again.status == 64, "\(arguments)")
            #expect(again.err.contains("replace the") && again.err.contains("configuration"), "\(again.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: base)) == baseBytes)
        }
    }

    /// -o and --report naming one file, spelled two ways, before the file exists: refused
    /// before the search (else the report would replace the tuned configuration).
    @Test func outputAndReportNamingOneFileAreRefusedHoweverSpelled() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "-o", folder.path + "/out.json", "--report", folder.path + "/./out.json"])
        #expect(run.status == 64)
        #expect(run.err.contains("'--output' and '--report' name the same file"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.json"))
    }

    /// Distractors in one group only: tuned without that group, a fold keeps medium's low onset
    /// and fires on them, so the cross-validated figures break the budget, and tune says so, in
    /// text and in JSON. The recordings hold under 2 h without shakes, so the 0.5 budget cannot
    /// be measured: said too. With a budget of 0 that warning goes.
    @Test func heldOutFiguresOverTheBudgetAndAnUnmeasurableBudgetAreWarnedOf() throws {
        let folder = try PlantedFolder(files: [("alpha_1.csv", 2, 0), ("beta_1.csv", 2, 0), ("gamma_1.csv", 1, 3)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 0, "\(run.err)")
        let warnings = run.out.split(separator: "\n").filter { $0.hasPrefix("WARNING: ") }
        #expect(warnings.count == 2, "\(run.out)")
        #expect(warnings.first?.hasPrefix("WARNING: on recordings they were not tuned on, the chosen values fire ") == true,
                "\(run.out)")
        // No duplicates among the held-out figures: the warning names false shakes only.
        #expect(warnings.first?.contains(try Regex("the chosen values fire [0-9]+\\.[0-9]{2} false shakes per hour, over ")) == true,
                "\(run.out)")
        #expect(warnings.first?.contains(", over the budget of 0.5: they fit these recordings more than motion in general. "
            + "The medium preset, not tuned on any of them, finds 5 of 5 shakes with 3 false shakes (the first row). "
            + "Record more of the motion that fires, in every group, so that each fold is tuned on some") == true,
                "\(run.out)")
        #expect(warnings.last?.contains("so a single false shake is ") == true, "\(run.out)")
        #expect(warnings.last?.hasSuffix("over the budget of 0.5: the budget allows none. For it to be measured, record "
            + "at least 2.0 h of motion without shakes") == true, "\(run.out)")
        let json = CapturedRun(["tune", folder.path, "--format", "json", "--max-false-per-hour", "0"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let validation = try #require(report["cross_validation"] as? [String: Any])
        #expect(validation["met_budget"] as? Bool == false)
        let said = try #require(report["warnings"] as? [String])
        #expect(said.count == 1 && said.first?.contains("over the budget of 0:") == true, "\(said)")
    }

    /// Held-out figures over the budget when the configuration chosen is the base's own (other
    /// people's gestures in Fixtures/others: tuned on four files, a fold fires on the fifth):
    /// the warning says the choice is the medium preset itself, fitted to nothing. It had said
    /// the chosen values fit these recordings and to prefer the medium preset, which they were.
    @Test func heldOutFiguresOverTheBudgetWithTheBaseChosenDoNotAskForTheBase() throws {
        let run = CapturedRun(["tune", repositoryRoot + "/Fixtures/others", "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let chosen = try #require(report["configuration"] as? [String: Any])
        let medium = try #require(report["reference_configuration"] as? [String: Any])
        try #require(NSDictionary(dictionary: chosen).isEqual(to: medium), "the medium preset is chosen")
        let validation = try #require(report["cross_validation"] as? [String: Any])
        #expect(validation["met_budget"] as? Bool == false)
        let said = try #require(report["warnings"] as? [String])
        let heldOut = said.filter { $0.contains("fold") || $0.contains("not tuned on") }
        #expect(heldOut.count == 1 && heldOut[0].hasPrefix("tuned in each fold without the recordings it holds out, "
            + "the values chosen there fire ") && heldOut[0].contains("The configuration chosen here is the medium preset "
            + "itself (the first row), not fitted to these recordings"), "\(said)")
        #expect(!said.contains { $0.contains("prefer it") || $0.contains("fit these recordings more") }, "\(said)")
    }

    /// A search whose chosen values (an onset of 12 m/s²) find all 5 shakes with no false shake
    /// in 18 750 s without shakes, within `budget`, but fire 20 false shakes held out; the medium
    /// preset, not tuned, fired `falseShakes` and `duplicates` in `seconds` without shakes.
    static func heldOutOverTheBudget(budget: Double, falseShakes: Int, duplicates: Int, seconds: Double) -> TuningResult {
        var tuned = ShakeConfiguration.medium
        tuned.onsetAcceleration = 12
        var inSample = EvaluationCounts()
        (inSample.shakes, inSample.detected, inSample.negativeSeconds) = (5, 5, 18_750)
        var heldOut = inSample
        heldOut.falseShakes = 20
        var medium = inSample
        (medium.falseShakes, medium.duplicates, medium.negativeSeconds) = (falseShakes, duplicates, seconds)
        let validation = CrossValidation(method: "leave-one-group-out", folds: [], pooled: EvaluationSummary(heldOut),
                                         metBudget: false)
        return TuningResult(configuration: tuned, maximumFalsePerHour: budget, metBudget: true,
                            inSample: EvaluationSummary(inSample), referenceSummary: EvaluationSummary(medium), tradeoff: [],
                            crossValidation: validation, configurationsEvaluated: 2, recordings: 3, samples: 1000)
    }

    /// Held-out figures over the budget while the medium preset, not tuned, meets it: the warning
    /// says to prefer the preset unless more recordings bear the tuned values out; when the preset
    /// breaks the budget too (a duplicate, or false shakes over it), to record more instead. The
    /// preset meets it as the search judges a budget met: no false shake meets any budget, even
    /// with no time without shakes to measure a rate on; 5 false shakes in 18 750 s are 0.96 per
    /// hour, and meet a budget of 0.96 although the division gives 0.9600000000000001.
    @Test(arguments: [
        (0, 0, 18_750.0, 0.5, true), (0, 0, 0, 0.5, true), (0, 1, 18_750, 0.5, false),
        (5, 0, 18_750, 0.96, true), (5, 0, 18_750, 0.95, false),
    ])
    func heldOutFiguresOverTheBudgetAskForTheMediumPresetWhenItMeetsTheBudget(
        falseShakes: Int, duplicates: Int, seconds: Double, budget: Double, prefersMedium: Bool
    ) throws {
        let result = Self.heldOutOverTheBudget(budget: budget, falseShakes: falseShakes, duplicates: duplicates, seconds: seconds)
        let said = TuneCommand.warnings(result, reference: .medium)
        let warning = try #require(said.first { $0.hasPrefix("on recordings they were not tuned on, the chosen values fire ") },
                                   "\(said)")
        #expect(warning.contains("The medium preset, not tuned on any of them, finds 5 of 5 shakes"), "\(warning)")
        #expect(warning.hasSuffix(prefersMedium ? "(the first row); prefer it unless more recordings bear the tuned values out"
            : "(the first row). Record more of the motion that fires, in every group, so that each fold is tuned on some"),
                "\(warning)")
    }

    /// Every searched parameter but those named held at medium's value (`--range KEY=VALUE`).
    static func heldAllBut(_ searched: String...) -> [String] {
        ["onsetAcceleration=10", "releaseAcceleration / onsetAcceleration=0.5", "maximumReversalIntervalSeconds=0.35",
         "minimumHalfWaves=4", "maximumLinearity=0.5", "gravityTimeConstantSeconds=0.4", "maximumIntervalRatio=4",
         "reversalCosine=-0.4", "minimumReversalIntervalSeconds=0.04", "linearityTimeConstantSeconds=0.5",
         "quietSeconds=0.4", "refractorySeconds=0.3"]
            .filter { held in !searched.contains { held.hasPrefix($0 + "=") } }.flatMap { ["--range", $0] }
    }

    /// One recording, tuned with one job and nothing to choose (every parameter held, the onset
    /// at 7 m/s², under the planted distractors' 13): the text counts one recording and one job
    /// in the singular, names medium's value beside the onset alone (the one value off it), skips
    /// cross-validation (it needs 2 recordings) and gives the in-sample figures' confidence
    /// instead, and marks each budget of the trade-off that the false shakes break as not met.
    @Test func oneRecordingIsTunedWithoutCrossValidation() throws {
        let folder = try PlantedFolder(files: [("alpha_1.csv", 2, 2)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path + "/alpha_1.csv", "--jobs", "1", "--range", "onsetAcceleration=7"]
            + Self.heldAllBut("onsetAcceleration"))
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.hasPrefix("tune: reading 1 recording\n"), "\(run.err)")
        #expect(run.out.hasPrefix("Tuned on 1 recording ("), "\(run.out)")
        let searched = try #require(run.out.split(separator: "\n").first { $0.hasPrefix("Searched ") }, "\(run.out)")
        #expect(searched.hasSuffix(" s with 1 job."), "\(searched)")
        let offMedium = run.out.split(separator: "\n").filter { $0.contains("(medium: ") }
        #expect(offMedium.count == 1 && offMedium.first?.hasPrefix("  onsetAcceleration ") == true, "\(run.out)")
        #expect(run.out.contains("\n  in sample, 95 % confidence: recall "), "\(run.out)")
        #expect(!run.out.contains("cross-validated"), "\(run.out)")
        #expect(run.out.contains("\nCross-validation: skipped (needs at least 2 recordings).\n"), "\(run.out)")
        let tradeoff = run.out.split(separator: "\n").filter { $0.hasPrefix("  false/h <= ") }
        #expect(tradeoff.count == 6, "\(run.out)")
        // Two false shakes in under a minute of shake=0 time: over every budget up to 10 per hour.
        for row in tradeoff {
            #expect(row.contains(" (not met) "), "\(row)")
        }
    }

    /// The text report's columns line up: the chosen values end in one column whatever the
    /// parameter's name, medium's values beside them start in one column whatever the unit
    /// (m/s², s, none), and each row of a figures table is as wide as its header, the widest
    /// of a column's header and cells setting its width.
    @Test func theReportsColumnsLineUp() throws {
        let folder = try PlantedFolder(files: [("alpha_1.csv", 2, 2)])
        defer { folder.remove() }
        let offMedium = ["onsetAcceleration=12", "minimumHalfWaves=3", "quietSeconds=0.5"]
        let run = CapturedRun(["tune", folder.path + "/alpha_1.csv", "--jobs", "1"] + offMedium.flatMap { ["--range", $0] }
            + Self.heldAllBut("onsetAcceleration", "minimumHalfWaves", "quietSeconds"))
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var valueEnds: Set<Int> = []
        var mediumStarts: Set<Int> = []
        for name in TuningOptions().axes.map(\.name) {
            let line = try #require(lines.first { $0.hasPrefix("  \(name) ") }, "\(name) in \(run.out)")
            let value = line.dropFirst(2 + name.count).drop { $0 == " " }
            valueEnds.insert(line.count - value.count + value.prefix { $0 != " " }.count)
            if let medium = line.firstRange(of: "(medium: ") { mediumStarts.insert(line.distance(from: line.startIndex, to: medium.lowerBound)) }
        }
        #expect(valueEnds.count == 1, "\(run.out)")
        #expect(mediumStarts.count == 1 && run.out.components(separatedBy: "(medium: ").count == 4, "\(run.out)")
        let headers = lines.indices.filter { lines[$0].hasSuffix("  precision  lat_med_s  lat_p95_s") }
        #expect(headers.count == 2, "\(run.out)")
        for header in headers {
            let rows = lines[(header + 1)...].prefix { $0.hasPrefix("  ") && !$0.contains("95 % confidence") }
            #expect(!rows.isEmpty && rows.allSatisfy { $0.count == lines[header].count }, "\(lines[header])\n\(rows)")
        }
    }

    /// Recordings labelled shake=1 throughout hold no shake=0 time: false shakes per hour cannot be
    /// measured, and tune says so; and a fold tuned on such recordings only (the groups 'all' and
    /// 'every', holding out 'mixed') is warned of as tuned without shake=0 time.
    @Test func recordingsWithoutShakeFreeTimeAreWarnedOf() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let mixed = PlantedFolder.csv(shakes: 1, distractors: 1, rate: 50, labelled: true)
        let allShake = mixed.replacingOccurrences(of: ",0\n", with: ",1\n")
        let lone = try folder.write("all_1.csv", allShake)
        let run = CapturedRun(["tune", lone, "--jobs", "1", "--format", "json"] + Self.heldAllBut())
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect((report["warnings"] as? [String])?.contains("no time is labelled shake=0, so false shakes per hour cannot be "
            + "measured and the budget allows none: add recordings of motion without shakes (walking, carrying, handling)") == true,
                "\(report["warnings"] ?? "none")")

        _ = try folder.write("every_1.csv", allShake)
        _ = try folder.write("mixed_1.csv", mixed)
        let folds = CapturedRun(["tune", folder.path, "--jobs", "1", "--format", "json"] + Self.heldAllBut())
        #expect(folds.status == 0, "\(folds.err)")
        let foldReport = try #require(try JSONSerialization.jsonObject(with: Data(folds.out.utf8)) as? [String: Any])
        #expect((foldReport["warnings"] as? [String])?.contains { $0.hasPrefix("the fold 'held out: mixed' was tuned on "
            + "recordings with no time labelled shake=0, so its figures say little.") } == true, "\(foldReport["warnings"] ?? "none")")
    }

    /// A base value off the values tune tries (a release of 4 m/s², fraction 0.4) is tried too,
    /// and kept on a tie, as the objective says ("closer to the base"): it had been moved to
    /// the nearest value tried (3.5 m/s²) with the same figures. And the release is written
    /// without binary noise: 7 × 0.35 is 2.45, not 2.4499999999999997.
    @Test func aBaseValueOffTheTriedValuesIsKeptOnATie() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let fixtures = ["shakes_100hz.csv", "walking_pocket_100hz.csv"].map { repositoryRoot + "/Fixtures/" + $0 }
        let base = try folder.write("base.json", "{\"releaseAcceleration\": 4}\n")
        let output = folder.file("tuned.json")
        let run = runShake(["tune", "--config", base, "-o", output] + Self.heldAllBut("releaseAcceleration / onsetAcceleration") + fixtures)
        #expect(run.status == 0, "\(run.err)")
        #expect(try ConfigurationFile.load(path: output).releaseAcceleration == 4)
        // The base's own value added to the fractions tried is no restriction: the line of what
        // --range restricted (the parameters held) does not list the fraction.
        let searchedOnly = try #require(run.out.split(separator: "\n").first { $0.hasPrefix("Searched only (--range): ") },
                                        "\(run.out)")
        #expect(searchedOnly.contains("onsetAcceleration 10 m/s²"), "\(searchedOnly)")
        #expect(!searchedOnly.contains("releaseAcceleration / onsetAcceleration"), "\(searchedOnly)")

        let noisy = folder.file("noisy.json")
        let seven = runShake(["tune", "-o", noisy, "--range", "onsetAcceleration=7", "--range", "releaseAcceleration / onsetAcceleration=0.35"]
            + Self.heldAllBut("onsetAcceleration", "releaseAcceleration / onsetAcceleration") + fixtures)
        #expect(seven.status == 0, "\(seven.err)")
        #expect(try String(contentsOfFile: noisy, encoding: .utf8).contains("\"releaseAcceleration\" : 2.45,\n"))
    }

    /// Values that no configuration could have (onsets above a base's ongoing-motion peak of
    /// 11 m/s², which `validate()` refuses) are not listed as searched, and a warning names
    /// them; they had been listed in `searched_values` without a word.
    @Test func valuesTheBaseRulesOutAreNamedNotListedAsSearched() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let fixtures = ["shakes_100hz.csv", "walking_pocket_100hz.csv"].map { repositoryRoot + "/Fixtures/" + $0 }
        let base = try folder.write("base.json", "{\"ongoingMotionPeakAcceleration\": 11}\n")
        let run = runShake(["tune", "--config", base, "--format", "json"] + Self.heldAllBut("onsetAcceleration") + fixtures)
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let searched = try #require(report["searched_values"] as? [String: [Double]])
        #expect(searched["onsetAcceleration"] == [7, 8, 9, 10, 11])
        let said = try #require(report["warnings"] as? [String])
        #expect(said.contains { $0.hasPrefix("never tried, as every configuration with them that the search reached fails the "
            + "checks of 'shake config' (the base configuration's other values rule them out): onsetAcceleration 12, 13, 14, 16 m/s²") },
                "\(said)")
    }

    /// A budget no configuration tried meets: the -o file is still written (it was asked for),
    /// but the line naming it says it does not meet the budget, and the JSON's warnings say so
    /// as the text's WARNING does (the JSON had only `met_budget: false`).
    @Test func anUnmetBudgetIsSaidWhereTheFileIsNamedAndInTheJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let output = folder.file("tuned.json")
        let fixtures = ["mixed_100hz.csv", "running_100hz.csv"].map { repositoryRoot + "/Fixtures/" + $0 }
        let run = runShake(["tune", "--format", "json", "--range", "onsetAcceleration=3", "--range", "minimumHalfWaves=2",
                            "--max-false-per-hour", "0", "-o", output] + fixtures)
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(run.err.contains("wrote \(output) (load it with --config); it does NOT meet the budget of 0 false shakes "
            + "per hour"), "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(report["met_budget"] as? Bool == false)
        let warnings = try #require(report["warnings"] as? [String])
        #expect(warnings.first?.hasPrefix("no configuration tried met the budget of 0 false shakes per hour") == true, "\(warnings)")
    }

    /// A group that holds every shake leaves its fold nothing to learn shakes from: said.
    @Test func aFoldTunedWithoutShakesIsWarnedOf() throws {
        let folder = try PlantedFolder(files: [("shake_1.csv", 3, 0), ("walk_1.csv", 0, 2), ("bag_1.csv", 0, 1)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let said = try #require(report["warnings"] as? [String])
        #expect(said.contains("the fold 'held out: shake' was tuned on recordings with no labelled shakes, so its figures "
            + "say little. Folds hold out the files whose names share the part before the first '_': name the files so "
            + "that each group mixes shakes and other motion"), "\(said)")
        #expect(!said.contains { $0.contains("held out: walk") || $0.contains("held out: bag") }, "\(said)")
    }

    /// With fewer than 3 groups the folds hold out files, not groups: the warning about a fold
    /// tuned without shakes says so, instead of telling to name the files in groups.
    @Test func aFileFoldTunedWithoutShakesIsWarnedOfAsSuch() throws {
        let folder = try PlantedFolder(files: [("shake.csv", 3, 0), ("walk.csv", 0, 2)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect((report["cross_validation"] as? [String: Any])?["method"] as? String == "k-fold by file")
        let said = try #require(report["warnings"] as? [String])
        #expect(said.contains("the fold 'held out: fold 1' was tuned on recordings with no labelled shakes, so its "
            + "figures say little. With fewer than 3 groups (the part of the file name before the first '_'), folds "
            + "hold out files in turn: record more files, or name them in 3 or more groups that each mix shakes and "
            + "other motion"), "\(said)")
    }

    /// Without a labelled shake there is no recall and so no curve: the report says so instead
    /// of drawing an empty frame, and counts one recording in the singular.
    @Test func reportWithoutLabelledShakesSaysWhyItHasNoCurve() throws {
        let folder = try PlantedFolder(files: [("walk_1.csv", 0, 2)])
        defer { folder.remove() }
        let report = folder.path + "/tradeoff.svg"
        let run = CapturedRun(["tune", folder.path, "--report", report])
        #expect(run.status == 0, "\(run.err)")
        let data = try #require(FileManager.default.contents(atPath: report))
        #expect(XMLParser(data: data).parse())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(">no labelled shakes: recall cannot be measured, so there is no curve</text>"))
        #expect(text.contains(">1 recording, 0 labelled shakes, "), "\(text)")
    }

    /// `tune --help` says what every key of the JSON report means: each top-level key is named
    /// in quotes, and so are cross_validation's; the keys of a fold, of a trade-off point and of
    /// the figures are named in their own lists.
    @Test func helpNamesEveryKeyOfTheJSONReport() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path, "--format", "json"])
        #expect(run.status == 0, "\(run.err)")
        let help = runShake("tune", "--help").out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(report.count >= 12)
        for key in report.keys {
            #expect(help.contains("'\(key)'"), "top-level key \(key)")
        }
        let validation = try #require(report["cross_validation"] as? [String: Any])
        let fold = try #require((validation["folds"] as? [[String: Any]])?.first)
        let point = try #require((report["tradeoff"] as? [[String: Any]])?.first)
        let figures = try #require(report["in_sample"] as? [String: Any])
        for key in validation.keys {
            #expect(help.contains("'\(key)'"), "cross_validation key \(key)")
        }
        // The keys of the objects in a list are named in its own braces, the figures' in the list
        // after 'in_sample' (a word such as "shakes" or "name" is elsewhere in the help anyway).
        func listed(after start: String, until end: String) throws -> Set<Substring> {
            let from = try #require(help.range(of: start), "\(start) in \(help)")
            let to = try #require(help.range(of: end, range: from.upperBound..<help.endIndex), "\(end) after \(start)")
            return Set(help[from.upperBound..<to.lowerBound].split { $0 == "," || $0 == " " })
        }
        for (keys, start, end) in [(fold.keys, "'folds' ([{", "}]"), (point.keys, "'tradeoff' ([{", "}]"),
                                   (figures.keys, "keys as in 'shake evaluate': ", ")")] {
            let named = try listed(after: start, until: end)
            for key in keys {
                #expect(named.contains(Substring(key)), "key \(key) after \(start)")
            }
        }
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let output = folder.path + "/existing.json"
        try "keep me".write(toFile: output, atomically: true, encoding: .utf8)
        let refused = CapturedRun(["tune", folder.path, "-o", output])
        #expect(refused.status == 73)
        #expect(refused.err.contains("already exists"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let forced = CapturedRun(["tune", folder.path, "-o", output, "--force"])
        #expect(forced.status == 0)
        #expect((try? ConfigurationFile.load(path: output)) != nil)
        #expect(forced.err.hasSuffix("tune: wrote \(output) (load it with --config)\n"), "\(forced.err)")
    }

    @Test func reportIsAWellFormedSVGWithTheChosenPoint() throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let report = folder.path + "/tradeoff.svg"
        let run = CapturedRun(["tune", folder.path, "--report", report])
        #expect(run.status == 0)
        let data = try #require(FileManager.default.contents(atPath: report))
        #expect(XMLParser(data: data).parse())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("class=\"chosen-point\""))
        #expect(text.contains("class=\"curve\"") || text.contains("class=\"tradeoff-point\""))
    }

    @Test(arguments: [
        (["--max-false-per-hour", "lots"], Int32(64)),
        (["--jobs", "0"], Int32(64)),
        (["--max-false-per-hour", "-1"], Int32(64)),
    ])
    func rejectsBadOptions(extra: [String], status: Int32) throws {
        let folder = try PlantedFolder()
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path] + extra)
        #expect(run.status == status)
        #expect(run.err.hasPrefix("Error: "))
    }

    @Test func unlabelledRecordingIsRefused() throws {
        let folder = try PlantedFolder(labelled: false)
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 65)
        #expect(run.err.contains("alpha_1.csv"))
        #expect(run.err.contains(": no 'shake' column; tuning needs labelled recordings (label one with "
            + "'shake convert FILE --shakes START-END,... -o OUT', or --shakes none for one without shakes; '--label-column' names a label column called "
            + "otherwise)"), "\(run.err)")
    }

    /// Recordings without a single labelled shake: recall cannot be measured and the search only
    /// avoids false shakes; said, in text and JSON, and not when there is a shake.
    @Test func recordingsWithoutLabelledShakesAreWarnedOf() throws {
        let folder = try PlantedFolder(files: [("walk_1.csv", 0, 2), ("bag_1.csv", 0, 1)])
        defer { folder.remove() }
        let run = CapturedRun(["tune", folder.path])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("\nWARNING: no recording holds a labelled shake (shake=1), so recall cannot be "
            + "measured: the search only kept false shakes down, and the chosen values may miss every shake. Add "
            + "recordings of the shakes your device should answer, labelled ('shake convert FILE --shakes "
            + "START-END,... -o OUT')\n"), "\(run.out)")
        let json = CapturedRun(["tune", folder.path, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let said = try #require(report["warnings"] as? [String])
        #expect(said.contains { $0.hasPrefix("no recording holds a labelled shake") }, "\(said)")

        let labelled = try PlantedFolder()
        defer { labelled.remove() }
        #expect(!CapturedRun(["tune", labelled.path]).out.contains("no recording holds a labelled shake"))
    }
}
