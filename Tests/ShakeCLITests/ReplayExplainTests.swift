import Foundation
import Testing

/// `shake replay --explain`: the near misses after each file's events, in text and JSON.
@Suite struct ReplayExplainTests {
    /// A canonical CSV at 100 Hz: 2 s of rest, `motion(t)` (linear acceleration, m/s², t from its
    /// start) for `seconds`, then 2 s of rest. Gravity along z.
    static func recording(seconds: Double, _ motion: (Double) -> (Double, Double)) -> String {
        var text = "time_s,x,y,z\n"
        for i in 0..<Int((4 + seconds) * 100) {
            let t = Double(i) / 100
            let (x, y) = t >= 2 && t < 2 + seconds ? motion(t - 2) : (0, 0)
            text += String(format: "%.6f,%.5f,%.5f,9.80665\n", t, x, y)
        }
        return text
    }

    static let g = 9.80665

    /// Three half-waves of a 4 Hz, 3 g shake (0.375 s): one short of a shake.
    static let threeHalfWaves = recording(seconds: 0.375) { t in (3 * g * sin(2 * .pi * 4 * t), 0) }
    /// An ellipse at 3 Hz, 2 g along x and 1.6 g along y for 1.5 s: linked, but not straight.
    static let ellipse = recording(seconds: 1.5) { t in
        (2 * g * sin(2 * .pi * 3 * t), 1.6 * g * cos(2 * .pi * 3 * t))
    }

    /// An ellipse at 2 Hz, 2.5 g along x and half that along y, that turns into a circle after
    /// two turns: at four half-waves, too slow and bent for so short a chain; then, as the
    /// circle bends it further, not straight at all.
    static let ellipseTurningRound = recording(seconds: 1.5) { t in
        let across = t < 1 ? 0.5 : 1
        return (2.5 * g * sin(2 * .pi * 2 * t), across * 2.5 * g * cos(2 * .pi * 2 * t))
    }

    @Test func textListsEachNearMissWithWhy() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let short = try folder.write("short.csv", Self.threeHalfWaves)
        let ellipse = try folder.write("ellipse.csv", Self.ellipse)
        let run = runShake("replay", "--explain", short, ellipse)
        #expect(run.status == 0, "\(run.err)")
        let sections = run.out.components(separatedBy: ellipse + ":")
        #expect(sections.count == 2, "\(run.out)")
        guard sections.count == 2 else { return }
        #expect(sections[0].contains("\(short): 0 shakes in "), "\(sections[0])")
        #expect(sections[0].contains("near misses"))
        #expect(sections[0].contains("3 linked half-waves (minimumHalfWaves 4); no further half-wave before the recording ended"),
                "\(sections[0])")
        #expect(sections[1].contains("refused at "))
        #expect(sections[1].contains("not back and forth along a line: linearity 0."), "\(sections[1])")
        #expect(sections[1].contains("(maximumLinearity 0.50)"))
    }

    /// A row shows up to four peaks: a chain of exactly four shows all four, not three and "+1 more".
    @Test func aRowShowsAllFourPeaksOfAFourHalfWaveChain() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // One turn of ellipseTurningRound's ellipse: four half-waves, too slow and bent for so short a chain.
        let turn = try folder.write("turn.csv", Self.recording(seconds: 1) { t in
            (2.5 * Self.g * sin(2 * .pi * 2 * t), 1.25 * Self.g * cos(2 * .pi * 2 * t))
        })
        let run = runShake("replay", "--explain", turn)
        #expect(run.status == 0, "\(run.err)")
        let rows = run.out.split(separator: "\n").filter { $0.contains("only 4 half-waves, neither quick nor straight") }
        try #require(rows.count == 1, "\(run.out)")
        let columns = rows[0].split(separator: " ")
        #expect(columns[2..<6].allSatisfy { Double($0) != nil } && !rows[0].contains("+1 more"), "\(rows[0])")
    }

    @Test func jsonHasTheNearMissesOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let short = try folder.write("short.csv", Self.threeHalfWaves)
        let ellipse = try folder.write("ellipse.csv", Self.ellipse)
        let run = runShake("replay", "--explain", "--format", "json", short, ellipse)
        #expect(run.status == 0, "\(run.err)")
        let object = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any]
        let files = object?["files"] as? [[String: Any]] ?? []
        #expect(files.count == 2)
        guard files.count == 2 else { return }
        let shortMisses = files[0]["near_misses"] as? [[String: Any]] ?? []
        #expect(shortMisses.count == 1)
        #expect(shortMisses.first?["reason"] as? String == "too_few_half_waves")
        #expect(shortMisses.first?["ended"] as? String == "recording_ended")
        let peaks = shortMisses.first?["peaks_m_s2"] as? [Double] ?? []
        #expect(peaks.count == 3 && peaks.allSatisfy { $0 > 20 && $0 < 32 }, "\(peaks)")
        let start = shortMisses.first?["start_s"] as? Double ?? 0
        #expect(start > 2 && start < 2.1, "\(start)")
        let ellipseMisses = files[1]["near_misses"] as? [[String: Any]] ?? []
        #expect(ellipseMisses.contains { $0["reason"] as? String == "not_straight" }, "\(ellipseMisses)")

        let plain = runShake("replay", "--format", "json", short)
        #expect(plain.status == 0)
        #expect(!plain.out.contains("near_misses"))
    }

    /// A chain refused by one rule and later by another names both: the last first, then the
    /// earlier one when it was first met (naming only the last misled an analysis once), in the
    /// text and as `earlier_reasons` in JSON; a chain refused by one rule has none.
    @Test func aChainRefusedByTwoRulesNamesBoth() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let turning = try folder.write("turning.csv", Self.ellipseTurningRound)
        let ellipse = try folder.write("ellipse.csv", Self.ellipse)
        let text = runShake("replay", "--explain", turning)
        #expect(text.status == 0, "\(text.err)")
        let refused = try #require(text.out.split(separator: "\n").first { $0.contains("refused at ") })
        let parts = refused.components(separatedBy: "; before that, refused at ")
        #expect(parts.count == 2, "\(refused)")
        #expect(parts.first?.contains("not back and forth along a line: linearity") == true, "\(refused)")
        #expect(parts.last?.contains("only 4 half-waves, neither quick nor straight") == true, "\(refused)")

        let run = runShake("replay", "--explain", "--format", "json", turning, ellipse)
        #expect(run.status == 0, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        try #require(files.count == 2)
        let turningMisses = try #require(files[0]["near_misses"] as? [[String: Any]])
        let twice = try #require(turningMisses.first { $0["reason"] as? String == "not_straight" }, "\(turningMisses)")
        #expect(twice["earlier_reasons"] as? [String] == ["short_chain"], "\(twice)")
        let ellipseMisses = try #require(files[1]["near_misses"] as? [[String: Any]])
        #expect(!ellipseMisses.isEmpty)
        for miss in ellipseMisses {
            #expect(miss["earlier_reasons"] as? [String] == [], "\(miss)")
            #expect((miss["why"] as? String)?.contains("before that") == false, "\(miss)")
        }
    }

    /// Motion that never reaches the onset has no near miss, and says how far under it stayed
    /// and when it came closest: what to lower to make such a gesture count.
    @Test func motionUnderTheOnsetSaysHowFarUnder() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // A 3 Hz sway of 0.3 g, strongest at its end (the recording's |l| peaks late).
        let sway = try folder.write("sway.csv", Self.recording(seconds: 2) { t in (0.15 * Self.g * t * sin(2 * .pi * 3 * t), 0) })
        let run = runShake("replay", "--explain", sway)
        #expect(run.status == 0)
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("no near misses") }, "\(run.out)")
        #expect(line.hasPrefix("  no near misses: no half-wave: largest |l| "), "\(line)")
        #expect(line.hasSuffix(" s, under the onset (onsetAcceleration 10.0 m/s²)"), "\(line)")
        let level = try #require(Double(line.components(separatedBy: "largest |l| ")[1].components(separatedBy: " m/s²")[0]))
        #expect(level > 1 && level < 10, "\(line)")

        let shake = try folder.write("shake.csv", Self.recording(seconds: 1.5) { t in (3 * Self.g * sin(2 * .pi * 4 * t), 0) })
        let shaken = runShake("replay", "--explain", shake)
        #expect(shaken.out.contains("  no near misses\n"), "\(shaken.out)")
    }

    /// The README quotes the line for the walking fixture; it must stay what replay prints (it
    /// had gone stale at 4.8 when the detector changed).
    @Test func readmeQuotesTheWalkingFixturesLineAsPrinted() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        let run = runShake("replay", "--explain", repositoryRoot + "/Fixtures/walking_hand_50hz.csv")
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("no near misses: no half-wave") })
        #expect(readme.contains("(`" + line.trimmingCharacters(in: .whitespaces) + "`)"), "\(line)")
    }

    /// A shake is no near miss; what the rules measured as it began is listed instead, in text
    /// and in JSON.
    @Test func aShakeIsNotANearMissButSaysWhatItMeasured() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let shake = try folder.write("shake.csv", Self.recording(seconds: 1.5) { t in (3 * Self.g * sin(2 * .pi * 4 * t), 0) })
        let run = runShake("replay", "--explain", shake)
        #expect(run.status == 0)
        #expect(run.out.contains("1 shake in"))
        #expect(run.out.contains("no near misses"), "\(run.out)")
        let lines = run.out.split(separator: "\n")
        let header = try #require(lines.firstIndex { $0.contains("why each shake began") })
        let measured = lines[header + 1]
        #expect(measured.contains("  on 4 linked half-waves from 2.0"), "\(measured)")
        // All four are accounted for: the fourth links while still rising, before its peak.
        let peaksText = measured.components(separatedBy: "(peaks by then ").last?.components(separatedBy: " m/s²").first
        #expect(peaksText?.split(separator: " ").count == 3, "\(measured)")
        #expect(measured.contains(" m/s², and 1 still rising); "), "\(measured)")
        // Along x only: linearity 0. The open half-wave counts with its peak so far, so the
        // shortest interval may be under the shake's 0.125 s.
        #expect(measured.contains("linearity 0.00 (maximumLinearity 0.50), peaks 0."), "\(measured)")
        #expect(measured.contains(" to 0.13 s apart, ratio ") && measured.hasSuffix("(maximumIntervalRatio 4.0)"),
                "\(measured)")

        let json = runShake("replay", "--explain", "--format", "json", shake)
        #expect(json.status == 0, "\(json.err)")
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        let file = (object?["files"] as? [[String: Any]])?.first
        let began = file?["began_why"] as? [[String: Any]] ?? []
        let events = file?["events"] as? [[String: Any]] ?? []
        #expect(began.count == 1)
        // The same time as the began event's (both there: nil and nil would be equal too).
        let beganAt = try #require(events.first { $0["phase"] as? String == "began" }?["time_s"] as? Double, "\(events)")
        #expect(began.first?["time_s"] as? Double == beganAt, "\(began)")
        #expect((began.first?["why"] as? String)?.hasPrefix("on 4 linked half-waves") == true)
    }

    /// After a shake cancelled as too long the detector's chain goes on from that shake's start:
    /// a near miss refused for want of a pause gives no half-wave count (it gave 89 for a near
    /// miss of 34 peaks), and the others give their own.
    @Test func aNearMissAfterATooLongShakeGivesNoOtherChainsCount() throws {
        let run = runShake("replay", "--explain", "--format", "json", repositoryRoot + "/Fixtures/running_100hz.csv")
        #expect(run.status == 0, "\(run.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let file = try #require((json["files"] as? [[String: Any]])?.first)
        let nearMisses = try #require(file["near_misses"] as? [[String: Any]])
        let pauses = nearMisses.filter { $0["reason"] as? String == "pause_needed" }
        #expect(!pauses.isEmpty)
        for nearMiss in pauses {
            let why = try #require(nearMiss["why"] as? String)
            #expect(why.hasPrefix("refused at ") && !why.contains("half-waves)"), "\(why)")
            #expect(why.contains("a shake was cancelled as too long"), "\(why)")
        }
    }

    @Test func seismicHasNothingToExplain() {
        let run = runShake("replay", "--explain", "--detector", "seismic", repositoryRoot + "/Fixtures/mixed_100hz.csv")
        #expect(run.status == 64)
        #expect(run.err.contains("'--explain'"), "\(run.err)")
        #expect(run.out.isEmpty)
    }

    @Test func helpDescribesExplain() {
        let run = runShake("replay", "--help")
        #expect(run.status == 0)
        #expect(run.out.contains("--explain"))
        #expect(run.out.contains("near misses"))
    }

    /// The README's example (`shake synth shakes`, then `evaluate --list --preset hard`) prints
    /// what the README shows.
    @Test func readmeExampleIsWhatTheToolPrints() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("shakes.csv")
        #expect(runShake("synth", "shakes", "-o", path).status == 0)
        let run = runShake("evaluate", "--list", "--preset", "hard", path)
        #expect(run.status == 0, "\(run.err)")
        let line = try #require(run.out.split(separator: "\n").first { $0.contains("missed shake") })
        let shown = line.replacingOccurrences(of: path, with: "shakes.csv")
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains("\n" + shown + "\n"), "README should show: \(shown)")
    }
}
