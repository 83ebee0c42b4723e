import Foundation
import ShakeDetection
import ShakeRecording
import Testing
@testable import ShakeCLI

/// The tool no longer links Foundation (whose ICU data made a static `shake` 79 MB): what it
/// took from Foundation is now its own or the stdlib's, and gives what Foundation gave. Each test
/// compares with the Foundation call it replaces (the tests may import Foundation: they are not
/// shipped).
@Suite struct FoundationFreeTextTests {
    /// `trimmingWhitespace()` trims what `trimmingCharacters(in: .whitespaces)` trimmed, for every
    /// scalar of the Basic Multilingual Plane (every Zs space is there) at either end.
    @Test func trimmingMatchesFoundationForEveryScalar() {
        var differences: [String] = []
        for value in UInt32(0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)a\(scalar)b\(scalar)"
            let expected = text.trimmingCharacters(in: .whitespaces)
            if text.trimmingWhitespace() != expected, differences.count < 10 {
                differences.append(String(value, radix: 16))
            }
        }
        #expect(differences.isEmpty, "scalars trimmed differently: \(differences)")
    }

    @Test(arguments: [
        "", " ", "\t \u{A0}\u{3000}", "undo", "  undo\t", "\u{A0}redo\u{2009}", " \u{301}undo", "undo \u{301}",
        "\nundo\n", "\u{200B}cancel\u{200B}", "\u{FEFF}undo", " é ", " e\u{301} ", "\u{1680}x\u{205F}", "\u{180E}x",
    ])
    func trimmingMatchesFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    static let values: [Double] = [
        0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.0005, 1.0005, 2.675, -0.0004, 0.00049999, 9.99995, 123.45678,
        1e15, -1e15 - 0.5, 123456789012.34567, 1e300, -1e-300, .leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
        Double.leastNormalMagnitude, .nan, -.nan, .infinity, -.infinity, 0.1 + 0.2, 1 / 3, -2 / 3,
    ]

    /// `fixed` (every fixed-decimals number the tool prints) is `String(format: "%.Nf")`.
    @Test(arguments: values)
    func fixedDecimalsMatchStringFormat(value: Double) {
        for decimals in 0...6 {
            #expect(fixed(value, decimals) == String(format: "%.\(decimals)f", value), "\(value), \(decimals)")
        }
        #expect(fixed(nil, 2) == "-")
    }

    /// `tune`'s and `config`'s numbers (`0.5`, `12`, `0.0123`) as they were.
    @Test(arguments: values)
    func tuneNumbersMatchStringFormat(value: Double) {
        func before(_ value: Double) -> String {
            if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
            var text = String(format: "%.4f", value)
            while text.hasSuffix("0") { text.removeLast() }
            return text
        }
        #expect(TuneCommand.number(value) == before(value))
    }

    /// The device level warning's 1 to 3 significant figures, as they were, down to the smallest
    /// subnormal (326 decimals: a scale such as 1e-70 reads as 0.000…0001).
    @Test(arguments: values + [0.00479, 19.6, 9.80665, 0.000598, 1e-12, 1.234e-40, -5.678e-62, 1e-62, 1e-70, 3.3e7])
    func deviceLevelNumbersMatchStringFormat(value: Double) {
        func before(_ value: Double, figures: Int) -> String {
            guard value.isFinite, value != 0 else { return value == 0 ? "0" : "\(value)" }
            let decimals = max(0, figures - 1 - Int(log10(value.magnitude).rounded(.down)))
            var text = String(format: "%.\(decimals)f", value)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text
        }
        for figures in 1...3 {
            #expect(DeviceLevelCheck.number(value, figures: figures) == before(value, figures: figures), "\(value)")
        }
    }

    /// `config --diff` and `tune --range` read a preset's values as JSONSerialization did.
    @Test(arguments: ["light", "medium", "hard"])
    func presetValuesMatchJSONSerialization(preset: String) throws {
        let configuration = try #require(ShakeConfiguration.preset(named: preset))
        let object = try #require(
            JSONSerialization.jsonObject(with: ConfigurationFile.encode(configuration)) as? [String: Any])
        let expected = object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        #expect(expected.count == object.count)
        #expect(ConfigCommand.values(configuration) == expected)
    }

    /// `config --diff` prints a value of 16 or 17 digits (as `tune` writes 7 × 0.35) as the file
    /// and `shake config` give it: JSONSerialization read 2.4499999999999997 back as
    /// 2.4499999999999993, and the diff printed that.
    @Test func diffPrintsLongValuesAsConfigDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write("tuned.json", """
            {"onsetAcceleration": 7, "releaseAcceleration": 2.4499999999999997, "quietSeconds": 0.30000000000000004}
            """)
        let printed = runShake("config", "--config", file)
        #expect(printed.out.contains("\"releaseAcceleration\" : 2.4499999999999997,"))
        #expect(printed.out.contains("\"quietSeconds\" : 0.30000000000000004,"))
        let diff = runShake("config", "--config", file, "--diff", "medium")
        #expect(diff.status == 0)
        let lines = diff.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("releaseAcceleration 2.4499999999999997 m/s² (medium: 5 m/s²)"), "\(diff.out)")
        #expect(lines.contains("quietSeconds 0.30000000000000004 s (medium: 0.4 s)"), "\(diff.out)")
    }

    /// `replay` and `evaluate` tell folders from files as FileManager did (links followed).
    @Test func isFolderMatchesFileManager() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write("a.csv", "time_s,x,y,z\n")
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.file("to-sub"), withDestinationPath: "sub")
        try FileManager.default.createSymbolicLink(atPath: folder.file("to-file"), withDestinationPath: "a.csv")
        try FileManager.default.createSymbolicLink(atPath: folder.file("dangling"), withDestinationPath: "gone")
        let paths = [file, folder.path, folder.path + "/", folder.file("sub"), folder.file("to-sub"),
                     folder.file("to-sub/"), folder.file("to-file"), folder.file("dangling"), folder.file("missing"),
                     file + "/", "", "/", "/dev/null"]
        for path in paths {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            #expect(isFolder(path) == (exists ? isDirectory.boolValue : nil), "\(path)")
        }
    }
}
