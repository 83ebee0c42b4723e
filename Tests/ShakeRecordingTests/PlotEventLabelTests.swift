import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

/// The event labels of `shake plot` as a reader sees them: read back from the SVG's text
/// elements and markers, measured as the plot measures text (0.62 em a character).
@Suite struct PlotEventLabelTests {
    /// One minute at rest, 50 Hz: 1102 px for 60 s, about 18.4 px a second.
    static let rest = (0..<3000).map { Sample(time: Double($0) / 50, x: 0, y: 0, z: 9.81) }

    static func event(_ phase: ShakeEvent.Phase, _ time: Double) -> ShakeEvent {
        ShakeEvent(phase: phase, time: time, startTime: time - 0.5, endTime: time, peakAcceleration: 20,
                   reversals: 4, dominantAxis: .x, cancellationReason: phase == .cancelled ? .gap : nil)
    }

    struct Drawn {
        var labels: [(text: String, minX: Double, maxX: Double, baseline: Double)]
        /// Marker centres by row (the y of the marker's path).
        var markers: [(x: Double, row: String)]
        var note: String?
    }

    static func draw(_ events: [ShakeEvent]) throws -> Drawn {
        var plot = RecordingPlot(title: "rest.csv", samples: rest, events: events)
        plot.thresholds = RecordingPlot.thresholds(of: .medium)
        let svg = try #require(SVGElements.parse(plot.svg()))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        let labels = texts.filter { isEventLabel($0.1) }.map { attributes, text in
            let x = Double(attributes["x"] ?? "") ?? .nan
            let width = Double(text.count) * 0.62 * 11
            let minX = attributes["text-anchor"] == "end" ? x - width : x
            return (text, minX, minX + width, Double(attributes["y"] ?? "") ?? .nan)
        }
        var markers: [(x: Double, row: String)] = []
        for phase in ["began", "ended", "cancelled"] {
            for path in svg.withClass("event-\(phase)") {
                // Each marker's path starts at its left corner, 7 px (5 for ✕) left of its centre.
                let start = path["d"]?.dropFirst().split(separator: ",").first.flatMap { Double($0) } ?? .nan
                markers.append((start + (phase == "cancelled" ? 5 : 7), phase))
            }
        }
        return Drawn(labels: labels, markers: markers, note: texts.first { $0.0["class"] == "events-unlabelled" }?.1)
    }

    /// `began 8.40 s`, `cancelled 3.10 s (gap)`, `3 began, 10.00 to 10.40 s`.
    static func isEventLabel(_ text: String) -> Bool {
        let words = text.drop { $0.isNumber || $0 == " " }.split(separator: " ")
        return ["began", "ended", "cancelled", "began,", "ended,", "cancelled,"].contains(words.first.map(String.init) ?? "")
            && (text.hasSuffix(" s") || text.hasSuffix(")"))
    }

    /// How many events a label stands for: `began 8.40 s` one, `3 began, 10.00 to 10.40 s` three.
    static func count(_ label: String) -> Int {
        label.first?.isNumber == true ? Int(label.prefix { $0.isNumber }) ?? 0 : 1
    }

    static func row(_ label: String) -> String {
        label.split(separator: " ").first { $0.first?.isLetter == true }.map { String($0.filter(\.isLetter)) } ?? ""
    }

    /// Runs of events at different spacings (a Seismic burst every 0.2 s, shakes 1 to 6 s apart,
    /// some at the recording's end where labels turn to the left of their markers), in all rows.
    static let layouts: [[ShakeEvent]] = {
        var layouts: [[ShakeEvent]] = []
        for spacing in [0.2, 0.9, 2.5, 3.4, 4.6, 5.2, 6.1] {
            let times = stride(from: 2.0, through: 59.9, by: spacing).map { $0 }
            layouts.append(times.map { event(.began, $0) } + times.map { event(.ended, $0 + 0.4) }
                           + times.enumerated().filter { $0.offset % 3 == 0 }.map { event(.cancelled, $0.element + 0.2) })
        }
        // The review's case: a burst, a shake after it whose label had been measured without the
        // burst's ", N more just before", and two near the end turned left over the others.
        layouts.append([10.0, 10.2, 10.4, 15.0, 21.0, 55.0, 57.5, 59.9].map { event(.began, $0) })
        // Markers within half a pixel of each other (0.01 s is 0.18 px; an hour drawn whole puts
        // shakes 1.5 s apart there): each one's label had been drawn over the one before.
        layouts.append([30.0, 30.01, 30.02].map { event(.began, $0) } + [40.0, 40.0, 40.0].map { event(.ended, $0) })
        return layouts
    }()

    /// Whatever the spacing, no two labels overlap (their whole final text, wherever they are
    /// drawn, to the left of a marker or its right), none covers a marker of its row or runs
    /// out of the panel, and every marker is told: by a label, or in the note's count.
    @Test(arguments: layouts.indices)
    func labelsNeverOverlapAndEveryMarkerIsTold(layout: Int) throws {
        let drawn = try Self.draw(Self.layouts[layout])
        // A marker for each event in the recording's time (an `ended` 0.4 s after a `began` at
        // 59.9 s falls after its last sample, at 59.98 s, and is not drawn).
        let inTime = Self.layouts[layout].filter { $0.time <= Self.rest.last!.time }
        #expect(drawn.markers.count == inTime.count, "\(drawn.markers.count) markers drawn for \(inTime.count) events")
        for (index, a) in drawn.labels.enumerated() {
            #expect(a.minX >= 78 && a.maxX <= 1180, "\(a.text) at \(a.minX)...\(a.maxX)")
            for b in drawn.labels[(index + 1)...] where a.baseline == b.baseline {
                #expect(a.maxX + 3 <= b.minX || b.maxX + 3 <= a.minX, "'\(a.text)' and '\(b.text)' overlap")
            }
            for marker in drawn.markers where marker.row == Self.row(a.text) {
                #expect(marker.x + 7 <= a.minX || a.maxX <= marker.x - 7, "'\(a.text)' covers the marker at \(marker.x)")
            }
        }
        let told = drawn.labels.map { Self.count($0.text) }.reduce(0, +)
        let untold = drawn.note.map { Int($0.prefix { $0.isNumber }) ?? -1 } ?? 0
        #expect(told + untold == drawn.markers.count, "\(drawn.labels.map(\.text)) \(drawn.note ?? "")")
    }

    /// A burst shares one label naming its count and its first and last times; an event on its
    /// own keeps its own label.
    @Test func burstIsLabelledWithItsCountAndTimes() throws {
        let drawn = try Self.draw([10.0, 10.2, 10.4, 16.0].map { Self.event(.began, $0) })
        #expect(drawn.labels.map(\.text) == ["3 began, 10.00 to 10.40 s", "began 16.00 s"])
        #expect(drawn.note == nil)
    }

    /// Events in a chain, each within a label's width of the next, over 12 s: a label gathers
    /// only the events whose own labels would collide with its first's, never the whole chain.
    @Test func aChainIsNotGatheredIntoOneLabel() throws {
        let times = stride(from: 10.0, through: 22.0, by: 1.5).map { $0 }
        let drawn = try Self.draw(times.map { Self.event(.began, $0) })
        let pixelsPerSecond = 1102.0 / (Self.rest.last!.time - Self.rest.first!.time)
        for label in drawn.labels where Self.count(label.text) > 1 {
            let numbers = label.text.split(separator: " ").dropFirst().compactMap { Double($0) }
            let span = try #require(numbers.count == 2 ? (numbers[1] - numbers[0]) * pixelsPerSecond : nil)
            // A plain label ('began 10.00 s') is 13 characters; the next marker's half-width is 7 px.
            let reach: Double = 9 + 13 * 0.62 * 11 + 7
            #expect(span < reach, "'\(label.text)' gathers \(span) px")
        }
        #expect(drawn.labels.count > 1, "\(drawn.labels.map(\.text))")
    }
}

extension PlotEventLabelTests {
    /// A group's label names its time once when all its events share it (`2 began, at 30.00 s`),
    /// and each reason of cancellation once (`2 cancelled, 10.00 to 10.10 s (gap)`). Three
    /// markers a few pixels apart: the middle one has room for no label of its own.
    @Test func groupLabelsSayEachTimeAndReasonOnce() throws {
        let drawn = try Self.draw([10, 10.1, 10.2].map { Self.event(.cancelled, $0) } + [30, 30, 30].map { Self.event(.began, $0) })
        let texts = drawn.labels.map(\.text)
        #expect(texts.contains("2 began, at 30.00 s"), "\(texts)")
        let cancelled = texts.filter { $0.hasPrefix("2 cancelled, ") }
        #expect(cancelled.count == 1 && cancelled.allSatisfy { $0.hasSuffix("0 s (gap)") }, "\(texts)")
    }
}

extension PlotEventLabelTests {
    /// On a plot 400 px wide (302 px for 60 s, 5 px a second), a cancellation's label
    /// ('cancelled 4.00 s (gap)', about 165 px with its gap to the marker) fits beside a marker
    /// only with that much room to the panel's edge and the next marker: one at 4 s has none
    /// (the next is 100 px on, and a shared label would not fit either), one at 24 s has it on
    /// its right. Markers at 20, 40 and 60 s have none. The note counts them, in the singular
    /// for one.
    @Test(arguments: [([4.0, 24], "1 event marker without a label: no room beside it (choose a shorter --from/--to)"),
                      ([20, 40, 59.9], "3 event markers without a label: no room beside them (choose a shorter --from/--to)")])
    func unlabelledMarkersAreCountedInANote(times: [Double], note: String) throws {
        var plot = RecordingPlot(title: "rest.csv", samples: Self.rest, events: times.map { Self.event(.cancelled, $0) })
        plot.width = 400
        let svg = try #require(SVGElements.parse(plot.svg()))
        let texts = zip(svg.elements.filter { $0.name == "text" }.map(\.attributes), svg.texts)
        #expect(texts.first { $0.0["class"] == "events-unlabelled" }?.1 == note, "\(svg.texts)")
    }
}
