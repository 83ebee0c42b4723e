import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ShakeDetection
@testable import ShakeRecording
import Testing

/// The elements of an SVG document, parsed with Foundation's XMLParser.
final class SVGElements: NSObject, XMLParserDelegate {
    private(set) var elements: [(name: String, attributes: [String: String])] = []
    private(set) var texts: [String] = []
    private var inText = false

    /// Parses `svg`; nil when it is not well-formed XML.
    static func parse(_ svg: String) -> SVGElements? {
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = SVGElements()
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append((elementName, attributes))
        if elementName == "text" {
            inText = true
            texts.append("")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "text" { inText = false }
    }

    /// Elements whose `class` attribute holds `name`.
    func withClass(_ name: String, element: String? = nil) -> [[String: String]] {
        elements.filter { item in
            (element == nil || item.name == element)
                && (item.attributes["class"]?.split(separator: " ").contains { $0 == name } ?? false)
        }.map(\.attributes)
    }
}

@Suite struct PlotTests {
    static func plot(rate: Double = 100, from: Double? = nil, to: Double? = nil) -> (RecordingPlot, [ShakeEvent], Int) {
        let (samples, labels) = PlantedMotion.motion(shakes: 3, distractors: 2, rate: rate)
        var detector = ShakeDetector(configuration: .medium)
        var events = samples.compactMap { detector.process($0) }
        if let event = detector.interrupt(at: samples.last!.time) { events.append(event) }
        var plot = RecordingPlot(title: "planted_1.csv", subtitle: "test", samples: samples, labels: labels,
                                 events: events, thresholds: RecordingPlot.thresholds(of: .medium))
        plot.from = from
        plot.to = to
        return (plot, events, 3)
    }

    @Test func recordingPlotIsWellFormedWithEveryElement() throws {
        let (plot, events, shakes) = Self.plot()
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.elements.first?.name == "svg")
        for axis in ["series-x", "series-y", "series-z", "series-linear"] {
            #expect(svg.withClass(axis, element: "path").count == 1, "\(axis)")
        }
        // The onset and release lines, at medium's levels.
        #expect(RecordingPlot.thresholds(of: .medium).map(\.metersPerSecondSquared)
                == [ShakeConfiguration.medium.onsetAcceleration, ShakeConfiguration.medium.releaseAcceleration])
        #expect(svg.withClass("threshold", element: "line").count == 2)
        #expect(svg.texts.contains { $0.hasPrefix("onset ") } && svg.texts.contains { $0.hasPrefix("release ") })
        #expect(svg.withClass("shake-band", element: "rect").count == shakes)
        let began = events.filter { $0.phase == .began }
        #expect(!began.isEmpty)
        #expect(svg.withClass("event-began").count == began.count)
        #expect(svg.withClass("event-ended").count == events.filter { $0.phase == .ended }.count)
        // Readable axes with units, a title, a legend.
        #expect(svg.texts.contains("time (s)"))
        #expect(svg.texts.contains { $0.contains("m/s²") })
        #expect(svg.texts.contains("planted_1.csv"))
        #expect(svg.withClass("legend").count == 1)
        // Markers carry their times.
        #expect(svg.texts.contains(String(format: "began %.2f s", began[0].time)))
    }

    /// A title or subtitle from a file name with control characters (or an XML-forbidden
    /// U+FFFF), and a time range wider than the largest Double: still well-formed XML, with
    /// no NaN (the first had been written as it was, the second trapped).
    @Test func oddNamesAndHugeRangesStillMakeWellFormedXML() throws {
        var (plot, _, _) = Self.plot()
        plot.title = "ctl\u{01}\u{1B}x & <y>.csv"
        plot.subtitle = "configuration c\u{07}\u{FFFF}.json\ttab"
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.texts.contains("ctl\u{FFFD}\u{FFFD}x & <y>.csv"), "\(svg.texts)")
        plot.from = -1e308
        plot.to = 1e308
        let text = plot.svg()
        #expect(SVGElements.parse(text) != nil)
        #expect(!text.contains("nan") && !text.contains("inf"))
    }

    // Defect: a time range to 1e308 s wrote every tick with its 309 digits.
    @Test func ticksOfAHugeTimeRangeArePowersOfTen() throws {
        var (plot, _, _) = Self.plot()
        plot.from = 0
        plot.to = 1e308
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.texts.contains("1e307") && svg.texts.contains("2.5e307") == false && svg.texts.contains("1e308"),
                "\(svg.texts)")
        #expect(svg.texts.allSatisfy { $0.count < 120 }, "\(svg.texts.map(\.count).max() ?? 0)")
        #expect(FixedDecimals.formatReadably(-2.5e15, decimals: 2) == "-2.5e15")
        #expect(FixedDecimals.formatReadably(9.996e20, decimals: 2) == "1e21")
        #expect(FixedDecimals.formatReadably(999_999_999_999.5, decimals: 2) == "999999999999.50")
        #expect(FixedDecimals.formatReadably(1_700_000_000.25, decimals: 1) == "1700000000.2")
    }

    // Defect: a width of NaN stopped the program (a Double that cannot be an Int), and a width
    // of a few pixels or less drew a picture with nothing in it.
    @Test(arguments: [(Double.nan, "1200"), (.infinity, "1200"), (0, "400"), (-50, "400"), (399, "400"), (900, "900")])
    func aWidthThatCannotBeDrawnIsNot(width: Double, drawn: String) throws {
        var (plot, _, _) = Self.plot()
        plot.width = width
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.elements.first?.attributes["width"] == drawn)
        #expect(svg.withClass("series-linear", element: "path").first?["d"]?.isEmpty == false)
    }

    @Test func plotIsSelfContained() throws {
        let text = Self.plot().0.svg()
        // A whole plot (its curves and title), with nothing it would fetch or run.
        let svg = try #require(SVGElements.parse(text))
        #expect(svg.withClass("series", element: "path").count >= 3 && svg.texts.contains("planted_1.csv"))
        for forbidden in ["<script", "href", "@import", "url(", "@font-face"] {
            #expect(!text.contains(forbidden), "\(forbidden)")
        }
    }

    @Test func longRecordingsAreDownsampledPerPixelColumn() throws {
        // 1600 Hz for 19.5 s: about 31 000 samples, far more than the 1180 pixel columns.
        let (plot, _, _) = Self.plot(rate: 1600)
        #expect(plot.samples.count > 30_000)
        let text = plot.svg()
        #expect(text.utf8.count < 200_000)
        let svg = try #require(SVGElements.parse(text))
        let path = try #require(svg.withClass("series-x", element: "path").first?["d"])
        let points = path.filter { $0 == "L" || $0 == "M" }.count
        #expect(points <= 2 * Int(plot.width))
    }

    @Test func timeRangeLimitsWhatIsDrawn() throws {
        // From 1 to 4 s: only the first planted shake (2 to 3.5 s) lies in range.
        let (from, to) = (1.0, 4.0)
        let (plot, events, _) = Self.plot(from: from, to: to)
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.withClass("shake-band").count == 1)
        // One shake began in range and others after it: the marker of the one is drawn, the rest are not.
        let began = events.filter { $0.phase == .began }
        let inRange = began.filter { $0.time >= from && $0.time <= to }
        #expect(inRange.count == 1 && began.count > inRange.count, "began at \(began.map(\.time))")
        #expect(svg.withClass("event-began").count == inRange.count)
        #expect(svg.texts.contains(String(format: "began %.2f s", inRange.first?.time ?? -1)))
        // The curves hold the samples from 1 to 4 s only: from the frame's left edge to its right.
        let frame = try #require(svg.withClass("frame").first)
        let left = try #require(frame["x"].flatMap(Double.init))
        let right = left + (try #require(frame["width"].flatMap(Double.init)))
        let series = svg.withClass("series", element: "path")
        #expect(series.count == 4)
        for path in series {
            let xs = PlotGapTests.pieces(path["d"] ?? "").flatMap { $0 }
            let (first, last) = (try #require(xs.min()), try #require(xs.max()))
            #expect(abs(first - left) < 1 && abs(last - right) < 1,
                    "\(path["class"] ?? ""): drawn from x \(first) to \(last), the frame from \(left) to \(right)")
        }
    }

    /// A label that would run past the right end of the panel is drawn to the left of its marker.
    @Test func eventLabelNearTheEndStaysInside() throws {
        var (plot, _, _) = Self.plot()
        let last = try #require(plot.samples.last?.time)
        plot.events = [ShakeEvent(phase: .began, time: last - 0.1, startTime: last - 0.6, endTime: last - 0.1,
                                  peakAcceleration: 20, reversals: 4, dominantAxis: .x),
                       ShakeEvent(phase: .began, time: 5, startTime: 4.5, endTime: 5, peakAcceleration: 20,
                                  reversals: 4, dominantAxis: .x)]
        let svg = try #require(SVGElements.parse(plot.svg()))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        let late = try #require(texts.first { $0.1 == String(format: "began %.2f s", last - 0.1) }?.0)
        let early = try #require(texts.first { $0.1 == "began 5.00 s" }?.0)
        #expect(late["text-anchor"] == "end", "\(late)")
        #expect(early["text-anchor"] == "start", "\(early)")
        let markers = svg.withClass("event-line").compactMap { $0["x1"].flatMap(Double.init) }.sorted()
        #expect(Double(late["x"] ?? "") ?? .infinity < markers.last ?? 0)
    }

    @Test func tradeoffPlotShowsCurveAndChosenPoint() throws {
        var options = TuningOptions()
        options.axes = [PlantedMotion.thresholdAxis]
        var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options)
        let result = try tuner.run()
        let svg = try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg()))
        #expect(svg.withClass("tradeoff-point").count == result.tradeoff.count)
        #expect(svg.withClass("chosen-point").count == 1)
        #expect(svg.withClass("budget-line").count == 1)
        #expect(svg.withClass("validated-point").count == 1)
        #expect(svg.texts.contains { $0.contains("false shakes per hour") })
        #expect(svg.texts.contains { $0.hasPrefix("recall") })
        // The reference, untuned, is drawn with its figures: what tuning is measured against.
        #expect(svg.withClass("reference-point").count == 1)
        let reference = result.referenceSummary
        #expect(svg.texts.contains("medium, not tuned: recall " + String(format: "%.3f", reference.recall ?? -1) + ", "
            + String(format: "%.2f", reference.falsePerHour ?? -1) + " false/h"), "\(svg.texts)")
        #expect(svg.texts.contains("medium, not tuned"))
        var based = TradeoffPlot(result: result, title: "trade-off")
        based.referenceName = "base"
        #expect(SVGElements.parse(based.svg())?.texts.contains("base, not tuned") == true)
        // A point at 0 false shakes per hour (the chosen ring, radius 10) stays clear of the recall
        // axis's labels, which end 8 px left of the frame.
        let frame = try #require(svg.withClass("frame").first?["x"].flatMap(Double.init))
        let chosen = try #require(svg.withClass("chosen-point").first?["cx"].flatMap(Double.init))
        #expect(chosen - 10 > frame, "ring at \(chosen), frame at \(frame)")
    }

    /// One pass of the detector gives what `process(_:)` gives (events, with the last shake
    /// interrupted), `|l|` per sample within reach of the half-wave peaks, and every half-wave;
    /// drawn, the linear panel is the detector's `|l|` with a dot on each peak, filled when it
    /// linked and hollow when it started a chain.
    @Test func detectorViewIsDrawnOnTheLinearPanel() throws {
        let (plain, events, _) = Self.plot()
        let view = RecordingPlot.detectorView(plain.samples, configuration: .medium)
        #expect(view.events == events)
        #expect(view.linear.count == plain.samples.count)
        // The planted motion holds still for 2 s around every 1.5 s oscillation, so every 4 s
        // (`ongoingMotionSeconds`) hold a still half-second: no ongoing motion.
        #expect(view.ongoingMotion.isEmpty, "\(view.ongoingMotion)")
        // Judged over 1 s instead, each of the five oscillations (starting at 2, 5.5, 9, 12.5 and
        // 16 s) is ongoing motion from within it until the first still half-second after it.
        var brief = ShakeConfiguration.medium
        brief.ongoingMotionSeconds = 1
        let spans = RecordingPlot.detectorView(plain.samples, configuration: brief).ongoingMotion
        #expect(spans.count == 5, "\(spans)")
        for (span, start) in zip(spans, stride(from: 2.0, through: 16, by: 3.5)) {
            #expect(span.lowerBound > start && span.lowerBound < start + 1.5 && span.upperBound > start + 1.5
                    && span.upperBound <= start + 2.5, "\(span) for the oscillation at \(start) s")
        }
        let linked = view.halfWaves.filter { if case .linked = $0.link { true } else { false } }
        #expect(linked.count >= 3 * 3, "three shakes of four or more half-waves: \(linked.count) linked")
        // Each peak is interpolated between samples: at or a little above the largest |l| near it.
        for halfWave in view.halfWaves {
            let near = zip(plain.samples, view.linear).filter { abs($0.0.time - halfWave.peakTime) <= 0.02 }.map(\.1)
            let largest = near.max() ?? 0
            #expect(halfWave.peakAcceleration >= largest - 1e-9 && halfWave.peakAcceleration <= largest * 1.2,
                    "peak \(halfWave.peakAcceleration) at \(halfWave.peakTime) s, |l| up to \(largest) near it")
        }

        var plot = plain
        plot.linear = view.linear
        plot.halfWaves = view.halfWaves
        plot.ongoingMotion = view.ongoingMotion
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.withClass("ongoing-motion").isEmpty && !svg.texts.contains("ongoing motion"), "no grey band")
        var banded = plot
        banded.ongoingMotion = spans
        let bands = try #require(SVGElements.parse(banded.svg()))
        #expect(bands.withClass("ongoing-motion").count == spans.count && bands.texts.contains("ongoing motion"))
        #expect(svg.withClass("half-wave-linked", element: "circle").count == linked.count)
        #expect(svg.withClass("half-wave-unlinked", element: "circle").count == view.halfWaves.count - linked.count)
        #expect(svg.texts.contains { $0.hasPrefix("linear acceleration as the detector sees it") })
        #expect(svg.texts.contains("|l|") && !svg.texts.contains("|a − gravity|"))
        #expect(SVGElements.parse(plain.svg())?.texts.contains("|a − gravity|") == true)

        // Over the limit, no dots, and a note says how many there were.
        plot.halfWaves = Array(repeating: view.halfWaves[0], count: RecordingPlot.maximumHalfWavesDrawn + 1)
        let crowded = try #require(SVGElements.parse(plot.svg()))
        #expect(crowded.withClass("half-wave", element: "circle").isEmpty)
        #expect(crowded.texts.contains { $0.hasPrefix("\(RecordingPlot.maximumHalfWavesDrawn + 1) half-waves in view") })
    }

    /// The ticks drawn (not only the scale's bounds): whole multiples of a step of 1, 2, 2.5 or 5
    /// times a power of ten, one step apart, from at or below the minimum to at or above the maximum.
    @Test(arguments: [(0.0, 12.0), (-3.0, 41.0), (0.0, 0.9), (9.5, 10.0)])
    func ticksAreNiceAndCoverTheRange(minimum: Double, maximum: Double) throws {
        let scale = PlotScale(minimum, maximum)
        #expect(scale.lower <= minimum && scale.upper >= maximum)
        let mantissa = scale.step / pow(10, log10(scale.step).rounded(.down))
        #expect([1, 2, 2.5, 5, 10].contains { abs($0 - mantissa) < 1e-9 })
        let ticks = scale.ticks
        #expect((3...12).contains(ticks.count))
        let (first, last) = (try #require(ticks.first), try #require(ticks.last))
        #expect(first <= minimum && last >= maximum, "ticks \(ticks) for \(minimum) to \(maximum)")
        #expect(ticks.allSatisfy { abs($0 / scale.step - ($0 / scale.step).rounded()) < 1e-9 },
                "ticks \(ticks), step \(scale.step)")
        #expect(zip(ticks, ticks.dropFirst()).allSatisfy { abs($1 - $0 - scale.step) < 1e-9 * scale.step },
                "ticks \(ticks), step \(scale.step)")
    }
}

@Suite struct OngoingMotionSpanTests {
    /// The synthesized walk of `Fixtures/walking_pocket_100hz.csv`: standing 2 s, walking until
    /// 28 s, standing 2 s. Ongoing motion starts once 4 s of the walk have gone by without a pause
    /// and ends with the first still half-second after it.
    @Test func spansCoverTheWalkFromItsFifthSecond() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        var reader = try RecordingReader(path: url.path + "/Fixtures/walking_pocket_100hz.csv")
        var samples: [Sample] = []
        while let row = try reader.next() { samples.append(row.sample) }
        let spans = RecordingPlot.ongoingMotion(samples, configuration: .medium)
        #expect(spans.count == 1, "\(spans)")
        let span = try #require(spans.first)
        #expect(span.lowerBound >= 6 && span.lowerBound <= 7, "\(span)")
        #expect(span.upperBound >= 28 && span.upperBound <= 29.5, "\(span)")

        var off = ShakeConfiguration.medium
        off.ongoingMotionSeconds = 0
        #expect(RecordingPlot.ongoingMotion(samples, configuration: off).isEmpty)
    }
}

extension PlotTests {
    /// Ten seconds of a slow sway, a sample every 0.25 s (times a Double holds exactly), drawn
    /// 1200 px wide: the frames run from x 78 to 1180, 110.2 px a second over the whole recording.
    static let quarterSeconds = (0...40).map { index in
        let t = Double(index) / 4
        return Sample(time: t, x: sin(t), y: 0.5 * cos(t), z: 9.81)
    }

    /// The frame's left and right edges, px.
    static func frameEdges(_ svg: SVGElements) throws -> (left: Double, right: Double) {
        let frame = try #require(svg.withClass("frame").first)
        let left = try #require(frame["x"].flatMap(Double.init))
        return (left, left + (try #require(frame["width"].flatMap(Double.init))))
    }

    /// The time axis's labels (under the lower panel, 17 px below its frame): each one's x, px,
    /// and its text, left to right.
    static func timeLabels(_ svg: SVGElements) throws -> [(x: Double, text: String)] {
        let frame = try #require(svg.withClass("frame").last)
        let bottom = (try #require(frame["y"].flatMap(Double.init))) + (try #require(frame["height"].flatMap(Double.init)))
        return zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts).compactMap { attributes, text in
            guard attributes["y"].flatMap(Double.init) == bottom + 17, let x = attributes["x"].flatMap(Double.init) else { return nil }
            return (x, text)
        }
    }

    /// A band's left and right edges, px.
    static func edges(_ band: [String: String]) -> (left: Double, right: Double) {
        let x = band["x"].flatMap(Double.init) ?? .nan
        return (x, x + (band["width"].flatMap(Double.init) ?? .nan))
    }

    /// The sensor saturation's level is drawn in the raw panel even when the samples stay far
    /// below it: the panel's scale takes in ±saturation, so both dotted lines lie in its frame.
    @Test func saturationLinesLieInTheRawPanel() throws {
        var plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds)
        plot.saturation = 27
        let svg = try #require(SVGElements.parse(plot.svg()))
        let frame = try #require(svg.withClass("frame").first)
        let top = try #require(frame["y"].flatMap(Double.init))
        let bottom = top + (try #require(frame["height"].flatMap(Double.init)))
        let lines = svg.withClass("saturation", element: "line").compactMap { $0["y1"].flatMap(Double.init) }
        #expect(lines.count == 2)
        for y in lines { #expect(y >= top && y <= bottom, "a saturation line at y \(y), the raw panel from \(top) to \(bottom)") }
    }

    /// `saturation(of:)` is the configuration's level, and nil for one set to `.infinity` (the
    /// detector's way to disable it), so no line is drawn at an infinite level.
    @Test func saturationOfADisabledLevelIsNone() {
        var configuration = ShakeConfiguration.medium
        #expect(RecordingPlot.saturation(of: configuration) == configuration.saturationAcceleration)
        configuration.saturationAcceleration = .infinity
        #expect(RecordingPlot.saturation(of: configuration) == nil)
    }

    /// With a time constant of 0 the gravity estimate is each sample itself, so `|a − g|` is 0
    /// throughout (no 0/0 at the first sample, which has no interval before it).
    @Test func linearMagnitudesWithoutSmoothingAreZero() {
        let linear = RecordingPlot.linearMagnitudes(Self.quarterSeconds, timeConstantSeconds: 0)
        #expect(linear.count == Self.quarterSeconds.count)
        #expect(linear.allSatisfy { $0 < 1e-12 }, "\(linear.prefix(3))")
    }

    /// A sample stamped earlier than the one before it counts as no time passed: the gravity
    /// estimate holds, so the same reading again gives the same `|a − g|` as before.
    @Test func aSampleBackInTimeHoldsTheGravityEstimate() {
        let samples = [Sample(time: 0, x: 0, y: 0, z: 9.81), Sample(time: 1, x: 5, y: 0, z: 9.81),
                       Sample(time: 0.5, x: 5, y: 0, z: 9.81)]
        let linear = RecordingPlot.linearMagnitudes(samples, timeConstantSeconds: 0.5)
        #expect(linear[1] > 0 && abs(linear[2] - linear[1]) < 1e-12, "\(linear)")
    }

    /// A labelled shake is a band from its first to its last `shake = 1` sample, one that runs
    /// to the recording's end included; a run of one sample is still a band 1 px wide.
    @Test func labelledShakeBandsSpanTheirLabelledSamples() throws {
        let labels = Self.quarterSeconds.map { ($0.time >= 2 && $0.time <= 4) || $0.time == 6 || $0.time >= 8 }
        let plot = RecordingPlot(title: "bands.csv", samples: Self.quarterSeconds, labels: labels)
        let svg = try #require(SVGElements.parse(plot.svg()))
        let (left, right) = try Self.frameEdges(svg)
        let perSecond = (right - left) / 10
        let bands = svg.withClass("shake-band").map(Self.edges)
        #expect(bands.count == 3, "\(bands)")
        for (band, (from, to)) in zip(bands, [(2.0, 4.0), (6.0, 6.0), (8.0, 10.0)]) {
            #expect(abs(band.left - (left + from * perSecond)) < 0.01, "\(band) for \(from) to \(to) s")
            #expect(abs(band.right - (left + max(to * perSecond, from * perSecond + 1))) < 0.01, "\(band) for \(from) to \(to) s")
        }
    }

    /// Bands reaching past the time range drawn stop at the frame: a labelled shake that began
    /// before `from`, and ongoing motion that goes on after `to`.
    @Test func bandsAreCutAtTheRangeDrawn() throws {
        var plot = RecordingPlot(title: "bands.csv", samples: Self.quarterSeconds,
                                 labels: Self.quarterSeconds.map { $0.time >= 2 && $0.time <= 4 })
        plot.ongoingMotion = [5...9]
        plot.from = 3
        plot.to = 7
        let svg = try #require(SVGElements.parse(plot.svg()))
        let (left, right) = try Self.frameEdges(svg)
        let shake = try #require(svg.withClass("shake-band").first.map(Self.edges))
        #expect(abs(shake.left - left) < 0.01 && abs(shake.right - (left + (right - left) / 4)) < 0.01, "\(shake)")
        let ongoing = try #require(svg.withClass("ongoing-motion").first.map(Self.edges))
        #expect(abs(ongoing.left - (left + (right - left) / 2)) < 0.01 && abs(ongoing.right - right) < 0.01, "\(ongoing)")
    }

    /// `quarterSeconds` drawn from `from` to `to`, s, parsed.
    static func drawn(from: Double, to: Double) throws -> SVGElements {
        var plot = RecordingPlot(title: "range.csv", samples: quarterSeconds)
        plot.from = from
        plot.to = to
        return try #require(SVGElements.parse(plot.svg()))
    }

    /// A time range from one sample to another draws both: the curves start at the frame's left
    /// edge and end at its right edge.
    @Test func samplesAtTheRangesEndsAreDrawn() throws {
        let svg = try Self.drawn(from: 2, to: 4)
        let (left, right) = try Self.frameEdges(svg)
        for path in svg.withClass("series", element: "path") {
            let xs = PlotGapTests.pieces(path["d"] ?? "").flatMap { $0 }
            #expect(xs.min() == left && xs.max() == right, "\(path["class"] ?? ""): \(xs.min() ?? 0) to \(xs.max() ?? 0)")
        }
    }

    /// A range of no length (`from` equal to `to`) draws the second from there: the time axis
    /// is labelled from 2.0 to 3.0 s.
    @Test func aRangeOfNoLengthDrawsASecond() throws {
        let svg = try Self.drawn(from: 2, to: 2)
        let times = try Self.timeLabels(svg).map(\.text)
        #expect(times.first == "2.0" && times.last == "3.0", "\(times)")
    }

    /// `linear` is drawn only when it holds one value per sample; otherwise the plot's own
    /// `|a − gravity|` is drawn, and the legend and the panel say so.
    @Test func aLinearSeriesOfAnotherLengthIsNotDrawn() throws {
        var plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds)
        plot.linear = Array(repeating: 3, count: Self.quarterSeconds.count + 1)
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.texts.contains("|a − gravity| (m/s²)") && !svg.texts.contains("|l| (m/s²)"), "\(svg.texts)")
        #expect(svg.texts.contains { $0.hasPrefix("linear acceleration (gravity: one-pole low-pass") }, "\(svg.texts)")
    }

    /// The time ticks drawn lie in the frame: a range starting between two ticks labels none
    /// left of the frame's edge (the scale is rounded outward to whole steps).
    @Test func timeTicksLieInTheFrame() throws {
        let svg = try Self.drawn(from: 2.25, to: 7.75)
        let (left, right) = try Self.frameEdges(svg)
        let ticks = try Self.timeLabels(svg).map(\.x)
        #expect(!ticks.isEmpty)
        for x in ticks { #expect(x >= left - 0.5 && x <= right + 0.5, "a time label at x \(x), the frame from \(left) to \(right)") }
    }

    /// The half-wave dots lie in the linear panel even where a peak stands above the curve
    /// (the panel's scale takes in the peaks drawn).
    @Test func halfWaveDotsLieInTheLinearPanel() throws {
        var plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds, thresholds: RecordingPlot.thresholds(of: .medium))
        plot.linear = Array(repeating: 1, count: Self.quarterSeconds.count)
        plot.halfWaves = [ShakeExplanation.HalfWave(startTime: 4.5, peakTime: 5, peakAcceleration: 40, chainHalfWaves: 1,
                                                    link: .nothingBefore)]
        let svg = try #require(SVGElements.parse(plot.svg()))
        let frame = try #require(svg.withClass("frame").last)
        let top = try #require(frame["y"].flatMap(Double.init))
        let dot = try #require(svg.withClass("half-wave", element: "circle").first?["cy"].flatMap(Double.init))
        #expect(dot >= top, "a dot at y \(dot), the panel's top at \(top)")
    }

    /// Up to `maximumHalfWavesDrawn` half-waves in view are drawn; one more, and none is, with a note.
    @Test(arguments: [RecordingPlot.maximumHalfWavesDrawn, RecordingPlot.maximumHalfWavesDrawn + 1])
    func halfWavesAreDrawnUpToTheLimit(count: Int) throws {
        var plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds)
        plot.halfWaves = Array(repeating: ShakeExplanation.HalfWave(startTime: 4.5, peakTime: 5, peakAcceleration: 2,
                                                                    chainHalfWaves: 1, link: .nothingBefore), count: count)
        let svg = try #require(SVGElements.parse(plot.svg()))
        let drawn = count <= RecordingPlot.maximumHalfWavesDrawn
        #expect(svg.withClass("half-wave", element: "circle").count == (drawn ? count : 0))
        #expect(svg.withClass("half-waves-omitted", element: "text").count == (drawn ? 0 : 1))
    }

    /// The legend names what the plot holds: half-wave peaks and labelled shakes only when
    /// there are some.
    @Test(arguments: [false, true])
    func legendNamesOnlyWhatIsDrawn(holdsThem: Bool) throws {
        var plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds,
                                 labels: holdsThem ? Self.quarterSeconds.map { $0.time == 5 } : nil)
        if holdsThem {
            plot.halfWaves = [ShakeExplanation.HalfWave(startTime: 4.5, peakTime: 5, peakAcceleration: 2, chainHalfWaves: 1,
                                                        link: .nothingBefore)]
        }
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.texts.contains("half-wave peak") == holdsThem)
        #expect(svg.texts.contains("labelled shake") == holdsThem)
    }

    /// Text the SVG may not hold as it is becomes U+FFFD (U+FFFE among them); a tab is kept.
    @Test(arguments: [("tab\there.csv", "tab\there.csv"), ("odd\u{FFFE}.csv", "odd\u{FFFD}.csv")])
    func titleKeepsWhatXMLAllows(title: String, drawn: String) throws {
        let svg = try #require(SVGElements.parse(RecordingPlot(title: title, samples: Self.quarterSeconds).svg()))
        #expect(svg.texts.contains(drawn), "\(svg.texts.prefix(2))")
    }

    /// The threshold lines' labels on a calm recording: the first at the panel's right end
    /// (anchored at its end), the second at its left end, each 5 px above its line.
    @Test func thresholdLabelsSitAboveTheirLinesAtThePanelsEnds() throws {
        let plot = RecordingPlot(title: "calm.csv", samples: Self.quarterSeconds, thresholds: RecordingPlot.thresholds(of: .medium))
        let svg = try #require(SVGElements.parse(plot.svg()))
        let (left, right) = try Self.frameEdges(svg)
        let lines = svg.withClass("threshold", element: "line").compactMap { $0["y1"].flatMap(Double.init) }
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        for (index, name) in ["onset", "release"].enumerated() {
            let label = try #require(texts.first { $0.1.hasPrefix(name + " ") && $0.1.hasSuffix(" m/s²") }?.0)
            #expect(label["text-anchor"] == (index == 0 ? "end" : "start"), "\(name): \(label)")
            #expect(label["x"].flatMap(Double.init) == (index == 0 ? right - 4 : left + 4), "\(name): \(label)")
            #expect(abs((label["y"].flatMap(Double.init) ?? 0) - (lines[index] - 5)) < 0.011, "\(name): \(label)")
        }
    }

    /// The note naming thresholds without a label: one line, two lines, or a list of three.
    @Test(arguments: [(["release 0.6 m/s²"], "no room to label the line of release 0.6 m/s²"),
                      (["onset 1.2 m/s²", "release 0.6 m/s²"], "no room to label the lines of onset 1.2 m/s² and release 0.6 m/s²"),
                      (["a 1 m/s²", "b 2 m/s²", "c 3 m/s²"], "no room to label the lines of a 1 m/s², b 2 m/s² and c 3 m/s²")])
    func unlabelledThresholdsAreNamed(texts: [String], note: String) {
        #expect(RecordingPlot.unlabelledThresholdsNote(texts) == note)
    }
}

extension PlotTests {
    /// The planted corpus tuned over the onset threshold, drawn as `shake tune --report` draws it.
    static func tradeoffSVG() throws -> (TuningResult, SVGElements) {
        var options = TuningOptions()
        options.axes = [PlantedMotion.thresholdAxis]
        var tuner = Tuner(recordings: PlantedMotion.corpus(), options: options)
        let result = try tuner.run()
        return (result, try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg())))
    }

    /// Each budget's point is filled when its configuration met the budget, hollow when not, in
    /// budget order.
    @Test func tradeoffPointsAreFilledWhenTheyMetTheirBudget() throws {
        let (result, svg) = try Self.tradeoffSVG()
        let drawn = result.tradeoff.sorted { $0.budget < $1.budget }
            .filter { $0.summary.falsePerHour != nil && $0.summary.recall != nil }
        let fills = svg.withClass("tradeoff-point").map { $0["fill"] ?? "" }
        #expect(fills == drawn.map { $0.metBudget ? TradeoffPlot.colors.curve : "#ffffff" }, "\(fills)")
    }

    /// The budgets' labels of a trade-off plot, after checking that they and the chosen point's
    /// label, as the plot measures them (6.3 px a character and 250 px for the chosen one's,
    /// 14 px a line), lie in the frame and clear of each other.
    static func budgetLabelsInTheFrameAndApart(_ svg: SVGElements) throws -> [String] {
        let frame = try #require(svg.withClass("frame").first)
        let left = try #require(frame["x"].flatMap(Double.init)), top = try #require(frame["y"].flatMap(Double.init))
        let right = left + (try #require(frame["width"].flatMap(Double.init)))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        let labels = texts.filter { $0.1.hasPrefix("budget ≤ ") || $0.1.hasPrefix("chosen: recall ") }.map { attributes, text in
            (text: text, x: attributes["x"].flatMap(Double.init) ?? .nan, y: attributes["y"].flatMap(Double.init) ?? .nan,
             width: text.hasPrefix("chosen") ? 250 : Double(text.count) * 6.3)
        }
        #expect(labels.contains { $0.text.hasPrefix("chosen") })
        for (index, a) in labels.enumerated() {
            #expect(a.x >= left && a.x + a.width <= right && a.y - 12 >= top, "'\(a.text)' at \(a.x), \(a.y)")
            for b in labels[(index + 1)...] {
                #expect(abs(a.y - b.y) >= 14 || a.x + a.width <= b.x || b.x + b.width <= a.x, "'\(a.text)' and '\(b.text)'")
            }
        }
        return labels.map(\.text).filter { $0.hasPrefix("budget ≤ ") }
    }

    /// Budgets whose points fall on one place share one label naming them (`budget ≤ 1 to 5/h:
    /// recall 1.000`); the labels lie in the frame and clear of each other.
    @Test func tradeoffLabelsAreOnePerPlaceInTheFrameAndApart() throws {
        let (_, svg) = try Self.tradeoffSVG()
        var places: [(x: Double, y: Double)] = []
        for point in svg.withClass("tradeoff-point") {
            let (x, y) = (point["cx"].flatMap(Double.init) ?? .nan, point["cy"].flatMap(Double.init) ?? .nan)
            if !places.contains(where: { abs($0.x - x) < 1 && abs($0.y - y) < 1 }) { places.append((x, y)) }
        }
        let labels = try Self.budgetLabelsInTheFrameAndApart(svg)
        #expect(places.count < svg.withClass("tradeoff-point").count, "some budgets share a place")
        #expect(labels.count == places.count, "\(labels)")
        #expect(labels.contains { $0.contains(" to ") }, "\(labels)")
    }

    /// Budgets' points a few pixels apart at recall 0.5, the last at the axis's far end: their
    /// labels stack clear of each other inside the frame, and the recall axis starts below 0.5,
    /// so no point sits on the frame's bottom edge.
    @Test func crowdedTradeoffLabelsStackInTheFrame() throws {
        var (result, _) = try Self.tradeoffSVG()
        let budgets = result.tradeoff.map(\.budget).sorted()
        // The largest figure on the false-shake axis; a point every 1 % of it is about 7 px on.
        let largest = ([result.inSample.falsePerHour, result.crossValidation?.pooled.falsePerHour,
                        result.referenceSummary.falsePerHour].compactMap { $0 } + budgets).max() ?? 1
        for index in result.tradeoff.indices {
            let rank = Double(budgets.firstIndex(of: result.tradeoff[index].budget) ?? 0)
            result.tradeoff[index].summary.recall = 0.5
            result.tradeoff[index].summary.falsePerHour = rank == Double(budgets.count - 1) ? largest : rank * largest / 100
        }
        let svg = try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg()))
        let labels = try Self.budgetLabelsInTheFrameAndApart(svg)
        #expect(labels.count == result.tradeoff.count, "\(labels) for \(result.tradeoff.map(\.budget))")
        let frame = try #require(svg.withClass("frame").first)
        let bottom = (try #require(frame["y"].flatMap(Double.init))) + (try #require(frame["height"].flatMap(Double.init)))
        let ys = svg.withClass("tradeoff-point").compactMap { $0["cy"].flatMap(Double.init) }
        #expect(ys.count == result.tradeoff.count)
        for y in ys { #expect(y < bottom - 4.5, "a point at y \(y), the frame's bottom at \(bottom)") }
    }
}

extension PlotTests {
    /// A recording that stops mid-motion: the shake in progress at its last sample is cancelled
    /// there (as `shake replay` reports it), and the ongoing motion of a walk still going runs
    /// to the last sample.
    @Test func detectorViewClosesWhatTheLastSampleLeavesOpen() throws {
        // The planted shake runs from 2 to 3.5 s; cut at 3.2 s, it has begun.
        let shake = PlantedMotion.motion(shakes: 1, distractors: 0).samples.filter { $0.time <= 3.2 }
        let events = RecordingPlot.detectorView(shake, configuration: .medium).events
        #expect(events.map(\.phase) == [.began, .cancelled], "\(events)")
        #expect(events.last?.time == shake.last?.time)
        // A walk from 2 s, cut at 20 s: ongoing motion from its fifth second to the end.
        let walk = PlotLabelOverlapTests.sway(seconds: 30).filter { $0.time <= 20 }
        let spans = RecordingPlot.ongoingMotion(walk, configuration: .medium)
        #expect(spans.count == 1 && spans.last?.upperBound == walk.last?.time, "\(spans)")
    }

    /// A budget of exactly `budgetAxisFactor` times the largest figure drawn is still drawn to
    /// scale, as its dashed line; any more and a note names it instead.
    @Test(arguments: [1.0, 1.001])
    func aBudgetAtTheAxisFactorIsDrawnToScale(share: Double) throws {
        var (result, _) = try Self.tradeoffSVG()
        var figures = result.tradeoff.compactMap(\.summary.falsePerHour) + result.tradeoff.map(\.budget)
        figures += [result.inSample.falsePerHour, result.crossValidation?.pooled.falsePerHour,
                    result.referenceSummary.falsePerHour].compactMap { $0 }
        result.maximumFalsePerHour = share * TradeoffPlot.budgetAxisFactor * max(1, figures.max() ?? 1)
        let svg = try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg()))
        #expect(svg.withClass("budget-line").count == (share == 1 ? 1 : 0))
        #expect(svg.withClass("budget-off-axis").count == (share == 1 ? 0 : 1))
    }
}

extension PlotTests {
    /// Two budgets' points make a curve (a path through both); the untuned reference at recall
    /// 1 has its label below it, inside the frame; the cross-validated point at the axis's far
    /// end has its label (about 290 px) kept inside the frame.
    @Test func tradeoffCurveAndLabelsAtTheEdges() throws {
        var (result, _) = try Self.tradeoffSVG()
        let budgets = result.tradeoff.map(\.budget).sorted()
        for index in result.tradeoff.indices where result.tradeoff[index].budget > budgets[1] {
            result.tradeoff[index].summary.recall = nil
        }
        result.referenceSummary.recall = 1
        let largest = ([result.inSample.falsePerHour, result.referenceSummary.falsePerHour].compactMap { $0 } + budgets).max() ?? 1
        result.crossValidation?.pooled.falsePerHour = largest
        let svg = try #require(SVGElements.parse(TradeoffPlot(result: result, title: "trade-off").svg()))
        #expect(svg.withClass("tradeoff-point").count == 2 && svg.withClass("curve").count == 1)
        let frame = try #require(svg.withClass("frame").first)
        let left = try #require(frame["x"].flatMap(Double.init)), top = try #require(frame["y"].flatMap(Double.init))
        let right = left + (try #require(frame["width"].flatMap(Double.init)))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        let reference = try #require(texts.first { $0.1.hasPrefix("medium, not tuned: recall ") }?.0)
        #expect((reference["y"].flatMap(Double.init) ?? 0) - 12 >= top, "\(reference)")
        let validated = try #require(texts.first { $0.1.hasPrefix("cross-validated: recall ") }?.0)
        #expect((validated["x"].flatMap(Double.init) ?? .infinity) + 290 <= right, "\(validated)")
    }
}
