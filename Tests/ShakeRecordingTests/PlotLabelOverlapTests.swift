import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

extension SVGElements {
    /// A label drawn over the panels and the box it covers, as a reader measures it: the texts
    /// with a white halo (thresholds, saturation, notes, events, pauses), 0.62 em a character,
    /// 0.8 em up and 0.25 em down from the baseline, 1.5 px of halo on every side.
    struct LabelBox {
        var text: String
        var minX: Double, maxX: Double, minY: Double, maxY: Double

        func overlaps(_ other: LabelBox) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }

    var haloedLabels: [LabelBox] {
        zip(elements.filter { $0.name == "text" }.map(\.attributes), texts).compactMap { attributes, text in
            guard attributes["stroke"] == "#ffffff", let x = attributes["x"].flatMap(Double.init),
                  let baseline = attributes["y"].flatMap(Double.init),
                  let size = attributes["font-size"].flatMap(Double.init) else { return nil }
            let width = Double(text.count) * 0.62 * size
            let start = switch attributes["text-anchor"] {
            case "end": x - width
            case "middle": x - width / 2
            default: x
            }
            return LabelBox(text: text, minX: start - 1.5, maxX: start + width + 1.5,
                            minY: baseline - 0.8 * size - 1.5, maxY: baseline + 0.25 * size + 1.5)
        }
    }

    /// The texts drawn upright with their anchor inside a panel's frame (`rect.frame`): the labels
    /// over the curves, found by where they are, with their halo or without it (tick labels,
    /// titles and the legend lie outside the frames).
    var textsOverThePanels: [(text: String, haloed: Bool)] {
        let frames = withClass("frame", element: "rect").compactMap { frame -> (x: ClosedRange<Double>, y: ClosedRange<Double>)? in
            guard let x = frame["x"].flatMap(Double.init), let y = frame["y"].flatMap(Double.init),
                  let width = frame["width"].flatMap(Double.init), let height = frame["height"].flatMap(Double.init)
            else { return nil }
            return (x...(x + width), y...(y + height))
        }
        return zip(elements.filter { $0.name == "text" }.map(\.attributes), texts).compactMap { attributes, text in
            guard attributes["transform"] == nil, let x = attributes["x"].flatMap(Double.init),
                  let y = attributes["y"].flatMap(Double.init),
                  frames.contains(where: { $0.x.contains(x) && $0.y.contains(y) }) else { return nil }
            return (text, attributes["stroke"] == "#ffffff")
        }
    }

    /// How many labels the plot has, found by their words and classes, halo or not: the events'
    /// (`began 8.40 s`), the thresholds' (`onset 10 m/s²`; the legend names them without a
    /// value), the sensor saturation's, the pauses' and the notes.
    var labelsByTheirWords: Int {
        let thresholds = texts.filter { ($0.hasPrefix("onset ") || $0.hasPrefix("release ")) && $0.hasSuffix(" m/s²") }
        let notes = ["half-waves-omitted", "sample-gaps-unshaded", "events-unlabelled", "thresholds-unlabelled"]
            .map { withClass($0, element: "text").count }.reduce(0, +)
        return texts.filter(PlotEventLabelTests.isEventLabel).count + thresholds.count
            + texts.filter { $0.hasPrefix("sensor saturation ±") }.count
            + withClass("sample-gap-label", element: "text").count + notes
    }

    /// Every label over the panels is drawn with its halo, and so is found by `haloedLabels` and
    /// checked for overlaps (a label drawn without it would drop out of the check), and no text
    /// elsewhere has one: the labels checked are the labels over the panels. `expected` is the
    /// number of labels the plot should have.
    func expectEveryLabelHaloed(_ expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let over = textsOverThePanels
        #expect(over.filter { !$0.haloed }.isEmpty, "drawn without a halo: \(over.filter { !$0.haloed }.map(\.text))",
                sourceLocation: sourceLocation)
        #expect(haloedLabels.map(\.text) == over.filter(\.haloed).map(\.text), "haloed texts off the panels",
                sourceLocation: sourceLocation)
        #expect(over.count == expected, "\(over.count) labels, not \(expected): \(over.map(\.text))",
                sourceLocation: sourceLocation)
    }

    /// Every pair of haloed labels whose boxes overlap, as text for an expectation's message.
    var overlappingLabels: [String] {
        let labels = haloedLabels
        var pairs: [String] = []
        for (index, a) in labels.enumerated() {
            for b in labels[(index + 1)...] where a.overlaps(b) { pairs.append("'\(a.text)' and '\(b.text)'") }
        }
        return pairs
    }
}

/// The labels `shake plot` places (thresholds, sensor saturation, notes, event labels, pauses)
/// are drawn clear of each other, however crowded the plot.
@Suite struct PlotLabelOverlapTests {
    /// A walk-like sway along x at `hertz` Hz (10 m/s², with a harmonic: |l| peaks near 12 m/s²)
    /// for `seconds` s at 100 Hz, standing still 2 s before and after.
    static func sway(seconds: Double, hertz: Double = 2) -> [Sample] {
        (0..<Int((seconds + 4) * 100)).map { index in
            let t = Double(index) / 100
            let moving = t > 2 && t < seconds + 2
            let x = moving ? 10 * sin(2 * .pi * hertz * t) + 2.5 * sin(4 * .pi * hertz * t + 0.3) : 0
            return Sample(time: t, x: x, y: 0.3 * x, z: 9.81)
        }
    }

    /// Absurd thresholds on a long walk drawn whole (a review's probe: onset 1.2 and release 0.6
    /// m/s² on one of dev's Oxford walks): over a thousand half-waves, so a note at the panel's
    /// lower left says they are too many to draw, and the release line runs through it with the
    /// curve crossing it everywhere. Its label had been drawn over the note.
    @Test func aThresholdLabelKeepsClearOfTheNotes() throws {
        var configuration = ShakeConfiguration.medium
        configuration.onsetAcceleration = 1.2
        configuration.releaseAcceleration = 0.6
        let samples = Self.sway(seconds: 200, hertz: 3)
        let view = RecordingPlot.detectorView(samples, configuration: configuration)
        #expect(view.halfWaves.count > RecordingPlot.maximumHalfWavesDrawn)
        var plot = RecordingPlot(title: "walk.csv", samples: samples, events: view.events,
                                 thresholds: RecordingPlot.thresholds(of: configuration))
        plot.linear = view.linear
        plot.halfWaves = view.halfWaves
        plot.ongoingMotion = view.ongoingMotion
        let svg = try #require(SVGElements.parse(plot.svg()))
        #expect(svg.texts.contains { $0.contains("half-waves in view") })
        // Each threshold is told: by its label, or in a note.
        let labels = svg.haloedLabels.map(\.text)
        for threshold in ["onset 1.2 m/s²", "release 0.6 m/s²"] {
            #expect(labels.contains { $0.contains(threshold) }, "\(threshold): \(labels)")
        }
        svg.expectEveryLabelHaloed(svg.labelsByTheirWords)
        #expect(svg.overlappingLabels.isEmpty, "\(svg.overlappingLabels)")
    }

    /// A pause near the end of the view, under the sensor saturation's label (a saturation of
    /// 27 m/s² drawn near the raw panel's top): the pause's label ('no samples, 3.5 s') had been
    /// drawn at the band's top whatever lay there.
    @Test func aPauseLabelKeepsClearOfTheSaturationLabel() throws {
        let samples = stride(from: 0.0, to: 20, by: 0.02).filter { !($0 > 15.5 && $0 < 19) }.map { t in
            Sample(time: t, x: 22 * sin(3 * t), y: 0, z: 9.81)
        }
        var plot = RecordingPlot(title: "pause.csv", samples: samples, thresholds: RecordingPlot.thresholds(of: .medium))
        plot.saturation = 27
        let svg = try #require(SVGElements.parse(plot.svg()))
        let labels = svg.haloedLabels.map(\.text)
        #expect(labels.contains("no samples, 3.5 s") && labels.contains("sensor saturation ±27 m/s²"), "\(labels)")
        // Those two and the medium preset's onset and release, each on its line.
        #expect(svg.labelsByTheirWords == 4)
        svg.expectEveryLabelHaloed(4)
        #expect(svg.overlappingLabels.isEmpty, "\(svg.overlappingLabels)")
    }
}

extension PlotLabelOverlapTests {
    /// The event layouts of `PlotEventLabelTests` (bursts, shakes 1 to 6 s apart, in all rows)
    /// on a minute at rest with the medium preset's thresholds, whose lines run by the rows of
    /// event labels: every label clear of the others, and each threshold told, by its label or
    /// in a note.
    @Test(arguments: PlotEventLabelTests.layouts.indices)
    func thresholdLabelsKeepClearOfTheEventLabels(layout: Int) throws {
        var plot = RecordingPlot(title: "rest.csv", samples: PlotEventLabelTests.rest,
                                 events: PlotEventLabelTests.layouts[layout])
        plot.thresholds = RecordingPlot.thresholds(of: .medium)
        let svg = try #require(SVGElements.parse(plot.svg()))
        svg.expectEveryLabelHaloed(svg.labelsByTheirWords)
        #expect(svg.overlappingLabels.isEmpty, "\(svg.overlappingLabels)")
        let labels = svg.haloedLabels.map(\.text)
        for threshold in ["onset 10 m/s²", "release 5 m/s²"] {
            #expect(labels.contains { $0.contains(threshold) }, "\(threshold): \(labels)")
        }
    }
}

extension PlotLabelOverlapTests {
    /// What counts as a curve crossing a label's box (x 10 to 20, y 0 to 10): a segment passing
    /// through it with both its points outside, and a curve's lone point (a dot) inside it; a
    /// segment beside it does not.
    @Test(arguments: [([(0.0, 5.0), (30, 5)], 1), ([(15, 5)], 1), ([(0, 20), (30, 20)], 0), ([(25, 5)], 0)]
          as [([(Double, Double)], Int)])
    func aLabelsBoxIsCrossedByWhatPassesThroughIt(points: [(Double, Double)], crossings: Int) {
        let box = PlotLabelBox(minX: 10, maxX: 20, minY: 0, maxY: 10)
        #expect(box.crossings(byPolyline: points.map { (x: $0.0, y: $0.1) }, atMost: 5) == crossings)
        #expect(box.isCrossed(byPolyline: points.map { (x: $0.0, y: $0.1) }) == (crossings > 0))
    }
}
