import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

/// A pause in the samples longer than the detector's gap limit, as `shake plot` draws it: a break
/// in every curve, not a line straight across, and a band that says how long it lasted.
@Suite struct PlotGapTests {
    /// 20 s of a slow sway at `rate` Hz with no samples from 8 s to 8 s + `pause`.
    static func recording(rate: Double, pause: Double) -> [Sample] {
        stride(from: 0.0, to: 20, by: 1 / rate).filter { !($0 > 8 && $0 < 8 + pause) }.map { t in
            Sample(time: t, x: 3 * sin(3 * t), y: 0, z: 9.81 + 2 * cos(t))
        }
    }

    /// The pieces of a path (`M … L …` each), as the x of their points.
    static func pieces(_ d: String) -> [[Double]] {
        d.split(separator: "M").map { piece in
            piece.split(separator: "L").compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
        }
    }

    /// Drawn point by point (50 Hz) and as pixel columns (400 Hz: 8,000 samples), the pause from
    /// 8 to 13 s is no line in any curve, and a band over it says 'no samples, 5.0 s'.
    @Test(arguments: [50.0, 400.0])
    func pauseOverTheGapLimitBreaksEveryCurve(rate: Double) throws {
        let samples = Self.recording(rate: rate, pause: 5)
        var plot = RecordingPlot(title: "pause.csv", samples: samples, thresholds: RecordingPlot.thresholds(of: .medium))
        plot.linear = RecordingPlot.detectorView(samples, configuration: .medium).linear
        let svg = try #require(SVGElements.parse(plot.svg()))
        // 1102 px for 20 s: the pause runs from x = 78 + 8 × 55.1 to 78 + 13 × 55.1.
        let (gapStart, gapEnd) = (78 + 8 * 55.1, 78 + 13 * 55.1)
        let series = svg.withClass("series", element: "path")
        #expect(series.count == 4)
        for path in series {
            for piece in Self.pieces(path["d"] ?? "") {
                let across = piece.contains { $0 < gapStart + 1 } && piece.contains { $0 > gapEnd - 1 }
                #expect(!across, "\(path["class"] ?? ""): a line across the pause")
            }
        }
        let band = try #require(svg.withClass("sample-gap").first)
        let x = try #require(band["x"].flatMap(Double.init)), width = try #require(band["width"].flatMap(Double.init))
        #expect(abs(x - gapStart) < 2 && abs(x + width - gapEnd) < 2, "band \(x), \(width)")
        #expect(svg.texts.contains("no samples, 5.0 s"))
        #expect(svg.texts.contains("no samples"), "the legend names the bands")
    }

    /// A pause too short on screen for its band's own label (0.6 s of 20 s: 33 px) is still
    /// named: the legend has an entry for the bands.
    @Test func aNarrowPauseIsNamedInTheLegend() throws {
        let samples = Self.recording(rate: 50, pause: 0.6)
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "pause.csv", samples: samples).svg()))
        #expect(svg.withClass("sample-gap").count == 1)
        #expect(!svg.texts.contains { $0.hasPrefix("no samples, ") })
        #expect(svg.texts.contains("no samples"))
    }

    /// A pause within the gap limit (0.4 s, under the default 0.5 s) is drawn joined, as the
    /// detector reads across it.
    @Test func pauseWithinTheGapLimitStaysJoined() throws {
        let samples = Self.recording(rate: 50, pause: 0.4)
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "pause.csv", samples: samples).svg()))
        let series = svg.withClass("series", element: "path")
        #expect(series.count == 4, "x, y, z and the linear acceleration drawn")
        for path in series {
            #expect(Self.pieces(path["d"] ?? "").count == 1)
        }
        #expect(svg.withClass("sample-gap").isEmpty)
        #expect(!svg.texts.contains("no samples"), "no legend entry without a band")
    }
}

extension PlotGapTests {
    /// Up to `maximumGapsShaded` pauses are shaded and named in the legend; with one more, none
    /// is, and a note says how many breaks the curves have. A sample every 0.6 s, each interval
    /// over the 0.5 s limit.
    @Test(arguments: [RecordingPlot.maximumGapsShaded, RecordingPlot.maximumGapsShaded + 1])
    func pausesAreShadedUpToTheLimit(pauses: Int) throws {
        let samples = (0...pauses).map { Sample(time: Double($0) * 0.6, x: 0, y: 0, z: 9.81) }
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "sparse.csv", samples: samples).svg()))
        let shaded = pauses <= RecordingPlot.maximumGapsShaded
        #expect(svg.withClass("sample-gap").count == (shaded ? pauses : 0))
        #expect(svg.texts.contains("no samples") == shaded)
        #expect(svg.withClass("sample-gaps-unshaded", element: "text").count == (shaded ? 0 : 1))
    }

    /// A view that starts or ends inside the pause from 8 to 13 s shades it from the frame's
    /// edge: the pause around the first or last sample drawn is shaded too.
    @Test(arguments: [(10.0, 20.0), (0.0, 10.0)])
    func aPauseAtTheViewsEdgeIsShaded(from: Double, to: Double) throws {
        var plot = RecordingPlot(title: "pause.csv", samples: Self.recording(rate: 50, pause: 5))
        plot.from = from
        plot.to = to
        let svg = try #require(SVGElements.parse(plot.svg()))
        let (left, right) = try PlotTests.frameEdges(svg)
        let bands = svg.withClass("sample-gap").map(PlotTests.edges)
        #expect(bands.count == 1, "\(bands)")
        // 1102 px for 10 s: the pause's other end, 13 s or 8 s, at 3 s from the frame's edge.
        let band = try #require(bands.first)
        let expected = from == 10 ? (left, left + 3 * 110.2) : (left + 8 * 110.2, right)
        // Within a sample (0.02 s, 2.2 px) of the pause's ends.
        #expect(abs(band.left - expected.0) < 2.5 && abs(band.right - expected.1) < 2.5, "\(band), not \(expected)")
    }

    /// Drawn as pixel columns (5,000 samples over 1000 s: 0.9 s a column), a pause of 0.6 s
    /// whose two ends fall in one column leaves every curve joined: no break within a pixel.
    @Test func aPauseWithinOnePixelColumnStaysJoined() throws {
        // The column of 500.2 s and of 500.8 s: 500.2 / 1000 × 1102 = 551.2, 500.8 → 551.9.
        let samples = (0...5000).map { Double($0) / 5 }.filter { !($0 > 500.3 && $0 < 500.7) }.map { t in
            Sample(time: t, x: 3 * sin(3 * t), y: 0, z: 9.81)
        }
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "long.csv", samples: samples).svg()))
        #expect(svg.withClass("sample-gap").count == 1, "the pause is shaded")
        for path in svg.withClass("series", element: "path") {
            #expect(Self.pieces(path["d"] ?? "").count == 1, "\(path["class"] ?? "")")
        }
    }

    /// A sample alone between two pauses is drawn as a dot: a line of no length from it to itself.
    @Test func aSampleBetweenTwoPausesIsADot() throws {
        let samples = (Self.recording(rate: 10, pause: 5) + [Sample(time: 10.5, x: 1, y: 0, z: 9.81)]).sorted { $0.time < $1.time }
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "dot.csv", samples: samples).svg()))
        let path = try #require(svg.withClass("series-x", element: "path").first?["d"])
        let pieces = Self.pieces(path)
        #expect(pieces.count == 3, "\(pieces.map(\.count))")
        if pieces.count == 3 { #expect(pieces[1].count == 2 && pieces[1][0] == pieces[1][1], "\(pieces[1])") }
    }
}

extension PlotGapTests {
    /// A pause's band holds its label ('no samples, 1.8 s', 17 characters: 116 px, with 6 px
    /// to spare) only when it is wide enough: 1.8 s of 20 s (99 px) is not, 2.5 s (138 px) is.
    @Test(arguments: [(1.8, false), (2.5, true)])
    func aPauseIsLabelledWhereItsBandHoldsTheLabel(pause: Double, labelled: Bool) throws {
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "pause.csv", samples: Self.recording(rate: 50, pause: pause)).svg()))
        #expect(svg.withClass("sample-gap").count == 1)
        #expect(svg.withClass("sample-gap-label", element: "text").count == (labelled ? 1 : 0), "\(svg.texts)")
    }

    /// A pause's label keeps off the sensor saturation's line where a lower row is clear of it:
    /// ±27 m/s² on a sway of ±22 puts the line through the band's top row.
    @Test func aPauseLabelKeepsOffTheSaturationLine() throws {
        let samples = Self.recording(rate: 50, pause: 5).map { Sample(time: $0.time, x: 22 * sin(3 * $0.time), y: 0, z: 9.81) }
        var plot = RecordingPlot(title: "pause.csv", samples: samples)
        plot.saturation = 27
        let svg = try #require(SVGElements.parse(plot.svg()))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        let label = try #require(texts.first { $0.0["class"] == "sample-gap-label" }?.0)
        let baseline = try #require(label["y"].flatMap(Double.init))
        let lines = svg.withClass("saturation", element: "line").compactMap { $0["y1"].flatMap(Double.init) }
        let frameTop = try #require(svg.withClass("frame").first?["y"].flatMap(Double.init))
        #expect(lines.contains { $0 < frameTop + 21 }, "a line through the top row: \(lines)")
        for y in lines {
            #expect(y < baseline - 0.8 * 11 - 1.5 || y > baseline + 0.25 * 11 + 1.5, "the line at \(y), the label at \(baseline)")
        }
    }
}
